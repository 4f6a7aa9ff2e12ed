// Copyright mxcts authors.
//
// reference/runtime/memory_release.h: the wait before memory is released.
//
// mcFree, mcFreeHost and mcHostUnregister must not take memory away from
// device work that may still use it [api.sync.host.free-synchronizes]
// [api.memory.free-host.implicit-synchronization]. Work that may use an
// allocation can be queued on its own device or, through peer access,
// managed or page-locked memory, on any other, so the wait covers the
// allocation's device and every device with queued work.
//
//   MX_ASSIGN_OR_RETURN(Allocation a, manager.FindStart(p, kinds, "mcFree"));
//   ReleaseWait wait = WaitBeforeRelease(a.device);
//   if (!wait.may_release) return wait.status;
//   MX_RETURN_IF_ERROR(manager.Free(p, kinds, "mcFree"));
//   return wait.status;

#ifndef MXCTS_REFERENCE_RUNTIME_MEMORY_RELEASE_H_
#define MXCTS_REFERENCE_RUNTIME_MEMORY_RELEASE_H_

#include "absl/status/status.h"

namespace mxcts::runtime {

struct ReleaseWait {
  // OK, or the first error the waits returned: an error of earlier
  // asynchronous work, which the releasing call reports
  // [api.sync.host.sync-calls-report-async-errors].
  absl::Status status;
  // False if `owner` has a sticky error: its memory stays until
  // mcDeviceReset releases it.
  bool may_release = true;
};

// Waits until the work queued on device `owner` (none if -1) and on every
// device with queued work has run. Must be called without the execution
// lock.
ReleaseWait WaitBeforeRelease(int owner);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MEMORY_RELEASE_H_
