// Copyright mxcts authors.
//
// The occupancy model of occupancy.h, in integer arithmetic: each limit is
// a quotient, the answer their minimum. The block-size search walks down
// from the ceiling in steps of one wave and stops early once a size fills
// the multiprocessor's threads, which no smaller size can beat.
//
// Tested by occupancy_test.cc.

#include "reference/runtime/devices/occupancy.h"

#include <algorithm>
#include <cstdint>

#include "reference/runtime/devices/device_config.h"

namespace mxcts::runtime {
namespace {

constexpr int kGranularity = config::kOccupancyThreadGranularity;

int RoundUpToWave(int threads) {
  return (threads + kGranularity - 1) / kGranularity * kGranularity;
}

}  // namespace

int MaxActiveBlocksPerMultiprocessor(const mcDeviceProp_t& device,
                                     const KernelResources& kernel,
                                     int block_size,
                                     size_t dynamic_shared_bytes) {
  if (block_size <= 0 || block_size > kernel.max_threads_per_block ||
      block_size > device.maxThreadsPerBlock) {
    return 0;
  }
  const uint64_t block_shared =
      uint64_t{kernel.static_shared_bytes} + dynamic_shared_bytes;
  if (block_shared > device.sharedMemPerBlockOptin) return 0;
  const int64_t threads = RoundUpToWave(block_size);
  int64_t blocks =
      std::min<int64_t>(device.maxThreadsPerMultiProcessor / threads,
                        device.maxBlocksPerMultiProcessor);
  const uint64_t shared = block_shared + device.reservedSharedMemPerBlock;
  if (shared > 0) {
    blocks = std::min<int64_t>(
        blocks,
        static_cast<int64_t>(device.sharedMemPerMultiprocessor / shared));
  }
  if (kernel.registers_per_thread > 0) {
    const int64_t block_registers = kernel.registers_per_thread * threads;
    if (block_registers > device.regsPerBlock) return 0;
    blocks = std::min<int64_t>(blocks,
                               device.regsPerMultiprocessor / block_registers);
  }
  return static_cast<int>(std::max<int64_t>(blocks, 0));
}

BlockSizeChoice MaxPotentialBlockSize(
    const mcDeviceProp_t& device, const KernelResources& kernel,
    const std::function<size_t(int)>& dynamic_shared, int block_size_limit) {
  int ceiling =
      std::min(kernel.max_threads_per_block, device.maxThreadsPerBlock);
  if (block_size_limit > 0) ceiling = std::min(ceiling, block_size_limit);
  BlockSizeChoice best;
  int best_threads = 0;
  for (int aligned = RoundUpToWave(ceiling); aligned > 0;
       aligned -= kGranularity) {
    const int size = std::min(aligned, ceiling);
    const int blocks = MaxActiveBlocksPerMultiprocessor(device, kernel, size,
                                                        dynamic_shared(size));
    if (blocks * size > best_threads) {
      best_threads = blocks * size;
      best.block_size = size;
      best.min_grid_size = blocks * device.multiProcessorCount;
    }
    if (best_threads >= device.maxThreadsPerMultiProcessor) break;
  }
  return best;
}

size_t AvailableDynamicSharedPerBlock(const mcDeviceProp_t& device,
                                      const KernelResources& kernel,
                                      int num_blocks, int block_size) {
  if (num_blocks <= 0 || MaxActiveBlocksPerMultiprocessor(
                             device, kernel, block_size, 0) < num_blocks) {
    return 0;
  }
  const size_t share = device.sharedMemPerMultiprocessor / num_blocks;
  const size_t overhead =
      kernel.static_shared_bytes + device.reservedSharedMemPerBlock;
  if (share <= overhead) return 0;
  return std::min(share - overhead,
                  device.sharedMemPerBlockOptin - kernel.static_shared_bytes);
}

}  // namespace mxcts::runtime
