// Copyright mxcts authors.
//
// mc_runtime_api.h of the CUDA backend: the MXMACA host runtime API.
//
// The declarations, with their contracts, are the reference's
// (reference/include/mc_runtime_api.h and mcr/detail/runtime_api_*.h);
// mcr/detail/cuda_types.h says what differs on CUDA. libmcruntime_cuda
// implements every function over the CUDA runtime. Valid C and C++.

#ifndef MXCTS_CUDA_MC_RUNTIME_API_H_
#define MXCTS_CUDA_MC_RUNTIME_API_H_

#include "mcr/detail/cuda_types.h"
#include "reference/include/mc_runtime_api.h"

#endif  // MXCTS_CUDA_MC_RUNTIME_API_H_
