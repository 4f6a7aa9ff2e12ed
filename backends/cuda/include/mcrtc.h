// Copyright mxcts authors.
//
// mcrtc.h of the CUDA backend: runtime compilation of MXMACA device code.
// The declarations, with their contracts, are the reference's
// (reference/include/mcrtc.h); libmcruntime_cuda implements them over
// NVRTC (backends/cuda/runtime/rtc.cc).

#ifndef MXCTS_CUDA_MCRTC_H_
#define MXCTS_CUDA_MCRTC_H_

#include "reference/include/mcrtc.h"

#endif  // MXCTS_CUDA_MCRTC_H_
