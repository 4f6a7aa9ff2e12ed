// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/language/synchronization/device_indices.h
// -----------------------------------------------------------------------------
//
// Linear thread and block indices for device code, as the execution model
// defines them ([model.exec.linear-thread-id], [model.exec.linear-block-id]:
// x varies fastest, then y, then z). Test kernels index their per-thread
// result slots with these:
//
//   __global__ void Record(int* out) {
//     out[GlobalLinearThread()] = __syncthreads_count(1);
//   }
//
// For MXMACA sources only (it uses the built-in variables).

#ifndef MXCTS_CONFORMANCE_LANGUAGE_SYNCHRONIZATION_DEVICE_INDICES_H_
#define MXCTS_CONFORMANCE_LANGUAGE_SYNCHRONIZATION_DEVICE_INDICES_H_

#include <mc_runtime.h>

namespace mxcts::conformance {

// The calling thread's linear index in its block.
__device__ inline unsigned LinearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// The number of threads of a block.
__device__ inline unsigned ThreadsPerBlock() {
  return blockDim.x * blockDim.y * blockDim.z;
}

// The calling thread's block's linear index in the grid.
__device__ inline unsigned LinearBlock() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// The calling thread's index among all threads of the grid, blocks in
// linear order, each block's threads in linear order.
__device__ inline unsigned GlobalLinearThread() {
  return LinearBlock() * ThreadsPerBlock() + LinearThread();
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_LANGUAGE_SYNCHRONIZATION_DEVICE_INDICES_H_
