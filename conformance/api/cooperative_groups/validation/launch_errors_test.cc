// Conformance: the errors of mcLaunchCooperativeKernel
// (docs/spec/api-cooperative-groups.md, "Cooperative launch"): invalid
// configurations, a function that is not a kernel, a stream that is not
// live or belongs to another device, a block beyond the kernel's own
// limit, and a grid too large to be co-resident. Each failing launch runs
// nothing; each has a control that succeeds.

#include <maca_cooperative_groups.h>

#include "conformance/testing/spec.h"

namespace {

namespace cg = cooperative_groups;

// Counts the threads that ran.
__global__ void CountThreads(unsigned* count) { atomicAdd(count, 1u); }

// Limited to 64 threads per block.
__global__ void __launch_bounds__(64) Bounded(unsigned* count) {
  atomicAdd(count, 1u);
}

void HostFunction(unsigned*) {}

class LaunchErrorsTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMallocManaged(&count_, sizeof(unsigned)), mcSuccess);
    *count_ = 0;
  }
  void TearDown() override { mcFree(count_); }

  mcError_t Launch(const void* func, dim3 grid, dim3 block, size_t shared = 0,
                   mcStream_t stream = 0) {
    void* args[] = {&count_};
    return mcLaunchCooperativeKernel(func, grid, block, args, shared, stream);
  }
  // The launch's threads after the device finished.
  unsigned Ran() {
    EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
    return *count_;
  }

  unsigned* count_ = nullptr;
};

struct BadConfiguration {
  const char* name;
  dim3 grid;
  dim3 block;
  size_t shared;
};

void PrintTo(const BadConfiguration& c, std::ostream* os) { *os << c.name; }

class InvalidConfigurationTest
    : public LaunchErrorsTest,
      public testing::WithParamInterface<BadConfiguration> {};

TEST_P(InvalidConfigurationTest, ReturnsInvalidConfigurationAndRunsNothing) {
  MX_SPEC("api.coop.launch.invalid-configuration");
  const BadConfiguration c = GetParam();
  EXPECT_EQ(Launch((const void*)CountThreads, c.grid, c.block, c.shared),
            mcErrorInvalidConfiguration);
  EXPECT_EQ(Ran(), 0u);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
}

INSTANTIATE_TEST_SUITE_P(
    Configurations, InvalidConfigurationTest,
    testing::Values(
        BadConfiguration{"GridXZero", dim3(0, 1, 1), dim3(32), 0},
        BadConfiguration{"GridYZero", dim3(1, 0, 1), dim3(32), 0},
        BadConfiguration{"GridZZero", dim3(1, 1, 0), dim3(32), 0},
        BadConfiguration{"BlockXZero", dim3(1), dim3(0, 1, 1), 0},
        BadConfiguration{"BlockZZero", dim3(1), dim3(4, 4, 0), 0},
        BadConfiguration{"Block1025Threads", dim3(1), dim3(1025), 0},
        BadConfiguration{"Block32x33", dim3(1), dim3(32, 33), 0},
        BadConfiguration{"SharedOverTheBlocks", dim3(1), dim3(32), 65537}),
    testing::PrintToStringParamName());

TEST_F(LaunchErrorsTest, LargestValidConfigurationRuns) {
  MX_SPEC("api.coop.launch.invalid-configuration",
          "api.coop.launch.runs-kernel");
  EXPECT_EQ(Launch((const void*)CountThreads, dim3(2), dim3(1024), 65536),
            mcSuccess);
  EXPECT_EQ(Ran(), 2048u);
}

TEST_F(LaunchErrorsTest, BlockBeyondTheKernelsLaunchBoundsIsRefused) {
  MX_SPEC("api.coop.launch.invalid-configuration");
  EXPECT_EQ(Launch((const void*)Bounded, dim3(1), dim3(128)),
            mcErrorLaunchOutOfResources);
  EXPECT_EQ(Ran(), 0u);
  mcGetLastError();
}

TEST_F(LaunchErrorsTest, BlockWithinTheKernelsLaunchBoundsRuns) {
  MX_SPEC("api.coop.launch.invalid-configuration");
  EXPECT_EQ(Launch((const void*)Bounded, dim3(1), dim3(64)), mcSuccess);
  EXPECT_EQ(Ran(), 64u);
}

TEST_F(LaunchErrorsTest, NullFunctionIsInvalidDeviceFunction) {
  MX_SPEC("api.coop.launch.invalid-function");
  EXPECT_EQ(Launch(nullptr, dim3(1), dim3(32)), mcErrorInvalidDeviceFunction);
  EXPECT_EQ(Ran(), 0u);
  mcGetLastError();
}

TEST_F(LaunchErrorsTest, HostFunctionIsInvalidDeviceFunction) {
  MX_SPEC("api.coop.launch.invalid-function");
  EXPECT_EQ(Launch((const void*)HostFunction, dim3(1), dim3(32)),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(Ran(), 0u);
  mcGetLastError();
}

TEST_F(LaunchErrorsTest, KernelIsAValidFunction) {
  MX_SPEC("api.coop.launch.invalid-function");
  EXPECT_EQ(Launch((const void*)CountThreads, dim3(1), dim3(32)), mcSuccess);
  EXPECT_EQ(Ran(), 32u);
}

TEST_F(LaunchErrorsTest, DestroyedStreamIsInvalidResourceHandle) {
  MX_SPEC("api.coop.launch.invalid-stream");
  mcStream_t stream;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(Launch((const void*)CountThreads, dim3(1), dim3(32), 0, stream),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(Ran(), 0u);
  mcGetLastError();
}

TEST_F(LaunchErrorsTest, StreamOfAnotherDeviceIsInvalidResourceHandle) {
  MX_SPEC("api.coop.launch.invalid-stream");
  int devices = 0;
  ASSERT_EQ(mcGetDeviceCount(&devices), mcSuccess);
  if (devices < 2) GTEST_SKIP() << "needs two devices";
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  mcStream_t other;
  ASSERT_EQ(mcStreamCreate(&other), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  EXPECT_EQ(Launch((const void*)CountThreads, dim3(1), dim3(32), 0, other),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(Ran(), 0u);
  mcGetLastError();
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(other), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

TEST_F(LaunchErrorsTest, LiveStreamOfTheCurrentDeviceRuns) {
  MX_SPEC("api.coop.launch.invalid-stream");
  mcStream_t stream;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  EXPECT_EQ(Launch((const void*)CountThreads, dim3(2), dim3(32), 0, stream),
            mcSuccess);
  EXPECT_EQ(Ran(), 64u);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
}

TEST_F(LaunchErrorsTest, GridFarBeyondTheDeviceIsTooLarge) {
  MX_SPEC("api.coop.launch.too-large");
  EXPECT_EQ(Launch((const void*)CountThreads, dim3(1000, 1000), dim3(64)),
            mcErrorCooperativeLaunchTooLarge);
  EXPECT_EQ(Ran(), 0u);
  EXPECT_EQ(mcGetLastError(), mcErrorCooperativeLaunchTooLarge);
}

}  // namespace
