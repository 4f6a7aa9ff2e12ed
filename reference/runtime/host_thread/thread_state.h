// Copyright mxcts authors.
//
// reference/runtime/host_thread/thread_state.h: what the runtime keeps per host
// thread: the last error, the current device and the stack of launch
// configurations pushed by `<<<...>>>`.
//
// The last error follows [api.error.last.*]: a failing call stores its code
// (mcErrorNotReady excepted), a successful call leaves it, mcGetLastError
// reads and clears it, mcPeekAtLastError only reads it. The configuration
// stack holds what `(PushLaunchConfiguration(g, b), k(a))` pushes until the
// stub of `k` pops it; it is a stack because evaluating the arguments of one
// launch may itself launch kernels.
//
//   ThreadState& t = ThreadState::Current();
//   t.PushConfiguration({dim3(4), dim3(64), 0, nullptr});
//   absl::StatusOr<LaunchConfiguration> c = t.PopConfiguration();
//   t.RecordResult(mcErrorInvalidValue);
//   t.TakeLastError();  // mcErrorInvalidValue, then mcSuccess

#ifndef MXCTS_REFERENCE_RUNTIME_HOST_THREAD_THREAD_STATE_H_
#define MXCTS_REFERENCE_RUNTIME_HOST_THREAD_THREAD_STATE_H_

#include <stddef.h>

#include <vector>

#include "absl/status/statusor.h"
#include "mcr/mc_runtime_types.h"

namespace mxcts::runtime {

// The operands of one `<<<grid, block, shared_bytes, stream>>>`.
struct LaunchConfiguration {
  dim3 grid;
  dim3 block;
  size_t shared_bytes = 0;
  mcStream_t stream = nullptr;
};

class ThreadState {
 public:
  // The calling host thread's state, created on first use.
  static ThreadState& Current();

  // Stores `result` as the last error unless it is mcSuccess or
  // mcErrorNotReady. [api.error.last.recorded-on-failure]
  // [api.error.last.success-does-not-clear]
  // [api.error.last.not-ready-not-recorded]
  void RecordResult(mcError_t result);
  // Returns the last error and resets it.
  // [api.error.last.get-returns-and-resets]
  mcError_t TakeLastError();
  // Returns the last error. [api.error.last.peek-does-not-reset]
  mcError_t PeekLastError() const { return last_error_; }

  // The current device ordinal; 0 until set.
  // [api.device.set.default-is-device-zero]
  int current_device() const { return current_device_; }
  void set_current_device(int ordinal) { current_device_ = ordinal; }

  // True while this thread runs a host function or stream callback of the
  // timeline (device_work.h RunHostFunction).
  bool in_host_function() const { return in_host_function_; }
  void set_in_host_function(bool inside) { in_host_function_ = inside; }

  void PushConfiguration(const LaunchConfiguration& configuration);
  // Pops the most recently pushed configuration; mcErrorMissingConfiguration
  // if there is none.
  absl::StatusOr<LaunchConfiguration> PopConfiguration();
  size_t pending_configurations() const { return configurations_.size(); }

 private:
  mcError_t last_error_ = mcSuccess;
  int current_device_ = 0;
  bool in_host_function_ = false;
  std::vector<LaunchConfiguration> configurations_;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_HOST_THREAD_THREAD_STATE_H_
