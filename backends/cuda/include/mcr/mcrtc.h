// Copyright mxcts authors.
//
// mcr/mcrtc.h: the same header as mcrtc.h, under the path some programs
// use.

#ifndef MXCTS_CUDA_MCR_MCRTC_H_
#define MXCTS_CUDA_MCR_MCRTC_H_

#include "../mcrtc.h"

#endif  // MXCTS_CUDA_MCR_MCRTC_H_
