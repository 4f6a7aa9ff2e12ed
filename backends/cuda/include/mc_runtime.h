// Copyright mxcts authors.
//
// mc_runtime.h of the CUDA backend: what an MXMACA program includes.
//
// The host API and its C++ overloads (typed mcMalloc, mcMemcpyToSymbol with
// the variable, mcLaunchKernel with the kernel, the occupancy templates) are
// the reference's (reference/include/mc_runtime.h); the device side is
// CUDA's, which nvcc provides: threadIdx, __syncthreads, atomics, math, wave
// intrinsics. The reference's device headers, written for its own engine,
// are kept out by their include guards. Also defines the include guard
// __INCLUDE_MC_RUNTIME_H__ that programs test (the reference header does).

#ifndef MXCTS_CUDA_MC_RUNTIME_H_
#define MXCTS_CUDA_MC_RUNTIME_H_

#include <cuda_runtime.h>

#include "mc_common.h"
#include "mc_runtime_api.h"

// The device side is CUDA's.
#define MCR_DETAIL_DEVICE_ABI_H_
#define MCR_DETAIL_DEVICE_ATOMICS_H_
#define MCR_DETAIL_DEVICE_MATH_H_
#define MCR_DETAIL_DEVICE_RUNTIME_API_H_
#define MCR_DETAIL_DEVICE_TIMING_CONTROL_H_
#define MCR_DETAIL_DEVICE_WAVE_H_
#define MCR_DETAIL_LAUNCH_ABI_H_

#include "reference/include/mc_runtime.h"

// What MXMACA's mc_runtime.h gives device code beside CUDA's: the 16-bit
// floating types (the reference's atomics and shuffles take them, so a
// program that includes only this header has them), the 64-bit atomic
// overloads on unsigned long and long, mcMalloc and mcFree in device code,
// and the wave names CUDA lacks.
#include "maca_bfloat16.h"
#include "maca_fp16.h"
#include "mcr/detail/cuda_atomics.h"
#include "mcr/detail/cuda_device_heap.h"
#include "mcr/detail/cuda_wave.h"

#endif  // MXCTS_CUDA_MC_RUNTIME_H_
