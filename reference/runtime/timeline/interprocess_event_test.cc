// Copyright mxcts authors.
//
// Tests of an interprocess event's shared page: generations, completion as
// a maximum, and a waiter woken by a completion on another thread.

#include "reference/runtime/timeline/interprocess_event.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

namespace mxcts::runtime {
namespace {

std::shared_ptr<InterprocessEventState> Make() {
  absl::StatusOr<std::shared_ptr<InterprocessEventState>> state =
      InterprocessEventState::Create();
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? *state : nullptr;
}

TEST(InterprocessEvent, StartsNeverRecorded) {
  std::shared_ptr<InterprocessEventState> state = Make();
  EXPECT_EQ(state->Latest(), 0u);
  EXPECT_TRUE(state->Reached(0));
  EXPECT_TRUE(state->created_here());
  EXPECT_EQ(state->origin().pid, getpid());
}

TEST(InterprocessEvent, RecordsTakeGenerationsAndCompleteAsAMaximum) {
  std::shared_ptr<InterprocessEventState> state = Make();
  uint64_t first = state->BeginRecord();
  uint64_t second = state->BeginRecord();
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(second, 2u);
  EXPECT_EQ(state->Latest(), 2u);
  EXPECT_FALSE(state->Reached(first));
  state->Complete(second);
  EXPECT_TRUE(state->Reached(first));  // a later record ran
  EXPECT_TRUE(state->Reached(second));
  state->Complete(first);  // completes nothing new
  EXPECT_TRUE(state->Reached(second));
}

TEST(InterprocessEvent, WaiterWakesWhenAnotherThreadCompletes) {
  std::shared_ptr<InterprocessEventState> state = Make();
  uint64_t generation = state->BeginRecord();
  std::thread completer([&] {
    usleep(20000);
    state->Complete(generation);
  });
  state->WaitFor(generation);
  EXPECT_TRUE(state->Reached(generation));
  completer.join();
}

TEST(InterprocessEvent, FileNamesAreDistinct) {
  EXPECT_NE(InterprocessEventState::FileName(1, 2),
            InterprocessEventState::FileName(1, 3));
  EXPECT_NE(InterprocessEventState::FileName(12, 3),
            InterprocessEventState::FileName(1, 23));
}

}  // namespace
}  // namespace mxcts::runtime
