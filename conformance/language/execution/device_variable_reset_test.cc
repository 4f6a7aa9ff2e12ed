// Conformance: mcDeviceReset gives the device's __device__ and __constant__
// variables their initial values again
// (docs/spec/lang-variable-spaces.md, lang.variable.device.reset-restores-
// initializer). A binary of its own: the reset also ends every allocation
// and stream of the device, which other tests of a shared binary would see.

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

__device__ int device_counter = 41;
__device__ int zero_initialized_counter;
__constant__ int constant_coefficients[3] = {2, 3, 5};

__global__ void IncrementCounters() {
  device_counter += 1;
  zero_initialized_counter += 1;
}

__global__ void ReadVariables(int* out) {
  out[0] = device_counter;
  out[1] = zero_initialized_counter;
  out[2] = constant_coefficients[1];
}

// Changes every variable: the counters by a kernel, the constant by a copy.
void ChangeEveryVariable() {
  IncrementCounters<<<1, 1>>>();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const int replaced = 300;
  ASSERT_EQ(mcMemcpyToSymbol(constant_coefficients, &replaced, sizeof(int),
                             sizeof(int)),
            mcSuccess);
}

// What device code reads now: device_counter, zero_initialized_counter and
// constant_coefficients[1].
void ReadFromDeviceCode(int (&values)[3]) {
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, sizeof(values)), mcSuccess);
  ReadVariables<<<1, 1>>>(out);
  ASSERT_EQ(mcMemcpy(values, out, sizeof(values), mcMemcpyDeviceToHost),
            mcSuccess);
  ASSERT_EQ(mcFree(out), mcSuccess);
}

TEST(DeviceVariableReset, ChangedValuesPersistWithoutAReset) {
  // Control: without a reset the changes stay, so the test below would see
  // them if the reset did not restore the initializers.
  MX_SPEC("lang.variable.device.reset-restores-initializer");
  ChangeEveryVariable();
  int values[3] = {};
  ReadFromDeviceCode(values);
  EXPECT_EQ(values[0], 42);
  EXPECT_EQ(values[1], 1);
  EXPECT_EQ(values[2], 300);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
}

TEST(DeviceVariableReset, DeviceCodeSeesTheInitializersAfterAReset) {
  MX_SPEC("lang.variable.device.reset-restores-initializer");
  ChangeEveryVariable();
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  int values[3] = {};
  ReadFromDeviceCode(values);
  EXPECT_EQ(values[0], 41);
  EXPECT_EQ(values[1], 0);  // no initializer: zero
  EXPECT_EQ(values[2], 3);
}

TEST(DeviceVariableReset, SymbolCopiesSeeTheInitializersAfterAReset) {
  MX_SPEC("lang.variable.device.reset-restores-initializer");
  ChangeEveryVariable();
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  int counter = -1;
  ASSERT_EQ(mcMemcpyFromSymbol(&counter, device_counter, sizeof(int)),
            mcSuccess);
  EXPECT_EQ(counter, 41);
  int coefficients[3] = {};
  ASSERT_EQ(mcMemcpyFromSymbol(coefficients, constant_coefficients,
                               sizeof(coefficients)),
            mcSuccess);
  EXPECT_EQ(coefficients[0], 2);
  EXPECT_EQ(coefficients[1], 3);
  EXPECT_EQ(coefficients[2], 5);
}

}  // namespace
