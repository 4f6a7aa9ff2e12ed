// Copyright mxcts authors.
//
// Tests of the occupancy model: each limit binding in turn, blocks that do
// not fit, the block-size search and its tie rule, and the dynamic shared
// memory available to a number of resident blocks.

#include "reference/runtime/devices/occupancy.h"

#include <gtest/gtest.h>

#include "reference/runtime/devices/device_config.h"

namespace mxcts::runtime {
namespace {

const mcDeviceProp_t kC500 = config::DefaultDeviceProperties(0);
const KernelResources kPlain = {1024, 0, 0};

size_t NoShared(int) { return 0; }

struct ThreadCase {
  int block_size;
  int blocks;
};

class ThreadLimit : public testing::TestWithParam<ThreadCase> {};

// 2048 threads and 32 blocks per multiprocessor, whole waves of 64.
TEST_P(ThreadLimit, BlocksPerMultiprocessor) {
  EXPECT_EQ(
      MaxActiveBlocksPerMultiprocessor(kC500, kPlain, GetParam().block_size, 0),
      GetParam().blocks);
}

INSTANTIATE_TEST_SUITE_P(
    BlockSizes, ThreadLimit,
    testing::Values(ThreadCase{1, 32}, ThreadCase{32, 32}, ThreadCase{64, 32},
                    ThreadCase{65, 16}, ThreadCase{96, 16}, ThreadCase{128, 16},
                    ThreadCase{192, 10}, ThreadCase{256, 8}, ThreadCase{320, 6},
                    ThreadCase{512, 4}, ThreadCase{640, 3}, ThreadCase{1000, 2},
                    ThreadCase{1024, 2}, ThreadCase{1025, 0}));

TEST(Occupancy, SharedMemoryLimits) {
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, kPlain, 64, 32768), 2);
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, kPlain, 64, 32769), 1);
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, kPlain, 64, 65536), 1);
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, kPlain, 64, 65537), 0);
  const KernelResources with_static = {1024, 0, 16384};
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, with_static, 64, 0), 4);
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, with_static, 64, 49153), 0);
}

TEST(Occupancy, RegisterLimits) {
  const KernelResources hungry = {1024, 64, 0};
  // 64 registers * 256 threads = 16384 per block; 131072 / 16384 = 8.
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, hungry, 256, 0), 8);
  const KernelResources hungrier = {1024, 128, 0};
  // 128 * 1024 = 131072 per block: one fits, by registers and threads.
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, hungrier, 1024, 0), 1);
  const KernelResources hungriest = {1024, 256, 0};
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, hungriest, 1024, 0), 0);
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, hungriest, 512, 0), 1);
}

TEST(Occupancy, KernelBoundAndConfiguredDevice) {
  const KernelResources bounded = {256, 0, 0};
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, bounded, 256, 0), 8);
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(kC500, bounded, 320, 0), 0);
  mcDeviceProp_t small = kC500;
  small.maxBlocksPerMultiProcessor = 4;
  small.reservedSharedMemPerBlock = 1024;
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(small, kPlain, 64, 0), 4);
  // 65536 / (15360 + 1024) = 4; / (16384 + 1024) = 3.
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(small, kPlain, 64, 15360), 4);
  EXPECT_EQ(MaxActiveBlocksPerMultiprocessor(small, kPlain, 64, 16384), 3);
}

TEST(Occupancy, NeverMoreThreadsThanTheMultiprocessorHolds) {
  for (int size = 1; size <= 1024; ++size) {
    const int blocks = MaxActiveBlocksPerMultiprocessor(kC500, kPlain, size, 0);
    EXPECT_GE(blocks, 1) << size;
    EXPECT_LE(blocks * size, kC500.maxThreadsPerMultiProcessor) << size;
  }
}

TEST(MaxPotentialBlockSize, PrefersTheLargestBlockAmongTies) {
  // Every multiple of 64 up to 1024 fills the 2048 threads: 1024 wins.
  BlockSizeChoice c = MaxPotentialBlockSize(kC500, kPlain, NoShared, 0);
  EXPECT_EQ(c.block_size, 1024);
  EXPECT_EQ(c.min_grid_size, 2 * kC500.multiProcessorCount);
}

TEST(MaxPotentialBlockSize, RespectsTheLimit) {
  BlockSizeChoice c = MaxPotentialBlockSize(kC500, kPlain, NoShared, 200);
  // 200 takes four waves: 8 blocks, 1600 threads; 192: 10 blocks, 1920;
  // 128: 16 blocks, all 2048 threads.
  EXPECT_EQ(c.block_size, 128);
  EXPECT_EQ(c.min_grid_size, 16 * kC500.multiProcessorCount);
  c = MaxPotentialBlockSize(kC500, kPlain, NoShared, 192);
  EXPECT_EQ(c.block_size, 128);
  c = MaxPotentialBlockSize(kC500, kPlain, NoShared, 100);
  // 100: 16 blocks of two waves, 1600 threads; 64: 32 blocks, 2048.
  EXPECT_EQ(c.block_size, 64);
  c = MaxPotentialBlockSize(kC500, kPlain, NoShared, 48);
  EXPECT_EQ(c.block_size, 48);
  EXPECT_EQ(c.min_grid_size, 32 * kC500.multiProcessorCount);
}

TEST(MaxPotentialBlockSize, SharedMemoryPerBlockFavoursLargeBlocks) {
  // 32 KiB per block: two blocks fit whatever their size, so the largest.
  BlockSizeChoice c = MaxPotentialBlockSize(
      kC500, kPlain, [](int) { return size_t{32768}; }, 0);
  EXPECT_EQ(c.block_size, 1024);
  EXPECT_EQ(c.min_grid_size, 2 * kC500.multiProcessorCount);
  // Shared memory per thread: 64 bytes a thread allows 1024 threads.
  c = MaxPotentialBlockSize(
      kC500, kPlain, [](int size) { return size_t(size) * 64; }, 0);
  EXPECT_EQ(c.block_size, 1024);
  EXPECT_EQ(c.min_grid_size, kC500.multiProcessorCount);
}

TEST(MaxPotentialBlockSize, NothingFitsGivesZero) {
  BlockSizeChoice c = MaxPotentialBlockSize(
      kC500, kPlain, [](int) { return size_t{70000}; }, 0);
  EXPECT_EQ(c.block_size, 0);
  EXPECT_EQ(c.min_grid_size, 0);
}

TEST(AvailableDynamicShared, DividesTheMultiprocessor) {
  EXPECT_EQ(AvailableDynamicSharedPerBlock(kC500, kPlain, 1, 256), 65536u);
  EXPECT_EQ(AvailableDynamicSharedPerBlock(kC500, kPlain, 2, 256), 32768u);
  EXPECT_EQ(AvailableDynamicSharedPerBlock(kC500, kPlain, 3, 256), 21845u);
  EXPECT_EQ(AvailableDynamicSharedPerBlock(kC500, kPlain, 8, 256), 8192u);
  // Nine blocks of 256 threads never fit.
  EXPECT_EQ(AvailableDynamicSharedPerBlock(kC500, kPlain, 9, 256), 0u);
  EXPECT_EQ(AvailableDynamicSharedPerBlock(kC500, kPlain, 1, 2048), 0u);
  const KernelResources with_static = {1024, 0, 4096};
  EXPECT_EQ(AvailableDynamicSharedPerBlock(kC500, with_static, 2, 64),
            32768u - 4096u);
}

TEST(AvailableDynamicShared, TheAnswerFitsAndOneMoreByteDoesNot) {
  for (int blocks = 1; blocks <= 8; ++blocks) {
    const size_t bytes =
        AvailableDynamicSharedPerBlock(kC500, kPlain, blocks, 128);
    EXPECT_GE(MaxActiveBlocksPerMultiprocessor(kC500, kPlain, 128, bytes),
              blocks);
    if (bytes < kC500.sharedMemPerBlockOptin) {
      EXPECT_LT(MaxActiveBlocksPerMultiprocessor(kC500, kPlain, 128, bytes + 1),
                blocks);
    }
  }
}

}  // namespace
}  // namespace mxcts::runtime
