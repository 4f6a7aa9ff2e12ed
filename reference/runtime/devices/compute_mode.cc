// Copyright mxcts authors.
//
// Compute modes. The prohibited mode is a property check. The
// exclusive-process mode needs a claim other processes can see: an
// exclusive flock(2) on a file per device, taken without blocking on the
// first call that needs the device and kept (the descriptor stays open,
// closed on exec) until the process exits, when the kernel drops it. A
// process that finds the lock held is refused; it tries again at each
// call, so it gets the device once the holder has exited. The outcome per
// device is cached behind one mutex, so a claim is one system call per
// device and process.
//
// Tested by compute_mode_test.cc and the conformance tests of
// api.device.compute-mode.

#include "reference/runtime/devices/compute_mode.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

std::string LockPath(const mcDeviceProp_t& p) {
  const char* directory = std::getenv("TMPDIR");
  if (directory == nullptr || directory[0] == '\0') directory = "/tmp";
  return absl::StrFormat("%s/mxcts-device-%04x-%02x-%02x.lock", directory,
                         p.pciDomainID, p.pciBusID, p.pciDeviceID);
}

// Claims the lock of the device at `path`; OK when this process holds it.
absl::Status ClaimExclusive(const std::string& path, int ordinal) {
  static absl::Mutex mutex(absl::kConstInit);
  static auto* held = new std::map<std::string, int>;  // path -> descriptor
  absl::MutexLock lock(&mutex);
  if (held->count(path) != 0) return absl::OkStatus();
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    return McStatus(mcErrorDevicesUnavailable,
                    absl::StrFormat("device %d is in the exclusive-process "
                                    "compute mode and its lock file %s "
                                    "cannot be opened: %s",
                                    ordinal, path, std::strerror(errno)));
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    close(fd);
    return McStatus(
        mcErrorDevicesUnavailable,
        absl::StrFormat("device %d is in the exclusive-process compute mode "
                        "and another process holds it (%s: %s)",
                        ordinal, path, std::strerror(error)));
  }
  (*held)[path] = fd;
  return absl::OkStatus();
}

}  // namespace

absl::Status ClaimContext(const mcDeviceProp_t& properties, int ordinal) {
  switch (properties.computeMode) {
    case mcComputeModeProhibited:
      // [api.device.compute-mode.prohibited-is-devices-unavailable]
      return McStatus(mcErrorDevicesUnavailable,
                      absl::StrFormat("device %d is in the prohibited compute "
                                      "mode: no context can be created on it",
                                      ordinal));
    case mcComputeModeExclusiveProcess:
      // [api.device.compute-mode.exclusive-process]
      return ClaimExclusive(LockPath(properties), ordinal);
    default:
      return absl::OkStatus();
  }
}

}  // namespace mxcts::runtime
