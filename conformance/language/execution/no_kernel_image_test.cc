// Copyright mxcts authors.
//
// Conformance: launching a kernel for which the program has no device code
// that runs on the current device (docs/spec/lang-execution-configuration.md,
// lang.launch.limit.no-image-for-device). Built with
// --offload-arch=xcore1000 and run with device 1 configured as a 9.0
// device (BUILD): on device 1 the launch fails with
// mcErrorNoKernelImageForDevice and the kernel does not run; on device 0,
// the architecture the code was built for, the same launch runs (the
// control). A kernel the device pass never compiled has no code for any
// device, the built-for one included.

#include <mc_runtime.h>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

// Declared in both compilation passes and defined only in the host pass
// (lang.function.macro.maca-arch-device-pass-only): the program registers
// the kernel, but its device image holds no code for it. Outside the anonymous
// namespace, so that the device pass may declare it without defining it.
__global__ void HostPassOnly(int* out, int value);
#ifndef __MACA_ARCH__
__global__ void HostPassOnly(int* out, int value) { *out = value; }
#endif

namespace {

__global__ void Store(int* out, int value) { *out = value; }

class NoKernelImage : public testing::Test {
 protected:
  void SetUp() override {
    // Device 1 is the second device of the test's configuration (BUILD).
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
    int count = 0;
    ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
    ASSERT_GE(count, 2);
    mcDeviceProp_t prop;
    ASSERT_EQ(mcGetDeviceProperties(&prop, 1), mcSuccess);
    ASSERT_EQ(prop.major, 9) << "device 1 is not the 9.0 device of BUILD";
    ASSERT_EQ(mcMallocManaged(&out_, sizeof(int)), mcSuccess);
    *out_ = 0;
  }
  void TearDown() override {
    mcSetDevice(0);
    mcFree(out_);
  }
  int* out_ = nullptr;
};

TEST_F(NoKernelImage, LaunchOnADeviceOfAnotherArchitectureFails) {
  MX_SPEC("lang.launch.limit.no-image-for-device");
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  Store<<<1, 1>>>(out_, 7);
  EXPECT_EQ(mcGetLastError(), mcErrorNoKernelImageForDevice);
  int value = 8;
  void* args[] = {&out_, &value};
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&Store), dim3(1),
                           dim3(1), args, 0, nullptr),
            mcErrorNoKernelImageForDevice);
  // The failed mcLaunchKernel is the last error too; reading it resets it.
  EXPECT_EQ(mcGetLastError(), mcErrorNoKernelImageForDevice);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out_, 0);
}

TEST_F(NoKernelImage, KernelWithNoDeviceCodeFailsOnEveryDevice) {
  MX_SPEC("lang.launch.limit.no-image-for-device");
  // Device 0 runs the image's architecture (the control below), but the
  // image has no code for this kernel at all.
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  HostPassOnly<<<1, 1>>>(out_, 7);
  EXPECT_EQ(mcGetLastError(), mcErrorNoKernelImageForDevice);
  int value = 8;
  void* args[] = {&out_, &value};
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&HostPassOnly),
                           dim3(1), dim3(1), args, 0, nullptr),
            mcErrorNoKernelImageForDevice);
  EXPECT_EQ(mcGetLastError(), mcErrorNoKernelImageForDevice);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out_, 0);
}

TEST_F(NoKernelImage, ControlLaunchOnTheBuiltForArchitectureRuns) {
  MX_SPEC("lang.launch.limit.no-image-for-device");
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  Store<<<1, 1>>>(out_, 7);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out_, 7);
}

}  // namespace
