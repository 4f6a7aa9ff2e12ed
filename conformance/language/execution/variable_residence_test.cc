// Copyright mxcts authors.
//
// Conformance: where `__device__`, `__constant__` and `__managed__`
// variables live and for how long (docs/spec/lang-variable-spaces.md):
// global or constant memory of each device, one instance per device, kept
// between launches for the life of the context (the application, for
// `__managed__`), and which addresses may be used where. mcDeviceReset ends
// a context, so its tests are in variable_reset_test.cc.

#include <mc_runtime.h>

#include <cstdint>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

__device__ unsigned grid_total;
__device__ int per_device_value = 17;
__device__ int pointee = 1;
__device__ int* stashed_pointer;
__constant__ int constant_table[4] = {3, 5, 7, 11};
__constant__ int plain_constant = 8;
__device__ __constant__ int device_constant = 8;
__managed__ int managed_alone = 4;
__device__ __managed__ int managed_with_device = 4;
__managed__ int managed_launches;

namespace {

using mxcts::conformance::ManagedBuffer;

// Every thread of the grid adds 1 to one `__device__` variable.
__global__ void AddOne() { atomicAdd(&grid_total, 1u); }

// Every thread reads the total that earlier grids left.
__global__ void ReadTotal(unsigned* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = grid_total;
}

TEST(DeviceVariables, ReadAndWrittenByEveryThreadOfEveryGrid) {
  MX_SPEC("lang.variable.device.resides-in-global-memory",
          "lang.variable.device.lifetime-of-context");
  const unsigned zero = 0;
  ASSERT_EQ(mcMemcpyToSymbol(grid_total, &zero, sizeof(zero)), mcSuccess);
  AddOne<<<4, 64>>>();
  AddOne<<<dim3(2, 3), dim3(8, 4)>>>();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ManagedBuffer<unsigned> seen(3 * 32, 0xff);
  ReadTotal<<<3, 32>>>(seen.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 3 * 32; ++i) {
    EXPECT_EQ(seen[i], 4u * 64 + 6 * 32) << "thread " << i;
  }
}

TEST(DeviceVariables, SymbolAddressIsDeviceMemory) {
  MX_SPEC("lang.variable.device.resides-in-global-memory",
          "lang.variable.constant.resides-in-constant-memory");
  for (const void* symbol : {static_cast<const void*>(&grid_total),
                             static_cast<const void*>(&constant_table)}) {
    void* address = nullptr;
    ASSERT_EQ(mcGetSymbolAddress(&address, symbol), mcSuccess);
    mcPointerAttribute_t attributes{};
    ASSERT_EQ(mcPointerGetAttributes(&attributes, address), mcSuccess);
    EXPECT_EQ(attributes.type, mcMemoryTypeDevice);
    int device = -1;
    ASSERT_EQ(mcGetDevice(&device), mcSuccess);
    EXPECT_EQ(attributes.device, device);
  }
  // Control: ordinary host memory is not device memory.
  int host_value = 0;
  mcPointerAttribute_t attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, &host_value), mcSuccess);
  EXPECT_NE(attributes.type, mcMemoryTypeDevice);
}

__global__ void ReadPerDevice(int* out) { *out = per_device_value; }
__global__ void WritePerDevice(int value) { per_device_value = value; }
__global__ void ReadConstantTable(int* out) {
  out[threadIdx.x] = constant_table[threadIdx.x % 4];
}

int ReadOn(int device) {
  if (mcSetDevice(device) != mcSuccess) return -1;
  ManagedBuffer<int> out(1, 0xff);
  ReadPerDevice<<<1, 1>>>(out.get());
  if (mcDeviceSynchronize() != mcSuccess) return -1;
  return out[0];
}

TEST(DeviceVariables, EachDeviceHasItsOwnInstance) {
  MX_SPEC("lang.variable.device.distinct-per-device");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  WritePerDevice<<<1, 1>>>(1000);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // Device 1 still has the initializer; its own write leaves device 0's.
  EXPECT_EQ(ReadOn(1), 17);
  WritePerDevice<<<1, 1>>>(2000);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(ReadOn(0), 1000);
  EXPECT_EQ(ReadOn(1), 2000);
  // Control: on one device the write is seen.
  EXPECT_EQ(ReadOn(0), 1000);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

TEST(ConstantVariables, OneInstancePerDeviceReadByEveryThread) {
  MX_SPEC("lang.variable.constant.resides-in-constant-memory");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const int changed[4] = {30, 50, 70, 110};
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcMemcpyToSymbol(constant_table, changed, sizeof(changed)),
            mcSuccess);
  for (int device : {0, 1}) {
    ASSERT_EQ(mcSetDevice(device), mcSuccess);
    ManagedBuffer<int> out(64, 0xff);
    ReadConstantTable<<<1, 64>>>(out.get());
    ReadConstantTable<<<1, 64>>>(out.get());  // a second grid reads it too
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    const int* expected = device == 0 ? nullptr : changed;
    const int initial[4] = {3, 5, 7, 11};
    if (expected == nullptr) expected = initial;
    for (int t = 0; t < 64; ++t) {
      EXPECT_EQ(out[t], expected[t % 4])
          << "device " << device << " thread " << t;
    }
  }
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

// --- Addresses taken in device code. ---

__global__ void StashAddress() { stashed_pointer = &pointee; }
__global__ void WriteThroughStash(int value) { *stashed_pointer = value; }
__global__ void WriteThroughArgument(int* target, int value) {
  *target = value;
}
__global__ void ReportAddress(unsigned long long* out) {
  *out = reinterpret_cast<unsigned long long>(&pointee);
}

TEST(DeviceAddresses, DeviceCodeAddressServesLaterDeviceCode) {
  MX_SPEC("lang.variable.device.device-address-device-only");
  StashAddress<<<1, 1>>>();
  WriteThroughStash<<<1, 1>>>(123);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int value = 0;
  ASSERT_EQ(mcMemcpyFromSymbol(&value, pointee, sizeof(value)), mcSuccess);
  EXPECT_EQ(value, 123);
}

TEST(DeviceAddresses, SymbolAddressServesHostCallsAndKernels) {
  MX_SPEC("lang.variable.device.device-address-device-only",
          "lang.variable.device.symbol-address-matches-device-address");
  void* address = nullptr;
  ASSERT_EQ(mcGetSymbolAddress(&address, pointee), mcSuccess);
  // In a host runtime call...
  ASSERT_EQ(mcMemset(address, 0, sizeof(int)), mcSuccess);
  int value = -1;
  ASSERT_EQ(mcMemcpyFromSymbol(&value, pointee, sizeof(value)), mcSuccess);
  EXPECT_EQ(value, 0);
  // ... and passed to a kernel, where it is `&pointee`.
  WriteThroughArgument<<<1, 1>>>(static_cast<int*>(address), 77);
  ManagedBuffer<unsigned long long> reported(1, 0);
  ReportAddress<<<1, 1>>>(reported.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcMemcpy(&value, address, sizeof(value), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 77);
  EXPECT_EQ(reported[0], reinterpret_cast<std::uintptr_t>(address));
  // Control: the host's `&pointee` is not that address.
  EXPECT_NE(static_cast<const void*>(&pointee), address);
}

// --- `__device__ __constant__` is `__constant__`. ---

__global__ void ReadBothConstants(int* out) {
  out[0] = plain_constant;
  out[1] = device_constant;
}

// One kernel per spelling, each writing through a pointer to its variable.
// (Not one kernel template over the variable's address: nvcc cannot
// generate the host stub of a kernel whose template argument is the address
// of a __constant__ variable.)
__global__ void WritePlainConstantThroughPointer() {
  *reinterpret_cast<volatile int*>(&plain_constant) = 1;
}

__global__ void WriteDeviceConstantThroughPointer() {
  *reinterpret_cast<volatile int*>(&device_constant) = 1;
}

mcError_t WritePlainConstant() {
  WritePlainConstantThroughPointer<<<1, 1>>>();
  return mcDeviceSynchronize();
}

mcError_t WriteDeviceConstant() {
  WriteDeviceConstantThroughPointer<<<1, 1>>>();
  return mcDeviceSynchronize();
}

TEST(DeviceConstant, SizeAddressAndHostWritesAsForConstant) {
  MX_SPEC("lang.variable.constant.device-constant-same-as-constant");
  size_t plain_size = 0, device_size = 0;
  ASSERT_EQ(mcGetSymbolSize(&plain_size, plain_constant), mcSuccess);
  ASSERT_EQ(mcGetSymbolSize(&device_size, device_constant), mcSuccess);
  EXPECT_EQ(plain_size, device_size);
  void* plain_address = nullptr;
  void* device_address = nullptr;
  ASSERT_EQ(mcGetSymbolAddress(&plain_address, plain_constant), mcSuccess);
  ASSERT_EQ(mcGetSymbolAddress(&device_address, device_constant), mcSuccess);
  mcPointerAttribute_t plain_attributes{}, device_attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&plain_attributes, plain_address),
            mcSuccess);
  ASSERT_EQ(mcPointerGetAttributes(&device_attributes, device_address),
            mcSuccess);
  EXPECT_EQ(plain_attributes.type, device_attributes.type);
  const int nine = 9;
  ASSERT_EQ(mcMemcpyToSymbol(device_constant, &nine, sizeof(nine)), mcSuccess);
  ManagedBuffer<int> out(2, 0xff);
  ReadBothConstants<<<1, 1>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 8);
  EXPECT_EQ(out[1], 9);
  const int eight = 8;
  ASSERT_EQ(mcMemcpyToSymbol(device_constant, &eight, sizeof(eight)),
            mcSuccess);
}

// The reference traps a device write to constant memory
// ([lang.variable.constant.write-through-pointer-undefined]); both
// spellings are constant memory, so both trap. The trap and its error are
// the reference's choice for undefined behaviour (an NVIDIA GPU reports
// such a write as a launch failure).
TEST(DeviceConstant, DeviceWriteTrapsAsForConstant) {
  MX_SPEC("lang.variable.constant.device-constant-same-as-constant",
          "lang.variable.constant.write-through-pointer-undefined");
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(WritePlainConstant(), mcErrorIllegalAddress, "plain_constant");
  MX_EXPECT_TRAP(WriteDeviceConstant(), mcErrorIllegalAddress,
                 "device_constant");
}

// --- `__managed__`. ---

__global__ void AddToManaged(int amount) {
  managed_alone += amount;
  managed_with_device += amount;
}

__global__ void CountLaunch() { managed_launches += 1; }

TEST(ManagedVariables, AloneIsTheSameAsWithDevice) {
  MX_SPEC("lang.variable.managed.implies-device");
  for (const void* symbol : {static_cast<const void*>(&managed_alone),
                             static_cast<const void*>(&managed_with_device)}) {
    size_t size = 0;
    void* address = nullptr;
    ASSERT_EQ(mcGetSymbolSize(&size, symbol), mcSuccess);
    EXPECT_EQ(size, sizeof(int));
    ASSERT_EQ(mcGetSymbolAddress(&address, symbol), mcSuccess);
    mcPointerAttribute_t attributes{};
    ASSERT_EQ(mcPointerGetAttributes(&attributes, address), mcSuccess);
    EXPECT_EQ(attributes.type, mcMemoryTypeManaged);
    EXPECT_EQ(attributes.isManaged, 1);
    const int thirty = 30;
    ASSERT_EQ(mcMemcpyToSymbol(symbol, &thirty, sizeof(thirty)), mcSuccess);
  }
  EXPECT_EQ(managed_alone, 30);
  EXPECT_EQ(managed_with_device, 30);
  AddToManaged<<<1, 1>>>(5);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int read_alone = 0, read_with_device = 0;
  ASSERT_EQ(mcMemcpyFromSymbol(&read_alone, managed_alone, sizeof(int)),
            mcSuccess);
  ASSERT_EQ(
      mcMemcpyFromSymbol(&read_with_device, managed_with_device, sizeof(int)),
      mcSuccess);
  EXPECT_EQ(read_alone, 35);
  EXPECT_EQ(read_with_device, 35);
}

TEST(ManagedVariables, ValuePersistsAcrossLaunchesAndStreams) {
  MX_SPEC("lang.variable.managed.lifetime-of-application");
  managed_launches = 0;
  for (int i = 0; i < 5; ++i) CountLaunch<<<1, 1>>>();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(managed_launches, 5);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  CountLaunch<<<1, 1, 0, stream>>>();
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(managed_launches, 6);
  // Control: the host's own write is what the next launch starts from.
  managed_launches = 100;
  CountLaunch<<<1, 1>>>();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(managed_launches, 101);
}

}  // namespace
