// Copyright mxcts authors.
//
// The wait before a release: every device's queued work runs
// (RunAllPendingWork), then the owner's sticky error, if a fault made one,
// keeps the memory from being released.
//
// Tested by api_memory_timing_test.cc.

#include "reference/runtime/memory/memory_release.h"

#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/timeline/device_work.h"

namespace mxcts::runtime {

absl::Status WaitBeforeRelease(int owner) {
  RunAllPendingWork();
  if (owner < 0) return absl::OkStatus();
  MX_ASSIGN_OR_RETURN(Device * device, DeviceTable::Get().DeviceAt(owner));
  return device->CheckUsable();
}

}  // namespace mxcts::runtime
