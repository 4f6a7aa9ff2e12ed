// Copyright mxcts authors.
//
// The wait before a release: SynchronizeDevice on the owner and on every
// other device that has work queued. Each wait reports (and so consumes)
// its device's pending error; the first is kept for the caller to return.
//
// Tested by api_memory_test.cc.

#include "reference/runtime/memory_release.h"

#include "reference/runtime/device_work.h"
#include "reference/runtime/error_mapping.h"
#include "reference/runtime/runtime.h"

namespace mxcts::runtime {

ReleaseWait WaitBeforeRelease(int owner) {
  ReleaseWait result;
  const int count = Runtime::Get().device_count();
  for (int device = 0; device < count; ++device) {
    if (device != owner && !HasPendingWork(device)) continue;
    absl::Status status = SynchronizeDevice(device);
    if (status.ok()) continue;
    const bool sticky = IsStickyError(ToMcError(status));
    if (device == owner && sticky) {
      result.may_release = false;
      result.status = status;
      return result;
    }
    // Another device's sticky error stays in effect there and is reported
    // by the calls that use that device; a pending error is consumed by the
    // wait, so this call reports it.
    if (!sticky && result.status.ok()) result.status = status;
  }
  return result;
}

}  // namespace mxcts::runtime
