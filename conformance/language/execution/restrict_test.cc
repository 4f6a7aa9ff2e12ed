// Copyright mxcts authors.
//
// Conformance: the `__restrict__` qualifier (docs/spec/lang-variable-spaces.md,
// "__restrict__"): it is accepted on pointer parameters and pointer
// variables of device and host code, and a program whose restricted
// pointers do not alias computes what it computes without the qualifier.
// The control runs the unqualified twin on other data, so a kernel that
// ignored its input would be caught.

#include <mc_runtime.h>

#include <vector>

#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::ManagedBuffer;

constexpr int kCount = 512;

__device__ float Blend(const float* __restrict__ a, const float* __restrict__ b,
                       int i) {
  return 2.0f * a[i] + b[i];
}

__global__ void RestrictedSaxpy(const float* __restrict__ x,
                                const float* __restrict__ y,
                                float* __restrict__ out, int n) {
  float* __restrict__ local_out = out;  // a restricted pointer variable
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    local_out[i] = Blend(x, y, i);
  }
}

__global__ void PlainSaxpy(const float* x, const float* y, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    out[i] = 2.0f * x[i] + y[i];
  }
}

// Host code with restricted pointers too.
void HostSaxpy(const float* __restrict__ x, const float* __restrict__ y,
               float* __restrict__ out, int n) {
  for (int i = 0; i < n; ++i) out[i] = 2.0f * x[i] + y[i];
}

void Fill(float* x, float* y, float offset) {
  for (int i = 0; i < kCount; ++i) {
    x[i] = 0.25f * i + offset;
    y[i] = 1000.0f - i;
  }
}

TEST(Restrict, ResultsEqualTheUnqualifiedProgram) {
  MX_SPEC("lang.variable.restrict.accepted");
  ManagedBuffer<float> x(kCount), y(kCount), restricted(kCount, 0xff),
      plain(kCount, 0xff);
  Fill(x.get(), y.get(), 0.0f);
  RestrictedSaxpy<<<3, 64>>>(x.get(), y.get(), restricted.get(), kCount);
  PlainSaxpy<<<3, 64>>>(x.get(), y.get(), plain.get(), kCount);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::vector<float> host(kCount);
  HostSaxpy(x.get(), y.get(), host.data(), kCount);
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(restricted[i], plain[i]) << "element " << i;
    EXPECT_EQ(restricted[i], host[i]) << "element " << i;
  }
}

TEST(RestrictControl, OtherInputGivesOtherResults) {
  MX_SPEC("lang.variable.restrict.accepted");
  ManagedBuffer<float> x(kCount), y(kCount), first(kCount, 0xff),
      second(kCount, 0xff);
  Fill(x.get(), y.get(), 0.0f);
  RestrictedSaxpy<<<2, 64>>>(x.get(), y.get(), first.get(), kCount);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  Fill(x.get(), y.get(), 1.0f);
  RestrictedSaxpy<<<2, 64>>>(x.get(), y.get(), second.get(), kCount);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(second[i] - first[i], 2.0f) << "element " << i;
  }
}

}  // namespace
