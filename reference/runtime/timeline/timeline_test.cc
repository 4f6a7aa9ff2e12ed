// Copyright mxcts authors.
//
// Tests of the device timeline: queue order, the legacy default stream's
// dependencies, explicit dependencies, the three modes, polls, the full
// queue, and what faults and failures do to later work.

#include "reference/runtime/timeline/timeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/runtime/process/runtime.h"

namespace mxcts::runtime {
namespace {

class TimelineTest : public testing::Test {
 protected:
  void SetUp() override { Use(TimelineMode{TimelineMode::kDeferred, 0}); }
  void TearDown() override {
    timeline_.RunAll();
    for (int device = 0; device < 2; ++device) {
      (*Runtime::Get().DeviceAt(device))->ClearFault();
      timeline_.TakePendingError(device);
    }
  }

  void Use(TimelineMode mode) {
    timeline_.RunAll();
    timeline_.SetModeForTesting(mode);
  }

  // A command that appends `name` to the log when it runs.
  Command Logging(const std::string& name, mcError_t result = mcSuccess) {
    Command command;
    command.description = name;
    command.work = [this, name, result] {
      log_.push_back(name);
      return result;
    };
    return command;
  }

  Point Submit(Queue* queue, Command command) {
    Point point = timeline_.Enqueue(queue, std::move(command));
    timeline_.AfterSubmit(point);
    return point;
  }

  absl::MutexLock lock_{&Runtime::Get().execution_mutex()};
  Timeline& timeline_ = Timeline::Get();
  std::vector<std::string> log_;
};

using Log = std::vector<std::string>;

TEST_F(TimelineTest, DeferredRunsNothingUntilWaitedFor) {
  Queue* queue = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  Submit(queue, Logging("a1"));
  Point second = Submit(queue, Logging("a2"));
  EXPECT_TRUE(log_.empty());
  EXPECT_TRUE(timeline_.HasPending(0));
  EXPECT_FALSE(timeline_.HasPending(1));
  timeline_.RunUntil(second);
  EXPECT_EQ(log_, (Log{"a1", "a2"}));
  EXPECT_FALSE(timeline_.HasPending(0));
}

TEST_F(TimelineTest, EagerRunsAtSubmission) {
  Use(TimelineMode{TimelineMode::kEager, 0});
  Queue* queue = timeline_.CreateQueue(0, QueueKind::kBlocking);
  Submit(queue, Logging("now"));
  EXPECT_EQ(log_, (Log{"now"}));
  EXPECT_FALSE(timeline_.HasPending(0));
}

TEST_F(TimelineTest, WaitRunsOnlyWhatThePointNeeds) {
  Queue* a = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  Queue* b = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  Submit(a, Logging("a1"));
  Point b1 = Submit(b, Logging("b1"));
  timeline_.RunUntil(b1);
  EXPECT_EQ(log_, (Log{"b1"}));  // a1 is not ordered before b1
}

TEST_F(TimelineTest, LegacyQueueWaitsForEarlierBlockingWork) {
  Queue* blocking = timeline_.CreateQueue(0, QueueKind::kBlocking);
  Queue* non_blocking = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  Queue* other_device = timeline_.CreateQueue(1, QueueKind::kBlocking);
  Submit(blocking, Logging("blocking"));
  Submit(non_blocking, Logging("non-blocking"));
  Submit(other_device, Logging("other device"));
  Point legacy = Submit(timeline_.LegacyQueue(0), Logging("legacy"));
  timeline_.RunUntil(legacy);
  // Control: the non-blocking stream and the other device are not waited
  // for.
  EXPECT_EQ(log_, (Log{"blocking", "legacy"}));
}

TEST_F(TimelineTest, BlockingQueueWaitsForEarlierLegacyWork) {
  Queue* legacy = timeline_.LegacyQueue(0);
  Queue* blocking = timeline_.CreateQueue(0, QueueKind::kBlocking);
  Queue* non_blocking = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  Submit(legacy, Logging("legacy"));
  Point b = Submit(blocking, Logging("blocking"));
  Point n = Submit(non_blocking, Logging("non-blocking"));
  timeline_.RunUntil(n);
  EXPECT_EQ(log_, (Log{"non-blocking"}));
  timeline_.RunUntil(b);
  EXPECT_EQ(log_, (Log{"non-blocking", "legacy", "blocking"}));
}

TEST_F(TimelineTest, ExplicitDependencyOrdersAcrossQueuesAndDevices) {
  Queue* producer = timeline_.CreateQueue(1, QueueKind::kNonBlocking);
  Queue* consumer = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  Point produced = Submit(producer, Logging("produce"));
  Command consume = Logging("consume");
  consume.after.push_back(produced);
  Point consumed = Submit(consumer, std::move(consume));
  timeline_.RunUntil(consumed);
  EXPECT_EQ(log_, (Log{"produce", "consume"}));
}

TEST_F(TimelineTest, AdvanceRunsAtMostOneCommand) {
  Queue* queue = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  Submit(queue, Logging("1"));
  Submit(queue, Logging("2"));
  Point tail = Submit(queue, Logging("3"));
  EXPECT_FALSE(timeline_.Advance(tail));
  EXPECT_EQ(log_.size(), 1u);
  EXPECT_FALSE(timeline_.Advance(tail));
  EXPECT_TRUE(timeline_.Advance(tail));
  EXPECT_EQ(log_, (Log{"1", "2", "3"}));
  EXPECT_TRUE(timeline_.Advance(tail));  // reached: nothing more to run
}

TEST_F(TimelineTest, FullTimelineRunsTheOldestWork) {
  Queue* queue = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  for (size_t i = 0; i < Timeline::kMaxPendingCommands; ++i) {
    Submit(queue, Logging("x"));
  }
  EXPECT_TRUE(log_.empty());
  Submit(queue, Logging("one too many"));
  EXPECT_EQ(log_.size(), 1u);
}

TEST_F(TimelineTest, ShuffleKeepsQueueOrderAndVariesTheInterleaving) {
  std::vector<Log> orders;
  for (uint64_t seed : {1, 2, 3, 4, 5, 6, 7, 8, 1}) {
    Use(TimelineMode{TimelineMode::kShuffle, seed});
    log_.clear();
    Queue* a = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
    Queue* b = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
    for (int i = 0; i < 4; ++i) {
      Submit(a, Logging("a" + std::to_string(i)));
      Submit(b, Logging("b" + std::to_string(i)));
    }
    timeline_.RunAll();
    ASSERT_EQ(log_.size(), 8u);
    // Each queue's commands in order.
    std::string a_seen, b_seen;
    for (const std::string& entry : log_) {
      (entry[0] == 'a' ? a_seen : b_seen) += entry[1];
    }
    EXPECT_EQ(a_seen, "0123");
    EXPECT_EQ(b_seen, "0123");
    orders.push_back(log_);
  }
  EXPECT_EQ(orders.front(), orders.back());  // same seed, same order
  int distinct = 0;
  for (size_t i = 1; i + 1 < orders.size(); ++i) {
    if (orders[i] != orders[0]) ++distinct;
  }
  EXPECT_GT(distinct, 0);  // control: seeds do change the interleaving
}

TEST_F(TimelineTest, ShuffleWaitEndsAndHonoursDependencies) {
  Use(TimelineMode{TimelineMode::kShuffle, 99});
  Queue* legacy = timeline_.LegacyQueue(0);
  Queue* blocking = timeline_.CreateQueue(0, QueueKind::kBlocking);
  for (int i = 0; i < 20; ++i) {
    Submit(blocking, Logging("b"));
    Submit(legacy, Logging("L"));
  }
  Point last = Submit(blocking, Logging("end"));
  timeline_.RunUntil(last);
  ASSERT_EQ(log_.size(), 41u);
  // Legacy semantics force strict alternation whatever the shuffle picks.
  for (size_t i = 0; i + 1 < log_.size(); ++i) {
    EXPECT_EQ(log_[i], i % 2 == 0 ? "b" : "L") << i;
  }
}

TEST_F(TimelineTest, FaultSkipsLaterWorkButNotCallbacks) {
  Queue* queue = timeline_.CreateQueue(1, QueueKind::kNonBlocking);
  Submit(queue, Logging("faults", mcErrorIllegalAddress));
  Submit(queue, Logging("skipped"));
  Command callback = Logging("callback");
  callback.runs_after_fault = true;
  Point tail = Submit(queue, std::move(callback));
  timeline_.RunUntil(tail);
  EXPECT_EQ(log_, (Log{"faults", "callback"}));
  EXPECT_EQ((*Runtime::Get().DeviceAt(1))->sticky_error(),
            mcErrorIllegalAddress);
  EXPECT_EQ((*Runtime::Get().DeviceAt(0))->sticky_error(), mcSuccess);
}

TEST_F(TimelineTest, NonStickyFailureIsPendingUntilTaken) {
  Queue* queue = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  Submit(queue, Logging("fails", mcErrorLaunchOutOfResources));
  Point tail = Submit(queue, Logging("runs"));
  timeline_.RunUntil(tail);
  EXPECT_EQ(log_, (Log{"fails", "runs"}));
  EXPECT_EQ(timeline_.TakePendingError(0), mcErrorLaunchOutOfResources);
  EXPECT_EQ(timeline_.TakePendingError(0), mcSuccess);  // reported once
}

TEST_F(TimelineTest, SubmitterReportedFailureIsNotPending) {
  Queue* queue = timeline_.CreateQueue(0, QueueKind::kNonBlocking);
  auto outcome = std::make_shared<CommandOutcome>();
  Command command = Logging("fails", mcErrorInvalidValue);
  command.reported_by_submitter = true;
  command.outcome = outcome;
  timeline_.RunUntil(Submit(queue, std::move(command)));
  EXPECT_TRUE(outcome->ran);
  EXPECT_EQ(outcome->result, mcErrorInvalidValue);
  EXPECT_EQ(timeline_.TakePendingError(0), mcSuccess);
}

}  // namespace
}  // namespace mxcts::runtime
