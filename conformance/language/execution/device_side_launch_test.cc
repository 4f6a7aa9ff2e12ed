// Copyright mxcts authors.
//
// Conformance: a kernel called with <<<...>>> from device code
// (docs/spec/lang-function-spaces.md,
// lang.function.global.callable-from-device;
// docs/spec/lang-execution-configuration.md, lang.launch.device-side-launch;
// docs/spec/lang-builtin-variables.md, lang.builtin.child-grid-own-values),
// on a backend that claims dynamic parallelism. The child grid is
// launched from a kernel and from a __device__ function, with a
// configuration of its own, and its built-in variables describe that
// configuration; the parent's own reading of them, taken after the launch,
// is the control that the two grids are told apart.

#include <mc_runtime.h>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

// Six values per child thread: its blockIdx.x, threadIdx.x, blockDim.x,
// blockDim.y, gridDim.x and gridDim.y.
constexpr int kFields = 6;

__global__ void RecordChild(unsigned* out) {
  const unsigned thread =
      threadIdx.x + blockDim.x * threadIdx.y +
      blockDim.x * blockDim.y * (blockIdx.x + gridDim.x * blockIdx.y);
  unsigned* mine = out + thread * kFields;
  mine[0] = blockIdx.x;
  mine[1] = threadIdx.x;
  mine[2] = blockDim.x;
  mine[3] = blockDim.y;
  mine[4] = gridDim.x;
  mine[5] = gridDim.y;
}

// The parent runs with 1 block of 2 threads; thread 1 launches a 3 x 1 grid
// of 4 x 2 blocks and then records the parent's own built-ins.
__global__ void ParentKernel(unsigned* child_out, unsigned* parent_out) {
  if (threadIdx.x != 1) return;
  RecordChild<<<dim3(3, 1), dim3(4, 2)>>>(child_out);
  parent_out[0] = gridDim.x;
  parent_out[1] = blockDim.x;
  parent_out[2] = threadIdx.x;
}

__device__ void LaunchFromDeviceFunction(unsigned* child_out) {
  RecordChild<<<2, 5, 0, 0>>>(child_out);
}

__global__ void ParentThroughFunction(unsigned* child_out) {
  LaunchFromDeviceFunction(child_out);
}

class DeviceSideLaunch : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMallocManaged(&child_, 64 * kFields * sizeof(unsigned)),
              mcSuccess);
    ASSERT_EQ(mcMallocManaged(&parent_, 4 * sizeof(unsigned)), mcSuccess);
    for (int i = 0; i < 64 * kFields; ++i) child_[i] = 999;
    for (int i = 0; i < 4; ++i) parent_[i] = 999;
  }
  void TearDown() override {
    mcFree(child_);
    mcFree(parent_);
  }
  unsigned* child_ = nullptr;
  unsigned* parent_ = nullptr;
};

TEST_F(DeviceSideLaunch, KernelLaunchesAChildGridOfItsOwnConfiguration) {
  MX_SPEC("lang.function.global.callable-from-device",
          "lang.launch.device-side-launch",
          "lang.builtin.child-grid-own-values");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  ParentKernel<<<1, 2>>>(child_, parent_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // 3 blocks of 8 threads: 24 records, each with the child's values.
  for (unsigned t = 0; t < 24; ++t) {
    const unsigned* record = child_ + t * kFields;
    EXPECT_EQ(record[0], t / 8) << "thread " << t;
    EXPECT_EQ(record[1], t % 4) << "thread " << t;
    EXPECT_EQ(record[2], 4u);
    EXPECT_EQ(record[3], 2u);
    EXPECT_EQ(record[4], 3u);
    EXPECT_EQ(record[5], 1u);
  }
  EXPECT_EQ(child_[24 * kFields], 999u);  // no 25th thread
  // Control: the parent's own values are those of its launch.
  EXPECT_EQ(parent_[0], 1u);
  EXPECT_EQ(parent_[1], 2u);
  EXPECT_EQ(parent_[2], 1u);
}

TEST_F(DeviceSideLaunch, DeviceFunctionLaunchesAChildGrid) {
  MX_SPEC("lang.launch.device-side-launch",
          "lang.function.global.callable-from-device",
          "lang.builtin.child-grid-own-values");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  ParentThroughFunction<<<1, 1>>>(child_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned t = 0; t < 10; ++t) {
    const unsigned* record = child_ + t * kFields;
    EXPECT_EQ(record[0], t / 5) << "thread " << t;
    EXPECT_EQ(record[1], t % 5) << "thread " << t;
    EXPECT_EQ(record[2], 5u);
    EXPECT_EQ(record[3], 1u);
    EXPECT_EQ(record[4], 2u);
    EXPECT_EQ(record[5], 1u);
  }
  EXPECT_EQ(child_[10 * kFields], 999u);
}

}  // namespace
