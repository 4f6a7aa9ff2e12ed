// Copyright mxcts authors.
//
// The error entry points [api.error]. They never initialize the runtime
// and never record an error themselves. A pending sticky error of the
// calling thread's current device is reported by mcGetLastError and
// mcPeekAtLastError even when the slot is clear, since reading it does not
// clear the condition [api.error.sticky.get-last-error-does-not-clear].
//
// Tested by api_error_test.cc.

#include "mc_runtime_api.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/host_thread/thread_state.h"

namespace mxcts::runtime {
namespace {

mcError_t PendingStickyError() {
  DeviceTable* devices = DeviceTable::GetIfInitialized();
  if (devices == nullptr) return mcSuccess;
  absl::StatusOr<Device*> device = devices->CurrentDevice();
  return device.ok() ? (*device)->sticky_error() : mcSuccess;
}

}  // namespace
}  // namespace mxcts::runtime

using mxcts::runtime::PendingStickyError;
using mxcts::runtime::ThreadState;

extern "C" {

mcError_t mcGetLastError(void) {
  mcError_t error = ThreadState::Current().TakeLastError();
  return error != mcSuccess ? error : PendingStickyError();
}

mcError_t mcPeekAtLastError(void) {
  mcError_t error = ThreadState::Current().PeekLastError();
  return error != mcSuccess ? error : PendingStickyError();
}

const char* mcGetErrorString(mcError_t error) {
  return mxcts::runtime::ErrorDescription(error);
}

const char* mcGetErrorName(mcError_t error) {
  return mxcts::runtime::ErrorName(error);
}

}  // extern "C"
