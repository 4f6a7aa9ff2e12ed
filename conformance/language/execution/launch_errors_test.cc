// Conformance: launches the device cannot satisfy fail with the error the
// spec names, report it through mcGetLastError, and run nothing; launches
// exactly at each limit succeed (docs/spec/lang-execution-configuration.md,
// "Limits and launch errors"). Every limit is tested at N (control) and N+1.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

// Thread (0,0,0) of block (0,0,0) sets the flag: one writer, no race.
__global__ void SetFlag(int* flag) {
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0 &&
      blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
    *flag = 1;
  }
}

__global__ void UseDynamicShared(int* flag) {
  extern __shared__ unsigned char bytes[];
  if (threadIdx.x == 0) {
    bytes[0] = 1;
    *flag = bytes[0];
  }
}

class LaunchErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMallocManaged(&flag_, sizeof(int)), mcSuccess);
    *flag_ = 0;
    ASSERT_EQ(mcGetLastError(), mcSuccess);
  }
  void TearDown() override { mcFree(flag_); }

  // Launches SetFlag with `grid` and `block`; returns the launch's error and
  // whether the kernel ran.
  mcError_t Launch(dim3 grid, dim3 block, bool* ran) {
    *flag_ = 0;
    SetFlag<<<grid, block>>>(flag_);
    mcError_t error = mcGetLastError();
    EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
    *ran = *flag_ == 1;
    return error;
  }

  int* flag_ = nullptr;
};

TEST_F(LaunchErrors, BlockOfMaxThreadsRuns) {
  MX_SPEC("lang.launch.limit.max-values-accepted",
          "lang.launch.error.successful-launch-leaves-success");
  bool ran = false;
  EXPECT_EQ(Launch(1, 1024, &ran), mcSuccess);
  EXPECT_TRUE(ran);
  EXPECT_EQ(Launch(1, dim3(32, 32, 1), &ran), mcSuccess);
  EXPECT_TRUE(ran);
}

TEST_F(LaunchErrors, BlockOverMaxThreadsFails) {
  MX_SPEC("lang.launch.limit.block-threads-exceed-max",
          "lang.launch.error.reported-by-get-last-error",
          "lang.launch.failed-launch-runs-nothing");
  bool ran = true;
  EXPECT_EQ(Launch(1, 1025, &ran), mcErrorInvalidConfiguration);
  EXPECT_FALSE(ran);
  EXPECT_EQ(Launch(1, dim3(32, 32, 2), &ran), mcErrorInvalidConfiguration);
  EXPECT_FALSE(ran);
}

TEST_F(LaunchErrors, GetLastErrorResetsAfterReporting) {
  MX_SPEC("lang.launch.error.reported-by-get-last-error");
  SetFlag<<<1, 1025>>>(flag_);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
}

TEST_F(LaunchErrors, BlockDimensionOverMaxFails) {
  MX_SPEC("lang.launch.limit.block-dimension-exceeds-max");
  bool ran = true;
  // maxThreadsDim[2] is 1024 but the product limit also applies: use
  // 1 x 1 x 1024 as the control and 1 x 1 x 1025 as the fault.
  EXPECT_EQ(Launch(1, dim3(1, 1, 1024), &ran), mcSuccess);
  EXPECT_TRUE(ran);
  EXPECT_EQ(Launch(1, dim3(1, 1, 1025), &ran), mcErrorInvalidConfiguration);
  EXPECT_FALSE(ran);
}

TEST_F(LaunchErrors, ZeroExtentFails) {
  MX_SPEC("lang.launch.limit.zero-extent");
  bool ran = true;
  EXPECT_EQ(Launch(0, 1, &ran), mcErrorInvalidConfiguration);
  EXPECT_FALSE(ran);
  EXPECT_EQ(Launch(1, 0, &ran), mcErrorInvalidConfiguration);
  EXPECT_FALSE(ran);
  EXPECT_EQ(Launch(dim3(1, 0, 1), 1, &ran), mcErrorInvalidConfiguration);
  EXPECT_FALSE(ran);
  EXPECT_EQ(Launch(1, 1, &ran), mcSuccess);
  EXPECT_TRUE(ran);
}

// Runs in a fresh process whose device work may run only when the host
// waits for it: each zero-extent launch must fail when it is made, not
// when a later wait runs it. A valid launch is the control: it succeeds
// and its kernel runs once waited for.
std::string ZeroExtentLaunchesFailWhenMade() {
  int* flag = nullptr;
  if (mcMallocManaged(&flag, sizeof(int)) != mcSuccess) {
    return "mcMallocManaged failed";
  }
  *flag = 0;
  struct Shape {
    const char* zero;
    dim3 grid;
    dim3 block;
  };
  const Shape shapes[] = {{"grid x", dim3(0, 1, 1), dim3(1, 1, 1)},
                          {"grid z", dim3(1, 1, 0), dim3(1, 1, 1)},
                          {"block x", dim3(1, 1, 1), dim3(0, 1, 1)},
                          {"block y", dim3(1, 1, 1), dim3(1, 0, 1)}};
  std::string problems;
  for (const Shape& shape : shapes) {
    SetFlag<<<shape.grid, shape.block>>>(flag);
    const mcError_t error = mcGetLastError();
    if (error != mcErrorInvalidConfiguration) {
      problems += std::string("a launch with a zero ") + shape.zero +
                  " extent gave " + mcGetErrorName(error) +
                  " when made, not mcErrorInvalidConfiguration; ";
    }
  }
  const mcError_t waited = mcDeviceSynchronize();
  if (waited != mcSuccess) {
    problems += std::string(
                    "mcDeviceSynchronize after the failed launches "
                    "gave ") +
                mcGetErrorName(waited) + "; ";
  }
  if (*flag != 0) problems += "a failed launch ran its kernel; ";
  SetFlag<<<1, 1>>>(flag);
  const mcError_t control = mcGetLastError();
  if (control != mcSuccess) {
    problems +=
        std::string("the valid launch gave ") + mcGetErrorName(control) + "; ";
  }
  if (mcDeviceSynchronize() != mcSuccess || *flag != 1) {
    problems += "the valid launch did not run; ";
  }
  mcFree(flag);
  return problems;
}

TEST(LaunchErrorsWhenWorkIsDeferred, ZeroExtentFailsWhenTheLaunchIsMade) {
  MX_SPEC("lang.launch.limit.zero-extent",
          "lang.launch.error.reported-by-get-last-error",
          "lang.launch.failed-launch-runs-nothing");
  // The reference's mode that runs device work only when the host waits,
  // as a device that runs work some time after the launch returns would;
  // other implementations ignore the variable.
  mxcts::conformance::ScopedEnvironment deferred("MXCTS_TIMELINE", "deferred");
  MX_EXPECT_IN_FRESH_PROCESS(ZeroExtentLaunchesFailWhenMade());
}

TEST_F(LaunchErrors, NegativeExtentWrapsAndFails) {
  MX_SPEC("lang.launch.limit.negative-extent-wraps");
  bool ran = true;
  EXPECT_EQ(Launch(1, -1, &ran), mcErrorInvalidConfiguration);
  EXPECT_FALSE(ran);
}

TEST_F(LaunchErrors, GridDimensionOverMaxFails) {
  MX_SPEC("lang.launch.limit.grid-dimension-exceeds-max");
  mcDeviceProp_t properties;
  ASSERT_EQ(mcGetDeviceProperties(&properties, 0), mcSuccess);
  ASSERT_GT(properties.maxGridSize[1], 0);
  bool ran = true;
  const unsigned over = static_cast<unsigned>(properties.maxGridSize[1]) + 1u;
  ASSERT_NE(over, 0u) << "maxGridSize[1] is the largest unsigned value";
  EXPECT_EQ(Launch(dim3(1, over, 1), 1, &ran), mcErrorInvalidConfiguration);
  EXPECT_FALSE(ran);
}

TEST_F(LaunchErrors, DynamicSharedAtLimitRuns) {
  MX_SPEC("lang.launch.limit.max-values-accepted");
  mcDeviceProp_t properties;
  ASSERT_EQ(mcGetDeviceProperties(&properties, 0), mcSuccess);
  UseDynamicShared<<<1, 1, properties.sharedMemPerBlock>>>(flag_);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*flag_, 1);
}

TEST_F(LaunchErrors, DynamicSharedOverLimitFails) {
  MX_SPEC("lang.launch.limit.shared-memory-exceeds-max",
          "lang.launch.failed-launch-runs-nothing");
  mcDeviceProp_t properties;
  ASSERT_EQ(mcGetDeviceProperties(&properties, 0), mcSuccess);
  UseDynamicShared<<<1, 1, properties.sharedMemPerBlock + 1>>>(flag_);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*flag_, 0);
}

TEST_F(LaunchErrors, MclaunchkernelReportsTheSameErrors) {
  MX_SPEC("lang.launch.operand.equivalent-to-mclaunchkernel");
  int* flag = flag_;
  void* args[] = {&flag};
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(SetFlag), dim3(1),
                           dim3(1025), args, 0, nullptr),
            mcErrorInvalidConfiguration);
  EXPECT_EQ(*flag_, 0);
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(SetFlag), dim3(1),
                           dim3(1), args, 0, nullptr),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*flag_, 1);
}

}  // namespace
