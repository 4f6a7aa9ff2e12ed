// Copyright mxcts authors.
//
// mma.h: the include spelling of the wave matrix functions that the matrix
// chapter's examples use (`#include <mma.h>`). It declares nothing of its
// own: the names are those of <__clang_maca_mma_functions.h>
// (mxmaca::wmma), which mxcc already makes available to every MXMACA source,
// so including this header as well changes nothing
// (docs/spec/lang-matrix.md, lang.wmma.header.mma-h-spelling).

#ifndef MMA_H_
#define MMA_H_

#include <__clang_maca_mma_functions.h>

#endif  // MMA_H_
