// Conformance: maca_fp16.h and maca_bfloat16.h in one program, in both
// compilation passes, beside the integer intrinsics of mc_runtime.h
// (docs/spec/lang-math.md "Half precision", "bfloat16").
//
// `__hadd` names three overloads here: the integer halving add, the
// __half sum and the bfloat16 sum. Each call must pick the one its argument
// types select: the 16-bit sums in device code and in host code, the
// integer intrinsic (a device function [lang.math.int.hadd], as CUDA's is)
// in device code.

#include <maca_bfloat16.h>
#include <maca_fp16.h>
#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

struct Overloads {
  int integer;
  float half_sum;
  float bfloat16_sum;
  float mixed;
};

__host__ __device__ void UseAll(Overloads* o) {
  o->half_sum = __half2float(__hadd(__float2half(7.0f), __float2half(2.0f)));
  o->bfloat16_sum =
      __bfloat162float(__hadd(__float2bfloat16(7.0f), __float2bfloat16(2.0f)));
  // A __half and a bfloat16 meet through float.
  const half h = __float2half(0.5f);
  const __maca_bfloat16 b = __float2bfloat16(0.25f);
  o->mixed = __half2float(h) + __bfloat162float(b);
}

__global__ void UseAllKernel(Overloads* o) {
  o->integer = __hadd(7, 2);  // (7 + 2) >> 1
  UseAll(o);
}

TEST(HeadersTogether, EachOverloadIsSelectedByItsArgumentTypes) {
  MX_SPEC("lang.math.half.types", "lang.math.bfloat16.types",
          "lang.math.int.hadd", "lang.math.half.arithmetic",
          "lang.math.bfloat16.arithmetic");
  Overloads* device = nullptr;
  ASSERT_EQ(mcMallocManaged(&device, sizeof(*device)), mcSuccess);
  UseAllKernel<<<1, 1>>>(device);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  Overloads host;
  UseAll(&host);
  for (const Overloads* o : {static_cast<const Overloads*>(device),
                             static_cast<const Overloads*>(&host)}) {
    SCOPED_TRACE(o == device ? "device" : "host");
    if (o == device) {
      EXPECT_EQ(o->integer, 4);
    }
    EXPECT_EQ(o->half_sum, 9.0f);
    EXPECT_EQ(o->bfloat16_sum, 9.0f);
    EXPECT_EQ(o->mixed, 0.75f);
  }
  mcFree(device);
}

// The 16-bit types as kernel parameters and in __shared__ memory.
__global__ void SharedPairsKernel(__half2 seed, __maca_bfloat162 other,
                                  float* out) {
  __shared__ __half2 halves[64];
  __shared__ __maca_bfloat162 bfloats[64];
  const int t = threadIdx.x;
  halves[t] = __hmul2(seed, __float2half2_rn(static_cast<float>(t)));
  bfloats[t] = __hmul2(other, __float2bfloat162_rn(static_cast<float>(t)));
  __syncthreads();
  const int u = 63 - t;
  out[t] = __high2float(halves[u]) + __low2float(bfloats[u]);
}

TEST(HeadersTogether, PairsPassAsParametersAndLiveInSharedMemory) {
  MX_SPEC("lang.math.half.types", "lang.math.bfloat16.types",
          "lang.math.half.half2-lanewise");
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 64 * sizeof(float)), mcSuccess);
  SharedPairsKernel<<<1, 64>>>(__floats2half2_rn(1.0f, 2.0f),
                               __floats2bfloat162_rn(0.5f, 3.0f), out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int t = 0; t < 64; ++t) {
    const int u = 63 - t;
    EXPECT_EQ(out[t], 2.0f * u + 0.5f * u) << t;
  }
  mcFree(out);
}

}  // namespace
