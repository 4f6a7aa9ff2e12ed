// Conformance: execution space specifiers and the macros of the two
// compilation passes (docs/spec/lang-function-spaces.md).

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

// 1 in the device pass, 0 in the host pass.
__host__ __device__ int CompiledForDevice() {
#ifdef __MACA_ARCH__
  return 1;
#else
  return 0;
#endif
}

__host__ __device__ int MacaDefined() {
#if defined(__MACA__) && defined(__MACACC__)
  return 1;
#else
  return 0;
#endif
}

__device__ int Factorial(int n) { return n <= 1 ? 1 : n * Factorial(n - 1); }

__device__ int Twice(int x) { return 2 * x; }

__global__ void RecordSpaces(int* out) {
  out[0] = CompiledForDevice();
  out[1] = MacaDefined();
  out[2] = Twice(21);
  out[3] = Factorial(5);
#ifdef __MACA_ARCH__
  out[4] = __MACA_ARCH__ > 0 ? 1 : 0;
#else
  out[4] = -1;
#endif
}

class FunctionSpaces : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMallocManaged(&out_, 8 * sizeof(int)), mcSuccess);
    for (int i = 0; i < 8; ++i) out_[i] = -7;
  }
  void TearDown() override { mcFree(out_); }
  int* out_ = nullptr;
};

TEST_F(FunctionSpaces, HostDeviceFunctionTakesArchPathOnDevice) {
  MX_SPEC("lang.function.host-device.both-spaces",
          "lang.function.macro.maca-arch-device-pass-only",
          "lang.builtin.host-path-of-host-device-function");
  RecordSpaces<<<1, 1>>>(out_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out_[0], 1);
  // Control: the same function called from host code takes the host path.
  EXPECT_EQ(CompiledForDevice(), 0);
}

TEST_F(FunctionSpaces, MacaArchHasAPositiveValueInDevicePass) {
  MX_SPEC("lang.function.macro.maca-arch-value");
  RecordSpaces<<<1, 1>>>(out_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out_[4], 1);
}

TEST_F(FunctionSpaces, MacaMacrosDefinedInBothPasses) {
  MX_SPEC("lang.function.macro.maca-both-passes");
  RecordSpaces<<<1, 1>>>(out_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out_[1], 1);
  EXPECT_EQ(MacaDefined(), 1);
}

TEST_F(FunctionSpaces, DeviceFunctionsReturnValuesAndRecurse) {
  MX_SPEC("lang.function.device.returns-values",
          "lang.function.device.recursion",
          "lang.function.device.runs-on-device");
  RecordSpaces<<<1, 1>>>(out_);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out_[2], 42);
  EXPECT_EQ(out_[3], 120);
}

// --- Kernels of every declaration form. ---

template <typename T>
__global__ void FillWith(T* out, T value) {
  out[threadIdx.x] = value;
}

namespace inner {
__global__ void FillInNamespace(int* out) { out[threadIdx.x] = 11; }
}  // namespace inner

extern "C" __global__ void FillExternC(int* out) { out[threadIdx.x] = 12; }

static __global__ void FillStatic(int* out) { out[threadIdx.x] = 13; }

__global__ void FillOverloaded(int* out) { out[threadIdx.x] = 14; }
__global__ void FillOverloaded(int* out, int value) {
  out[threadIdx.x] = value;
}

TEST_F(FunctionSpaces, TemplateKernelSpecializationsLaunch) {
  MX_SPEC("lang.function.global.templates-allowed",
          "lang.launch.template-kernel");
  FillWith<int><<<1, 2>>>(out_, 5);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out_[0], 5);
  EXPECT_EQ(out_[1], 5);
  float* floats = nullptr;
  ASSERT_EQ(mcMallocManaged(&floats, 2 * sizeof(float)), mcSuccess);
  FillWith<<<1, 2>>>(floats, 2.5f);  // deduced: FillWith<float>
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(floats[0], 2.5f);
  EXPECT_EQ(floats[1], 2.5f);
  mcFree(floats);
}

TEST_F(FunctionSpaces, NamespaceExternCAndStaticKernelsLaunch) {
  MX_SPEC("lang.function.global.extern-c-and-static",
          "lang.function.global.callable-from-host");
  inner::FillInNamespace<<<1, 1>>>(out_);
  FillExternC<<<1, 1>>>(out_ + 1);
  FillStatic<<<1, 1>>>(out_ + 2);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out_[0], 11);
  EXPECT_EQ(out_[1], 12);
  EXPECT_EQ(out_[2], 13);
}

TEST_F(FunctionSpaces, OverloadedKernelsResolveByArguments) {
  MX_SPEC("lang.launch.argument-count-and-types-checked");
  FillOverloaded<<<1, 1>>>(out_);
  FillOverloaded<<<1, 1>>>(out_ + 1, 15);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out_[0], 14);
  EXPECT_EQ(out_[1], 15);
}

TEST_F(FunctionSpaces, KernelAddressLaunchesThroughMclaunchkernel) {
  MX_SPEC("lang.function.address.kernel-address-in-host",
          "lang.launch.operand.equivalent-to-mclaunchkernel");
  int* target = out_;
  int value = 77;
  void* args[] = {&target, &value};
  ASSERT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&FillWith<int>),
                           dim3(1), dim3(3), args, 0, nullptr),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out_[0], 77);
  EXPECT_EQ(out_[2], 77);
  EXPECT_EQ(out_[3], -7);  // control: thread 3 does not exist
}

}  // namespace
