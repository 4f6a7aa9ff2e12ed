// Conformance: the forms and operands of the execution configuration
// <<<Dg, Db, Ns, S>>> (docs/spec/lang-execution-configuration.md).
//
// Each kernel records what its threads saw into managed memory; the host
// checks the record after mcDeviceSynchronize.

#include <mc_runtime.h>

#include <cmath>

#include "conformance/testing/spec.h"

namespace {

struct LaunchShape {
  unsigned grid[3];
  unsigned block[3];
};

__global__ void RecordShape(LaunchShape* shape) {
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0 &&
      blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
    shape->grid[0] = gridDim.x;
    shape->grid[1] = gridDim.y;
    shape->grid[2] = gridDim.z;
    shape->block[0] = blockDim.x;
    shape->block[1] = blockDim.y;
    shape->block[2] = blockDim.z;
  }
}

__global__ void MarkThread(unsigned* marks) {
  unsigned block =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned thread =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
  marks[block * per_block + thread] += 1;
}

class LaunchConfiguration : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMallocManaged(&shape_, sizeof(LaunchShape)), mcSuccess);
    *shape_ = LaunchShape{};
  }
  void TearDown() override { mcFree(shape_); }

  LaunchShape* shape_ = nullptr;
};

TEST_F(LaunchConfiguration, TwoOperandFormSetsGridAndBlock) {
  MX_SPEC("lang.launch.syntax.chevron-between-name-and-args",
          "lang.launch.operand.dg-is-grid-extent",
          "lang.launch.operand.db-is-block-extent");
  RecordShape<<<dim3(2, 3, 4), dim3(5, 6, 7)>>>(shape_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(shape_->grid[0], 2u);
  EXPECT_EQ(shape_->grid[1], 3u);
  EXPECT_EQ(shape_->grid[2], 4u);
  EXPECT_EQ(shape_->block[0], 5u);
  EXPECT_EQ(shape_->block[1], 6u);
  EXPECT_EQ(shape_->block[2], 7u);
}

TEST_F(LaunchConfiguration, IntegerOperandsAreOneDimensional) {
  MX_SPEC("lang.launch.operand.integer-converts-to-one-dimension");
  RecordShape<<<3, 64>>>(shape_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(shape_->grid[0], 3u);
  EXPECT_EQ(shape_->grid[1], 1u);
  EXPECT_EQ(shape_->grid[2], 1u);
  EXPECT_EQ(shape_->block[0], 64u);
  EXPECT_EQ(shape_->block[1], 1u);
  EXPECT_EQ(shape_->block[2], 1u);
}

TEST_F(LaunchConfiguration, FloatingOperandIsTruncated) {
  MX_SPEC("lang.launch.operand.integer-converts-to-one-dimension");
  const int n = 1000;
  // ceil(1000 / 256.0) = 4.0: the usual way to size a grid.
  RecordShape<<<ceil(n / 256.0), 256>>>(shape_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(shape_->grid[0], 4u);
  // 2.9 truncates to 2, never rounds to 3.
  RecordShape<<<2.9, 32>>>(shape_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(shape_->grid[0], 2u);
}

TEST_F(LaunchConfiguration, EveryThreadOfEveryBlockRunsOnce) {
  MX_SPEC("lang.launch.operand.dg-is-grid-extent",
          "lang.launch.operand.db-is-block-extent");
  const dim3 grid(3, 2, 2);
  const dim3 block(4, 3, 2);
  const unsigned total = 3 * 2 * 2 * 4 * 3 * 2;
  unsigned* marks = nullptr;
  ASSERT_EQ(mcMallocManaged(&marks, (total + 1) * sizeof(unsigned)), mcSuccess);
  for (unsigned i = 0; i <= total; ++i) marks[i] = 0;
  MarkThread<<<grid, block>>>(marks);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned i = 0; i < total; ++i) EXPECT_EQ(marks[i], 1u) << "slot " << i;
  // Control: the slot past the last thread stays untouched.
  EXPECT_EQ(marks[total], 0u);
  mcFree(marks);
}

__global__ void WriteDynamicShared(int* out, int count) {
  extern __shared__ int dynamic_words[];
  if (threadIdx.x < static_cast<unsigned>(count)) {
    dynamic_words[threadIdx.x] = static_cast<int>(threadIdx.x) * 3;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int i = 0; i < count; ++i) sum += dynamic_words[i];
    *out = sum;
  }
}

TEST(LaunchOperands, ThirdOperandSizesDynamicSharedMemory) {
  MX_SPEC("lang.launch.operand.ns-dynamic-shared-bytes",
          "lang.launch.operand.ns-bytes-usable");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  *out = -1;
  const int count = 64;
  WriteDynamicShared<<<1, count, count * sizeof(int)>>>(out, count);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, 3 * (count - 1) * count / 2);
  mcFree(out);
}

TEST(LaunchOperands, FourthOperandNamesTheStream) {
  MX_SPEC("lang.launch.operand.s-is-stream",
          "lang.launch.operand.s-defaults-to-default-stream");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  *out = -1;
  WriteDynamicShared<<<1, 8, 8 * sizeof(int), stream>>>(out, 8);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(*out, 3 * 7 * 8 / 2);
  // 0, NULL and nullptr all name the default stream.
  *out = -1;
  WriteDynamicShared<<<1, 4, 4 * sizeof(int), 0>>>(out, 4);
  WriteDynamicShared<<<1, 4, 4 * sizeof(int), NULL>>>(out, 4);
  WriteDynamicShared<<<1, 4, 4 * sizeof(int), nullptr>>>(out, 4);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, 3 * 3 * 4 / 2);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  mcFree(out);
}

}  // namespace
