// Copyright mxcts authors.
//
// Tests of the block scheduler through its own interface (park, release,
// yield), below the barrier: release order and deadlock detection.

#include "reference/device/scheduling/block_scheduler.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"
#include "reference/device/scheduling/thread_context.h"

namespace mxcts::device {
namespace {

using device_internal::BlockScheduler;
using device_internal::CurrentGrid;
using device_internal::WaitSite;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

BlockScheduler& Block() { return *CurrentGrid()->block; }

// Every thread waits; the last one releases them in reverse order. The
// release order is the resume order.
void ReleaseInReverse(void** args) {
  std::vector<unsigned>* resumed = Arg<std::vector<unsigned>*>(args, 0);
  BlockScheduler& block = Block();
  block.ParkCurrent(WaitSite{"test wait", "test.cc", 1});
  if (block.current_thread() == block.thread_count() - 1) {
    for (unsigned t = block.thread_count(); t-- > 0;) block.MakeReady(t);
  }
  block.Yield();
  resumed->push_back(LinearThread());
}

TEST(BlockScheduler, ReadyThreadsResumeInReleaseOrder) {
  std::vector<unsigned> resumed;
  std::vector<unsigned>* data = &resumed;
  RunResult result = RunCapturingStderr("ReleaseInReverse", &ReleaseInReverse,
                                        {&data}, dim3(1), dim3(4));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_THAT(resumed, ElementsAre(3, 2, 1, 0));
}

// Thread 1 waits forever unless `release` says so; thread 0 yields without
// waiting for anything and goes on.
void WaitForever(void** args) {
  const bool release = Arg<bool>(args, 0);
  BlockScheduler& block = Block();
  if (block.current_thread() != 1) return;
  block.ParkCurrent(WaitSite{"test wait", "test.cc", 9});
  if (release) block.MakeReady(1);
  block.Yield();
}

TEST(BlockScheduler, NothingLeftToRunAfterExitsIsASkippedWait) {
  bool release = false;
  RunResult result = RunCapturingStderr("WaitForever", &WaitForever, {&release},
                                        dim3(1), dim3(2, 1, 1));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  // Thread 0 exited first, so it counts as skipping the wait.
  EXPECT_EQ(result.stderr_text,
            "mxmaca trap: kernel 'WaitForever' block (0,0,0) thread (1,0,0): "
            "barrier skipped by exiting threads: 1 of 2 threads wait in test "
            "wait at test.cc:9, but 1 threads have exited without reaching it "
            "(the first: thread (0,0,0))\n");
}

TEST(BlockScheduler, AWaitNobodyCanEndWithoutExitsIsADeadlock) {
  // A thread alone that waits for something that never comes.
  auto lone = [](void**) {
    BlockScheduler& block = Block();
    block.ParkCurrent(WaitSite{"lone wait", "lone.cc", 3});
    block.Yield();
  };
  RunResult deadlock = RunCapturingStderr("Lone", +lone, {}, dim3(1), dim3(1));
  EXPECT_EQ(deadlock.error, mcErrorLaunchFailure);
  EXPECT_EQ(deadlock.stderr_text,
            "mxmaca trap: kernel 'Lone' block (0,0,0) thread (0,0,0): "
            "deadlock: 1 of 1 threads wait (this one in lone wait at "
            "lone.cc:3) and no thread of the block can continue\n");
}

TEST(BlockScheduler, AReleasedWaitIsNoDeadlock) {
  // Control of the tests above.
  bool release = true;
  RunResult result = RunCapturingStderr("WaitForever", &WaitForever, {&release},
                                        dim3(2), dim3(2));
  EXPECT_EQ(result.error, mcSuccess);
  EXPECT_THAT(result.stderr_text, IsEmpty());
}

// Thread 0 waits, so thread 1 runs on a second stack; with no guarded
// budget that one is a slab stack with a canary, which thread 1 overwrites
// when `smash` says so, as a thread that overflowed it would.
void OverwriteCanary(void** args) {
  const bool smash = Arg<bool>(args, 0);
  bool* second_stack_unguarded = Arg<bool*>(args, 1);
  BlockScheduler& block = Block();
  if (block.current_thread() == 0) {
    block.ParkCurrent(WaitSite{"test wait", "test.cc", 20});
    block.Yield();
    return;
  }
  const device_internal::Stack& stack = block.running_stack();
  *second_stack_unguarded = !stack.guarded;
  if (smash && !stack.guarded) static_cast<volatile char*>(stack.base)[0] = 0;
  block.MakeReady(0);
}

RunResult RunOverwriteCanary(bool smash, bool* second_stack_unguarded) {
  SetGuardedStackBudget(0);
  RunResult result =
      RunCapturingStderr("OverwriteCanary", &OverwriteCanary,
                         {&smash, &second_stack_unguarded}, dim3(1), dim3(2));
  SetGuardedStackBudget(kGuardedStacksFromSystem);
  return result;
}

TEST(BlockScheduler, AnOverwrittenStackCanaryTraps) {
  bool unguarded = false;
  RunResult result = RunOverwriteCanary(/*smash=*/true, &unguarded);
  ASSERT_TRUE(unguarded);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              ::testing::HasSubstr("kernel 'OverwriteCanary' block (0,0,0) "
                                   "thread (1,0,0): stack overflow"));
  EXPECT_THAT(result.stderr_text, ::testing::HasSubstr("canary"));
}

TEST(BlockScheduler, AnIntactStackCanaryRunsOn) {
  // Control of the test above.
  bool unguarded = false;
  RunResult result = RunOverwriteCanary(/*smash=*/false, &unguarded);
  ASSERT_TRUE(unguarded);
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_THAT(result.stderr_text, IsEmpty());
}

// What the scheduler says of the running thread and of exits, before any
// thread has waited (through the thread loop, the walk's fast phase, when
// the ids are derived from threadIdx) and after: each thread is the current
// one, and exactly the threads before it have exited. Thread `waiter` of
// each block waits once and is released at once, which starts recording.
struct CurrentThreadLog {
  std::vector<unsigned> current;  // current_thread(), as each thread logs
  std::vector<unsigned> linear;   // its linear id from its threadIdx
  unsigned wrong_exits = 0;       // HasExited answers that disagree
};

void LogCurrentThread(void** args) {
  CurrentThreadLog* log = Arg<CurrentThreadLog*>(args, 0);
  const unsigned waiter = Arg<unsigned>(args, 1);
  BlockScheduler& block = Block();
  auto record = [&] {
    const unsigned self = block.current_thread();
    log->current.push_back(self);
    log->linear.push_back(LinearThread());
    for (unsigned t = 0; t < block.thread_count(); ++t) {
      if (block.HasExited(t) != (t < self)) ++log->wrong_exits;
    }
  };
  record();
  if (LinearThread() == waiter) {
    block.ParkCurrent(WaitSite{"test wait", "test.cc", 30});
    block.MakeReady(waiter);
    block.Yield();
    record();
  }
}

TEST(BlockScheduler, TheRunningThreadIsKnownBeforeAndAfterTheFirstWait) {
  constexpr unsigned kNoWaiter = ~0u;
  for (unsigned waiter : {5u, kNoWaiter}) {
    CurrentThreadLog log;
    CurrentThreadLog* data = &log;
    RunResult result =
        RunCapturingStderr("LogCurrentThread", &LogCurrentThread,
                           {&data, &waiter}, dim3(2), dim3(3, 2, 2));
    ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
    // 12 threads a block, and the waiter logs twice.
    EXPECT_EQ(log.current.size(), waiter == kNoWaiter ? 24u : 26u);
    EXPECT_EQ(log.current, log.linear) << "waiter " << waiter;
    EXPECT_EQ(log.wrong_exits, 0u) << "waiter " << waiter;
  }
}

// What each thread of a block sees of its block as it starts: its block's
// index, the fibers in use and the states of the threads around it.
std::string DescribeBlockStart(unsigned block_index, unsigned thread,
                               unsigned fibers, int below_exited,
                               int above_exited, int above_waiting) {
  return "block " + std::to_string(block_index) + " thread " +
         std::to_string(thread) + ": fibers " + std::to_string(fibers) +
         ", below exited " + std::to_string(below_exited) + ", above exited " +
         std::to_string(above_exited) + ", above waiting " +
         std::to_string(above_waiting);
}

// The threads of even blocks wait once (the last one releases them all), so
// those blocks record every thread's state and use a fiber per waiting
// thread; odd blocks never wait. Each thread logs DescribeBlockStart (-1:
// no such neighbour).
void WaitInEvenBlocks(void** args) {
  std::vector<std::string>* log = Arg<std::vector<std::string>*>(args, 0);
  BlockScheduler& block = Block();
  const unsigned self = block.current_thread();
  const unsigned count = block.thread_count();
  log->push_back(DescribeBlockStart(
      blockIdx.x, self, static_cast<unsigned>(block.fibers_used()),
      self > 0 ? static_cast<int>(block.HasExited(self - 1)) : -1,
      self + 1 < count ? static_cast<int>(block.HasExited(self + 1)) : -1,
      self + 1 < count ? static_cast<int>(block.IsWaiting(self + 1)) : -1));
  if (blockIdx.x % 2 != 0) return;
  block.ParkCurrent(WaitSite{"test wait", "test.cc", 60});
  if (self == count - 1) {
    for (unsigned t = 0; t < count; ++t) block.MakeReady(t);
  }
  block.Yield();
}

// The blocks of a grid share one scheduler, prepared for each next block
// (PrepareForBlock): every block starts as a fresh one would, whether the
// block before it waited or not. A state left from an earlier block (an
// exited thread above the running one, a fiber still counted) would show.
TEST(BlockScheduler, EachBlockOfAGridStartsFresh) {
  std::vector<std::string> log;
  std::vector<std::string>* data = &log;
  RunResult result = RunCapturingStderr("WaitInEvenBlocks", &WaitInEvenBlocks,
                                        {&data}, dim3(4), dim3(3));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  std::vector<std::string> expected;
  for (unsigned b = 0; b < 4; ++b) {
    // In a waiting block each thread parks, so the next one starts on a
    // new walker, and the thread below it waits rather than has exited.
    const bool waits = b % 2 == 0;
    expected.push_back(DescribeBlockStart(b, 0, 1, -1, 0, 0));
    expected.push_back(
        DescribeBlockStart(b, 1, waits ? 2 : 1, waits ? 0 : 1, 0, 0));
    expected.push_back(
        DescribeBlockStart(b, 2, waits ? 3 : 1, waits ? 0 : 1, -1, -1));
  }
  EXPECT_THAT(log, ::testing::ElementsAreArray(expected));
}

// Thread `at` of block 1 traps; the diagnostic names it by the threadIdx the
// loop wrote, with no wait before.
void TrapAtThread(void** args) {
  const unsigned at = Arg<unsigned>(args, 0);
  if (blockIdx.x == 1 && LinearThread() == at) {
    __mc_dev_trap(mcErrorLaunchFailure, "stop here");
  }
}

TEST(BlockScheduler, ATrapBeforeAnyWaitNamesItsThread) {
  unsigned at = 7;  // (1,0,1) in a block of 3 x 2 x 2
  RunResult result = RunCapturingStderr("TrapAtThread", &TrapAtThread, {&at},
                                        dim3(2), dim3(3, 2, 2));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              ::testing::HasSubstr("kernel 'TrapAtThread' block (1,0,0) "
                                   "thread (1,0,1): stop here"));
}

TEST(BlockScheduler, NoTrapWhenNoThreadIsNamed) {
  // Control of the test above.
  unsigned at = 12;  // no such thread
  RunResult result = RunCapturingStderr("TrapAtThread", &TrapAtThread, {&at},
                                        dim3(2), dim3(3, 2, 2));
  EXPECT_EQ(result.error, mcSuccess);
  EXPECT_THAT(result.stderr_text, IsEmpty());
}

}  // namespace
}  // namespace mxcts::device
