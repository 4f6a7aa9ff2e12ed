// Copyright mxcts authors.
//
// Conformance: a launch with more threads per block than the kernel can
// run with (docs/spec/lang-execution-configuration.md,
// lang.launch.limit.exceeds-kernel-resources): the kernel's limit is the
// maxThreadsPerBlock that mcFuncGetAttributes reports, here lowered by
// __launch_bounds__. One thread over it fails with
// mcErrorLaunchOutOfResources and runs nothing; exactly the limit (the
// control) runs. The limit is read, not assumed, so the test holds
// whatever lower value an implementation reports.

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

__global__ void __launch_bounds__(96) Bounded(unsigned* ran) {
  atomicAdd(ran, 1u);
}

class KernelResourceLimit : public testing::Test {
 protected:
  void SetUp() override {
    mcFuncAttributes attributes;
    ASSERT_EQ(mcFuncGetAttributes(&attributes,
                                  reinterpret_cast<const void*>(&Bounded)),
              mcSuccess);
    limit_ = attributes.maxThreadsPerBlock;
    ASSERT_GT(limit_, 0);
    ASSERT_LE(limit_, 96);
    ASSERT_EQ(mcMallocManaged(&ran_, sizeof(unsigned)), mcSuccess);
    *ran_ = 0;
  }
  void TearDown() override { mcFree(ran_); }
  int limit_ = 0;
  unsigned* ran_ = nullptr;
};

TEST_F(KernelResourceLimit, OneThreadOverTheKernelsLimitFails) {
  MX_SPEC("lang.launch.limit.exceeds-kernel-resources");
  Bounded<<<2, limit_ + 1>>>(ran_);
  EXPECT_EQ(mcGetLastError(), mcErrorLaunchOutOfResources);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 0u);
  void* args[] = {&ran_};
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&Bounded), dim3(1),
                           dim3(limit_ + 1), args, 0, nullptr),
            mcErrorLaunchOutOfResources);
  // The failed mcLaunchKernel is the last error too; reading it resets it.
  EXPECT_EQ(mcGetLastError(), mcErrorLaunchOutOfResources);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 0u);
}

TEST_F(KernelResourceLimit, ControlExactlyTheLimitRuns) {
  MX_SPEC("lang.launch.limit.exceeds-kernel-resources");
  Bounded<<<2, limit_>>>(ran_);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 2u * static_cast<unsigned>(limit_));
}

}  // namespace
