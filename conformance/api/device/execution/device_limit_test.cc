// Copyright mxcts authors.
//
// Conformance: results of mcDeviceSetLimit and mcDeviceGetLimit
// (docs/spec/api-device.md, "Limits"): every limit reads back at least
// what was set, the documented defaults, the stack a kernel can use, and
// mcDeviceReset restoring the defaults. Defaults are read in a fresh
// process, before anything changed them.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/device_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::LimitSupported;

// The limits every implementation supports.
struct Limit {
  const char* name;
  mcLimit_t limit;
  size_t raised;  // a value to set, above any plausible default
};

const Limit kLimits[] = {
    {"StackSize", mcLimitStackSize, 96 * 1024},
    {"PrintfFifoSize", mcLimitPrintfFifoSize, 4 * 1024 * 1024},
    {"MallocHeapSize", mcLimitMallocHeapSize, 32 * 1024 * 1024},
    {"DevRuntimeSyncDepth", mcLimitDevRuntimeSyncDepth, 4},
    {"DevRuntimePendingLaunchCount", mcLimitDevRuntimePendingLaunchCount, 4096},
};

class EveryLimit : public testing::TestWithParam<Limit> {
 protected:
  void TearDown() override { mcGetLastError(); }
  mcLimit_t limit() const { return GetParam().limit; }
};

std::string LimitName(const testing::TestParamInfo<Limit>& info) {
  return info.param.name;
}

TEST_P(EveryLimit, GetReturnsAPositiveValue) {
  MX_SPEC("api.device.limit.get-returns-current-value");
  size_t value = 0;
  ASSERT_EQ(mcDeviceGetLimit(&value, limit()), mcSuccess);
  EXPECT_GT(value, 0u);
}

TEST_P(EveryLimit, SetThenGetReportsAtLeastTheValue) {
  MX_SPEC("api.device.limit.set-then-get",
          "api.device.limit.get-returns-current-value");
  size_t before = 0;
  ASSERT_EQ(mcDeviceGetLimit(&before, limit()), mcSuccess);
  ASSERT_EQ(mcDeviceSetLimit(limit(), GetParam().raised), mcSuccess);
  size_t after = 0;
  ASSERT_EQ(mcDeviceGetLimit(&after, limit()), mcSuccess);
  EXPECT_GE(after, GetParam().raised);
  ASSERT_EQ(mcDeviceSetLimit(limit(), before), mcSuccess);
  ASSERT_EQ(mcDeviceGetLimit(&after, limit()), mcSuccess);
  EXPECT_GE(after, before);
}

TEST_P(EveryLimit, ResetRestoresTheDefault) {
  MX_SPEC("api.device.reset.restores-defaults");
  size_t before = 0;
  ASSERT_EQ(mcDeviceGetLimit(&before, limit()), mcSuccess);
  ASSERT_EQ(mcDeviceSetLimit(limit(), GetParam().raised), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  size_t after = 0;
  ASSERT_EQ(mcDeviceGetLimit(&after, limit()), mcSuccess);
  EXPECT_EQ(after, before);
}

INSTANTIATE_TEST_SUITE_P(Limits, EveryLimit, testing::ValuesIn(kLimits),
                         LimitName);

// The device-runtime defaults, before any call changed them.
std::string DeviceRuntimeDefaults() {
  size_t depth = 0, pending = 0;
  if (mcDeviceGetLimit(&depth, mcLimitDevRuntimeSyncDepth) != mcSuccess ||
      mcDeviceGetLimit(&pending, mcLimitDevRuntimePendingLaunchCount) !=
          mcSuccess) {
    return "mcDeviceGetLimit failed";
  }
  std::string problems;
  if (depth != 2) problems += "sync depth " + std::to_string(depth) + "; ";
  if (pending != 2048) {
    problems += "pending launch count " + std::to_string(pending);
  }
  return problems;
}

TEST(DeviceLimitDefaults, SyncDepthIs2AndPendingLaunchCountIs2048) {
  MX_SPEC("api.device.limit.sync-depth",
          "api.device.limit.pending-launch-count");
  MX_EXPECT_IN_FRESH_PROCESS(DeviceRuntimeDefaults());
}

// Fills a local array of `bytes` and stores the sum of its first and last
// element, so that the array cannot be optimized away.
__global__ void UseStack(int bytes, int* out) {
  volatile char frame[16 * 1024];
  const int n = bytes < static_cast<int>(sizeof(frame))
                    ? bytes
                    : static_cast<int>(sizeof(frame));
  for (int i = 0; i < n; ++i) frame[i] = static_cast<char>(i);
  *out = frame[0] + frame[n - 1];
}

TEST(DeviceLimitStack, AKernelCanUseTheStackItWasGiven) {
  MX_SPEC("api.device.limit.stack-size");
  size_t before = 0;
  ASSERT_EQ(mcDeviceGetLimit(&before, mcLimitStackSize), mcSuccess);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, 32 * 1024), mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  *out = 12345;
  UseStack<<<1, 1>>>(16 * 1024, out);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, static_cast<char>(16 * 1024 - 1));
  mcFree(out);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, before), mcSuccess);
}

TEST(DeviceLimitPerDevice, EachDeviceKeepsItsOwnStackSize) {
  MX_SPEC("api.device.limit.set-then-get");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  size_t on0 = 0, on1 = 0;
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcDeviceGetLimit(&on1, mcLimitDevRuntimeSyncDepth), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcDeviceGetLimit(&on0, mcLimitDevRuntimeSyncDepth), mcSuccess);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, on0 + 3), mcSuccess);
  size_t value = 0;
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitDevRuntimeSyncDepth), mcSuccess);
  EXPECT_EQ(value, on1);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitDevRuntimeSyncDepth), mcSuccess);
  EXPECT_GE(value, on0 + 3);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, on0), mcSuccess);
}

TEST(DeviceLimitL2, FetchGranularityAcceptsPowersOfTwoUpTo128) {
  MX_SPEC("api.device.limit.l2-fetch-granularity-range");
  size_t before = 0;
  if (!LimitSupported(mcLimitMaxL2FetchGranularity, &before)) {
    GTEST_SKIP() << "unsupported: mcLimitMaxL2FetchGranularity";
  }
  for (size_t value : {0, 32, 64, 128}) {
    EXPECT_EQ(mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, value), mcSuccess)
        << value;
  }
  ASSERT_EQ(mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, before), mcSuccess);
}

}  // namespace
