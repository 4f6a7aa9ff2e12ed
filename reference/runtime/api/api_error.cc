// Copyright mxcts authors.
//
// The error entry points [api.error]. They never initialize the runtime
// and never record an error themselves. A pending sticky error of the
// calling thread's current device is reported by mcGetLastError and
// mcPeekAtLastError even when the slot is clear, since reading it does not
// clear the condition [api.error.sticky.get-last-error-does-not-clear].
//
// Tested by api_error_test.cc.

#include <cstring>

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

// The code as the int the caller passed, read without loading it as an
// mcError_t: a C caller may pass any value
// [api.error.string.unrecognized-code], and one outside the enumerators'
// range is undefined as the C++ enum (UBSan's report, found by the API
// fuzzer).
int CodeOf(const mcError_t& error) {
  int code = 0;
  static_assert(sizeof(code) == sizeof(error), "mcError_t is an int");
  std::memcpy(&code, &error, sizeof(code));
  return code;
}

}  // namespace
}  // namespace mxcts::runtime

using mxcts::runtime::CodeOf;
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
  return mxcts::runtime::ErrorDescriptionOfCode(CodeOf(error));
}

const char* mcGetErrorName(mcError_t error) {
  return mxcts::runtime::ErrorNameOfCode(CodeOf(error));
}

}  // extern "C"
