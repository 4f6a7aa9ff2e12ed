// Copyright mxcts authors.
//
// mcr/detail/cuda_types.h: the MXMACA runtime types of the CUDA backend.
//
// The backend states MXMACA's API once: the types, constants and
// declarations are the reference's public headers (reference/include), so
// mcError_t keeps MXMACA's numbers and every call its documented contract.
// Only what must differ on CUDA differs, and it is settled here:
//
//   - the built-in vector types (uint3, float4, ...) and dim3 are CUDA's,
//     because nvcc's launch syntax and device variables (threadIdx,
//     blockIdx) are typed with them. This backend's mcr/detail/
//     vector_types.h gives CUDA's, and the reference's own dim3 is renamed
//     mcr_reference_dim3 while the types header is read; only the graph
//     parameter structures (mcKernelNodeParams, mcLaunchParams) keep it,
//     and it converts from and to CUDA's dim3.
//   - mcStream_t and mcEvent_t are CUDA's cudaStream_t and cudaEvent_t.
//   - the runtime functions are implemented by libmcruntime_cuda
//     (backends/cuda/runtime) over the CUDA runtime.
//
// Include mc_runtime.h or mc_runtime_api.h, not this header.

#ifndef MXCTS_CUDA_MCR_DETAIL_CUDA_TYPES_H_
#define MXCTS_CUDA_MCR_DETAIL_CUDA_TYPES_H_

#include <cuda_runtime_api.h>

// The types header includes "mcr/detail/vector_types.h", which is this
// backend's (CUDA's vector types), not the reference's.
#include "mcr/detail/vector_types.h"

// MXMACA's stream and event handles are CUDA's: mcStream_t is
// struct MCstream_st *, and struct MCstream_st is CUDA's stream, so nvcc's
// <<<grid, block, shmem, stream>>> takes an mcStream_t as it is. The
// macros stay defined, so a program that names struct MCstream_st names
// the same type.
#define MCstream_st CUstream_st
#define MCevent_st CUevent_st

// The reference's dim3 converts from and to uint3; renamed, it converts
// from and to CUDA's dim3 instead, so that a program sets and reads the
// graph parameter structures' dimensions with the dim3 it knows
// (`params.gridDim = dim3(4)`).
#ifdef __cplusplus
typedef dim3 mcr_cuda_dim3;
#define uint3 mcr_cuda_dim3
#endif
#define dim3 mcr_reference_dim3
#include "reference/include/mcr/mc_runtime_types.h"
#undef dim3
#ifdef __cplusplus
#undef uint3
#endif

#endif  // MXCTS_CUDA_MCR_DETAIL_CUDA_TYPES_H_
