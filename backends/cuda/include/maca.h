// Copyright mxcts authors.
//
// maca.h: the MXMACA host runtime API (mc_runtime_api.h), as programs that
// include maca.h expect.

#ifndef MXCTS_CUDA_MACA_H_
#define MXCTS_CUDA_MACA_H_

#include "mc_runtime_api.h"

#endif  // MXCTS_CUDA_MACA_H_
