// Copyright mxcts authors.
//
// maca_fp16.h of the CUDA backend: MXMACA's half precision (__half,
// __half2, half, half2 and their functions, docs/spec/lang-math.md "Half
// precision") is CUDA's cuda_fp16.h, which has the same names and
// semantics. What differs is stated where it shows: CUDA's __half has no
// constexpr constructor from float, and its elementary functions (hsqrt,
// hexp, ...) are device functions only.

#ifndef MXCTS_CUDA_MACA_FP16_H_
#define MXCTS_CUDA_MACA_FP16_H_

#include <cuda_fp16.h>

#endif  // MXCTS_CUDA_MACA_FP16_H_
