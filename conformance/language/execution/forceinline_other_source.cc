// Copyright mxcts authors.
//
// The second source of forceinline_test: it includes the same
// __forceinline__ definitions and uses them in a kernel of its own.

#include <mc_runtime.h>

#include "conformance/language/execution/forceinline_functions.h"

namespace {

__global__ void ForcedInOtherSource(int* out, int count) {
  const int i = static_cast<int>(threadIdx.x);
  if (i >= count) return;
  out[i] = ForcedCube(i);
  out[count + i] = ForcedMix(i, 2);
}

}  // namespace

void RunForcedInOtherSource(int* out, int count) {
  ForcedInOtherSource<<<1, count>>>(out, count);
}
