// Copyright mxcts authors.
//
// maca_bfloat16.h of the CUDA backend: MXMACA's bfloat16 (__maca_bfloat16,
// __maca_bfloat162 and their functions, docs/spec/lang-math.md "bfloat16")
// is CUDA's cuda_bf16.h: the functions have the same names (__hadd,
// __float2bfloat16, __bfloat162float, ...) and the types are CUDA's
// __nv_bfloat16 and __nv_bfloat162 under MXMACA's names.

#ifndef MXCTS_CUDA_MACA_BFLOAT16_H_
#define MXCTS_CUDA_MACA_BFLOAT16_H_

#include <cuda_bf16.h>

typedef __nv_bfloat16 __maca_bfloat16;
typedef __nv_bfloat162 __maca_bfloat162;
typedef __nv_bfloat16 maca_bfloat16;
typedef __nv_bfloat162 maca_bfloat162;

#endif  // MXCTS_CUDA_MACA_BFLOAT16_H_
