// Copyright mxcts authors.
//
// reference/runtime/devices/occupancy.h: how many blocks of a kernel fit on one
// multiprocessor, the model behind the mcOccupancy* calculators.
//
// A block of `block_size` threads occupies whole waves of 64 threads. The
// blocks resident on one multiprocessor are limited by each of:
//   - threads: maxThreadsPerMultiProcessor / (block_size rounded up to a
//     wave);
//   - blocks: maxBlocksPerMultiProcessor;
//   - shared memory: sharedMemPerMultiprocessor / (the kernel's static
//     shared memory + the dynamic shared memory + reservedSharedMemPerBlock),
//     when that sum is not 0;
//   - registers: regsPerMultiprocessor / (registers per thread * threads of
//     the rounded block), when the kernel uses registers;
// and none fits when one block alone breaks a per-block limit (more threads
// than the kernel or device allows, more shared memory than
// sharedMemPerBlockOptin, more registers than regsPerBlock).
// [api.device.occupancy.model]
//
//   KernelResources k = {1024, 0, 0};
//   MaxActiveBlocksPerMultiprocessor(prop, k, 256, 0);      // 2048/256 = 8
//   MaxActiveBlocksPerMultiprocessor(prop, k, 100, 32768);  // 2 (shared)

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICES_OCCUPANCY_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICES_OCCUPANCY_H_

#include <stddef.h>

#include <functional>

#include "mcr/mc_runtime_types.h"

namespace mxcts::runtime {

// What one kernel needs of a multiprocessor.
struct KernelResources {
  int max_threads_per_block = 0;  // the largest block it can run with
  int registers_per_thread = 0;
  size_t static_shared_bytes = 0;
};

// Blocks of `block_size` threads, each with `dynamic_shared_bytes` of
// dynamic shared memory, resident at once on one multiprocessor of
// `device`; 0 if one block does not fit (`block_size` must be positive).
// [api.device.occupancy.max-active-blocks]
int MaxActiveBlocksPerMultiprocessor(const mcDeviceProp_t& device,
                                     const KernelResources& kernel,
                                     int block_size,
                                     size_t dynamic_shared_bytes);

// The block size with the most resident threads per multiprocessor, and
// the grid that fills the device with it.
struct BlockSizeChoice {
  int block_size = 0;     // 0 if no block size fits
  int min_grid_size = 0;  // resident blocks * multiProcessorCount
};

// Tries every multiple of 64 up to the ceiling (the kernel's and device's
// largest block, and `block_size_limit` when it is positive) and the
// ceiling itself, from large to small, with `dynamic_shared(size)` bytes
// of dynamic shared memory; the first size with the most resident threads
// wins, so ties favour larger blocks.
// [api.device.occupancy.max-potential-block-size]
BlockSizeChoice MaxPotentialBlockSize(
    const mcDeviceProp_t& device, const KernelResources& kernel,
    const std::function<size_t(int)>& dynamic_shared, int block_size_limit);

// The most dynamic shared memory each block can have so that `num_blocks`
// blocks of `block_size` threads are resident at once on one
// multiprocessor; 0 if they do not fit even without (`num_blocks` and
// `block_size` must be positive).
// [api.device.occupancy.available-dynamic-shared]
size_t AvailableDynamicSharedPerBlock(const mcDeviceProp_t& device,
                                      const KernelResources& kernel,
                                      int num_blocks, int block_size);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICES_OCCUPANCY_H_
