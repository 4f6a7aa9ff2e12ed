// Conformance: __device__, __constant__ and __managed__ variables and the
// symbol API that reaches them from the host
// (docs/spec/lang-variable-spaces.md, docs/spec/api-memory.md "symbols").

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

__device__ int device_counter = 41;
__device__ float device_table[4];
__constant__ int constant_coefficients[3] = {2, 3, 5};
__managed__ int managed_value = 7;

namespace inner {
__device__ int namespaced_value = 99;
}  // namespace inner

__global__ void IncrementCounter() { device_counter += 1; }

__global__ void ScaleTable(float factor) {
  device_table[threadIdx.x] *= factor;
}

__global__ void ApplyCoefficients(int* out) {
  out[threadIdx.x] = constant_coefficients[threadIdx.x] * 10;
}

__global__ void DoubleManaged() { managed_value *= 2; }

__global__ void ReadNamespaced(int* out) { *out = inner::namespaced_value; }

TEST(DeviceVariables, InitializerVisibleToDeviceCode) {
  MX_SPEC("lang.variable.device.initializer",
          "api.memory.symbol.from-symbol-copies");
  int value = 0;
  ASSERT_EQ(mcMemcpyFromSymbol(&value, device_counter, sizeof(int)), mcSuccess);
  EXPECT_EQ(value, 41);
}

TEST(DeviceVariables, SymbolRoundTripThroughKernel) {
  MX_SPEC("lang.variable.device.host-access-through-runtime",
          "api.memory.symbol.to-symbol-copies",
          "api.memory.symbol.takes-variable-not-string");
  const int start = 1000;
  ASSERT_EQ(mcMemcpyToSymbol(device_counter, &start, sizeof(int)), mcSuccess);
  IncrementCounter<<<1, 1>>>();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int value = 0;
  ASSERT_EQ(mcMemcpyFromSymbol(&value, device_counter, sizeof(int)), mcSuccess);
  EXPECT_EQ(value, 1001);
}

TEST(DeviceVariables, SymbolCopiesHonourOffset) {
  MX_SPEC("api.memory.symbol.to-symbol-copies",
          "api.memory.symbol.from-symbol-copies");
  const float ones[4] = {1, 1, 1, 1};
  ASSERT_EQ(mcMemcpyToSymbol(device_table, ones, sizeof(ones)), mcSuccess);
  const float two = 2.0f;
  ASSERT_EQ(
      mcMemcpyToSymbol(device_table, &two, sizeof(float), 2 * sizeof(float)),
      mcSuccess);
  ScaleTable<<<1, 4>>>(3.0f);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  float result[4] = {};
  ASSERT_EQ(mcMemcpyFromSymbol(result, device_table, sizeof(result)),
            mcSuccess);
  EXPECT_EQ(result[0], 3.0f);
  EXPECT_EQ(result[1], 3.0f);
  EXPECT_EQ(result[2], 6.0f);
  EXPECT_EQ(result[3], 3.0f);
}

TEST(DeviceVariables, SymbolAddressAndSize) {
  MX_SPEC("lang.variable.device.symbol-address-matches-device-address",
          "api.memory.symbol.get-address", "api.memory.symbol.get-size");
  void* address = nullptr;
  size_t size = 0;
  ASSERT_EQ(mcGetSymbolAddress(&address, device_table), mcSuccess);
  ASSERT_EQ(mcGetSymbolSize(&size, device_table), mcSuccess);
  EXPECT_EQ(size, 4 * sizeof(float));
  ASSERT_NE(address, nullptr);
  // The address is device memory: a device-to-host copy from it reads the
  // variable, and it is not the host shadow.
  const float values[4] = {4, 5, 6, 7};
  ASSERT_EQ(mcMemcpyToSymbol(device_table, values, sizeof(values)), mcSuccess);
  float read[4] = {};
  ASSERT_EQ(mcMemcpy(read, address, sizeof(read), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(read[3], 7.0f);
  EXPECT_NE(address, static_cast<const void*>(device_table));
}

TEST(DeviceVariables, NamespacedVariableReachable) {
  MX_SPEC("lang.variable.device.initializer");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  ReadNamespaced<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, 99);
  mcFree(out);
}

TEST(ConstantVariables, InitializerAndHostWrites) {
  MX_SPEC("lang.variable.constant.initializer",
          "lang.variable.constant.host-writes-with-symbol-api");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 3 * sizeof(int)), mcSuccess);
  ApplyCoefficients<<<1, 3>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 20);
  EXPECT_EQ(out[1], 30);
  EXPECT_EQ(out[2], 50);
  const int replaced[3] = {7, 11, 13};
  ASSERT_EQ(mcMemcpyToSymbol(constant_coefficients, replaced, sizeof(replaced)),
            mcSuccess);
  ApplyCoefficients<<<1, 3>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 70);
  EXPECT_EQ(out[2], 130);
  const int original[3] = {2, 3, 5};
  ASSERT_EQ(mcMemcpyToSymbol(constant_coefficients, original, sizeof(original)),
            mcSuccess);
  mcFree(out);
}

TEST(ManagedVariables, OneObjectForHostAndDevice) {
  MX_SPEC("lang.variable.managed.host-and-device-access",
          "lang.variable.managed.host-sees-device-writes-after-sync");
  managed_value = 21;
  DoubleManaged<<<1, 1>>>();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(managed_value, 42);
}

TEST(SymbolApi, UnknownSymbolIsInvalidSymbol) {
  MX_SPEC("api.memory.symbol.not-a-symbol");
  static int plain_host_variable = 0;
  int value = 0;
  EXPECT_EQ(mcMemcpyFromSymbol(&value, plain_host_variable, sizeof(int)),
            mcErrorInvalidSymbol);
  // Control: a device variable works with the same call.
  EXPECT_EQ(mcMemcpyFromSymbol(&value, device_counter, sizeof(int)), mcSuccess);
}

TEST(SymbolApi, CopyBeyondTheVariableIsInvalidValue) {
  MX_SPEC("api.memory.symbol.past-end");
  float values[5] = {};
  EXPECT_EQ(mcMemcpyToSymbol(device_table, values, 5 * sizeof(float)),
            mcErrorInvalidValue);
  EXPECT_EQ(
      mcMemcpyToSymbol(device_table, values, sizeof(float), 4 * sizeof(float)),
      mcErrorInvalidValue);
  // Controls at the limit.
  EXPECT_EQ(mcMemcpyToSymbol(device_table, values, 4 * sizeof(float)),
            mcSuccess);
  EXPECT_EQ(
      mcMemcpyToSymbol(device_table, values, sizeof(float), 3 * sizeof(float)),
      mcSuccess);
}

// Arrays whose first bound comes from the initializer, in every space.
__managed__ int managed_unsized[] = {1, 2, 3};
__managed__ char managed_text[] = "abcd";
__managed__ int managed_rows[][2] = {{1, 2}, {3, 4}, {5, 6}};
__device__ int device_unsized[] = {10, 20, 30, 40};
__constant__ int constant_unsized[] = {7, 8};

// Records the device's view of each array's size and sum.
__global__ void SumUnsizedArrays(long long* out) {
  long long managed_sum = 0;
  for (int v : managed_unsized) managed_sum += v;
  long long device_sum = 0;
  for (int v : device_unsized) device_sum += v;
  out[0] = sizeof(managed_unsized);
  out[1] = managed_sum;
  out[2] = sizeof(device_unsized);
  out[3] = device_sum;
  out[4] = sizeof(constant_unsized);
  out[5] = constant_unsized[0] + constant_unsized[1];
  out[6] = sizeof(managed_rows);
  out[7] = managed_rows[2][1] + managed_text[3];
  managed_unsized[2] = 300;
}

TEST(UnsizedArrays, BoundComesFromTheInitializerOnHostAndDevice) {
  MX_SPEC("lang.variable.unsized-array-bound-from-initializer",
          "lang.variable.managed.host-and-device-access");
  // Host view.
  EXPECT_EQ(sizeof(managed_unsized), 3 * sizeof(int));
  EXPECT_EQ(sizeof(managed_text), 5u);
  EXPECT_EQ(sizeof(managed_rows), 6 * sizeof(int));
  EXPECT_EQ(sizeof(device_unsized), 4 * sizeof(int));
  EXPECT_EQ(sizeof(constant_unsized), 2 * sizeof(int));
  int host_sum = 0;
  for (int v : managed_unsized) host_sum += v;
  EXPECT_EQ(host_sum, 6);
  // Device view.
  long long* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 8 * sizeof(long long)), mcSuccess);
  SumUnsizedArrays<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], static_cast<long long>(3 * sizeof(int)));
  EXPECT_EQ(out[1], 6);
  EXPECT_EQ(out[2], static_cast<long long>(4 * sizeof(int)));
  EXPECT_EQ(out[3], 100);
  EXPECT_EQ(out[4], static_cast<long long>(2 * sizeof(int)));
  EXPECT_EQ(out[5], 15);
  EXPECT_EQ(out[6], static_cast<long long>(6 * sizeof(int)));
  EXPECT_EQ(out[7], 6 + 'd');
  // The host sees the device's write to the last element (control: the
  // elements it did not write keep their initial values).
  EXPECT_EQ(managed_unsized[2], 300);
  EXPECT_EQ(managed_unsized[0], 1);
  int copy[4] = {};
  ASSERT_EQ(mcMemcpyFromSymbol(copy, device_unsized, sizeof(copy)), mcSuccess);
  EXPECT_EQ(copy[3], 40);
  mcFree(out);
}

}  // namespace
