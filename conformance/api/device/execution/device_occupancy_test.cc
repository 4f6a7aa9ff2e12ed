// Copyright mxcts authors.
//
// Conformance: results of the occupancy calculators
// (docs/spec/api-device.md, "Occupancy") for many block sizes, amounts of
// dynamic shared memory and block size limits: the counts respect the
// multiprocessor's limits, a block that can be launched counts at least
// once, the potential block size is the best of its candidates, and the
// C++ forms agree with the C functions.

#include <mc_runtime.h>

#include <algorithm>
#include <string>

#include "conformance/testing/spec.h"

namespace {

__global__ void Increment(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

__global__ void UsesShared(int* out) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      scratch[blockDim.x - 1 - threadIdx.x];
}

const void* IncrementKernel() {
  return reinterpret_cast<const void*>(&Increment);
}

mcDeviceProp_t Properties() {
  mcDeviceProp_t prop;
  EXPECT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  return prop;
}

int MaxActive(const void* kernel, int block_size, size_t dynamic) {
  int blocks = -1;
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel,
                                                        block_size, dynamic),
            mcSuccess);
  return blocks;
}

class BlockSize : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcGetLastError(); }
  int block_size() const { return GetParam(); }
};

TEST_P(BlockSize, ActiveBlocksRespectTheMultiprocessor) {
  MX_SPEC("api.device.occupancy.max-active-blocks",
          "api.device.occupancy.max-active-blocks-fits");
  const mcDeviceProp_t prop = Properties();
  const int blocks = MaxActive(IncrementKernel(), block_size(), 0);
  EXPECT_GE(blocks, 1);
  EXPECT_LE(blocks * block_size(), prop.maxThreadsPerMultiProcessor);
  EXPECT_LE(blocks, prop.maxBlocksPerMultiProcessor);
  // The C++ form with the kernel itself agrees.
  int direct = -1;
  ASSERT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(&direct, Increment,
                                                        block_size(), 0),
            mcSuccess);
  EXPECT_EQ(direct, blocks);
}

TEST_P(BlockSize, AGridOfThatManyBlocksRuns) {
  MX_SPEC("api.device.occupancy.max-active-blocks-fits");
  const mcDeviceProp_t prop = Properties();
  const int blocks = MaxActive(IncrementKernel(), block_size(), 0);
  const int n = blocks * prop.multiProcessorCount * block_size();
  int* data = nullptr;
  ASSERT_EQ(mcMallocManaged(&data, n * sizeof(int)), mcSuccess);
  std::fill(data, data + n, 0);
  Increment<<<blocks * prop.multiProcessorCount, block_size()>>>(data, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(std::count(data, data + n, 1), n);
  mcFree(data);
}

TEST_P(BlockSize, DynamicSharedMemoryLimitsTheCount) {
  MX_SPEC("api.device.occupancy.max-active-blocks");
  const mcDeviceProp_t prop = Properties();
  const size_t dynamic = prop.sharedMemPerBlock / 3;
  const int blocks = MaxActive(IncrementKernel(), block_size(), dynamic);
  EXPECT_GE(blocks, 1);
  EXPECT_LE(blocks * dynamic, prop.sharedMemPerMultiprocessor);
  EXPECT_LE(blocks, MaxActive(IncrementKernel(), block_size(), 0));
}

TEST_P(BlockSize, FlagsGiveTheSameCount) {
  MX_SPEC("api.device.occupancy.flags");
  const int plain = MaxActive(IncrementKernel(), block_size(), 256);
  int with_default = -1, with_override = -1;
  ASSERT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                &with_default, IncrementKernel(), block_size(), 256,
                mcOccupancyDefault),
            mcSuccess);
  ASSERT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                &with_override, Increment, block_size(), 256,
                mcOccupancyDisableCachingOverride),
            mcSuccess);
  EXPECT_EQ(with_default, plain);
  EXPECT_GE(with_override, 1);
}

TEST_P(BlockSize, AvailableDynamicSharedIsTheMostThatFits) {
  MX_SPEC("api.device.occupancy.available-dynamic-shared");
  const mcDeviceProp_t prop = Properties();
  const int resident = MaxActive(IncrementKernel(), block_size(), 0);
  for (int blocks : {1, std::max(1, resident / 2), resident}) {
    size_t bytes = 0;
    ASSERT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, Increment, blocks,
                                                      block_size()),
              mcSuccess);
    EXPECT_GE(MaxActive(IncrementKernel(), block_size(), bytes), blocks)
        << blocks << " blocks, " << bytes << " bytes";
    if (bytes < prop.sharedMemPerBlockOptin) {
      EXPECT_LT(MaxActive(IncrementKernel(), block_size(), bytes + 1), blocks)
          << blocks << " blocks, " << bytes + 1 << " bytes";
    }
  }
  // More blocks than fit even without shared memory: nothing available.
  size_t bytes = 99;
  ASSERT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, IncrementKernel(),
                                                    resident + 1, block_size()),
            mcSuccess);
  EXPECT_EQ(bytes, 0u);
}

INSTANTIATE_TEST_SUITE_P(Sizes, BlockSize,
                         testing::Values(1, 32, 63, 64, 65, 100, 128, 192, 256,
                                         320, 384, 512, 640, 768, 1000, 1024));

TEST(Occupancy, UnlaunchableBlocksCountZero) {
  MX_SPEC("api.device.occupancy.unlaunchable-block-is-zero");
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, Increment), mcSuccess);
  const mcDeviceProp_t prop = Properties();
  EXPECT_EQ(MaxActive(IncrementKernel(), a.maxThreadsPerBlock + 1, 0), 0);
  EXPECT_EQ(MaxActive(IncrementKernel(), 64,
                      prop.sharedMemPerBlockOptin - a.sharedSizeBytes + 1),
            0);
  // Controls: the largest block, and the most shared memory.
  EXPECT_GE(MaxActive(IncrementKernel(), a.maxThreadsPerBlock, 0), 1);
  EXPECT_GE(MaxActive(IncrementKernel(), 64,
                      prop.sharedMemPerBlockOptin - a.sharedSizeBytes),
            1);
}

// The resident threads per multiprocessor for `size`.
int Occupancy(int size, size_t dynamic) {
  return MaxActive(IncrementKernel(), size, dynamic) * size;
}

class BlockSizeLimit : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(BlockSizeLimit, PotentialBlockSizeIsTheBestCandidate) {
  MX_SPEC("api.device.occupancy.max-potential-block-size");
  const mcDeviceProp_t prop = Properties();
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, Increment), mcSuccess);
  const int limit = GetParam();
  int min_grid = -1, block = -1;
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSize(&min_grid, &block,
                                             IncrementKernel(), 0, limit),
            mcSuccess);
  int bound = a.maxThreadsPerBlock;
  if (limit > 0) bound = std::min(bound, limit);
  ASSERT_GT(block, 0);
  EXPECT_LE(block, bound);
  EXPECT_EQ(min_grid,
            MaxActive(IncrementKernel(), block, 0) * prop.multiProcessorCount);
  // No candidate does better, and none as good is larger.
  const int best = Occupancy(block, 0);
  for (int size = prop.warpSize; size <= bound; size += prop.warpSize) {
    EXPECT_LE(Occupancy(size, 0), best) << size;
    if (size > block) {
      EXPECT_LT(Occupancy(size, 0), best) << size;
    }
  }
  EXPECT_LE(Occupancy(bound, 0), best);
  // The C++ form with the kernel itself agrees.
  int min_grid2 = -1, block2 = -1;
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSize(&min_grid2, &block2, Increment, 0,
                                             limit),
            mcSuccess);
  EXPECT_EQ(block2, block);
  EXPECT_EQ(min_grid2, min_grid);
}

INSTANTIATE_TEST_SUITE_P(Limits, BlockSizeLimit,
                         testing::Values(0, 1, 32, 64, 100, 200, 256, 1000,
                                         1024, 4096));

TEST(Occupancy, PotentialBlockSizeWithSharedMemory) {
  MX_SPEC("api.device.occupancy.max-potential-block-size");
  const mcDeviceProp_t prop = Properties();
  const size_t dynamic = prop.sharedMemPerBlock / 2;
  int min_grid = -1, block = -1;
  ASSERT_EQ(
      mcOccupancyMaxPotentialBlockSize(&min_grid, &block, Increment, dynamic),
      mcSuccess);
  ASSERT_GT(block, 0);
  EXPECT_EQ(min_grid, MaxActive(IncrementKernel(), block, dynamic) *
                          prop.multiProcessorCount);
  for (int size = prop.warpSize; size <= prop.maxThreadsPerBlock;
       size += prop.warpSize) {
    EXPECT_LE(Occupancy(size, dynamic), Occupancy(block, dynamic)) << size;
  }
}

TEST(Occupancy, PotentialBlockSizeWhenNothingFits) {
  MX_SPEC("api.device.occupancy.max-potential-block-size");
  const mcDeviceProp_t prop = Properties();
  int min_grid = -1, block = -1;
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSize(&min_grid, &block, Increment,
                                             prop.sharedMemPerBlockOptin + 1),
            mcSuccess);
  EXPECT_EQ(block, 0);
  EXPECT_EQ(min_grid, 0);
}

TEST(Occupancy, PotentialBlockSizeWithFlagsAgrees) {
  MX_SPEC("api.device.occupancy.flags");
  int grid1 = -1, block1 = -1, grid2 = -1, block2 = -1;
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSize(&grid1, &block1, Increment, 512),
            mcSuccess);
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSizeWithFlags(
                &grid2, &block2, Increment, 512, 0, mcOccupancyDefault),
            mcSuccess);
  EXPECT_EQ(block1, block2);
  EXPECT_EQ(grid1, grid2);
}

size_t EightBytesPerThread(int size) { return static_cast<size_t>(size) * 8; }

TEST(Occupancy, VariableSharedMemoryFollowsTheSameRule) {
  MX_SPEC("api.device.occupancy.max-potential-variable-shared");
  const mcDeviceProp_t prop = Properties();
  int min_grid = -1, block = -1;
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSizeVariableSMem(
                &min_grid, &block, Increment, EightBytesPerThread),
            mcSuccess);
  ASSERT_GT(block, 0);
  EXPECT_EQ(min_grid,
            MaxActive(IncrementKernel(), block, EightBytesPerThread(block)) *
                prop.multiProcessorCount);
  for (int size = prop.warpSize; size <= prop.maxThreadsPerBlock;
       size += prop.warpSize) {
    EXPECT_LE(Occupancy(size, EightBytesPerThread(size)),
              Occupancy(block, EightBytesPerThread(block)))
        << size;
  }
  // A constant function gives what the plain form gives.
  int grid_plain = -1, block_plain = -1, grid_var = -1, block_var = -1;
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSize(&grid_plain, &block_plain,
                                             Increment, 1024, 512),
            mcSuccess);
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
                &grid_var, &block_var, Increment,
                [](int) { return size_t{1024}; }, 512, mcOccupancyDefault),
            mcSuccess);
  EXPECT_EQ(block_var, block_plain);
  EXPECT_EQ(grid_var, grid_plain);
}

TEST(Occupancy, TheChosenConfigurationRuns) {
  MX_SPEC("api.device.occupancy.max-potential-block-size",
          "api.device.occupancy.available-dynamic-shared");
  int min_grid = -1, block = -1;
  ASSERT_EQ(
      mcOccupancyMaxPotentialBlockSizeVariableSMem(
          &min_grid, &block, UsesShared,
          [](int size) { return static_cast<size_t>(size) * sizeof(int); }),
      mcSuccess);
  ASSERT_GT(block, 0);
  const int n = min_grid * block;
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, n * sizeof(int)), mcSuccess);
  UsesShared<<<min_grid, block, block * sizeof(int)>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(out[i], block - 1 - i % block) << i;
  }
  mcFree(out);
}

}  // namespace
