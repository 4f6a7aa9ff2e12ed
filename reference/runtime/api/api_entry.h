// Copyright mxcts authors.
//
// reference/runtime/api/api_entry.h: what every mc* entry point shares.
//
// An entry point is a thin function: it validates its arguments, asks the
// runtime object concerned to do the work, and returns through RunApi,
// which turns the resulting absl::Status into the mcError_t of the one
// table (error_mapping.h), records it as the thread's last error, and keeps
// exceptions from crossing the C boundary. A call that fails is logged at
// the debug level with its error and the reason
// [api.log.output.api-errors-at-debug].
//
//   extern "C" mcError_t mcFoo(int* out) {
//     return RunApi([&]() -> absl::Status {
//       if (out == nullptr) return McStatus(mcErrorInvalidValue, "...");
//       ...
//       return absl::OkStatus();
//     });
//   }

#ifndef MXCTS_REFERENCE_RUNTIME_API_API_ENTRY_H_
#define MXCTS_REFERENCE_RUNTIME_API_API_ENTRY_H_

#include <new>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "reference/runtime/devices/device.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/host_thread/thread_state.h"
#include "reference/runtime/timeline/stream.h"

namespace mxcts::runtime {

// Logs, at the debug level, that `function` failed with `error` because of
// `status`. [api.log.output.api-errors-at-debug]
void LogApiError(const char* function, mcError_t error,
                 const absl::Status& status);

// Runs `body` (returning absl::Status), maps its result, records it as the
// last error, and returns it. [api.error.return.every-call-returns-status]
// `function` is the entry point's name (the caller's, by default), for the
// debug log.
// Inside a host function or stream callback the body does not run: the
// call returns mcErrorNotPermitted, where waiting for the timeline the
// thread is advancing would deadlock.
// [api.callback.host-func.api-call-inside-undefined]
template <typename Body>
mcError_t RunApi(Body&& body,
                 const char* function = __builtin_FUNCTION()) noexcept {
  mcError_t result;
  absl::Status status;
  try {
    if (ThreadState::Current().in_host_function()) {
      status = absl::FailedPreconditionError(
          "a runtime call inside a host function or stream callback");
      result = mcErrorNotPermitted;
    } else {
      status = body();
      result = ToMcError(status);
    }
  } catch (const std::bad_alloc&) {
    result = mcErrorMemoryAllocation;
  } catch (...) {
    result = mcErrorUnknown;
  }
  ThreadState::Current().RecordResult(result);
  if (result != mcSuccess) LogApiError(function, result, status);
  return result;
}

// The device that work in `stream` runs on, checked for use: `stream` must
// be a default stream or a live stream (of any device), and neither the
// current device nor the stream's may have a sticky error.
absl::StatusOr<Device*> StreamDeviceForWork(mcStream_t stream);

// What `stream` names for the calling thread: its device and timeline
// queue (stream.h). The caller holds the execution lock.
absl::StatusOr<ResolvedStream> ResolveStreamLocked(mcStream_t stream);

// OK if `window` is an access policy window the current device accepts (a
// stream's or a kernel node's), else mcErrorInvalidValue naming `api`.
// [api.stream.attribute.bad-access-policy-is-invalid-value]
absl::Status CheckAccessPolicyWindow(const char* api,
                                     const mcAccessPolicyWindow& window);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_API_API_ENTRY_H_
