// File operations for the spec tools, on std::filesystem and stdio.
//
// The directory walk follows links but visits each directory once, so the
// symbolic links of bazel-testlogs work and a link loop cannot hang it.
//
// Atomic writes go to `<path>.tmp.<pid>` in the target's directory and are
// renamed over the target: rename within one file system replaces the file
// in one step.
//
// Tested by file_io_test.cc.

#include "tools/spec/file_io.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace mxcts::spec {
namespace {

namespace fs = std::filesystem;

absl::Status ErrnoError(const std::string& what, const std::string& path) {
  int error = errno;
  std::string message =
      absl::StrCat(path, ": cannot ", what, ": ", std::strerror(error));
  if (error == ENOENT) return absl::NotFoundError(message);
  if (error == EACCES) return absl::PermissionDeniedError(message);
  return absl::InternalError(message);
}

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return ErrnoError("open", path);
  std::string contents;
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
    contents.append(buffer, count);
  }
  bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return ErrnoError("read", path);
  return contents;
}

absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view contents) {
  std::string temporary = absl::StrCat(path, ".tmp.", getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) return ErrnoError("create", temporary);
  bool ok =
      std::fwrite(contents.data(), 1, contents.size(), file) == contents.size();
  ok = (std::fflush(file) == 0) && ok;
  ok = (fsync(fileno(file)) == 0) && ok;
  ok = (std::fclose(file) == 0) && ok;
  if (!ok) {
    absl::Status status = ErrnoError("write", temporary);
    std::remove(temporary.c_str());
    return status;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    absl::Status status = ErrnoError("replace", path);
    std::remove(temporary.c_str());
    return status;
  }
  return absl::OkStatus();
}

absl::Status MakeDirectories(const std::string& path) {
  std::error_code error;
  fs::create_directories(path, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat(path, ": cannot create directory: ", error.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> ListFiles(const std::string& dir) {
  std::error_code error;
  fs::directory_iterator entries(dir, error);
  if (error) {
    return absl::NotFoundError(
        absl::StrCat(dir, ": cannot list directory: ", error.message()));
  }
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : entries) {
    if (entry.is_regular_file(error)) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

// Adds every regular file below `dir` whose name ends in one of `suffixes`
// to `paths`, following links and visiting each directory (by canonical
// path) once, so a link loop ends; dangling links are skipped.
absl::Status WalkDirectory(const fs::path& dir,
                           const std::vector<std::string>& suffixes,
                           std::set<fs::path>* visited,
                           std::vector<std::string>* paths) {
  std::error_code error;
  fs::path canonical = fs::canonical(dir, error);
  if (error) {
    return absl::NotFoundError(absl::StrCat(
        dir.string(), ": cannot list directory: ", error.message()));
  }
  if (!visited->insert(canonical).second) return absl::OkStatus();
  fs::directory_iterator it(dir, error);
  for (; !error && it != fs::directory_iterator(); it.increment(error)) {
    const fs::path& path = it->path();
    std::error_code status_error;
    fs::file_status status = fs::status(path, status_error);  // follows links
    if (status_error) continue;                               // dangling
    if (fs::is_directory(status)) {
      absl::Status walked = WalkDirectory(path, suffixes, visited, paths);
      if (!walked.ok()) return walked;
    } else if (fs::is_regular_file(status)) {
      for (const std::string& suffix : suffixes) {
        if (absl::EndsWith(path.string(), suffix)) {
          paths->push_back(path.string());
          break;
        }
      }
    }
  }
  if (error) {
    return absl::InternalError(absl::StrCat(
        dir.string(), ": cannot walk directory: ", error.message()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> FindFiles(
    const std::string& dir, const std::vector<std::string>& suffixes) {
  std::set<fs::path> visited;
  std::vector<std::string> paths;
  absl::Status walked = WalkDirectory(dir, suffixes, &visited, &paths);
  if (!walked.ok()) return walked;
  std::sort(paths.begin(), paths.end());
  return paths;
}

absl::Status EnterUserDirectory() {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  if (workspace == nullptr || *workspace == '\0') return absl::OkStatus();
  if (chdir(workspace) != 0) return ErrnoError("enter directory", workspace);
  return absl::OkStatus();
}

}  // namespace mxcts::spec
