// Copyright mxcts authors.
//
// Host-pass diagnostics of device-only names that host code uses: the
// address of a __device__ function, and a built-in variable in the body of
// a host-only function. Calls of __device__ functions from host code are
// rejected by the host compiler instead, through the error attribute that
// rewrite 4 gives those functions (function_rewrites.cc).

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_HOST_CODE_CHECKS_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_HOST_CODE_CHECKS_H_

#include "reference/compiler/translator/context.h"

namespace mxcts::compiler::translator_internal {

// In the host pass, reports `&f` in host code, where `f` names only
// functions declared __device__ without __host__
// [lang.function.address.device-function-in-host], and threadIdx,
// blockIdx, blockDim or gridDim named in the body of a host-only function
// of the source that declares no variable of that name
// [lang.builtin.device-code-only]. Does nothing in the device pass.
void CheckHostCode(Context& c);

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_HOST_CODE_CHECKS_H_
