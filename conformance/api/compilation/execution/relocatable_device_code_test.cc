// Copyright mxcts authors.
//
// Conformance: relocatable device code (docs/spec/api-compilation.md,
// api.compile.mxcc.relocatable-device-code). This source and rdc_library.cc
// are compiled as relocatable device code, the library as an mxmaca_library
// of its own; the test binary's link links their device code into one
// image. Kernels here call the library's device function and use its
// __device__, __constant__ and __managed__ variables, which are one object
// for both sources and for host code; `static` names that both sources use
// stay each source's own. Controls: values the library did not define
// (what a per-source image would give) are checked to differ.

#include <mc_runtime.h>

#include "conformance/api/compilation/execution/rdc_library.h"
#include "conformance/testing/spec.h"

namespace {

// Same names as the library's `static` kernel and variable.
static __device__ int rdc_private = 1;
static __global__ void ReadPrivate(int* out) { *out = rdc_private; }

__global__ void ScaleTable(int* out) {
  out[threadIdx.x] = RdcScale(rdc_table[threadIdx.x]);
}

__global__ void CountHere() { atomicAdd(&rdc_counter, 10); }

__global__ void DoubleManaged() { rdc_managed *= 2; }

TEST(RelocatableDeviceCode, KernelCallsADeviceFunctionOfAnotherSource) {
  MX_SPEC("api.compile.mxcc.relocatable-device-code");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 4 * sizeof(int)), mcSuccess);
  ScaleTable<<<1, 4>>>(out);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // The library's function of the library's __constant__ table.
  EXPECT_EQ(out[0], 21);
  EXPECT_EQ(out[1], 31);
  EXPECT_EQ(out[2], 51);
  EXPECT_EQ(out[3], 71);
  mcFree(out);
}

TEST(RelocatableDeviceCode, DeviceVariablesAreOneObjectForEverySource) {
  MX_SPEC("api.compile.mxcc.relocatable-device-code");
  int counter = 0;
  ASSERT_EQ(mcMemcpyFromSymbol(&counter, rdc_counter, sizeof(int)), mcSuccess);
  EXPECT_EQ(counter, 100);  // the library's initializer
  CountHere<<<1, 3>>>();    // this source's kernel: +30
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  LaunchLibraryCount(5);  // the library's kernel: +5
  ASSERT_EQ(mcMemcpyFromSymbol(&counter, rdc_counter, sizeof(int)), mcSuccess);
  // Control: separate images would leave one of the two increments out.
  EXPECT_EQ(counter, 135);

  // A write from host code through this source's name reaches the
  // library's kernels.
  const int reset = 7;
  ASSERT_EQ(mcMemcpyToSymbol(rdc_counter, &reset, sizeof(int)), mcSuccess);
  LaunchLibraryCount(1);
  ASSERT_EQ(mcMemcpyFromSymbol(&counter, rdc_counter, sizeof(int)), mcSuccess);
  EXPECT_EQ(counter, 8);

  // A __constant__ table written here is what the library's function reads.
  const int table[4] = {0, 1, 2, 3};
  ASSERT_EQ(mcMemcpyToSymbol(rdc_table, table, sizeof(table)), mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 4 * sizeof(int)), mcSuccess);
  ScaleTable<<<1, 4>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[3], 31);
  mcFree(out);
  const int original[4] = {2, 3, 5, 7};
  ASSERT_EQ(mcMemcpyToSymbol(rdc_table, original, sizeof(original)), mcSuccess);
}

TEST(RelocatableDeviceCode, ManagedVariableOfAnotherSource) {
  MX_SPEC("api.compile.mxcc.relocatable-device-code");
  rdc_managed = 21;  // host code writes the library's variable
  DoubleManaged<<<1, 1>>>();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(rdc_managed, 42);
}

TEST(RelocatableDeviceCode, InternalNamesStayTheirSourcesOwn) {
  MX_SPEC("api.compile.mxcc.relocatable-device-code");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  ReadPrivate<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, 1);  // this source's kernel and variable
  LaunchLibraryReadPrivate(out);
  EXPECT_EQ(*out, 2);  // the library's
  int value = 0;
  ASSERT_EQ(mcMemcpyFromSymbol(&value, rdc_private, sizeof(int)), mcSuccess);
  EXPECT_EQ(value, 1);
  mcFree(out);
}

}  // namespace
