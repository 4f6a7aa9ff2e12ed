// Copyright mxcts authors.
//
// Tests of RunGrid: built-in variables, execution order, traps and their
// diagnostics, launch checks, the image table and the settings.

#include "reference/device/engine.h"

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/engine_test_util.h"

namespace mxcts::device {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

struct Seen {
  uint3 thread;
  uint3 block;
  uint3 block_dim;
  uint3 grid_dim;
  int times = 0;
};

// Records each thread's built-ins in the slot of its global linear index.
void RecordBuiltins(void** args) {
  Seen* seen = Arg<Seen*>(args, 0);
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  Seen& mine = seen[LinearBlock() * threads + LinearThread()];
  mine.thread = threadIdx;
  mine.block = blockIdx;
  mine.block_dim = blockDim;
  mine.grid_dim = gridDim;
  ++mine.times;
}

TEST(RunGrid, EveryThreadRunsOnceWithItsBuiltins) {
  // [model.exec.thread-identified-by-block-and-thread-index]
  const dim3 grid(2, 3, 2);
  const dim3 block(4, 2, 3);
  std::vector<Seen> seen(12 * 24);
  Seen* data = seen.data();
  RunResult result = RunCapturingStderr("RecordBuiltins", &RecordBuiltins,
                                        {&data}, grid, block);
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_THAT(result.stderr_text, IsEmpty());
  size_t index = 0;
  for (unsigned bz = 0; bz < 2; ++bz) {
    for (unsigned by = 0; by < 3; ++by) {
      for (unsigned bx = 0; bx < 2; ++bx) {
        for (unsigned tz = 0; tz < 3; ++tz) {
          for (unsigned ty = 0; ty < 2; ++ty) {
            for (unsigned tx = 0; tx < 4; ++tx) {
              const Seen& s = seen[index++];
              SCOPED_TRACE(testing::Message() << "slot " << index - 1);
              EXPECT_EQ(s.times, 1);
              EXPECT_EQ(std::tie(s.thread.x, s.thread.y, s.thread.z),
                        std::tie(tx, ty, tz));
              EXPECT_EQ(std::tie(s.block.x, s.block.y, s.block.z),
                        std::tie(bx, by, bz));
              EXPECT_EQ(
                  std::make_tuple(s.block_dim.x, s.block_dim.y, s.block_dim.z),
                  std::make_tuple(4u, 2u, 3u));
              EXPECT_EQ(
                  std::make_tuple(s.grid_dim.x, s.grid_dim.y, s.grid_dim.z),
                  std::make_tuple(2u, 3u, 2u));
            }
          }
        }
      }
    }
  }
}

void AppendGlobalId(void** args) {
  std::vector<unsigned>* order = Arg<std::vector<unsigned>*>(args, 0);
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  order->push_back(LinearBlock() * threads + LinearThread());
}

TEST(RunGrid, BlocksAndThreadsRunInLinearOrder) {
  std::vector<unsigned> order;
  std::vector<unsigned>* data = &order;
  RunResult result = RunCapturingStderr("AppendGlobalId", &AppendGlobalId,
                                        {&data}, dim3(3, 2), dim3(2, 2, 2));
  ASSERT_EQ(result.error, mcSuccess);
  ASSERT_EQ(order.size(), 48u);
  for (unsigned i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i);
}

void IncrementWithBarrier(void** args) {
  int* counts = Arg<int*>(args, 0);
  const unsigned id = LinearBlock() * blockDim.x + threadIdx.x;
  counts[id] += 1;
  __syncthreads();
  counts[id] += 1;
}

TEST(RunGrid, ManyBlocksOfManyThreadsFinish) {
  const unsigned blocks = 1000;
  const unsigned threads = 256;
  std::vector<int> counts(blocks * threads, 0);
  int* data = counts.data();
  RunResult result =
      RunCapturingStderr("IncrementWithBarrier", &IncrementWithBarrier, {&data},
                         dim3(blocks), dim3(threads));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (size_t i = 0; i < counts.size(); ++i) {
    ASSERT_EQ(counts[i], 2) << "thread " << i;
  }
}

void AssertThreadBelowThree(void** args) {
  const unsigned limit = Arg<unsigned>(args, 0);
  if (blockIdx.x == 1 && !(threadIdx.x < limit)) {
    ImageRuntimeTable()->assert_fail("threadIdx.x < limit", "a.cu", 12,
                                     "void k(unsigned)");
  }
}

TEST(RunGrid, FailedAssertTrapsWithAssertErrorAndMessage) {
  // [lang.assert.failure.message-contents] [api.trap.error.assert]
  unsigned limit = 3;
  RunResult result = RunCapturingStderr("k(unsigned)", &AssertThreadBelowThree,
                                        {&limit}, dim3(2), dim3(8));
  EXPECT_EQ(result.error, mcErrorAssert);
  EXPECT_EQ(result.stderr_text,
            "mxmaca trap: kernel 'k(unsigned)' block (1,0,0) thread (3,0,0): "
            "a.cu:12: void k(unsigned): Assertion 'threadIdx.x < limit' "
            "failed.\n");
}

TEST(RunGrid, AssertThatHoldsHasNoEffect) {
  // [lang.assert.call.true-has-no-effect] Control of the test above.
  unsigned limit = 8;
  RunResult result = RunCapturingStderr("k(unsigned)", &AssertThreadBelowThree,
                                        {&limit}, dim3(2), dim3(8));
  EXPECT_EQ(result.error, mcSuccess);
  EXPECT_THAT(result.stderr_text, IsEmpty());
}

void TrapInBlockOne(void** args) {
  std::vector<unsigned>* ran = Arg<std::vector<unsigned>*>(args, 0);
  ran->push_back(blockIdx.x * blockDim.x + threadIdx.x);
  if (blockIdx.x == 1 && threadIdx.x == 2) {
    ImageRuntimeTable()->trap("explicit trap");
  }
}

TEST(RunGrid, TrapStopsTheGridWithLaunchFailure) {
  // [api.trap.error.grid-stopped] [api.trap.error.other-causes-launch-failure]
  std::vector<unsigned> ran;
  std::vector<unsigned>* data = &ran;
  RunResult result = RunCapturingStderr("TrapInBlockOne", &TrapInBlockOne,
                                        {&data}, dim3(3), dim3(4));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_EQ(result.stderr_text,
            "mxmaca trap: kernel 'TrapInBlockOne' block (1,0,0) thread "
            "(2,0,0): explicit trap\n");
  // Block 0 ran, block 1 up to the trapping thread, block 2 not at all.
  EXPECT_EQ(ran, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(RunGrid, GridAfterATrapRunsNormally) {
  std::vector<unsigned> ran;
  std::vector<unsigned>* data = &ran;
  RunResult trapped = RunCapturingStderr("TrapInBlockOne", &TrapInBlockOne,
                                         {&data}, dim3(3), dim3(4));
  ASSERT_EQ(trapped.error, mcErrorLaunchFailure);
  ran.clear();
  RunResult clean = RunCapturingStderr("TrapInBlockOne", &TrapInBlockOne,
                                       {&data}, dim3(1), dim3(4));
  EXPECT_EQ(clean.error, mcSuccess);
  EXPECT_EQ(ran, (std::vector<unsigned>{0, 1, 2, 3}));
}

void DoNothing(void**) {}

TEST(RunGrid, RejectsLaunchesItCannotRun) {
  EXPECT_EQ(RunCapturingStderr("k", &DoNothing, {}, dim3(0), dim3(1)).error,
            mcErrorInvalidConfiguration);
  EXPECT_EQ(
      RunCapturingStderr("k", &DoNothing, {}, dim3(1, 1, 0), dim3(1)).error,
      mcErrorInvalidConfiguration);
  EXPECT_EQ(RunCapturingStderr("k", &DoNothing, {}, dim3(1), dim3(1, 0)).error,
            mcErrorInvalidConfiguration);
  EXPECT_EQ(RunCapturingStderr("k", &DoNothing, {}, dim3(1), dim3(1025)).error,
            mcErrorInvalidConfiguration);
  EXPECT_EQ(
      RunCapturingStderr("k", &DoNothing, {}, dim3(1), dim3(1), 65537).error,
      mcErrorInvalidConfiguration);
  EXPECT_EQ(RunCapturingStderr("k", nullptr, {}, dim3(1), dim3(1)).error,
            mcErrorInvalidConfiguration);
}

TEST(RunGrid, AcceptsLaunchesAtTheLimits) {
  // [lang.launch.limit.max-values-accepted] Control of the test above.
  EXPECT_EQ(RunCapturingStderr("k", &DoNothing, {}, dim3(1), dim3(1024)).error,
            mcSuccess);
  EXPECT_EQ(
      RunCapturingStderr("k", &DoNothing, {}, dim3(1), dim3(8, 8, 16)).error,
      mcSuccess);
  EXPECT_EQ(
      RunCapturingStderr("k", &DoNothing, {}, dim3(1), dim3(1), 65536).error,
      mcSuccess);
}

void LaunchNested(void** args) {
  mcError_t* nested = Arg<mcError_t*>(args, 0);
  void* no_args[] = {nullptr};
  *nested =
      RunGrid(GridLaunch{"inner", &DoNothing, no_args, dim3(1), dim3(1), 0});
}

TEST(RunGrid, NestedGridIsNotSupportedYet) {
  mcError_t nested = mcSuccess;
  mcError_t* data = &nested;
  RunResult result = RunCapturingStderr("LaunchNested", &LaunchNested, {&data},
                                        dim3(1), dim3(1));
  EXPECT_EQ(result.error, mcSuccess);
  EXPECT_EQ(nested, mcErrorNotSupported);
}

TEST(RunGrid, BuiltinsAreResetOutsideAGrid) {
  // The last thread to run had index 1 of block 1 in a 2 x 2 grid.
  RunCapturingStderr("k", &DoNothing, {}, dim3(2), dim3(2));
  EXPECT_EQ(threadIdx.x, 0u);
  EXPECT_EQ(blockIdx.x, 0u);
  EXPECT_EQ(blockDim.x, 1u);
  EXPECT_EQ(gridDim.x, 1u);
}

// Uses about 1 KiB of stack per level, touching each frame, so that an
// overflow reaches the guard page right below the stack.
__attribute__((noinline)) int Recurse(int depth) {
  volatile char frame[1000];
  frame[0] = static_cast<char>(depth);
  frame[sizeof(frame) - 1] = 1;
  if (depth == 0) return frame[sizeof(frame) - 1];
  return Recurse(depth - 1) + frame[sizeof(frame) - 1] + frame[0] - depth;
}

void DeepStack(void** args) { *Arg<int*>(args, 0) = Recurse(100); }

TEST(RunGrid, DeviceCodeGetsTheConfiguredStack) {
  int levels = 0;
  int* data = &levels;
  EXPECT_EQ(
      RunCapturingStderr("DeepStack", &DeepStack, {&data}, dim3(1), dim3(1))
          .error,
      mcSuccess);
  EXPECT_EQ(levels, 101);
}

TEST(RunGrid, StackOverflowHitsTheGuardPageAndTraps) {
  // Control of the test above: the same kernel on a stack too small.
  // [lang.ub.exec.stack-overflow] (fault_traps_test.cc tests the details)
  SetFiberStackBytes(kMinFiberStackBytes);
  int levels = 0;
  int* data = &levels;
  RunResult result =
      RunCapturingStderr("DeepStack", &DeepStack, {&data}, dim3(1), dim3(1));
  SetFiberStackBytes(kDefaultFiberStackBytes);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text, HasSubstr("stack overflow"));
  EXPECT_EQ(levels, 0);
}

TEST(ImageRuntimeTable, PointsAtTheEngine) {
  const __mc_image_runtime* table = ImageRuntimeTable();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->version, MC_IMAGE_ABI_VERSION);
  EXPECT_EQ(&table->builtins->threadIdx,
            static_cast<const uint3*>(std::addressof(threadIdx)));
  EXPECT_EQ(&table->builtins->gridDim,
            static_cast<const dim3*>(std::addressof(gridDim)));
  EXPECT_EQ(table->syncthreads, &__mc_dev_syncthreads);
  EXPECT_EQ(table->shared_variable, &__mc_dev_shared_variable);
  EXPECT_EQ(table->dynamic_shared, &__mc_dev_dynamic_shared);
  EXPECT_NE(table->vprintf, nullptr);
  EXPECT_NE(table->malloc, nullptr);
  EXPECT_NE(table->free, nullptr);
  EXPECT_NE(table->assert_fail, nullptr);
  EXPECT_NE(table->trap, nullptr);
  EXPECT_EQ(ImageRuntimeTable(), table);
}

TEST(Settings, DefaultsAreDocumented) {
  EXPECT_EQ(FiberStackBytes(), kDefaultFiberStackBytes);
  EXPECT_EQ(PrintfBufferBytes(), kDefaultPrintfBufferBytes);
  EXPECT_EQ(DeviceHeapBytes(), kDefaultDeviceHeapBytes);
  EXPECT_EQ(kDefaultPrintfBufferBytes, 1u << 20);
  EXPECT_EQ(kDefaultDeviceHeapBytes, 8u << 20);
}

TEST(Settings, SettersRejectValuesOutOfRange) {
  EXPECT_FALSE(SetFiberStackBytes(kMinFiberStackBytes - 1));
  EXPECT_FALSE(SetFiberStackBytes(kMaxFiberStackBytes + 1));
  EXPECT_FALSE(SetPrintfBufferBytes(kMinPrintfBufferBytes - 1));
  EXPECT_FALSE(SetPrintfBufferBytes(kMaxPrintfBufferBytes + 1));
  EXPECT_FALSE(SetDeviceHeapBytes(kMaxDeviceHeapBytes + 1));
  EXPECT_EQ(FiberStackBytes(), kDefaultFiberStackBytes);
  EXPECT_EQ(PrintfBufferBytes(), kDefaultPrintfBufferBytes);
  EXPECT_EQ(DeviceHeapBytes(), kDefaultDeviceHeapBytes);
}

TEST(Settings, SettersAcceptValuesInRange) {
  // Control of the test above.
  EXPECT_TRUE(SetFiberStackBytes(kMinFiberStackBytes));
  EXPECT_EQ(FiberStackBytes(), kMinFiberStackBytes);
  EXPECT_TRUE(SetFiberStackBytes(kDefaultFiberStackBytes));
  EXPECT_TRUE(SetPrintfBufferBytes(kMinPrintfBufferBytes));
  EXPECT_EQ(PrintfBufferBytes(), kMinPrintfBufferBytes);
  EXPECT_TRUE(SetPrintfBufferBytes(kDefaultPrintfBufferBytes));
  EXPECT_TRUE(SetDeviceHeapBytes(0));
  EXPECT_EQ(DeviceHeapBytes(), 0u);
  EXPECT_TRUE(SetDeviceHeapBytes(kDefaultDeviceHeapBytes));
}

}  // namespace
}  // namespace mxcts::device
