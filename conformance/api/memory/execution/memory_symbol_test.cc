// Copyright mxcts authors.
//
// Conformance: copies to and from device variables by symbol
// (docs/spec/api-memory.md): every accepted kind of the four copy calls, at
// several offsets, synchronous and in a stream, each device's own instance,
// and the address of a variable used as an ordinary copy destination.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::ScopedDevice;

__device__ int table[32];
__constant__ float weights[8];

__global__ void ReadTable(int* out) {
  int i = threadIdx.x;
  if (i < 32) out[i] = table[i];
}

struct SymbolCase {
  bool async;
  bool device_side;  // the other side is device memory (DeviceToDevice)
  bool default_kind;
  size_t offset;  // elements
  size_t count;   // elements
};

class SymbolCopy : public testing::TestWithParam<SymbolCase> {};

TEST_P(SymbolCopy, ToAndFromTheCurrentDevicesInstance) {
  MX_SPEC("api.memory.symbol.to-symbol-copies",
          "api.memory.symbol.from-symbol-copies",
          "api.memory.symbol.async-forms",
          "api.memory.symbol.synchronous-as-memcpy");
  const SymbolCase& c = GetParam();
  std::vector<int> zeros(32, 0);
  ASSERT_EQ(mcMemcpyToSymbol(table, zeros.data(), sizeof(int) * 32), mcSuccess);
  std::vector<int> values(c.count);
  for (size_t i = 0; i < c.count; ++i) values[i] = static_cast<int>(100 + i);
  int* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, sizeof(int) * 64), mcSuccess);
  ASSERT_EQ(mcMemcpy(device, values.data(), sizeof(int) * c.count,
                     mcMemcpyHostToDevice),
            mcSuccess);
  const void* source =
      c.device_side ? static_cast<const void*>(device) : values.data();
  const mcMemcpyKind to_kind = c.default_kind  ? mcMemcpyDefault
                               : c.device_side ? mcMemcpyDeviceToDevice
                                               : mcMemcpyHostToDevice;
  const mcMemcpyKind from_kind = c.default_kind  ? mcMemcpyDefault
                                 : c.device_side ? mcMemcpyDeviceToDevice
                                                 : mcMemcpyDeviceToHost;
  const size_t bytes = sizeof(int) * c.count;
  const size_t offset = sizeof(int) * c.offset;
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  if (c.async) {
    ASSERT_EQ(
        mcMemcpyToSymbolAsync(table, source, bytes, offset, to_kind, stream),
        mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  } else {
    ASSERT_EQ(mcMemcpyToSymbol(table, source, bytes, offset, to_kind),
              mcSuccess);
  }
  // A kernel sees the new values at the offset, and nothing else changed.
  int* seen = nullptr;
  ASSERT_EQ(mcMallocManaged(&seen, sizeof(int) * 32), mcSuccess);
  ReadTable<<<1, 32>>>(seen);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (size_t i = 0; i < 32; ++i) {
    const bool copied = i >= c.offset && i < c.offset + c.count;
    ASSERT_EQ(seen[i], copied ? static_cast<int>(100 + i - c.offset) : 0) << i;
  }
  // And the copy back returns them.
  std::vector<int> back(c.count, -1);
  int* back_device = device + 32;
  void* destination = c.device_side ? static_cast<void*>(back_device)
                                    : static_cast<void*>(back.data());
  if (c.async) {
    ASSERT_EQ(mcMemcpyFromSymbolAsync(destination, table, bytes, offset,
                                      from_kind, stream),
              mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  } else {
    ASSERT_EQ(mcMemcpyFromSymbol(destination, table, bytes, offset, from_kind),
              mcSuccess);
  }
  if (c.device_side) {
    ASSERT_EQ(mcMemcpy(back.data(), back_device, bytes, mcMemcpyDeviceToHost),
              mcSuccess);
  }
  EXPECT_EQ(back, values);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  ASSERT_EQ(mcFree(seen), mcSuccess);
  ASSERT_EQ(mcFree(device), mcSuccess);
}

std::vector<SymbolCase> SymbolCases() {
  std::vector<SymbolCase> cases;
  for (bool async : {false, true}) {
    for (bool device_side : {false, true}) {
      for (bool default_kind : {false, true}) {
        cases.push_back({async, device_side, default_kind, 0, 32});
        cases.push_back({async, device_side, default_kind, 5, 3});
        cases.push_back({async, device_side, default_kind, 16, 16});
      }
    }
  }
  return cases;
}

std::string SymbolCaseName(const testing::TestParamInfo<SymbolCase>& info) {
  const SymbolCase& c = info.param;
  return std::string(c.async ? "Async" : "Sync") +
         (c.device_side ? "_Device" : "_Host") +
         (c.default_kind ? "_Default" : "_Explicit") + "_at" +
         std::to_string(c.offset) + "_" + std::to_string(c.count);
}

INSTANTIATE_TEST_SUITE_P(Forms, SymbolCopy, testing::ValuesIn(SymbolCases()),
                         SymbolCaseName);

TEST(SymbolCopy, EachDeviceHasItsOwnInstance) {
  MX_SPEC("api.memory.symbol.per-device-instance");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  std::vector<int> ones(32, 1), twos(32, 2), out(32, 0);
  {
    ScopedDevice zero(0);
    ASSERT_EQ(mcMemcpyToSymbol(table, ones.data(), sizeof(int) * 32),
              mcSuccess);
  }
  {
    ScopedDevice one(1);
    ASSERT_EQ(mcMemcpyToSymbol(table, twos.data(), sizeof(int) * 32),
              mcSuccess);
  }
  {
    ScopedDevice zero(0);
    ASSERT_EQ(mcMemcpyFromSymbol(out.data(), table, sizeof(int) * 32),
              mcSuccess);
    EXPECT_EQ(out, ones);
    void* on0 = nullptr;
    ASSERT_EQ(mcGetSymbolAddress(&on0, table), mcSuccess);
    ScopedDevice one(1);
    ASSERT_EQ(mcMemcpyFromSymbol(out.data(), table, sizeof(int) * 32),
              mcSuccess);
    EXPECT_EQ(out, twos);
    void* on1 = nullptr;
    ASSERT_EQ(mcGetSymbolAddress(&on1, table), mcSuccess);
    EXPECT_NE(on0, on1);
  }
}

TEST(SymbolCopy, ConstantAddressIsACopyDestination) {
  MX_SPEC("api.memory.symbol.get-address-constant",
          "api.memory.symbol.get-address");
  void* address = nullptr;
  ASSERT_EQ(mcGetSymbolAddress(&address, weights), mcSuccess);
  const float values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_EQ(mcMemcpy(address, values, sizeof(values), mcMemcpyHostToDevice),
            mcSuccess);
  float back[8] = {};
  ASSERT_EQ(mcMemcpyFromSymbol(back, weights, sizeof(back)), mcSuccess);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(back[i], values[i]);
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, address), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeDevice);
}

}  // namespace
