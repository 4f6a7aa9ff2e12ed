// Copyright mxcts authors.
//
// Remote memory files (remote_file.h). The checks are made around the
// open: the process's start time before and after (so that the file opened
// belongs to the process the handle names, not to a successor under the
// same pid), and the name of the file actually opened, read back through
// /proc/self/fd: a memory file's link reads "/memfd:<name> (deleted)".
//
// Tested by remote_file_test.cc.

#include "reference/runtime/ipc/remote_file.h"

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/timeline/interprocess_event.h"

namespace mxcts::runtime {
namespace {

std::optional<std::string> LinkTarget(const std::string& path) {
  char target[PATH_MAX];
  ssize_t length = readlink(path.c_str(), target, sizeof target - 1);
  if (length < 0) return std::nullopt;
  return std::string(target, static_cast<size_t>(length));
}

}  // namespace

uint64_t ThisProcessStartTime() {
  static const uint64_t start = ProcessStartTime(getpid()).value_or(0);
  return start;
}

bool IsThisProcess(int pid, uint64_t start_time) {
  return pid == getpid() && start_time == ThisProcessStartTime();
}

absl::StatusOr<int> OpenRemoteMemoryFile(int pid, uint64_t start_time, int fd,
                                         const std::string& name) {
  auto exporter_is_live = [&] {
    std::optional<uint64_t> now = ProcessStartTime(pid);
    return now.has_value() && *now == start_time;
  };
  if (!exporter_is_live()) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("the exporting process %d has exited", pid));
  }
  const std::string path = absl::StrCat("/proc/", pid, "/fd/", fd);
  int opened = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (opened < 0) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("the exported memory is gone (process %d "
                                    "has no file %d)",
                                    pid, fd));
  }
  std::optional<std::string> target =
      LinkTarget(absl::StrCat("/proc/self/fd/", opened));
  const std::string expected = absl::StrCat("/memfd:", name, " (deleted)");
  if (!exporter_is_live() || !target.has_value() || *target != expected) {
    close(opened);
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("the exported memory is gone (process "
                                    "%d's file %d is not %s)",
                                    pid, fd, name));
  }
  return opened;
}

}  // namespace mxcts::runtime
