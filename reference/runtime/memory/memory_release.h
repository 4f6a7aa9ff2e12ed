// Copyright mxcts authors.
//
// reference/runtime/memory/memory_release.h: the wait before memory is
// released.
//
// mcFree, mcFreeHost and mcHostUnregister must not take memory away from
// device work that may still use it [api.sync.host.free-synchronizes]
// [api.memory.free-host.implicit-synchronization]
// [api.memory.host-unregister.waits-for-device-work]. Work that may use an
// allocation can be queued on its own device or, through peer access,
// managed or page-locked memory, on any other, so the wait covers the work
// of every device.
//
//   MX_ASSIGN_OR_RETURN(Allocation a, manager.FindStart(p, kinds, "mcFree"));
//   MX_RETURN_IF_ERROR(WaitBeforeRelease(a.device));
//   return manager.Free(p, kinds, "mcFree");

#ifndef MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_RELEASE_H_
#define MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_RELEASE_H_

#include "absl/status/status.h"

namespace mxcts::runtime {

// Waits until all work queued so far, on every device, has run. Returns
// the sticky error of device `owner` (none if -1) if it has one: its memory
// then stays until mcDeviceReset releases it. Errors of the work that ran
// are not reported here; they stay for the synchronizing calls of their
// devices. Must be called without the execution lock.
absl::Status WaitBeforeRelease(int owner);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_RELEASE_H_
