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
// compiler's translator handles.
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

template <class T>
inline mcError_t mcLaunchKernel(T* func, dim3 grid, dim3 block, void** args,
                                size_t sharedMem = 0, mcStream_t stream = 0) {
  return ::mcLaunchKernel(reinterpret_cast<const void*>(func), grid, block,
                          args, sharedMem, stream);
}

#endif  // __cplusplus

#endif  // __INCLUDE_MC_RUNTIME_H__
