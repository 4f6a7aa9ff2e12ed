// Conformance: what a kernel declares about its resources and what
// launches do with it: `__launch_bounds__` (reported as maxThreadsPerBlock,
// launches within the bound run, launches above it fail), the static shared
// memory of a kernel (reported as sharedSizeBytes; a kernel over the limit:
// static_shared_limit_test) and a lowered maximum of dynamic shared memory
// (docs/spec/lang-function-spaces.md "__launch_bounds__",
// docs/spec/lang-variable-spaces.md, docs/spec/api-device.md).

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

// Counts the threads that ran.
__global__ void __launch_bounds__(128) Bounded(int* ran) { atomicAdd(ran, 1); }

__global__ void __launch_bounds__(256, 2) BoundedWithMinBlocks(int* ran) {
  atomicAdd(ran, 1);
}

template <int kThreads>
__global__ void __launch_bounds__(kThreads) BoundedTemplate(int* ran) {
  atomicAdd(ran, 1);
}

// Control: the same kernel without a bound.
__global__ void Unbounded(int* ran) { atomicAdd(ran, 1); }

// 1 KiB of floats, then a double that needs 8-byte alignment after a char.
__global__ void WithStaticShared(int* out) {
  __shared__ float tile[256];
  __shared__ char flag;
  __shared__ double sum;
  tile[threadIdx.x] = static_cast<float>(threadIdx.x);
  if (threadIdx.x == 0) {
    flag = 1;
    sum = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 0; i < 256; ++i) sum += tile[i];
    *out = flag + static_cast<int>(sum);
  }
}

// Uses `bytes` of dynamic shared memory.
__global__ void UsesDynamicShared(int* out, int bytes) {
  extern __shared__ unsigned char area[];
  for (int i = 0; i < bytes; ++i) area[i] = 1;
  *out = bytes;
}

class KernelResources : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMallocManaged(&ran_, sizeof(int)), mcSuccess);
    *ran_ = 0;
  }
  void TearDown() override {
    mcFree(ran_);
    mcDeviceReset();  // forgets attributes the test set
  }
  int* ran_ = nullptr;
};

TEST_F(KernelResources, LaunchBoundsAreReportedAsMaxThreadsPerBlock) {
  MX_SPEC("lang.function.launch-bounds.syntax",
          "lang.function.launch-bounds.max-threads-attribute");
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, Bounded), mcSuccess);
  EXPECT_EQ(a.maxThreadsPerBlock, 128);
  ASSERT_EQ(mcFuncGetAttributes(&a, BoundedWithMinBlocks), mcSuccess);
  EXPECT_EQ(a.maxThreadsPerBlock, 256);
  ASSERT_EQ(mcFuncGetAttributes(&a, BoundedTemplate<64>), mcSuccess);
  EXPECT_EQ(a.maxThreadsPerBlock, 64);
  // Control: an unbounded kernel reports the device's limit.
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  ASSERT_EQ(mcFuncGetAttributes(&a, Unbounded), mcSuccess);
  EXPECT_EQ(a.maxThreadsPerBlock, prop.maxThreadsPerBlock);
}

TEST_F(KernelResources, LaunchWithinTheBoundRuns) {
  MX_SPEC("lang.function.launch-bounds.launch-within-bound");
  Bounded<<<2, 128>>>(ran_);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  BoundedTemplate<64><<<1, dim3(8, 8)>>>(ran_);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 2 * 128 + 64);
}

TEST_F(KernelResources, LaunchAboveTheBoundFailsAndRunsNothing) {
  MX_SPEC("lang.function.launch-bounds.launch-exceeds-bound");
  Bounded<<<1, 129>>>(ran_);
  EXPECT_EQ(mcGetLastError(), mcErrorLaunchOutOfResources);
  BoundedTemplate<64><<<1, dim3(8, 9)>>>(ran_);
  EXPECT_EQ(mcGetLastError(), mcErrorLaunchOutOfResources);
  void* args[] = {&ran_};
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&Bounded), dim3(1),
                           dim3(256), args, 0, nullptr),
            mcErrorLaunchOutOfResources);
  EXPECT_EQ(mcGetLastError(), mcErrorLaunchOutOfResources);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 0);
  // Control: the same block size runs a kernel without a bound.
  Unbounded<<<1, 256>>>(ran_);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 256);
}

TEST_F(KernelResources, StaticSharedMemoryIsReportedAndUsable) {
  MX_SPEC("api.device.func.attributes-reference-values");
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, WithStaticShared), mcSuccess);
  // 1024 bytes of floats, a char at 1024, a double at 1032.
  EXPECT_EQ(a.sharedSizeBytes, 1040u);
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  EXPECT_EQ(static_cast<size_t>(a.maxDynamicSharedSizeBytes),
            prop.sharedMemPerBlockOptin - 1040);
  // Control: a kernel without static shared memory reports none.
  ASSERT_EQ(mcFuncGetAttributes(&a, Unbounded), mcSuccess);
  EXPECT_EQ(a.sharedSizeBytes, 0u);
  WithStaticShared<<<1, 256>>>(ran_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 1 + 255 * 256 / 2);
}

TEST_F(KernelResources, LaunchAboveALoweredDynamicMaximumFails) {
  MX_SPEC("api.device.func.launch-above-max-dynamic-shared-is-invalid-value",
          "api.device.func.set-max-dynamic-shared");
  ASSERT_EQ(
      mcFuncSetAttribute(reinterpret_cast<const void*>(&UsesDynamicShared),
                         mcFuncAttributeMaxDynamicSharedMemorySize, 1024),
      mcSuccess);
  UsesDynamicShared<<<1, 1, 1025>>>(ran_, 1025);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 0);
  // Control: at the maximum it runs.
  UsesDynamicShared<<<1, 1, 1024>>>(ran_, 1024);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 1024);
  // Raising it again makes the larger launch valid.
  ASSERT_EQ(
      mcFuncSetAttribute(reinterpret_cast<const void*>(&UsesDynamicShared),
                         mcFuncAttributeMaxDynamicSharedMemorySize, 4096),
      mcSuccess);
  UsesDynamicShared<<<1, 1, 4096>>>(ran_, 4096);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 4096);
}

}  // namespace
