// Copyright mxcts authors.
//
// Conformance: the limits of dynamic parallelism
// (docs/spec/api-dynamic-parallelism.md, "Limits"): the synchronization
// depth, set from the host before the launch, decides where a device-side
// mcDeviceSynchronize fails; grids nest up to the maximum depth and a
// launch beyond it fails; the pending-launch pool has its default and, when
// full, stops the launch tree with mcErrorLaunchPendingCountExceeded.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/api/dynamic_parallelism/execution/device_launch_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "gtest/gtest.h"

namespace {

using dp_testing::DeviceArray;

// Restores the device-runtime limits each test may change.
class DeviceRuntimeLimitTest : public ::testing::Test {
 protected:
  void TearDown() override {
    mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, 2);
    mcDeviceSetLimit(mcLimitDevRuntimePendingLaunchCount, 2048);
  }
};

// --- Synchronization depth. ---

// Descends to `target` without synchronizing, then synchronizes there.
__global__ void SynchronizeAtDepth(int depth, int target, int* status) {
  if (depth < target) {
    SynchronizeAtDepth<<<1, 1>>>(depth + 1, target, status);
    return;
  }
  *status = mcDeviceSynchronize();
}

class SyncDepthTest
    : public DeviceRuntimeLimitTest,
      public ::testing::WithParamInterface<std::tuple<int, int>> {};

TEST_P(SyncDepthTest, SynchronizeFailsOnlyBelowTheConfiguredDepth) {
  MX_SPEC("api.devrt.limit.sync-depth-configurable",
          "api.devrt.limit.sync-depth-exceeded",
          "api.devrt.limit.set-before-launch");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int limit = std::get<0>(GetParam());
  const int depth = std::get<1>(GetParam());
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, limit), mcSuccess);
  DeviceArray<int> status(1);
  mcMemset(status.get(), 0xff, sizeof(int));
  SynchronizeAtDepth<<<1, 1>>>(0, depth, status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0),
            depth <= limit ? mcSuccess : mcErrorSyncDepthExceeded);
}

INSTANTIATE_TEST_SUITE_P(
    LimitsAndDepths, SyncDepthTest,
    ::testing::Combine(::testing::Values(0, 1, 2, 3, 4),
                       ::testing::Values(0, 1, 2, 3, 4, 5)),
    [](const auto& info) {
      return "limit" + std::to_string(std::get<0>(info.param)) + "_depth" +
             std::to_string(std::get<1>(info.param));
    });

TEST_F(DeviceRuntimeLimitTest, SyncDepthDefaultsToTwo) {
  MX_SPEC("api.devrt.limit.sync-depth-configurable");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  size_t value = 0;
  ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitDevRuntimeSyncDepth), mcSuccess);
  EXPECT_EQ(value, 2u);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, 5), mcSuccess);
  ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitDevRuntimeSyncDepth), mcSuccess);
  EXPECT_EQ(value, 5u);
}

// --- Maximum nesting depth. ---

__global__ void Descend(int depth, int target, int* deepest, int* failure) {
  atomicMax(deepest, depth);
  if (depth < target) {
    Descend<<<1, 1>>>(depth + 1, target, deepest, failure);
    const mcError_t error = mcGetLastError();
    if (error != mcSuccess) {
      failure[0] = error;
      failure[1] = depth;
    }
  }
}

class NestingDepthTest : public ::testing::TestWithParam<int> {};

TEST_P(NestingDepthTest, LaunchBeyondTheMaximumDepthFails) {
  MX_SPEC("api.devrt.limit.max-nesting-depth");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int target = GetParam();
  constexpr int kMaximum = 24;  // the reference's, as its spec says
  DeviceArray<int> deepest(1);
  DeviceArray<int> failure(2);
  Descend<<<1, 1>>>(0, target, deepest.get(), failure.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(deepest.At(0), target < kMaximum ? target : kMaximum);
  if (target > kMaximum) {
    EXPECT_EQ(failure.At(0), mcErrorLaunchMaxDepthExceeded);
    EXPECT_EQ(failure.At(1), kMaximum);
  } else {
    EXPECT_EQ(failure.At(0), mcSuccess);
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, NestingDepthTest,
                         ::testing::Values(1, 10, 23, 24, 25, 30));

// --- Pending launches. ---

TEST_F(DeviceRuntimeLimitTest, PendingLaunchCountDefaultsTo2048) {
  MX_SPEC("api.devrt.limit.pending-launch-count-default");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  size_t value = 0;
  ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitDevRuntimePendingLaunchCount),
            mcSuccess);
  EXPECT_EQ(value, 2048u);
}

__global__ void Tally(unsigned* count) { atomicAdd(count, 1u); }

__global__ void LaunchMany(unsigned* count, int launches) {
  for (int i = 0; i < launches; ++i) Tally<<<1, 1>>>(count);
}

// Synchronizing frees the slots: more launches than the pool holds, in
// rounds that each fit.
__global__ void LaunchInRounds(unsigned* count, int rounds, int per_round) {
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < per_round; ++i) Tally<<<1, 1>>>(count);
    mcDeviceSynchronize();
  }
}

class PendingPoolTest : public DeviceRuntimeLimitTest,
                        public ::testing::WithParamInterface<int> {};

TEST_P(PendingPoolTest, AsManyLaunchesAsThePoolHoldsRun) {
  MX_SPEC("api.devrt.limit.pending-launch-count-default",
          "api.devrt.limit.set-before-launch");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int pool = GetParam();
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimePendingLaunchCount, pool),
            mcSuccess);
  DeviceArray<unsigned> count(1);
  LaunchMany<<<1, 1>>>(count.get(), pool);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(count.At(0), static_cast<unsigned>(pool));
}

TEST_P(PendingPoolTest, SynchronizingFreesTheSlots) {
  MX_SPEC("api.devrt.limit.pending-launch-count-default");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int pool = GetParam();
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimePendingLaunchCount, pool),
            mcSuccess);
  DeviceArray<unsigned> count(1);
  LaunchInRounds<<<1, 1>>>(count.get(), 3, pool);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(count.At(0), static_cast<unsigned>(3 * pool));
}

// The first error the host sees for a launch and its wait, whichever
// timeline mode runs the grid.
mcError_t ObservedError(mcError_t launched) {
  const mcError_t synchronized = mcDeviceSynchronize();
  const mcError_t last = mcGetLastError();
  if (launched != mcSuccess) return launched;
  return synchronized != mcSuccess ? synchronized : last;
}

TEST_P(PendingPoolTest, LaunchIntoAFullPoolStopsTheLaunchTree) {
  MX_SPEC("api.devrt.limit.pending-launch-count-exceeded");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int pool = GetParam();
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimePendingLaunchCount, pool),
            mcSuccess);
  DeviceArray<unsigned> count(1);
  ::testing::internal::CaptureStderr();
  LaunchMany<<<1, 1>>>(count.get(), pool + 1);
  const mcError_t error = ObservedError(mcGetLastError());
  const std::string diagnostics = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(error, mcErrorLaunchPendingCountExceeded);
  EXPECT_NE(diagnostics.find("LaunchMany' block (0,0,0) thread (0,0,0)"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("mcLimitDevRuntimePendingLaunchCount"),
            std::string::npos)
      << diagnostics;
  // Not a fault of the device: the next launch tree runs.
  DeviceArray<unsigned> again(1);
  LaunchMany<<<1, 1>>>(again.get(), pool);
  EXPECT_EQ(ObservedError(mcGetLastError()), mcSuccess);
  EXPECT_EQ(again.At(0), static_cast<unsigned>(pool));
}

INSTANTIATE_TEST_SUITE_P(Pools, PendingPoolTest,
                         ::testing::Values(1, 2, 8, 100));

// --- The limits a grid sees are those set before its launch. ---

__global__ void ReadLimit(mcLimit_t limit, size_t* out) {
  mcDeviceGetLimit(out, limit);
}
__global__ void ReadLimitInChild(mcLimit_t limit, size_t* out) {
  ReadLimit<<<1, 1>>>(limit, out);
}

class LimitSeenByDeviceTest
    : public DeviceRuntimeLimitTest,
      public ::testing::WithParamInterface<std::tuple<mcLimit_t, size_t>> {};

TEST_P(LimitSeenByDeviceTest, ChildrenSeeTheLimitSetBeforeTheLaunch) {
  MX_SPEC("api.devrt.limit.set-before-launch",
          "api.devrt.launch.configuration-inherited-from-parent");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const mcLimit_t limit = std::get<0>(GetParam());
  const size_t value = std::get<1>(GetParam());
  ASSERT_EQ(mcDeviceSetLimit(limit, value), mcSuccess);
  DeviceArray<size_t> out(1);
  ReadLimitInChild<<<1, 1>>>(limit, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), value);
  // A later change applies to later launches.
  ASSERT_EQ(mcDeviceSetLimit(limit, value + 1), mcSuccess);
  ReadLimitInChild<<<1, 1>>>(limit, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), value + 1);
}

INSTANTIATE_TEST_SUITE_P(
    Limits, LimitSeenByDeviceTest,
    ::testing::Values(
        std::make_tuple(mcLimitDevRuntimeSyncDepth, size_t{3}),
        std::make_tuple(mcLimitDevRuntimeSyncDepth, size_t{7}),
        std::make_tuple(mcLimitDevRuntimePendingLaunchCount, size_t{100}),
        std::make_tuple(mcLimitDevRuntimePendingLaunchCount, size_t{4096})));

}  // namespace
