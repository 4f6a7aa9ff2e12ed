// Copyright mxcts authors.
//
// mcr/detail/vector_types.h of the CUDA backend: the built-in vector types
// (char1 ... double4, make_<type>) are CUDA's, because device code and
// nvcc's launch syntax use them (mcr/detail/cuda_types.h says why).

#ifndef MXCTS_CUDA_MCR_DETAIL_VECTOR_TYPES_H_
#define MXCTS_CUDA_MCR_DETAIL_VECTOR_TYPES_H_

#include <vector_functions.h>
#include <vector_types.h>

#endif  // MXCTS_CUDA_MCR_DETAIL_VECTOR_TYPES_H_
