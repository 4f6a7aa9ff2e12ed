// Copyright mxcts authors.
//
// Tests of mcDeviceSetLimit while work is pending, under
// MXCTS_TIMELINE=deferred (set by the BUILD rule), where a launch stays
// queued until the host waits for it.
// [api.device.limit.set-while-work-pending]

#include <gtest/gtest.h>

#include <cstdlib>

#include "mc_runtime.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace {

void CountEntry(void** args) {
  __atomic_fetch_add(*static_cast<int**>(args[0]), 1, __ATOMIC_RELAXED);
}
const unsigned kSizes[] = {sizeof(int*)};
const unsigned kAlignments[] = {alignof(int*)};
const __mc_internal::KernelRecord kCount = {
    "constexpr const char* __mc_internal::KernelKey() [with Sig = void "
    "(*)(int*); Sig F = count]",
    &CountEntry,
    1,
    kSizes,
    kAlignments,
    0,
    0,
    0,
    nullptr};
void CountStub(int*) {}

class PendingWork : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    mxcts::runtime_testing::RegisterKernelRecord(
        reinterpret_cast<const void*>(&CountStub), &kCount);
  }
  void SetUp() override {
    ASSERT_STREQ(std::getenv("MXCTS_TIMELINE"), "deferred");
    mcSetDevice(0);
    mcGetLastError();
  }
  // Launches count(&counter_) with one thread on the current device.
  mcError_t LaunchCount() {
    int* pointer = &counter_;
    void* args[] = {&pointer};
    return mcLaunchKernel(&CountStub, dim3(1), dim3(1), args, 0, nullptr);
  }

  mxcts::runtime_testing::ScopedGridRunner runner_{
      &mxcts::runtime_testing::RunEveryThreadInOrder};
  int counter_ = 0;
};

TEST_F(PendingWork, EveryLimitIsRefusedUntilTheWorkCompletes) {
  for (mcLimit_t limit :
       {mcLimitStackSize, mcLimitPrintfFifoSize, mcLimitMallocHeapSize,
        mcLimitDevRuntimeSyncDepth, mcLimitDevRuntimePendingLaunchCount,
        mcLimitMaxL2FetchGranularity}) {
    size_t before = 0;
    ASSERT_EQ(mcDeviceGetLimit(&before, limit), mcSuccess);
    ASSERT_EQ(LaunchCount(), mcSuccess);
    EXPECT_EQ(mcDeviceSetLimit(limit, before * 2 + 64), mcErrorNotPermitted)
        << limit;
    size_t after = 0;
    ASSERT_EQ(mcDeviceGetLimit(&after, limit), mcSuccess);
    EXPECT_EQ(after, before) << limit;
    // Control: once the work completed, the same call succeeds.
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(mcDeviceSetLimit(limit, before), mcSuccess) << limit;
  }
  EXPECT_EQ(counter_, 6);
}

TEST_F(PendingWork, OnlyTheDeviceWithWorkRefuses) {
  ASSERT_EQ(LaunchCount(), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  EXPECT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, 3), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  EXPECT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, 3),
            mcErrorNotPermitted);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, 2), mcSuccess);
}

TEST_F(PendingWork, AnUnsupportedLimitIsReportedFirst) {
  ASSERT_EQ(LaunchCount(), mcSuccess);
  EXPECT_EQ(mcDeviceSetLimit(mcLimitPersistingL2CacheSize, 0),
            mcErrorUnsupportedLimit);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
}

}  // namespace
