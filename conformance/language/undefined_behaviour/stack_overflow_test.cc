// Copyright mxcts authors.
//
// Conformance: a device thread whose calls need more stack than
// mcLimitStackSize gives it (docs/spec/lang-undefined-behaviour.md,
// lang.ub.exec.stack-overflow). The behaviour is undefined; the tests check
// what the spec says the reference does (a trap naming the thread, with
// mcErrorLaunchFailure), beside controls whose recursion fits.

#include <mc_runtime.h>

#include <cstddef>
#include <string>

#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

// Each level keeps a frame of kFrameBytes and touches both of its ends, so
// that running out of stack reaches the page below the stack.
template <int kFrameBytes>
__device__ __noinline__ int Recurse(int depth) {
  volatile char frame[kFrameBytes];
  frame[0] = static_cast<char>(depth);
  frame[kFrameBytes - 1] = 1;
  if (depth <= 0) return frame[kFrameBytes - 1];
  return Recurse<kFrameBytes>(depth - 1) + frame[kFrameBytes - 1] + frame[0] -
         static_cast<char>(depth);
}

// Thread `thread` of block `block` recurses `depth` levels and stores how
// many levels it counted; the other threads return at once.
template <int kFrameBytes>
__global__ void RecurseOnOneThread(int* levels, int depth, int block,
                                   int thread) {
  if (static_cast<int>(blockIdx.x) == block &&
      static_cast<int>(threadIdx.x) == thread) {
    *levels = Recurse<kFrameBytes>(depth);
  }
}

// Runs the recursion on a grid of 2 blocks of 64 threads and returns the
// error of the synchronization; `levels` gets the count.
template <int kFrameBytes>
mcError_t RunRecursion(int depth, int block, int thread, int* levels) {
  int* device_levels = nullptr;
  if (mcMalloc(&device_levels, sizeof(int)) != mcSuccess) return mcErrorUnknown;
  mcMemset(device_levels, 0, sizeof(int));
  RecurseOnOneThread<kFrameBytes>
      <<<2, 64>>>(device_levels, depth, block, thread);
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) {
    mcMemcpy(levels, device_levels, sizeof(int), mcMemcpyDeviceToHost);
    mcFree(device_levels);
  }
  return error;
}

// A depth whose frames need at least twice the current stack size limit.
template <int kFrameBytes>
int OverflowingDepth() {
  size_t limit = 0;
  mcDeviceGetLimit(&limit, mcLimitStackSize);
  return static_cast<int>(2 * (limit + (size_t{1} << 20)) / kFrameBytes);
}

template <int kFrameBytes>
mcError_t RunTooDeep(int block, int thread) {
  int levels = 0;
  return RunRecursion<kFrameBytes>(OverflowingDepth<kFrameBytes>(), block,
                                   thread, &levels);
}

struct Overflow {
  int frame_bytes;
  int block;
  int thread;
};

class StackOverflow : public testing::TestWithParam<Overflow> {
 protected:
  mcError_t RunTooDeepHere() const {
    const Overflow& p = GetParam();
    switch (p.frame_bytes) {
      case 64:
        return RunTooDeep<64>(p.block, p.thread);
      case 256:
        return RunTooDeep<256>(p.block, p.thread);
      case 1024:
        return RunTooDeep<1024>(p.block, p.thread);
      default:
        return RunTooDeep<3000>(p.block, p.thread);
    }
  }
};

TEST_P(StackOverflow, TrapsNamingTheThread) {
  MX_SPEC("lang.ub.exec.stack-overflow", "api.trap.error.sticky",
          "api.trap.diagnostic.content");
  const Overflow& p = GetParam();
  const std::string where = "RecurseOnOneThread.*block \\(" +
                            std::to_string(p.block) + ",0,0\\) thread \\(" +
                            std::to_string(p.thread) +
                            ",0,0\\).*stack overflow";
  MX_EXPECT_TRAP(RunTooDeepHere(), mcErrorLaunchFailure, where.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    FramesAndThreads, StackOverflow,
    testing::Values(Overflow{64, 0, 0}, Overflow{256, 0, 0},
                    Overflow{1024, 0, 0}, Overflow{3000, 0, 0},
                    Overflow{64, 1, 37}, Overflow{256, 1, 63},
                    Overflow{1024, 1, 5}, Overflow{3000, 0, 42}));

// Controls: the same kernels with a recursion that fits.
//
// The spec gives mcLimitStackSize no default value (an implementation may
// start as small as 1 KiB), so each control first sets the limit to room
// its recursion needs, as a program must [api.device.limit.stack-size],
// and restores the previous limit afterwards.
constexpr size_t kRoomyStackBytes = size_t{64} << 10;

class StackOverflowControl : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcDeviceGetLimit(&original_limit_, mcLimitStackSize), mcSuccess);
    ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, kRoomyStackBytes), mcSuccess);
  }
  void TearDown() override {
    EXPECT_EQ(mcDeviceSetLimit(mcLimitStackSize, original_limit_), mcSuccess);
  }

 private:
  size_t original_limit_ = 0;
};

TEST_F(StackOverflowControl, ShallowRecursionOf64ByteFramesRuns) {
  MX_SPEC("lang.ub.exec.stack-overflow");
  int levels = 0;
  MX_EXPECT_NO_TRAP(RunRecursion<64>(100, 1, 37, &levels));
  EXPECT_EQ(levels, 101);
}

TEST_F(StackOverflowControl, ShallowRecursionOf256ByteFramesRuns) {
  MX_SPEC("lang.ub.exec.stack-overflow");
  int levels = 0;
  MX_EXPECT_NO_TRAP(RunRecursion<256>(50, 0, 0, &levels));
  EXPECT_EQ(levels, 51);
}

TEST_F(StackOverflowControl, ShallowRecursionOf1024ByteFramesRuns) {
  MX_SPEC("lang.ub.exec.stack-overflow");
  int levels = 0;
  MX_EXPECT_NO_TRAP(RunRecursion<1024>(20, 1, 5, &levels));
  EXPECT_EQ(levels, 21);
}

TEST_F(StackOverflowControl, ShallowRecursionOf3000ByteFramesRuns) {
  MX_SPEC("lang.ub.exec.stack-overflow");
  int levels = 0;
  MX_EXPECT_NO_TRAP(RunRecursion<3000>(10, 0, 42, &levels));
  EXPECT_EQ(levels, 11);
}

// A recursion of 100 frames of 1 KiB overflows a stack limited to 16 KiB
// (TheSameRecursionOverflowsASmallStack) and runs once mcLimitStackSize is
// raised to 128 KiB. The sizes stay small because an implementation may
// reserve the limit for every thread that can be resident on the device,
// and large enough that a few tens of KiB an implementation adds to the
// limit for itself do not hide the overflow.
constexpr int kRecursionNeedingRoom = 100;
constexpr size_t kRaisedStackBytes = size_t{128} << 10;

TEST_F(StackOverflowControl, RaisingTheStackLimitMakesRoom) {
  MX_SPEC("lang.ub.exec.stack-overflow", "api.device.limit.stack-size");
  ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, size_t{16} << 10), mcSuccess);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, kRaisedStackBytes), mcSuccess);
  int levels = 0;
  MX_EXPECT_NO_TRAP(RunRecursion<1024>(kRecursionNeedingRoom, 0, 1, &levels));
  EXPECT_EQ(levels, kRecursionNeedingRoom + 1);
}

TEST_F(StackOverflowControl, TheSameRecursionOverflowsASmallStack) {
  MX_SPEC("lang.ub.exec.stack-overflow", "api.device.limit.stack-size");
  MX_EXPECT_TRAP((mcDeviceSetLimit(mcLimitStackSize, size_t{16} << 10),
                  [] {
                    int levels = 0;
                    return RunRecursion<1024>(kRecursionNeedingRoom, 0, 1,
                                              &levels);
                  }()),
                 mcErrorLaunchFailure, "stack overflow");
}

}  // namespace
