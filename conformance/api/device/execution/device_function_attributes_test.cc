// Copyright mxcts authors.
//
// Conformance: results of mcFuncGetAttributes, mcFuncSetAttribute,
// mcFuncSetCacheConfig and mcFuncSetSharedMemConfig for kernels of several
// kinds (plain, template, extern "C", using dynamic shared memory), through
// the C functions and the C++ forms that take the kernel itself
// (docs/spec/api-device.md, "Kernel attributes and cache configuration").

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/spec.h"

namespace {

__global__ void Scale(float* v, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= factor;
}

template <typename T>
__global__ void Fill(T* v, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = value;
}

extern "C" __global__ void CountThreads(int* counter) { atomicAdd(counter, 1); }

// Each thread writes its index through `bytes` of dynamic shared memory
// and reads it back: `out[i]` is i when all of it was usable.
__global__ void ThroughDynamicShared(int* out, int bytes) {
  extern __shared__ unsigned char buffer[];
  for (int i = threadIdx.x; i < bytes; i += blockDim.x) {
    buffer[i] = static_cast<unsigned char>(i);
  }
  __syncthreads();
  int wrong = 0;
  for (int i = threadIdx.x; i < bytes; i += blockDim.x) {
    if (buffer[i] != static_cast<unsigned char>(i)) ++wrong;
  }
  out[threadIdx.x] = wrong;
}

struct Kernel {
  const char* name;
  const void* function;
};

const Kernel kKernels[] = {
    {"Scale", reinterpret_cast<const void*>(&Scale)},
    {"FillInt", reinterpret_cast<const void*>(&Fill<int>)},
    {"FillDouble", reinterpret_cast<const void*>(&Fill<double>)},
    {"ExternC", reinterpret_cast<const void*>(&CountThreads)},
    {"DynamicShared", reinterpret_cast<const void*>(&ThroughDynamicShared)},
};

mcDeviceProp_t Properties() {
  mcDeviceProp_t prop;
  EXPECT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  return prop;
}

class EveryKernel : public testing::TestWithParam<Kernel> {
 protected:
  void TearDown() override {
    mcDeviceReset();  // forgets what the test set
    mcGetLastError();
  }
  const void* kernel() const { return GetParam().function; }
};

std::string KernelName(const testing::TestParamInfo<Kernel>& info) {
  return info.param.name;
}

TEST_P(EveryKernel, AttributesAreWithinTheDevicesLimits) {
  MX_SPEC("api.device.func.get-attributes");
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, kernel()), mcSuccess);
  const mcDeviceProp_t prop = Properties();
  EXPECT_GT(a.maxThreadsPerBlock, 0);
  EXPECT_LE(a.maxThreadsPerBlock, prop.maxThreadsPerBlock);
  EXPECT_GE(a.numRegs, 0);
  EXPECT_LE(a.sharedSizeBytes, prop.sharedMemPerBlockOptin);
  EXPECT_GE(a.maxDynamicSharedSizeBytes, 0);
  EXPECT_LE(a.sharedSizeBytes + a.maxDynamicSharedSizeBytes,
            prop.sharedMemPerBlockOptin);
}

TEST_P(EveryKernel, DefaultsAreDocumented) {
  MX_SPEC("api.device.func.attributes-reference-values");
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, kernel()), mcSuccess);
  EXPECT_EQ(a.preferredShmemCarveout, -1);
  EXPECT_EQ(static_cast<size_t>(a.maxDynamicSharedSizeBytes),
            Properties().sharedMemPerBlockOptin - a.sharedSizeBytes);
}

TEST_P(EveryKernel, MaxDynamicSharedCanBeSet) {
  MX_SPEC("api.device.func.set-max-dynamic-shared");
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, kernel()), mcSuccess);
  const int most =
      static_cast<int>(Properties().sharedMemPerBlockOptin - a.sharedSizeBytes);
  for (int bytes : {0, 1024, most / 2, most}) {
    ASSERT_EQ(mcFuncSetAttribute(
                  kernel(), mcFuncAttributeMaxDynamicSharedMemorySize, bytes),
              mcSuccess)
        << bytes;
    ASSERT_EQ(mcFuncGetAttributes(&a, kernel()), mcSuccess);
    EXPECT_EQ(a.maxDynamicSharedSizeBytes, bytes);
  }
}

TEST_P(EveryKernel, CarveoutCanBeSet) {
  MX_SPEC("api.device.func.set-carveout");
  for (int carveout : {0, 25, 50, 100, -1}) {
    ASSERT_EQ(
        mcFuncSetAttribute(
            kernel(), mcFuncAttributePreferredSharedMemoryCarveout, carveout),
        mcSuccess)
        << carveout;
    mcFuncAttributes a;
    ASSERT_EQ(mcFuncGetAttributes(&a, kernel()), mcSuccess);
    EXPECT_EQ(a.preferredShmemCarveout, carveout);
  }
}

TEST_P(EveryKernel, EveryCacheConfigIsAccepted) {
  MX_SPEC("api.device.func.set-cache-config");
  for (mcFuncCache_t config : {mcFuncCachePreferNone, mcFuncCachePreferShared,
                               mcFuncCachePreferL1, mcFuncCachePreferEqual}) {
    EXPECT_EQ(mcFuncSetCacheConfig(kernel(), config), mcSuccess) << config;
  }
}

TEST_P(EveryKernel, EverySharedMemConfigIsAccepted) {
  MX_SPEC("api.device.shared-mem-config.fixed-four-byte-banks");
  for (mcSharedMemConfig config :
       {mcSharedMemBankSizeDefault, mcSharedMemBankSizeFourByte,
        mcSharedMemBankSizeEightByte}) {
    EXPECT_EQ(mcFuncSetSharedMemConfig(kernel(), config), mcSuccess) << config;
  }
}

TEST_P(EveryKernel, ResetForgetsTheSettings) {
  MX_SPEC("api.device.reset.restores-defaults");
  mcFuncAttributes before;
  ASSERT_EQ(mcFuncGetAttributes(&before, kernel()), mcSuccess);
  ASSERT_EQ(mcFuncSetAttribute(
                kernel(), mcFuncAttributePreferredSharedMemoryCarveout, 30),
            mcSuccess);
  ASSERT_EQ(mcFuncSetAttribute(kernel(),
                               mcFuncAttributeMaxDynamicSharedMemorySize, 16),
            mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  mcFuncAttributes after;
  ASSERT_EQ(mcFuncGetAttributes(&after, kernel()), mcSuccess);
  EXPECT_EQ(after.preferredShmemCarveout, before.preferredShmemCarveout);
  EXPECT_EQ(after.maxDynamicSharedSizeBytes, before.maxDynamicSharedSizeBytes);
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryKernel, testing::ValuesIn(kKernels),
                         KernelName);

TEST(FunctionAttributes, TheCppFormTakesTheKernelItself) {
  MX_SPEC("api.device.func.get-attributes");
  mcFuncAttributes by_pointer, direct, templated;
  ASSERT_EQ(mcFuncGetAttributes(&by_pointer, (const void*)Scale), mcSuccess);
  ASSERT_EQ(mcFuncGetAttributes(&direct, Scale), mcSuccess);
  ASSERT_EQ(mcFuncGetAttributes(&templated, Fill<float>), mcSuccess);
  EXPECT_EQ(direct.maxThreadsPerBlock, by_pointer.maxThreadsPerBlock);
  EXPECT_EQ(direct.sharedSizeBytes, by_pointer.sharedSizeBytes);
  EXPECT_GT(templated.maxThreadsPerBlock, 0);
  EXPECT_EQ(
      mcFuncSetAttribute(Scale, mcFuncAttributePreferredSharedMemoryCarveout,
                         mcSharedmemCarveoutMaxShared),
      mcSuccess);
  EXPECT_EQ(mcFuncSetCacheConfig(Scale, mcFuncCachePreferShared), mcSuccess);
  EXPECT_EQ(mcFuncSetSharedMemConfig(Scale, mcSharedMemBankSizeFourByte),
            mcSuccess);
  mcDeviceReset();
}

TEST(FunctionAttributes, LaunchWithTheLargestBlockRuns) {
  MX_SPEC("api.device.func.get-attributes");
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, CountThreads), mcSuccess);
  int* counter = nullptr;
  ASSERT_EQ(mcMallocManaged(&counter, sizeof(int)), mcSuccess);
  *counter = 0;
  CountThreads<<<2, a.maxThreadsPerBlock>>>(counter);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*counter, 2 * a.maxThreadsPerBlock);
  mcFree(counter);
}

class DynamicSharedBytes : public testing::TestWithParam<int> {};

TEST_P(DynamicSharedBytes, LaunchUpToTheSetMaximumUsesItAll) {
  MX_SPEC("api.device.func.set-max-dynamic-shared");
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, ThroughDynamicShared), mcSuccess);
  const int most =
      static_cast<int>(Properties().sharedMemPerBlockOptin - a.sharedSizeBytes);
  const int bytes = GetParam() < 0 ? most : GetParam();
  ASSERT_EQ(
      mcFuncSetAttribute(ThroughDynamicShared,
                         mcFuncAttributeMaxDynamicSharedMemorySize, bytes),
      mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 128 * sizeof(int)), mcSuccess);
  for (int i = 0; i < 128; ++i) out[i] = -1;
  ThroughDynamicShared<<<2, 128, bytes>>>(out, bytes);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(out[i], 0) << i;
  mcFree(out);
  mcDeviceReset();
}

// -1 stands for the most a block may have.
INSTANTIATE_TEST_SUITE_P(Bytes, DynamicSharedBytes,
                         testing::Values(1, 4096, 32768, -1),
                         [](const testing::TestParamInfo<int>& info) {
                           return info.param < 0 ? std::string("Most")
                                                 : std::to_string(info.param);
                         });

TEST(FunctionAttributes, HintsDoNotChangeResults) {
  MX_SPEC("api.device.func.set-cache-config", "api.device.func.set-carveout");
  float* v = nullptr;
  ASSERT_EQ(mcMallocManaged(&v, 256 * sizeof(float)), mcSuccess);
  for (mcFuncCache_t config : {mcFuncCachePreferShared, mcFuncCachePreferL1}) {
    ASSERT_EQ(mcFuncSetCacheConfig(Scale, config), mcSuccess);
    ASSERT_EQ(
        mcFuncSetAttribute(Scale, mcFuncAttributePreferredSharedMemoryCarveout,
                           config == mcFuncCachePreferL1 ? 0 : 100),
        mcSuccess);
    for (int i = 0; i < 256; ++i) v[i] = static_cast<float>(i);
    Scale<<<2, 128>>>(v, 2.0f, 256);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    for (int i = 0; i < 256; ++i) EXPECT_EQ(v[i], 2.0f * i) << i;
  }
  mcFree(v);
  mcDeviceReset();
}

}  // namespace
