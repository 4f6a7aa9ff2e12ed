// Copyright mxcts authors.
//
// Tests of the block barrier: visibility and ordering across it, repeated
// phases, laziness of fibers, and the traps for misuse, each with a control.

#include "reference/device/collectives/barrier.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"
#include "reference/device/scheduling/block_scheduler.h"
#include "reference/device/scheduling/thread_context.h"

namespace mxcts::device {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::MatchesRegex;

// out[t] = t-th element of the block's tile, reversed, with or without a
// barrier between the writes and the reads.
template <bool kWithBarrier>
void ReverseThroughShared(void** args) {
  static char tile_site;
  int* out = Arg<int*>(args, 0);
  int* tile = static_cast<int*>(
      __mc_dev_shared_variable(&tile_site, 256 * sizeof(int), alignof(int)));
  const unsigned t = threadIdx.x;
  tile[t] = static_cast<int>(blockIdx.x * 1000 + t);
  if (kWithBarrier) __syncthreads();
  out[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t];
}

TEST(Barrier, MakesSharedWritesVisibleToTheWholeBlock) {
  // [lang.sync.syncthreads.global-and-shared-visible]
  std::vector<int> out(2 * 256);
  int* data = out.data();
  RunResult result = RunCapturingStderr("ReverseThroughShared<true>",
                                        &ReverseThroughShared<true>, {&data},
                                        dim3(2), dim3(256));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (int block = 0; block < 2; ++block) {
    for (int t = 0; t < 256; ++t) {
      EXPECT_EQ(out[block * 256 + t], block * 1000 + 255 - t);
    }
  }
}

TEST(Barrier, WithoutItEarlyThreadsReadBeforeLateThreadsWrite) {
  // Control of the test above: thread 0 reads tile[255] before thread 255
  // has written it.
  std::vector<int> out(256);
  int* data = out.data();
  RunResult result = RunCapturingStderr("ReverseThroughShared<false>",
                                        &ReverseThroughShared<false>, {&data},
                                        dim3(1), dim3(256));
  ASSERT_EQ(result.error, mcSuccess);
  EXPECT_NE(out[0], 255);
  EXPECT_EQ(out[255], 0);  // tile[0] was written by thread 0 before.
}

void TreeSum(void** args) {
  static char partial_site;
  const int* in = Arg<const int*>(args, 0);
  int* sums = Arg<int*>(args, 1);
  int* partial = static_cast<int*>(
      __mc_dev_shared_variable(&partial_site, 256 * sizeof(int), alignof(int)));
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

TEST(Barrier, TreeReductionOverTheBlockIsExact) {
  // [lang.sync.syncthreads.repeated-use]
  // [lang.sync.syncthreads.uniform-condition-allowed]
  const int blocks = 4;
  std::vector<int> in(blocks * 256);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i);
  std::vector<int> sums(blocks, -1);
  const int* in_data = in.data();
  int* sums_data = sums.data();
  RunResult result = RunCapturingStderr(
      "TreeSum", &TreeSum, {&in_data, &sums_data}, dim3(blocks), dim3(256));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (int b = 0; b < blocks; ++b) {
    const int first = b * 256;
    const int last = first + 255;
    EXPECT_EQ(sums[b], (first + last) * 256 / 2) << "block " << b;
  }
}

struct Event {
  unsigned thread;
  int phase;
  bool operator==(const Event& other) const {
    return thread == other.thread && phase == other.phase;
  }
};

void LogPhases(void** args) {
  std::vector<Event>* log = Arg<std::vector<Event>*>(args, 0);
  for (int phase = 0; phase < 3; ++phase) {
    log->push_back(Event{LinearThread(), phase});
    __syncthreads();
  }
}

TEST(Barrier, EachPhaseRunsEveryThreadInLinearOrder) {
  // [lang.sync.syncthreads.waits-for-whole-block]
  std::vector<Event> log;
  std::vector<Event>* data = &log;
  RunResult result =
      RunCapturingStderr("LogPhases", &LogPhases, {&data}, dim3(1), dim3(3, 2));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  std::vector<Event> expected;
  for (int phase = 0; phase < 3; ++phase) {
    for (unsigned t = 0; t < 6; ++t) expected.push_back(Event{t, phase});
  }
  EXPECT_EQ(log, expected);
}

void CountFibers(void** args) {
  size_t* fibers = Arg<size_t*>(args, 0);
  const bool with_barrier = Arg<bool>(args, 1);
  if (with_barrier) __syncthreads();
  *fibers = device_internal::CurrentGrid()->block->fibers_used();
}

TEST(Barrier, ABlockWithoutBarriersRunsOnOneFiber) {
  size_t fibers = 0;
  size_t* data = &fibers;
  bool with_barrier = false;
  ASSERT_EQ(RunCapturingStderr("CountFibers", &CountFibers,
                               {&data, &with_barrier}, dim3(2), dim3(256))
                .error,
            mcSuccess);
  EXPECT_EQ(fibers, 1u);
}

TEST(Barrier, EachWaitingThreadKeepsItsFiber) {
  // Control of the test above.
  size_t fibers = 0;
  size_t* data = &fibers;
  bool with_barrier = true;
  ASSERT_EQ(RunCapturingStderr("CountFibers", &CountFibers,
                               {&data, &with_barrier}, dim3(2), dim3(256))
                .error,
            mcSuccess);
  EXPECT_EQ(fibers, 256u);
}

// Threads below `split` and the others call __syncthreads() at two
// different lines.
void SplitBarrier(void** args) {
  const unsigned split = Arg<unsigned>(args, 0);
  if (threadIdx.x < split) {
    __syncthreads();
  } else {
    __syncthreads();
  }
}

TEST(Barrier, DifferentCallSitesTrapNamingBoth) {
  // [lang.sync.syncthreads.different-call-sites-undefined]
  unsigned split = 2;
  RunResult result = RunCapturingStderr("SplitBarrier(unsigned)", &SplitBarrier,
                                        {&split}, dim3(3), dim3(4));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(
      result.stderr_text,
      MatchesRegex("mxmaca trap: kernel 'SplitBarrier\\(unsigned\\)' block "
                   "\\(0,0,0\\) thread \\(2,0,0\\): threads of the block wait "
                   "at different barriers: this thread arrived at "
                   "__syncthreads\\(\\) at .*barrier_test.cc:([0-9]+), while "
                   "2 threads \\(the first: thread \\(0,0,0\\)\\) wait at "
                   "__syncthreads\\(\\) at .*barrier_test.cc:([0-9]+)\n"));
  // The two sites are different lines.
  const std::string& text = result.stderr_text;
  const size_t first = text.find("barrier_test.cc:");
  const size_t second = text.find("barrier_test.cc:", first + 1);
  ASSERT_NE(second, std::string::npos);
  EXPECT_NE(std::stoi(text.substr(first + 16)),
            std::stoi(text.substr(second + 16)));
}

TEST(Barrier, OneCallSiteForAllThreadsDoesNotTrap) {
  // Control of the test above: every thread takes the same branch.
  unsigned split = 4;
  RunResult result = RunCapturingStderr("SplitBarrier(unsigned)", &SplitBarrier,
                                        {&split}, dim3(3), dim3(4));
  EXPECT_EQ(result.error, mcSuccess);
  EXPECT_THAT(result.stderr_text, IsEmpty());
}

// Threads at or above `stay` return before the barrier.
void ExitBeforeBarrier(void** args) {
  const unsigned stay = Arg<unsigned>(args, 0);
  if (threadIdx.x >= stay) return;
  __syncthreads();
}

TEST(Barrier, ThreadsExitingWhileOthersWaitTrap) {
  // [lang.sync.syncthreads.exited-threads-undefined]
  unsigned stay = 3;
  RunResult result =
      RunCapturingStderr("ExitBeforeBarrier(unsigned)", &ExitBeforeBarrier,
                         {&stay}, dim3(2), dim3(8));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(
      result.stderr_text,
      MatchesRegex("mxmaca trap: kernel 'ExitBeforeBarrier\\(unsigned\\)' "
                   "block \\(0,0,0\\) thread \\(0,0,0\\): barrier skipped by "
                   "exiting threads: 3 of 8 threads wait in "
                   "__syncthreads\\(\\) at .*barrier_test.cc:[0-9]+, but 5 "
                   "threads have exited without reaching it \\(the first: "
                   "thread \\(3,0,0\\)\\)\n"));
}

TEST(Barrier, ThreadExitingFirstAlsoTraps) {
  // Thread 0 exits before any other thread arrives.
  unsigned stay = 0;
  auto kernel = [](void** args) {
    if (threadIdx.x == 0) return;
    (void)args;
    __syncthreads();
  };
  RunResult result =
      RunCapturingStderr("k", +kernel, {&stay}, dim3(1), dim3(4));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("barrier skipped by exiting threads: 3 of 4 threads"));
  EXPECT_THAT(result.stderr_text, HasSubstr("(the first: thread (0,0,0))"));
}

TEST(Barrier, AllThreadsExitingWithoutBarrierIsFine) {
  // Control of the tests above: nobody waits, so exiting is harmless.
  unsigned stay = 0;
  RunResult result =
      RunCapturingStderr("ExitBeforeBarrier(unsigned)", &ExitBeforeBarrier,
                         {&stay}, dim3(2), dim3(8));
  EXPECT_EQ(result.error, mcSuccess);
  EXPECT_THAT(result.stderr_text, IsEmpty());
}

TEST(BarrierDeathTest, CallFromHostCodeAborts) {
  // [lang.sync.syncthreads.device-code-only]
  EXPECT_DEATH(__mc_dev_syncthreads("host.cc", 7),
               "mxmaca: __syncthreads\\(\\) called outside device code at "
               "host.cc:7");
}

}  // namespace
}  // namespace mxcts::device
