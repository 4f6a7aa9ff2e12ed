// Copyright mxcts authors.
//
// The installation is found without resolving symbolic links in a path the
// user gave (they may have reasons for their spelling), but the executable's
// own path comes from /proc/self/exe, which the kernel resolves: a link to
// mxcc elsewhere (a /usr/local/bin/mxcc) still finds the installation that
// holds the real file.
//
// Tested by installation_test.cc.

#include "reference/compiler/driver/installation.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace mxcts::driver {
namespace {

namespace fs = std::filesystem;

std::string Absolute(const std::string& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  std::string text = error ? path : absolute.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

absl::Status CheckFile(const Installation& installation,
                       const std::string& path) {
  std::error_code error;
  if (fs::is_regular_file(path, error)) return absl::OkStatus();
  return absl::NotFoundError(
      absl::StrCat("the MXMACA installation ", installation.root, " (from ",
                   installation.origin, ") has no ", path));
}

}  // namespace

std::string ExecutablePath() {
  char buffer[4096];
  ssize_t length = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (length <= 0) return "";
  return std::string(buffer, static_cast<size_t>(length));
}

absl::StatusOr<Installation> FindInstallation(
    const std::optional<std::string>& flag, const char* environment,
    const std::string& executable) {
  if (flag.has_value()) {
    if (flag->empty())
      return absl::InvalidArgumentError("--maca-path is empty");
    return Installation{Absolute(*flag), "--maca-path"};
  }
  if (environment != nullptr && *environment != '\0') {
    return Installation{Absolute(environment),
                        "the environment variable MACA_PATH"};
  }
  if (executable.empty()) {
    return absl::NotFoundError(
        "cannot find the MXMACA installation: set MACA_PATH or pass "
        "--maca-path");
  }
  // $MACA_PATH/mxgpu_llvm/bin/mxcc
  fs::path root =
      fs::path(executable).parent_path().parent_path().parent_path();
  return Installation{Absolute(root.string()),
                      absl::StrCat("the location of ", executable)};
}

absl::Status CheckHeaders(const Installation& installation) {
  return CheckFile(installation, installation.include_dir() + "/mc_runtime.h");
}

absl::Status CheckDeviceLibrary(const Installation& installation) {
  absl::Status status = CheckFile(installation, installation.device_library());
  if (!status.ok()) return status;
  status = CheckFile(installation, installation.device_version_script());
  if (!status.ok()) return status;
  return CheckFile(installation, installation.device_linker_script());
}

}  // namespace mxcts::driver
