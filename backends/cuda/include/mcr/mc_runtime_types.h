// Copyright mxcts authors.
//
// mcr/mc_runtime_types.h: the MXMACA runtime types, as the CUDA backend
// defines them (mcr/detail/cuda_types.h).

#ifndef MXCTS_CUDA_MCR_MC_RUNTIME_TYPES_H_
#define MXCTS_CUDA_MCR_MC_RUNTIME_TYPES_H_

#include "mcr/detail/cuda_types.h"

#endif  // MXCTS_CUDA_MCR_MC_RUNTIME_TYPES_H_
