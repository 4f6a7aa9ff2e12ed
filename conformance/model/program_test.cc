// Copyright mxcts authors.
//
// Conformance: the structure of a program (docs/spec/model.md,
// "Programming model"): host code and device code side by side in one
// source, compiled by one driver into one executable that holds the device
// image; a __host__ __device__ function is both.
//
// This file is itself such a program: its kernels are found in the
// executable's device image (mcFuncGetAttributes), while a host function's
// address is not a kernel (the control); the one function compiled for
// both sides runs its device path on the device and its host path on the
// host.

#include <mc_runtime.h>

#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// 1 in the device pass, 0 in the host pass; the arithmetic is the same.
__host__ __device__ int Side() {
#ifdef __MACA_ARCH__
  return 1;
#else
  return 0;
#endif
}

__host__ __device__ int Polynomial(int x) { return x * x * 3 - 7 * x + 2; }

// Device code only.
__device__ int TwiceOnTheDevice(int x) { return Polynomial(x) * 2; }

__global__ void RunOnTheDevice(int x, int* out) {
  out[0] = Side();
  out[1] = Polynomial(x);
  out[2] = TwiceOnTheDevice(x);
}

// Host code only.
int TwiceOnTheHost(int x) { return Polynomial(x) * 2; }

TEST(ProgramStructure, HostDeviceFunctionRunsOnBothSides) {
  MX_SPEC("model.program.host-and-device-code",
          "model.program.single-source-compilation");
  ManagedBuffer<int> out(3, 0xff);
  RunOnTheDevice<<<1, 1>>>(11, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 1);  // device path on the device
  EXPECT_EQ(Side(), 0);  // host path on the host: the control
  EXPECT_EQ(out[1], Polynomial(11));
  EXPECT_EQ(out[2], TwiceOnTheHost(11));
}

TEST(ProgramStructure, KernelOfThisSourceIsInTheExecutable) {
  MX_SPEC("model.program.single-source-compilation",
          "model.program.kernel-is-entry-point");
  mcFuncAttributes attributes{};
  EXPECT_EQ(mcFuncGetAttributes(&attributes,
                                reinterpret_cast<const void*>(RunOnTheDevice)),
            mcSuccess);
  EXPECT_GT(attributes.maxThreadsPerBlock, 0);
}

TEST(ProgramStructure, ControlHostFunctionIsNotAKernel) {
  MX_SPEC("model.program.single-source-compilation",
          "model.program.kernel-is-entry-point");
  mcFuncAttributes attributes{};
  EXPECT_EQ(mcFuncGetAttributes(&attributes,
                                reinterpret_cast<const void*>(TwiceOnTheHost)),
            mcErrorInvalidDeviceFunction);
}

}  // namespace
}  // namespace mxcts::conformance
