// Copyright mxcts authors.
//
// Tests of the per-device limits: defaults, set-then-get, rounding up,
// refusals that change nothing, and the engine settings they drive.

#include "reference/runtime/devices/device_limits.h"

#include <gtest/gtest.h>

#include "reference/device/engine.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

mcError_t ErrorOf(const absl::Status& status) { return ToMcError(status); }

TEST(DeviceLimits, DefaultsAreDocumented) {
  DeviceLimits limits;
  EXPECT_EQ(limits.Get(mcLimitStackSize).value(), kDefaultStackSizeLimit);
  EXPECT_EQ(limits.Get(mcLimitDevRuntimeSyncDepth).value(), 2u);
  EXPECT_EQ(limits.Get(mcLimitDevRuntimePendingLaunchCount).value(), 2048u);
  EXPECT_EQ(limits.Get(mcLimitPrintfFifoSize).value(),
            device::PrintfBufferBytes());
  EXPECT_EQ(limits.Get(mcLimitMallocHeapSize).value(),
            device::DeviceHeapBytes());
  EXPECT_EQ(limits.FiberStackBytes(), device::kDefaultFiberStackBytes);
}

TEST(DeviceLimits, StackSizeSetThenGetAndDrivesTheFiberStack) {
  DeviceLimits limits;
  ASSERT_TRUE(limits.Set(mcLimitStackSize, 4096).ok());
  EXPECT_EQ(limits.Get(mcLimitStackSize).value(), 4096u);
  EXPECT_EQ(limits.FiberStackBytes(), 4096 + device::kFiberStackReserveBytes);
  ASSERT_TRUE(limits.Set(mcLimitStackSize, kMaxStackSizeLimit).ok());
  EXPECT_EQ(limits.FiberStackBytes(), device::kMaxFiberStackBytes);
}

TEST(DeviceLimits, UnattainableStackSizeIsRefusedAndChangesNothing) {
  DeviceLimits limits;
  ASSERT_TRUE(limits.Set(mcLimitStackSize, 8192).ok());
  EXPECT_EQ(ErrorOf(limits.Set(mcLimitStackSize, kMaxStackSizeLimit + 1)),
            mcErrorMemoryAllocation);
  EXPECT_EQ(limits.Get(mcLimitStackSize).value(), 8192u);
}

TEST(DeviceLimits, UnsupportedLimitsOnSetAndGet) {
  DeviceLimits limits;
  for (int limit :
       {static_cast<int>(mcLimitPersistingL2CacheSize), -1, 7, 1000}) {
    EXPECT_FALSE(DeviceLimits::IsSupported(limit)) << limit;
    EXPECT_EQ(ErrorOf(limits.Set(limit, 64)), mcErrorUnsupportedLimit) << limit;
    EXPECT_EQ(ErrorOf(limits.Get(limit).status()), mcErrorUnsupportedLimit)
        << limit;
  }
  EXPECT_TRUE(limits.Set(mcLimitDevRuntimeSyncDepth, 3).ok());  // control
  EXPECT_EQ(limits.Get(mcLimitDevRuntimeSyncDepth).value(), 3u);
}

TEST(DeviceLimits, PrintfBufferRoundsUpToTheEngineMinimum) {
  DeviceLimits limits;
  const size_t before = device::PrintfBufferBytes();
  ASSERT_TRUE(limits.Set(mcLimitPrintfFifoSize, 1).ok());
  EXPECT_GE(limits.Get(mcLimitPrintfFifoSize).value(), 1u);
  EXPECT_EQ(limits.Get(mcLimitPrintfFifoSize).value(),
            device::kMinPrintfBufferBytes);
  EXPECT_EQ(ErrorOf(limits.Set(mcLimitPrintfFifoSize,
                               device::kMaxPrintfBufferBytes + 1)),
            mcErrorMemoryAllocation);
  ASSERT_TRUE(limits.Set(mcLimitPrintfFifoSize, before).ok());
}

TEST(DeviceLimits, HeapSizeSetThenGet) {
  DeviceLimits limits;
  const size_t before = device::DeviceHeapBytes();
  ASSERT_TRUE(limits.Set(mcLimitMallocHeapSize, 1 << 20).ok());
  EXPECT_EQ(limits.Get(mcLimitMallocHeapSize).value(), size_t{1} << 20);
  EXPECT_EQ(ErrorOf(limits.Set(mcLimitMallocHeapSize,
                               device::kMaxDeviceHeapBytes + 1)),
            mcErrorMemoryAllocation);
  EXPECT_EQ(limits.Get(mcLimitMallocHeapSize).value(), size_t{1} << 20);
  ASSERT_TRUE(limits.Set(mcLimitMallocHeapSize, before).ok());
}

}  // namespace
}  // namespace mxcts::runtime

namespace mxcts::runtime {
namespace {

TEST(DeviceLimits, L2FetchGranularityIsAPowerOfTwoUpTo128) {
  DeviceLimits limits;
  EXPECT_TRUE(DeviceLimits::IsSupported(mcLimitMaxL2FetchGranularity));
  EXPECT_EQ(limits.Get(mcLimitMaxL2FetchGranularity).value(), 64u);
  for (size_t good : {0, 1, 32, 128}) {
    EXPECT_TRUE(limits.Set(mcLimitMaxL2FetchGranularity, good).ok()) << good;
    EXPECT_EQ(limits.Get(mcLimitMaxL2FetchGranularity).value(), good);
  }
  for (size_t bad : {3, 96, 256}) {
    EXPECT_EQ(ErrorOf(limits.Set(mcLimitMaxL2FetchGranularity, bad)),
              mcErrorInvalidValue)
        << bad;
    EXPECT_EQ(limits.Get(mcLimitMaxL2FetchGranularity).value(), 128u);
  }
}

TEST(DeviceLimits, ResetToDefaultsRestoresEveryLimit) {
  DeviceLimits limits;
  ASSERT_TRUE(limits.Set(mcLimitStackSize, 4096).ok());
  ASSERT_TRUE(limits.Set(mcLimitDevRuntimeSyncDepth, 9).ok());
  ASSERT_TRUE(limits.Set(mcLimitDevRuntimePendingLaunchCount, 10).ok());
  ASSERT_TRUE(limits.Set(mcLimitMaxL2FetchGranularity, 32).ok());
  ASSERT_TRUE(limits.Set(mcLimitPrintfFifoSize, 4096).ok());
  ASSERT_TRUE(limits.Set(mcLimitMallocHeapSize, 1 << 16).ok());
  limits.ResetToDefaults();
  EXPECT_EQ(limits.Get(mcLimitStackSize).value(), kDefaultStackSizeLimit);
  EXPECT_EQ(limits.Get(mcLimitDevRuntimeSyncDepth).value(), 2u);
  EXPECT_EQ(limits.Get(mcLimitDevRuntimePendingLaunchCount).value(), 2048u);
  EXPECT_EQ(limits.Get(mcLimitMaxL2FetchGranularity).value(), 64u);
  EXPECT_EQ(limits.Get(mcLimitPrintfFifoSize).value(),
            device::kDefaultPrintfBufferBytes);
  EXPECT_EQ(limits.Get(mcLimitMallocHeapSize).value(),
            device::kDefaultDeviceHeapBytes);
}

}  // namespace
}  // namespace mxcts::runtime
