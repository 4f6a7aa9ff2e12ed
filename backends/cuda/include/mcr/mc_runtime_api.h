// Copyright mxcts authors.
//
// mcr/mc_runtime_api.h: the same header as mc_runtime_api.h, under the path
// some programs use.

#ifndef MXCTS_CUDA_MCR_MC_RUNTIME_API_H_
#define MXCTS_CUDA_MCR_MC_RUNTIME_API_H_

#include "../mc_runtime_api.h"

#endif  // MXCTS_CUDA_MCR_MC_RUNTIME_API_H_
