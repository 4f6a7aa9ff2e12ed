// -----------------------------------------------------------------------------
// File: file_io.h
// -----------------------------------------------------------------------------
//
// The file operations the spec tools share: reading a whole file, writing
// one atomically (a report or index is either the old one or the complete
// new one, never a torn file), listing a directory, and entering the
// directory a user started `bazel run` in.
//
// Example:
//
//   absl::StatusOr<std::string> text = mxcts::spec::ReadFile(path);
//   if (!text.ok()) return text.status();  // names the path and the reason
//   absl::Status written = mxcts::spec::WriteFileAtomically(out, *text);

#ifndef MXCTS_TOOLS_SPEC_FILE_IO_H_
#define MXCTS_TOOLS_SPEC_FILE_IO_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::spec {

// Returns the contents of `path`. Fails with NotFound or another code whose
// message names `path` and the system's reason.
absl::StatusOr<std::string> ReadFile(const std::string& path);

// Writes `contents` to `path` through a temporary file in the same directory
// and a rename, so readers never see a partial file. Fails (leaving any old
// file intact) with a message naming `path`.
absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view contents);

// Creates `path` and its missing parents. Succeeds if it already exists as a
// directory.
absl::Status MakeDirectories(const std::string& path);

// Returns the names (not paths) of the regular files directly in `dir`,
// sorted. Fails with a message naming `dir` if it cannot be read.
absl::StatusOr<std::vector<std::string>> ListFiles(const std::string& dir);

// Returns every regular file below `dir` at any depth whose path ends in one
// of `suffixes`, as paths starting with `dir`, sorted. Symbolic links are
// followed, each directory is visited once (a link loop ends), and dangling
// links are skipped. Fails with NotFound, naming `dir`, if it cannot be read.
absl::StatusOr<std::vector<std::string>> FindFiles(
    const std::string& dir, const std::vector<std::string>& suffixes);

// Makes the directory `bazel run` was started from (BUILD_WORKSPACE_DIRECTORY)
// the current directory, so that relative paths a user typed mean what they
// expect and paths in outputs stay relative. Does nothing when the variable
// is unset (a direct run, or a build action). Fails, naming the directory,
// if it cannot be entered.
absl::Status EnterUserDirectory();

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_FILE_IO_H_
