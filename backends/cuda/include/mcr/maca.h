// Copyright mxcts authors.
//
// mcr/maca.h: maca.h under the path some programs use.

#ifndef MXCTS_CUDA_MCR_MACA_H_
#define MXCTS_CUDA_MCR_MACA_H_

#include "../maca.h"

#endif  // MXCTS_CUDA_MCR_MACA_H_
