// Copyright mxcts authors.
//
// Conformance: kernels whose static shared memory is at or over the
// per-block limit (docs/spec/lang-variable-spaces.md,
// lang.variable.shared.static-size-limit; lang-execution-configuration.md,
// lang.launch.operand.ns-defaults-to-zero).
//
//   - A kernel over the limit never runs; the reference's documented choice
//     is that it builds and every launch of it fails with
//     mcErrorInvalidConfiguration.
//   - Omitted, Ns is 0: a kernel whose static shared memory fills the
//     whole 64 KiB per-block limit launches without Ns, but not with one
//     more byte of it (the control).
//
// Both kernels are sized for the reference's 64 KiB and build only where
// an oversized kernel is not rejected at build time, the reference's
// choice: the target is required only from a backend that claims the
// reference's choices (required_capability in BUILD).

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

// 80 KiB of static shared memory: more than a block has.
__global__ void TooMuchStaticShared(int* out) {
  __shared__ int huge[20 * 1024];
  huge[threadIdx.x] = 1;
  *out = huge[0];
}

TEST(StaticSharedLimit, KernelOverTheStaticLimitNeverRuns) {
  MX_SPEC("lang.variable.shared.static-size-limit");
  int* ran = nullptr;
  ASSERT_EQ(mcMallocManaged(&ran, sizeof(int)), mcSuccess);
  *ran = 0;
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, TooMuchStaticShared), mcSuccess);
  EXPECT_EQ(a.sharedSizeBytes, 20u * 1024 * sizeof(int));
  TooMuchStaticShared<<<1, 1>>>(ran);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  TooMuchStaticShared<<<4, 32>>>(ran);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran, 0);
  mcFree(ran);
}

constexpr unsigned kBlockSharedBytes = 64 * 1024;

__global__ void FillsTheBlockLimit(int* out) {
  __shared__ unsigned char all[kBlockSharedBytes];
  all[threadIdx.x] = 1;
  all[kBlockSharedBytes - 1 - threadIdx.x] = 2;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = all[0] + all[kBlockSharedBytes - 1];
}

TEST(StaticSharedLimit, OmittedNsAddsNoSharedMemory) {
  MX_SPEC("lang.launch.operand.ns-defaults-to-zero");
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  mcFuncAttributes attributes;
  ASSERT_EQ(mcFuncGetAttributes(&attributes, reinterpret_cast<const void*>(
                                                 &FillsTheBlockLimit)),
            mcSuccess);
  if (attributes.sharedSizeBytes != prop.sharedMemPerBlock) {
    GTEST_SKIP() << "the device's per-block shared memory is "
                 << prop.sharedMemPerBlock << " bytes, not "
                 << kBlockSharedBytes;
  }
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  out[0] = 0;
  FillsTheBlockLimit<<<1, 32>>>(out);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 3);
  // Control: one byte of dynamic shared memory more is over the limit.
  out[0] = 0;
  FillsTheBlockLimit<<<1, 32, 1>>>(out);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 0);
  mcFree(out);
}

}  // namespace
