// Copyright mxcts authors.
//
// Per-host-thread state: one thread_local object per host thread, created
// on first use, so that a thread that never calls the runtime costs
// nothing and state is never shared between threads
// [api.error.last.per-host-thread] [api.device.set.per-host-thread].
//
// Tested by thread_state_test.cc.

#include "reference/runtime/host_thread/thread_state.h"

#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {

ThreadState& ThreadState::Current() {
  thread_local ThreadState state;
  return state;
}

void ThreadState::RecordResult(mcError_t result) {
  if (result == mcSuccess || result == mcErrorNotReady) return;
  last_error_ = result;
}

mcError_t ThreadState::TakeLastError() {
  mcError_t error = last_error_;
  last_error_ = mcSuccess;
  return error;
}

void ThreadState::PushConfiguration(const LaunchConfiguration& configuration) {
  configurations_.push_back(configuration);
}

absl::StatusOr<LaunchConfiguration> ThreadState::PopConfiguration() {
  if (configurations_.empty()) {
    return McStatus(mcErrorMissingConfiguration,
                    "a kernel stub was called without a launch configuration "
                    "(kernels are launched with <<<...>>>)");
  }
  LaunchConfiguration configuration = configurations_.back();
  configurations_.pop_back();
  return configuration;
}

}  // namespace mxcts::runtime
