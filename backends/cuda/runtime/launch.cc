// Copyright mxcts authors.
//
// Launches and kernel attributes (docs/spec/api-launch.md,
// api-device.md's kernel attributes and occupancy) over CUDA's. A kernel's
// handle is the address of nvcc's host stub, which CUDA's calls take as it
// is; dim3 is CUDA's.

#include <cuda_runtime_api.h>

#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/environment.h"
#include "backends/cuda/runtime/fixed_attributes.h"
#include "backends/cuda/runtime/handles.h"
#include "backends/cuda/runtime/modules.h"

using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::FromCuda;
using mxcts::cuda_backend::SameValue;
using mxcts::cuda_backend::ToCuda;

namespace {

// The result of a CUDA call about a kernel: CUDA calls a pointer that is no
// kernel an invalid resource handle, MXMACA an invalid device function
// [api.device.func.non-kernel-is-invalid-device-function].
mcError_t CheckKernel(cudaError_t error) {
  if (error == cudaErrorInvalidResourceHandle) {
    cudaGetLastError();
    return mxcts::cuda_backend::Fail(mcErrorInvalidDeviceFunction);
  }
  return FromCuda(error);
}

// The device attribute `attribute` of `device` (0 if CUDA cannot say).
unsigned DeviceLimit(cudaDeviceAttr attribute, int device) {
  int value = 0;
  if (!mxcts::cuda_backend::FixedDeviceAttribute(attribute, device, &value)) {
    return 0;
  }
  return static_cast<unsigned>(value);
}

// MXMACA's checks of a launch through mcLaunchKernel or
// mcLaunchCooperativeKernel, before CUDA sees it: CUDA 13 calls a
// configuration beyond the device's limits an invalid value, MXMACA an
// invalid configuration [lang.launch.limit.block-threads-exceed-max]
// [lang.launch.limit.block-dimension-exceeds-max]
// [lang.launch.limit.grid-dimension-exceeds-max]
// [lang.launch.limit.zero-extent]
// [lang.launch.limit.shared-memory-exceeds-max]; a block larger than the
// kernel allows (__launch_bounds__) is out of resources
// [lang.function.launch-bounds.launch-exceeds-bound].
mcError_t CheckLaunch(const void* func, dim3 grid, dim3 block, size_t shared) {
  const unsigned long long threads =
      static_cast<unsigned long long>(block.x) * block.y * block.z;
  // No device (-1) has no limits, so every configuration is refused.
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    device = -1;
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0 ||
      grid.x > DeviceLimit(cudaDevAttrMaxGridDimX, device) ||
      grid.y > DeviceLimit(cudaDevAttrMaxGridDimY, device) ||
      grid.z > DeviceLimit(cudaDevAttrMaxGridDimZ, device) ||
      block.x > DeviceLimit(cudaDevAttrMaxBlockDimX, device) ||
      block.y > DeviceLimit(cudaDevAttrMaxBlockDimY, device) ||
      block.z > DeviceLimit(cudaDevAttrMaxBlockDimZ, device) ||
      threads > DeviceLimit(cudaDevAttrMaxThreadsPerBlock, device)) {
    return Fail(mcErrorInvalidConfiguration);
  }
  cudaFuncAttributes attributes;
  if (!mxcts::cuda_backend::KernelAttributes(func, &attributes)) {
    // CUDA's launch answers a pointer that is no kernel.
    return mcSuccess;
  }
  // The dynamic shared memory the kernel may have: what is left of the
  // block's after its static shared memory, or what it was opted into.
  if (shared > static_cast<size_t>(attributes.maxDynamicSharedSizeBytes)) {
    return Fail(mcErrorInvalidConfiguration);
  }
  if (threads >
      static_cast<unsigned long long>(attributes.maxThreadsPerBlock)) {
    return Fail(mcErrorLaunchOutOfResources);
  }
  return mcSuccess;
}

}  // namespace

extern "C" {

mcError_t mcLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                         size_t sharedMem, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (func == nullptr) return Fail(mcErrorInvalidDeviceFunction);
  // A module function's handle is a kernel too (modules.h).
  if (mxcts::cuda_backend::IsModuleFunction(func)) {
    return mxcts::cuda_backend::LaunchModuleFunction(
        func, grid, block, args, sharedMem, stream, /*cooperative=*/false);
  }
  const mcError_t error = CheckLaunch(func, grid, block, sharedMem);
  if (error != mcSuccess) return error;
  return CheckKernel(
      cudaLaunchKernel(func, grid, block, args, sharedMem, ToCuda(stream)));
}

mcError_t mcLaunchCooperativeKernel(const void* func, dim3 gridDim,
                                    dim3 blockDim, void** args,
                                    size_t sharedMem, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (func == nullptr) return Fail(mcErrorInvalidDeviceFunction);
  if (mxcts::cuda_backend::IsModuleFunction(func)) {
    return mxcts::cuda_backend::LaunchModuleFunction(
        func, gridDim, blockDim, args, sharedMem, stream, /*cooperative=*/true);
  }
  const mcError_t error = CheckLaunch(func, gridDim, blockDim, sharedMem);
  if (error != mcSuccess) return error;
  return CheckKernel(cudaLaunchCooperativeKernel(func, gridDim, blockDim, args,
                                                 sharedMem, ToCuda(stream)));
}

// CUDA 13 has no multi-device cooperative launch.
mcError_t mcLaunchCooperativeKernelMultiDevice(mcLaunchParams*, unsigned int,
                                               unsigned int) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Fail(mcErrorNotSupported);
}

mcError_t mcFuncGetAttributes(mcFuncAttributes* attr, const void* func) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (attr == nullptr) return Fail(mcErrorInvalidValue);
  if (mxcts::cuda_backend::IsModuleFunction(func)) {
    return mxcts::cuda_backend::ModuleFunctionAttributes(func, attr);
  }
  cudaFuncAttributes cuda;
  const mcError_t error = CheckKernel(cudaFuncGetAttributes(&cuda, func));
  if (error != mcSuccess) return error;
  attr->sharedSizeBytes = cuda.sharedSizeBytes;
  attr->constSizeBytes = cuda.constSizeBytes;
  attr->localSizeBytes = cuda.localSizeBytes;
  attr->maxThreadsPerBlock = cuda.maxThreadsPerBlock;
  attr->numRegs = cuda.numRegs;
  attr->ptxVersion = cuda.ptxVersion;
  attr->binaryVersion = cuda.binaryVersion;
  attr->cacheModeCA = cuda.cacheModeCA;
  attr->maxDynamicSharedSizeBytes = cuda.maxDynamicSharedSizeBytes;
  attr->preferredShmemCarveout = cuda.preferredShmemCarveout;
  return mcSuccess;
}

mcError_t mcFuncSetAttribute(const void* func, mcFuncAttribute attr,
                             int value) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  const cudaError_t error =
      cudaFuncSetAttribute(func, SameValue<cudaFuncAttribute>(attr), value);
  // After the change, so that no launch keeps what it replaced.
  mxcts::cuda_backend::ForgetKernelAttributes();
  return CheckKernel(error);
}

mcError_t mcFuncSetCacheConfig(const void* func, mcFuncCache_t cacheConfig) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  const cudaError_t error =
      cudaFuncSetCacheConfig(func, SameValue<cudaFuncCache>(cacheConfig));
  mxcts::cuda_backend::ForgetKernelAttributes();
  return CheckKernel(error);
}

// CUDA 13 has no bank-size configuration (device.cc says why that is
// allowed); the kernel must still be one.
mcError_t mcFuncSetSharedMemConfig(const void* func, mcSharedMemConfig config) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (config < mcSharedMemBankSizeDefault ||
      config > mcSharedMemBankSizeEightByte) {
    return Fail(mcErrorInvalidValue);
  }
  cudaFuncAttributes cuda;
  return CheckKernel(cudaFuncGetAttributes(&cuda, func));
}

mcError_t mcOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks,
                                                      const void* func,
                                                      int blockSize,
                                                      size_t dynamicSMemSize) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (numBlocks == nullptr) return Fail(mcErrorInvalidValue);
  return CheckKernel(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, func, blockSize, dynamicSMemSize));
}

mcError_t mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (numBlocks == nullptr) return Fail(mcErrorInvalidValue);
  return CheckKernel(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, func, blockSize, dynamicSMemSize, flags));
}

mcError_t mcOccupancyMaxPotentialBlockSizeWithFlags(
    int* minGridSize, int* blockSize, const void* func, size_t dynamicSMemSize,
    int blockSizeLimit, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // Flags other than the two MXMACA defines, and a negative limit, are
  // invalid values [api.device.occupancy.invalid-flags-is-invalid-value,
  // api.device.occupancy.max-potential-null-is-invalid-value].
  if (minGridSize == nullptr || blockSize == nullptr || blockSizeLimit < 0 ||
      (flags & ~static_cast<unsigned>(mcOccupancyDisableCachingOverride)) !=
          0) {
    return Fail(mcErrorInvalidValue);
  }
  // CUDA's calculator is a header template over the same queries: try
  // every block size that is a multiple of the wave, as it does.
  cudaFuncAttributes attributes;
  mcError_t error = CheckKernel(cudaFuncGetAttributes(&attributes, func));
  if (error != mcSuccess) return error;
  int device = 0;
  if ((error = Check(cudaGetDevice(&device))) != mcSuccess) return error;
  int multiprocessors = 0, threads_per_multiprocessor = 0, max_block = 0,
      wave = 0;
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount,
                         device);
  cudaDeviceGetAttribute(&threads_per_multiprocessor,
                         cudaDevAttrMaxThreadsPerMultiProcessor, device);
  cudaDeviceGetAttribute(&max_block, cudaDevAttrMaxThreadsPerBlock, device);
  cudaDeviceGetAttribute(&wave, cudaDevAttrWarpSize, device);
  int ceiling = attributes.maxThreadsPerBlock < max_block
                    ? attributes.maxThreadsPerBlock
                    : max_block;
  if (blockSizeLimit > 0 && blockSizeLimit < ceiling) ceiling = blockSizeLimit;
  int best = 0;
  *minGridSize = 0;
  *blockSize = 0;
  // A ceiling below a whole wave (or between two) is tried first, as CUDA's
  // calculator does, then every multiple of the wave below it.
  const int aligned = ceiling / wave * wave;
  for (int size = aligned == ceiling ? aligned : ceiling; size > 0;
       size = size > aligned ? aligned : size - wave) {
    int blocks = 0;
    error = Check(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocks, func, size, dynamicSMemSize, flags));
    if (error != mcSuccess) return error;
    if (blocks * size > best) {
      best = blocks * size;
      *blockSize = size;
      *minGridSize = blocks * multiprocessors;
    }
    if (best >= threads_per_multiprocessor) break;
  }
  return mcSuccess;
}

mcError_t mcOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize,
                                           const void* func,
                                           size_t dynamicSMemSize,
                                           int blockSizeLimit) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mcOccupancyMaxPotentialBlockSizeWithFlags(
      minGridSize, blockSize, func, dynamicSMemSize, blockSizeLimit,
      mcOccupancyDefault);
}

mcError_t mcOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize,
                                                  const void* func,
                                                  int numBlocks,
                                                  int blockSize) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (dynamicSmemSize == nullptr) return Fail(mcErrorInvalidValue);
  return CheckKernel(cudaOccupancyAvailableDynamicSMemPerBlock(
      dynamicSmemSize, func, numBlocks, blockSize));
}

}  // extern "C"
