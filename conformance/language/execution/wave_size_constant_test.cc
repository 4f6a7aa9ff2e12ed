// Copyright mxcts authors.
//
// Conformance: waveSize and warpSize in constant expressions
// (docs/spec/lang-builtin-variables.md,
// lang.builtin.wavesize.constant-expression). Whether they may appear there
// is implementation-defined; the reference documents that both may, and
// this program, which uses them so, compiles only where an implementation
// made that choice: the target is required only from a backend that claims
// the reference's choices (required_capability in BUILD).

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

// waveSize and warpSize as constant expressions, which the reference
// allows (the documented choice of lang.builtin.wavesize.constant-expression):
// the size of a __shared__ array, a template argument, a static_assert.
template <int kWidth>
__device__ int Width() {
  return kWidth;
}

__global__ void WaveSizedArray(int* out) {
  __shared__ int per_lane[waveSize];
  static_assert(warpSize == waveSize);
  constexpr int kWarp = warpSize;
  per_lane[threadIdx.x % waveSize] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    out[0] = static_cast<int>(sizeof(per_lane) / sizeof(per_lane[0]));
    out[1] = Width<waveSize>();
    out[2] = kWarp;
    out[3] = per_lane[waveSize - 1];
  }
}

TEST(WaveSizeConstant, UsableInConstantExpressions) {
  MX_SPEC("lang.builtin.wavesize.constant-expression");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 4 * sizeof(int)), mcSuccess);
  WaveSizedArray<<<1, 64>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 64);
  EXPECT_EQ(out[1], 64);
  EXPECT_EQ(out[2], 64);
  // Control: the array is really used, lane 63 wrote its own index.
  EXPECT_EQ(out[3], 63);
  mcFree(out);
}

}  // namespace
