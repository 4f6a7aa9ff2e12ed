// Copyright mxcts authors.
//
// Conformance: __forceinline__ (docs/spec/lang-function-spaces.md,
// lang.function.inline.forceinline). The functions of
// forceinline_functions.h are defined in two sources of one program, as
// inline functions may be, and behave as ordinary calls do: the kernels of
// both sources and the host give the results a plain (__noinline__)
// function gives. The control is that plain function, whose results differ
// from value to value.

#include <mc_runtime.h>

#include "conformance/language/execution/forceinline_functions.h"
#include "conformance/testing/spec.h"

namespace {

// Not inline and not forced: the same computation, called normally.
__device__ __noinline__ int PlainCube(int x) { return x * x * x; }

constexpr int kCount = 16;

__global__ void ForcedHere(int* forced, int* plain, int* mixed) {
  const int i = static_cast<int>(threadIdx.x);
  forced[i] = ForcedCube(i);
  plain[i] = PlainCube(i);
  mixed[i] = ForcedMix(i, 2);
}

TEST(ForceInline, BehavesAsAnOrdinaryCallInEverySource) {
  MX_SPEC("lang.function.inline.forceinline");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 5 * kCount * sizeof(int)), mcSuccess);
  int* forced = out;
  int* plain = out + kCount;
  int* mixed = out + 2 * kCount;
  int* other = out + 3 * kCount;  // cubes, then mixes
  ForcedHere<<<1, kCount>>>(forced, plain, mixed);
  RunForcedInOtherSource(other, kCount);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(forced[i], plain[i]) << i;
    EXPECT_EQ(other[i], plain[i]) << i;
    EXPECT_EQ(mixed[i], 3 * i - 2) << i;
    EXPECT_EQ(other[kCount + i], mixed[i]) << i;
    // The __host__ __device__ one, called on the host.
    EXPECT_EQ(ForcedMix(i, 2), mixed[i]) << i;
  }
  // Control: the plain function's results are the cubes.
  EXPECT_EQ(plain[3], 27);
  EXPECT_EQ(plain[15], 3375);
  mcFree(out);
}

}  // namespace
