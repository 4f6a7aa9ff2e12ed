// Copyright mxcts authors.
//
// Tests of idle progress: deferred work that nobody waits for runs once the
// timeline has been idle for the interval, and not before.

#include "reference/runtime/timeline/idle_progress.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/timeline.h"

namespace mxcts::runtime {
namespace {

TEST(IdleProgress, DeferredWorkNobodyWaitsForRunsAfterTheInterval) {
  std::atomic<bool> ran{false};
  std::chrono::steady_clock::time_point submitted;
  {
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    Timeline& timeline = Timeline::Get();
    timeline.RunAll();
    timeline.SetModeForTesting(TimelineMode{TimelineMode::kDeferred, 0});
    Command command;
    command.description = "sets a flag";
    command.work = [&ran] {
      ran = true;
      return mcSuccess;
    };
    Point point = timeline.Enqueue(
        timeline.CreateQueue(0, QueueKind::kBlocking), std::move(command));
    timeline.AfterSubmit(point);
    submitted = std::chrono::steady_clock::now();
    // Control: deferred work does not run at submission.
    EXPECT_FALSE(ran);
  }
  // Nobody waits: the background thread must run it, within two intervals
  // of idleness (and a margin for a loaded machine).
  const auto deadline = submitted + 20 * kIdleProgressInterval;
  while (!ran && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(ran);
  // It ran only once the timeline had been idle for an interval.
  EXPECT_GE(std::chrono::steady_clock::now() - submitted,
            kIdleProgressInterval);
  absl::MutexLock lock(&Runtime::Get().execution_mutex());
  EXPECT_FALSE(Timeline::Get().HasAnyPending());
}

}  // namespace
}  // namespace mxcts::runtime
