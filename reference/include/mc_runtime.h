// Copyright mxcts authors.
//
// ==========================================================================
// mc_runtime.h: the MXMACA runtime header programs include
// ==========================================================================
//
// Everything a host program needs: the runtime API (mc_runtime_api.h), the
// C standard I/O, library, math and string functions (<stdio.h>,
// <stdlib.h>, <math.h>, <string.h>: programs call printf, rand, exit, ceil
// and memset having included only this header), the wave width
// (mc_common.h), the built-in variables (threadIdx, blockIdx, ...) and, for
// C++, the conveniences real programs rely on: typed allocation
// (`mcMalloc(&floatPtr, n)`), symbol calls that take the variable itself
// (`mcMemcpyToSymbol(var, src, n)`) and mcLaunchKernel taking the kernel
// directly. mxcc includes this header in every MXMACA translation unit; it
// does not define the qualifiers (__global__, __device__, ...), which the
// compiler's translator handles. In a unit compiled with the per-thread
// default stream (MACA_API_PER_THREAD_DEFAULT_STREAM), the C++ forms below
// are renamed with the C functions they call, and so reach the `_ptsz` and
// `_ptds` entry points (mcr/detail/runtime_api_per_thread.h).
//
//   #include <mc_runtime.h>
//
//   __constant__ float scale = 2.0f;
//   __global__ void Scale(float* v, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) v[i] *= scale;
//   }
//
//   int main() {
//     float* d;
//     mcMalloc(&d, 1024 * sizeof(float));
//     float s = 3.0f;
//     mcMemcpyToSymbol(scale, &s, sizeof(s));
//     Scale<<<4, 256>>>(d, 1024);
//     if (mcDeviceSynchronize() != mcSuccess) return EXIT_FAILURE;
//     mcFree(d);
//   }

#ifndef __INCLUDE_MC_RUNTIME_H__
#define __INCLUDE_MC_RUNTIME_H__

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_common.h"
#include "mc_runtime_api.h"

// Names a device variable in the symbol calls: the variable itself.
#define MC_SYMBOL(x) x

#ifdef __cplusplus

#include "mcr/detail/device_abi.h"
#include "mcr/detail/device_atomics.h"
#include "mcr/detail/device_math.h"
#include "mcr/detail/device_runtime_api.h"
#include "mcr/detail/device_timing_control.h"
#include "mcr/detail/device_wave.h"
#include "mcr/detail/launch_abi.h"

// The address of a symbol argument's host shadow, as the C API takes it.
template <class T>
inline const void* __mc_symbol_address(const T& symbol) {
  return static_cast<const void*>(__builtin_addressof(symbol));
}

// --------------------------------------------------------------------------
// Typed allocation: the same calls with `T**` instead of `void**`.
// [api.memory.malloc.typed-overload]
// --------------------------------------------------------------------------

// mcMalloc for any object pointer type; see the C declaration.
template <class T>
inline mcError_t mcMalloc(T** ptr, size_t size) {
  return ::mcMalloc(reinterpret_cast<void**>(ptr), size);
}

// mcMallocManaged for any object pointer type; see the C declaration.
// [api.memory.managed.typed-overload]
template <class T>
inline mcError_t mcMallocManaged(T** ptr, size_t size,
                                 unsigned int flags = mcMemAttachGlobal) {
  return ::mcMallocManaged(reinterpret_cast<void**>(ptr), size, flags);
}

// mcMallocHost for any object pointer type, with or without flags.
// [api.memory.malloc-host.typed-overload]
template <class T>
inline mcError_t mcMallocHost(T** ptr, size_t size,
                              unsigned int flags = mcMallocHostDefault) {
  return ::mcMallocHost(reinterpret_cast<void**>(ptr), size, flags);
}

// mcHostAlloc for any object pointer type; see the C declaration.
// [api.memory.host-alloc.same-as-malloc-host]
template <class T>
inline mcError_t mcHostAlloc(T** ptr, size_t size, unsigned int flags) {
  return ::mcHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}

// mcMallocPitch for any object pointer type; see the C declaration.
// [api.memory.malloc-pitch.typed-overload]
template <class T>
inline mcError_t mcMallocPitch(T** ptr, size_t* pitch, size_t width,
                               size_t height) {
  return ::mcMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}

// mcHostGetDevicePointer storing into any object pointer type.
// [api.memory.host-get-device-pointer.typed-overload]
template <class T>
inline mcError_t mcHostGetDevicePointer(T** pDevice, void* pHost,
                                        unsigned int flags) {
  return ::mcHostGetDevicePointer(reinterpret_cast<void**>(pDevice), pHost,
                                  flags);
}

// --------------------------------------------------------------------------
// Stream-ordered allocation: typed pointers, and mcMallocAsync with a pool.
// [api.pool.malloc-async.pool-overload]
// --------------------------------------------------------------------------

// mcMallocAsync for any object pointer type; see the C declaration.
template <class T>
inline mcError_t mcMallocAsync(T** ptr, size_t size, mcStream_t stream) {
  return ::mcMallocAsync(reinterpret_cast<void**>(ptr), size, stream);
}

// mcMallocFromPoolAsync under the name mcMallocAsync.
inline mcError_t mcMallocAsync(void** ptr, size_t size, mcMemPool_t pool,
                               mcStream_t stream) {
  return ::mcMallocFromPoolAsync(ptr, size, pool, stream);
}

// mcMallocFromPoolAsync under the name mcMallocAsync, for any object
// pointer type.
template <class T>
inline mcError_t mcMallocAsync(T** ptr, size_t size, mcMemPool_t pool,
                               mcStream_t stream) {
  return ::mcMallocFromPoolAsync(reinterpret_cast<void**>(ptr), size, pool,
                                 stream);
}

// mcMallocFromPoolAsync for any object pointer type.
template <class T>
inline mcError_t mcMallocFromPoolAsync(T** ptr, size_t size, mcMemPool_t pool,
                                       mcStream_t stream) {
  return ::mcMallocFromPoolAsync(reinterpret_cast<void**>(ptr), size, pool,
                                 stream);
}

// --------------------------------------------------------------------------
// Managed memory by location: CUDA 13 spells the location forms of
// mcMemPrefetchAsync and mcMemAdvise with the unsuffixed names; the forms
// that take a device ordinal stay beside them.
// [api.memory.prefetch.location-form] [api.memory.advise.location-form]
// --------------------------------------------------------------------------

// mcMemPrefetchAsync_v2 under its CUDA 13 name; see the C declaration.
inline mcError_t mcMemPrefetchAsync(const void* devPtr, size_t count,
                                    mcMemLocation location, unsigned int flags,
                                    mcStream_t stream = 0) {
  return ::mcMemPrefetchAsync_v2(devPtr, count, location, flags, stream);
}

// mcMemAdvise_v2 under its CUDA 13 name; see the C declaration.
inline mcError_t mcMemAdvise(const void* devPtr, size_t count,
                             mcMemoryAdvise advice, mcMemLocation location) {
  return ::mcMemAdvise_v2(devPtr, count, advice, location);
}

// --------------------------------------------------------------------------
// Symbols: the variable itself, not its address or a string.
// [api.memory.symbol.takes-variable-not-string]
// --------------------------------------------------------------------------

// mcMemcpyToSymbol(var, src, count[, offset[, kind]]); see the C declaration.
template <class T>
inline mcError_t mcMemcpyToSymbol(const T& symbol, const void* src,
                                  size_t count, size_t offset = 0,
                                  mcMemcpyKind kind = mcMemcpyHostToDevice) {
  return ::mcMemcpyToSymbol(__mc_symbol_address(symbol), src, count, offset,
                            kind);
}

// mcMemcpyFromSymbol(dst, var, count[, offset[, kind]]).
template <class T>
inline mcError_t mcMemcpyFromSymbol(void* dst, const T& symbol, size_t count,
                                    size_t offset = 0,
                                    mcMemcpyKind kind = mcMemcpyDeviceToHost) {
  return ::mcMemcpyFromSymbol(dst, __mc_symbol_address(symbol), count, offset,
                              kind);
}

// mcMemcpyToSymbolAsync(var, src, count[, offset[, kind[, stream]]]).
template <class T>
inline mcError_t mcMemcpyToSymbolAsync(const T& symbol, const void* src,
                                       size_t count, size_t offset = 0,
                                       mcMemcpyKind kind = mcMemcpyHostToDevice,
                                       mcStream_t stream = 0) {
  return ::mcMemcpyToSymbolAsync(__mc_symbol_address(symbol), src, count,
                                 offset, kind, stream);
}

// mcMemcpyFromSymbolAsync(dst, var, count[, offset[, kind[, stream]]]).
template <class T>
inline mcError_t mcMemcpyFromSymbolAsync(
    void* dst, const T& symbol, size_t count, size_t offset = 0,
    mcMemcpyKind kind = mcMemcpyDeviceToHost, mcStream_t stream = 0) {
  return ::mcMemcpyFromSymbolAsync(dst, __mc_symbol_address(symbol), count,
                                   offset, kind, stream);
}

// mcGetSymbolAddress(&p, var).
template <class T>
inline mcError_t mcGetSymbolAddress(void** devPtr, const T& symbol) {
  return ::mcGetSymbolAddress(devPtr, __mc_symbol_address(symbol));
}

// mcGetSymbolSize(&n, var).
template <class T>
inline mcError_t mcGetSymbolSize(size_t* size, const T& symbol) {
  return ::mcGetSymbolSize(size, __mc_symbol_address(symbol));
}

// --------------------------------------------------------------------------
// Launch with the kernel passed directly: mcLaunchKernel(kernel, grid,
// block, args[, sharedMem[, stream]]).
// [lang.launch.operand.equivalent-to-mclaunchkernel]
// --------------------------------------------------------------------------

// The two-argument form of mcEventCreate, as mcEventCreateWithFlags.
// [api.event.create.two-argument-form]
inline mcError_t mcEventCreate(mcEvent_t* event, unsigned int flags) {
  return ::mcEventCreateWithFlags(event, flags);
}

template <class T>
inline mcError_t mcLaunchKernel(T* func, dim3 grid, dim3 block, void** args,
                                size_t sharedMem = 0, mcStream_t stream = 0) {
  return ::mcLaunchKernel(reinterpret_cast<const void*>(func), grid, block,
                          args, sharedMem, stream);
}

// mcLaunchCooperativeKernel(kernel, grid, block, args[, sharedMem[,
// stream]]): the kernel passed directly. [api.coop.launch.runs-kernel]
template <class T>
inline mcError_t mcLaunchCooperativeKernel(T* func, dim3 gridDim, dim3 blockDim,
                                           void** args, size_t sharedMem = 0,
                                           mcStream_t stream = 0) {
  return ::mcLaunchCooperativeKernel(reinterpret_cast<const void*>(func),
                                     gridDim, blockDim, args, sharedMem,
                                     stream);
}

// --------------------------------------------------------------------------
// Kernel attributes and occupancy with the kernel passed directly:
// mcFuncGetAttributes(&attr, kernel),
// mcOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, 256, 0),
// mcOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel), and the
// variants whose dynamic shared memory depends on the block size. Each
// forwards to the C function of the same name with `(const void*)kernel`.
// [api.device.func.get-attributes] [api.device.occupancy.max-active-blocks]
// [api.device.occupancy.max-potential-block-size]
// --------------------------------------------------------------------------

template <class T>
inline mcError_t mcFuncGetAttributes(mcFuncAttributes* attr, T* entry) {
  return ::mcFuncGetAttributes(attr, reinterpret_cast<const void*>(entry));
}

template <class T>
inline mcError_t mcFuncSetAttribute(T* entry, mcFuncAttribute attr, int value) {
  return ::mcFuncSetAttribute(reinterpret_cast<const void*>(entry), attr,
                              value);
}

template <class T>
inline mcError_t mcFuncSetCacheConfig(T* func, mcFuncCache_t cacheConfig) {
  return ::mcFuncSetCacheConfig(reinterpret_cast<const void*>(func),
                                cacheConfig);
}

template <class T>
inline mcError_t mcFuncSetSharedMemConfig(T* func, mcSharedMemConfig config) {
  return ::mcFuncSetSharedMemConfig(reinterpret_cast<const void*>(func),
                                    config);
}

template <class T>
inline mcError_t mcOccupancyMaxActiveBlocksPerMultiprocessor(
    int* numBlocks, T func, int blockSize, size_t dynamicSMemSize) {
  return ::mcOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, reinterpret_cast<const void*>(func), blockSize,
      dynamicSMemSize);
}

template <class T>
inline mcError_t mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, T func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  return ::mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, reinterpret_cast<const void*>(func), blockSize,
      dynamicSMemSize, flags);
}

template <class T>
inline mcError_t mcOccupancyMaxPotentialBlockSize(int* minGridSize,
                                                  int* blockSize, T func,
                                                  size_t dynamicSMemSize = 0,
                                                  int blockSizeLimit = 0) {
  return ::mcOccupancyMaxPotentialBlockSize(minGridSize, blockSize,
                                            reinterpret_cast<const void*>(func),
                                            dynamicSMemSize, blockSizeLimit);
}

template <class T>
inline mcError_t mcOccupancyMaxPotentialBlockSizeWithFlags(
    int* minGridSize, int* blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0, unsigned int flags = mcOccupancyDefault) {
  return ::mcOccupancyMaxPotentialBlockSizeWithFlags(
      minGridSize, blockSize, reinterpret_cast<const void*>(func),
      dynamicSMemSize, blockSizeLimit, flags);
}

template <class T>
inline mcError_t mcOccupancyAvailableDynamicSMemPerBlock(
    size_t* dynamicSmemSize, T func, int numBlocks, int blockSize) {
  return ::mcOccupancyAvailableDynamicSMemPerBlock(
      dynamicSmemSize, reinterpret_cast<const void*>(func), numBlocks,
      blockSize);
}

// The block-size search of mcOccupancyMaxPotentialBlockSize (the same
// rule) with `blockSizeToDynamicSMemSize(size)` bytes of dynamic shared
// memory for a block of `size` threads. The C function validates the
// arguments first, so that an error is also the thread's last error.
// [api.device.occupancy.max-potential-variable-shared]
template <class UnaryFunction, class T>
inline mcError_t mcOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int* minGridSize, int* blockSize, T func,
    UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = mcOccupancyDefault) {
  const void* kernel = reinterpret_cast<const void*>(func);
  mcError_t error = ::mcOccupancyMaxPotentialBlockSizeWithFlags(
      minGridSize, blockSize, kernel, 0, blockSizeLimit, flags);
  if (error != mcSuccess) return error;
  mcFuncAttributes attributes;
  int device = 0;
  if ((error = ::mcFuncGetAttributes(&attributes, kernel)) != mcSuccess ||
      (error = ::mcGetDevice(&device)) != mcSuccess) {
    return error;
  }
  int multiprocessors = 0, threads_per_multiprocessor = 0;
  int device_max_block = 0, wave = 0;
  const struct {
    int* value;
    mcDeviceAttribute_t attribute;
  } queries[] = {
      {&multiprocessors, mcDeviceAttributeMultiProcessorCount},
      {&threads_per_multiprocessor,
       mcDeviceAttributeMaxThreadsPerMultiProcessor},
      {&device_max_block, mcDeviceAttributeMaxThreadsPerBlock},
      {&wave, mcDeviceAttributeWarpSize},
  };
  for (const auto& query : queries) {
    error = ::mcDeviceGetAttribute(query.value, query.attribute, device);
    if (error != mcSuccess) return error;
  }
  int ceiling = attributes.maxThreadsPerBlock < device_max_block
                    ? attributes.maxThreadsPerBlock
                    : device_max_block;
  if (blockSizeLimit > 0 && blockSizeLimit < ceiling) ceiling = blockSizeLimit;
  int best_threads = 0;
  *minGridSize = 0;
  *blockSize = 0;
  for (int aligned = (ceiling + wave - 1) / wave * wave; aligned > 0;
       aligned -= wave) {
    const int size = aligned < ceiling ? aligned : ceiling;
    int blocks = 0;
    error = ::mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocks, kernel, size,
        static_cast<size_t>(blockSizeToDynamicSMemSize(size)), flags);
    if (error != mcSuccess) return error;
    if (blocks * size > best_threads) {
      best_threads = blocks * size;
      *blockSize = size;
      *minGridSize = blocks * multiprocessors;
    }
    if (best_threads >= threads_per_multiprocessor) break;
  }
  return mcSuccess;
}

template <class UnaryFunction, class T>
inline mcError_t mcOccupancyMaxPotentialBlockSizeVariableSMem(
    int* minGridSize, int* blockSize, T func,
    UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0) {
  return mcOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, blockSizeToDynamicSMemSize, blockSizeLimit,
      mcOccupancyDefault);
}

#endif  // __cplusplus

#endif  // __INCLUDE_MC_RUNTIME_H__
