// Copyright mxcts authors.
//
// SubmitWork and the waits of device_work.h, over the device timeline.
//
// Tested by device_work_test.cc.

#include "reference/runtime/device_work.h"

#include "reference/runtime/api_entry.h"
#include "reference/runtime/error_mapping.h"
#include "reference/runtime/runtime.h"
#include "reference/runtime/status_macros.h"
#include "reference/runtime/stream.h"

namespace mxcts::runtime {

absl::Status SubmitWork(mcStream_t stream, std::string description,
                        DeviceWork work, HostWait wait) {
  MX_ASSIGN_OR_RETURN(Device * device, StreamDeviceForWork(stream));
  Runtime& runtime = Runtime::Get();
  absl::MutexLock lock(&runtime.execution_mutex());
  MX_RETURN_IF_ERROR(device->CheckUsable());
  mcError_t result = work();
  if (IsStickyError(result)) {
    device->RecordFault(result);
  } else if (result != mcSuccess) {
    return McStatus(result, description + " failed");
  }
  if (wait == HostWait::kUntilDone) {
    Runtime::SynchronizationPoint();
    return device->CheckUsable();
  }
  return absl::OkStatus();
}

absl::Status SynchronizeDevice(int device) {
  Runtime& runtime = Runtime::Get();
  MX_ASSIGN_OR_RETURN(Device * target, runtime.DeviceAt(device));
  absl::MutexLock lock(&runtime.execution_mutex());
  Runtime::SynchronizationPoint();
  return target->CheckUsable();
}

bool HasPendingWork(int) { return false; }

}  // namespace mxcts::runtime
