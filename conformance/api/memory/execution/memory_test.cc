// Conformance: results of good calls of the basic memory API: mcMalloc,
// mcMemcpy, mcMemset, mcFree, mcMallocManaged (docs/spec/api-memory.md).

#include <mc_runtime.h>

#include <cstdint>
#include <vector>

#include "conformance/testing/spec.h"

namespace {

__global__ void AddOne(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

TEST(MemoryExecution, DeviceRoundTripThroughAKernel) {
  MX_SPEC("api.memory.memcpy.kind-host-to-device",
          "api.memory.memcpy.kind-device-to-host",
          "api.memory.malloc.allocates-on-current-device");
  const int n = 1000;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = i;
  int* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, n * sizeof(int)), mcSuccess);
  ASSERT_EQ(
      mcMemcpy(device, host.data(), n * sizeof(int), mcMemcpyHostToDevice),
      mcSuccess);
  AddOne<<<(n + 255) / 256, 256>>>(device, n);
  std::vector<int> back(n, -1);
  ASSERT_EQ(
      mcMemcpy(back.data(), device, n * sizeof(int), mcMemcpyDeviceToHost),
      mcSuccess);
  for (int i = 0; i < n; ++i) ASSERT_EQ(back[i], i + 1) << i;
  EXPECT_EQ(mcFree(device), mcSuccess);
}

TEST(MemoryExecution, DeviceToDeviceAndDefaultKind) {
  MX_SPEC("api.memory.memcpy.kind-device-to-device",
          "api.memory.memcpy.kind-default-infers");
  int* a = nullptr;
  int* b = nullptr;
  ASSERT_EQ(mcMalloc(&a, 4 * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMalloc(&b, 4 * sizeof(int)), mcSuccess);
  const int values[4] = {1, 2, 3, 4};
  ASSERT_EQ(mcMemcpy(a, values, sizeof(values), mcMemcpyDefault), mcSuccess);
  ASSERT_EQ(mcMemcpy(b, a, sizeof(values), mcMemcpyDeviceToDevice), mcSuccess);
  int read[4] = {};
  ASSERT_EQ(mcMemcpy(read, b, sizeof(read), mcMemcpyDefault), mcSuccess);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(read[i], values[i]);
  mcFree(a);
  mcFree(b);
}

TEST(MemoryExecution, MemsetSetsEveryByte) {
  MX_SPEC("api.memory.memset.sets-bytes");
  unsigned char* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, 64), mcSuccess);
  ASSERT_EQ(mcMemset(device, 0xAB, 64), mcSuccess);
  ASSERT_EQ(mcMemset(device + 60, 0x01, 4), mcSuccess);
  unsigned char read[64] = {};
  ASSERT_EQ(mcMemcpy(read, device, 64, mcMemcpyDeviceToHost), mcSuccess);
  for (int i = 0; i < 60; ++i) EXPECT_EQ(read[i], 0xAB) << i;
  for (int i = 60; i < 64; ++i) EXPECT_EQ(read[i], 0x01) << i;
  mcFree(device);
}

TEST(MemoryExecution, MallocAddressesAre256ByteAligned) {
  MX_SPEC("api.memory.malloc.alignment-256",
          "api.memory.malloc.distinct-live-allocations");
  void* first = nullptr;
  void* second = nullptr;
  ASSERT_EQ(mcMalloc(&first, 3), mcSuccess);
  ASSERT_EQ(mcMalloc(&second, 5), mcSuccess);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 256, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(second) % 256, 0u);
  EXPECT_NE(first, second);
  mcFree(first);
  mcFree(second);
}

TEST(MemoryExecution, SizeZeroAndNullFree) {
  MX_SPEC("api.memory.malloc.size-zero", "api.memory.free.null-is-noop");
  void* pointer = reinterpret_cast<void*>(0x1);
  EXPECT_EQ(mcMalloc(&pointer, 0), mcSuccess);
  EXPECT_EQ(pointer, nullptr);
  EXPECT_EQ(mcFree(pointer), mcSuccess);
  EXPECT_EQ(mcFree(nullptr), mcSuccess);
}

TEST(MemoryExecution, ManagedMemoryVisibleToHostAndKernel) {
  MX_SPEC("api.memory.managed.host-and-device-visible",
          "api.memory.managed.allocates");
  int* managed = nullptr;
  ASSERT_EQ(mcMallocManaged(&managed, 8 * sizeof(int)), mcSuccess);
  for (int i = 0; i < 8; ++i) managed[i] = 10 * i;
  AddOne<<<1, 8>>>(managed, 8);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(managed[i], 10 * i + 1);
  mcFree(managed);
}

}  // namespace
