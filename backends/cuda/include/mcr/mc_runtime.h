// Copyright mxcts authors.
//
// mcr/mc_runtime.h: the same header as mc_runtime.h, under the path some
// programs use.

#ifndef MXCTS_CUDA_MCR_MC_RUNTIME_H_
#define MXCTS_CUDA_MCR_MC_RUNTIME_H_

#include "../mc_runtime.h"

#endif  // MXCTS_CUDA_MCR_MC_RUNTIME_H_
