// Copyright mxcts authors.
//
// The wait before a release: every device's queued work runs
// (RunAllPendingWork), then the owner's sticky error, if a fault made one,
// keeps the memory from being released.
//
// Tested by api_memory_timing_test.cc.

#include "reference/runtime/memory_release.h"

#include "reference/runtime/device_work.h"
#include "reference/runtime/runtime.h"
#include "reference/runtime/status_macros.h"

namespace mxcts::runtime {

absl::Status WaitBeforeRelease(int owner) {
  RunAllPendingWork();
  if (owner < 0) return absl::OkStatus();
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().DeviceAt(owner));
  return device->CheckUsable();
}

}  // namespace mxcts::runtime
