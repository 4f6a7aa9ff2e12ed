// Copyright mxcts authors.
//
// Tests of the per-host-thread state: the last-error slot, the current
// device and the launch configuration stack.

#include "reference/runtime/host_thread/thread_state.h"

#include <gtest/gtest.h>

#include <thread>

#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

TEST(LastError, FailureIsRecordedAndTakingClearsIt) {
  ThreadState state;
  state.RecordResult(mcErrorInvalidValue);
  EXPECT_EQ(state.PeekLastError(), mcErrorInvalidValue);
  EXPECT_EQ(state.TakeLastError(), mcErrorInvalidValue);
  EXPECT_EQ(state.TakeLastError(), mcSuccess);
}

TEST(LastError, SuccessDoesNotClear) {
  // [api.error.last.success-does-not-clear]
  ThreadState state;
  state.RecordResult(mcErrorInvalidDevice);
  state.RecordResult(mcSuccess);
  EXPECT_EQ(state.PeekLastError(), mcErrorInvalidDevice);
}

TEST(LastError, LaterFailureReplacesEarlier) {
  ThreadState state;
  state.RecordResult(mcErrorInvalidDevice);
  state.RecordResult(mcErrorInvalidValue);
  EXPECT_EQ(state.PeekLastError(), mcErrorInvalidValue);
}

TEST(LastError, NotReadyIsNotRecorded) {
  // [api.error.last.not-ready-not-recorded]
  ThreadState state;
  state.RecordResult(mcErrorNotReady);
  EXPECT_EQ(state.PeekLastError(), mcSuccess);
  state.RecordResult(mcErrorTimeout);  // control: a real error is
  EXPECT_EQ(state.PeekLastError(), mcErrorTimeout);
}

TEST(LastError, IsPerHostThread) {
  // [api.error.last.per-host-thread]
  ThreadState::Current().RecordResult(mcErrorInvalidValue);
  mcError_t seen_by_other = mcErrorUnknown;
  std::thread other(
      [&] { seen_by_other = ThreadState::Current().PeekLastError(); });
  other.join();
  EXPECT_EQ(seen_by_other, mcSuccess);
  EXPECT_EQ(ThreadState::Current().TakeLastError(), mcErrorInvalidValue);
}

TEST(CurrentDevice, StartsAtZeroAndIsPerThread) {
  ThreadState::Current().set_current_device(1);
  int seen_by_other = -1;
  std::thread other(
      [&] { seen_by_other = ThreadState::Current().current_device(); });
  other.join();
  EXPECT_EQ(seen_by_other, 0);
  EXPECT_EQ(ThreadState::Current().current_device(), 1);
  ThreadState::Current().set_current_device(0);
}

TEST(ConfigurationStack, PopWithoutPushIsMissingConfiguration) {
  ThreadState state;
  absl::StatusOr<LaunchConfiguration> popped = state.PopConfiguration();
  ASSERT_FALSE(popped.ok());
  EXPECT_EQ(ToMcError(popped.status()), mcErrorMissingConfiguration);
}

TEST(ConfigurationStack, PopsInReverseOrderOfPushes) {
  // `a<<<1, 2>>>(b<<<3, 4>>>(...))`-like nesting: the inner launch's stub
  // runs first and must get the inner configuration.
  ThreadState state;
  state.PushConfiguration({dim3(1), dim3(2), 0, nullptr});
  state.PushConfiguration({dim3(3), dim3(4), 16, nullptr});
  absl::StatusOr<LaunchConfiguration> inner = state.PopConfiguration();
  absl::StatusOr<LaunchConfiguration> outer = state.PopConfiguration();
  ASSERT_TRUE(inner.ok() && outer.ok());
  EXPECT_EQ(inner->grid.x, 3u);
  EXPECT_EQ(inner->shared_bytes, 16u);
  EXPECT_EQ(outer->grid.x, 1u);
  EXPECT_EQ(outer->block.x, 2u);
  EXPECT_EQ(state.pending_configurations(), 0u);
}

}  // namespace
}  // namespace mxcts::runtime
