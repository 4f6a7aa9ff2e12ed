// Copyright mxcts authors.
//
// Conformance: what the runtime answers about pointers
// (docs/spec/api-memory.md): mcPointerGetAttributes for every kind of
// memory at its first, second and last byte, for memory the runtime does
// not know and for released memory; mcHostGetDevicePointer;
// mcMemGetAddressRange; and the unified address space (distinct ranges
// per device, the same address on host and devices).

#include <mc_runtime.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::Kind;
using mxcts::conformance::memory::KindName;
using mxcts::conformance::memory::ScopedDevice;

constexpr size_t kSize = 4096 + 100;

struct AttributeCase {
  Kind kind;
  size_t offset;
};

class PointerAttributes : public testing::TestWithParam<AttributeCase> {};

TEST_P(PointerAttributes, ReportTypeDeviceAndAddresses) {
  MX_SPEC("api.memory.pointer-attributes.device-memory",
          "api.memory.pointer-attributes.host-memory",
          "api.memory.pointer-attributes.managed-memory",
          "api.memory.pointer-attributes.interior-pointer",
          "api.memory.pointer-attributes.device-memory-host-pointer",
          "api.memory.host-register.pointer-attributes",
          "api.memory.pointer-attributes.type-values");
  const AttributeCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  Buffer buffer(c.kind, kSize, 1);
  ASSERT_TRUE(buffer.ok());
  unsigned char* p = buffer.data() + c.offset;
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, p), mcSuccess);
  EXPECT_EQ(a.memoryType, a.type);
  const int owner = c.kind == Kind::kPeer ? 1 : 0;
  switch (c.kind) {
    case Kind::kDevice:
    case Kind::kPeer:
      EXPECT_EQ(a.type, mcMemoryTypeDevice);
      EXPECT_EQ(a.device, owner);
      EXPECT_EQ(a.devicePointer, p);
      EXPECT_TRUE(a.hostPointer == nullptr || a.hostPointer == p);
      EXPECT_EQ(a.isManaged, 0);
      break;
    case Kind::kPinned:
    case Kind::kRegistered: {
      EXPECT_EQ(a.type, mcMemoryTypeHost);
      EXPECT_EQ(a.device, owner);
      EXPECT_EQ(a.hostPointer, p);
      void* mapped = nullptr;
      ASSERT_EQ(mcHostGetDevicePointer(&mapped, p, 0), mcSuccess);
      EXPECT_EQ(a.devicePointer, mapped);
      EXPECT_EQ(a.isManaged, 0);
      break;
    }
    case Kind::kManaged:
      EXPECT_EQ(a.type, mcMemoryTypeManaged);
      EXPECT_EQ(a.device, owner);
      EXPECT_EQ(a.hostPointer, p);
      EXPECT_EQ(a.devicePointer, p);
      EXPECT_EQ(a.isManaged, 1);
      break;
    case Kind::kPageable:
      EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
      break;
  }
}

std::vector<AttributeCase> AttributeCases() {
  std::vector<AttributeCase> cases;
  for (Kind kind : mxcts::conformance::memory::AllKinds()) {
    for (size_t offset : {size_t{0}, size_t{1}, size_t{4097}, kSize - 1}) {
      cases.push_back({kind, offset});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryKind, PointerAttributes,
                         testing::ValuesIn(AttributeCases()),
                         [](const testing::TestParamInfo<AttributeCase>& info) {
                           return std::string(KindName(info.param.kind)) +
                                  "_at" + std::to_string(info.param.offset);
                         });

TEST(PointerAttributes, MemoryTypeEnumeratorValues) {
  MX_SPEC("api.memory.pointer-attributes.type-values");
  EXPECT_EQ(mcMemoryTypeUnregistered, 0);
  EXPECT_EQ(mcMemoryTypeHost, 1);
  EXPECT_EQ(mcMemoryTypeDevice, 2);
  EXPECT_EQ(mcMemoryTypeManaged, 3);
}

// Pointers the runtime never allocated or has freed: one per parameter.
class UnknownPointer : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMalloc(&freed_, 64), mcSuccess);
    ASSERT_EQ(mcFree(freed_), mcSuccess);
    const void* const pointers[] = {&on_stack_, on_heap_.data(), freed_,
                                    nullptr,
                                    reinterpret_cast<void*>(uintptr_t{0x10})};
    queried_ = pointers[GetParam()];
  }

  int on_stack_ = 0;
  std::vector<char> on_heap_ = std::vector<char>(16);
  void* freed_ = nullptr;
  const void* queried_ = nullptr;
};

TEST_P(UnknownPointer, IsUnregistered) {
  MX_SPEC("api.memory.pointer-attributes.unregistered",
          "api.memory.lifetime.released-by-device-reset");
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, queried_), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
}

// The fields besides `type` are implementation-defined; these are the
// reference's choices for them.
TEST_P(UnknownPointer, OtherFieldsAreTheReferencesChoices) {
  MX_SPEC("api.memory.pointer-attributes.unregistered");
  MX_REQUIRE_CAPABILITY("reference_choices");
  mcPointerAttribute_t a;
  std::memset(&a, 0x5a, sizeof(a));
  ASSERT_EQ(mcPointerGetAttributes(&a, queried_), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
  EXPECT_EQ(a.device, mcInvalidDeviceId);
  EXPECT_EQ(a.hostPointer, queried_);
  EXPECT_EQ(a.devicePointer, nullptr);
  EXPECT_EQ(a.allocationFlags, 0u);
  EXPECT_EQ(a.isManaged, 0);
  // Control: device memory reports its device and both pointers.
  void* on_device = nullptr;
  ASSERT_EQ(mcMalloc(&on_device, 64), mcSuccess);
  ASSERT_EQ(mcPointerGetAttributes(&a, on_device), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeDevice);
  EXPECT_EQ(a.device, 0);
  EXPECT_EQ(a.devicePointer, on_device);
  EXPECT_EQ(mcFree(on_device), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Pointers, UnknownPointer, testing::Range(0, 5));

TEST(PointerAttributes, RegistrationEndsWithUnregister) {
  MX_SPEC("api.memory.host-unregister.unpins-range",
          "api.memory.host-register.pointer-attributes");
  std::vector<unsigned char> bytes(300, 0x12);
  ASSERT_EQ(mcHostRegister(bytes.data(), bytes.size(), 0), mcSuccess);
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, bytes.data() + 299), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeHost);
  ASSERT_EQ(mcHostUnregister(bytes.data()), mcSuccess);
  ASSERT_EQ(mcPointerGetAttributes(&a, bytes.data() + 299), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
  for (unsigned char byte : bytes) ASSERT_EQ(byte, 0x12);
}

TEST(PointerAttributes, DeviceResetReleasesTheDevicesMemory) {
  MX_SPEC("api.memory.lifetime.released-by-device-reset",
          "api.memory.malloc-host.lifetime-tied-to-device");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  void* device = nullptr;
  void* host = nullptr;
  void* managed = nullptr;
  {
    ScopedDevice one(1);
    ASSERT_EQ(mcMalloc(&device, 64), mcSuccess);
    ASSERT_EQ(mcMallocHost(&host, 64), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&managed, 64), mcSuccess);
    ASSERT_EQ(mcDeviceReset(), mcSuccess);
  }
  for (void* p : {device, host, managed}) {
    mcPointerAttribute_t a;
    ASSERT_EQ(mcPointerGetAttributes(&a, p), mcSuccess);
    EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
  }
}

TEST(PointerAttributes, QueryChangesNothingAndNeedsNoWait) {
  MX_SPEC("api.memory.pointer-attributes.no-synchronization");
  Buffer device(Kind::kDevice, 4096, 1);
  ASSERT_TRUE(device.ok());
  // Work is queued on the allocation; the query neither waits for it nor
  // disturbs it.
  ASSERT_EQ(mcMemsetAsync(device.data(), 0x3D, 4096), mcSuccess);
  for (int i = 0; i < 100; ++i) {
    mcPointerAttribute_t a;
    ASSERT_EQ(mcPointerGetAttributes(&a, device.data() + i), mcSuccess);
    ASSERT_EQ(a.type, mcMemoryTypeDevice);
  }
  EXPECT_EQ(mxcts::conformance::memory::FirstDifference(
                device.Read(), std::vector<unsigned char>(4096, 0x3D)),
            "");
}

// --- mcHostGetDevicePointer. ---

enum class HostMemory { kMallocHost, kHostAlloc, kRegistered };

struct DevicePointerCase {
  HostMemory memory;
  unsigned flags;
  size_t offset;
};

__global__ void AddToEach(int* data, int n, int amount) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += amount;
}

class HostDevicePointer : public testing::TestWithParam<DevicePointerCase> {};

TEST_P(HostDevicePointer, IsTheHostAddressAndReachesTheBytes) {
  MX_SPEC("api.memory.host-get-device-pointer.mapped-memory",
          "api.memory.host-get-device-pointer.interior-offset",
          "api.memory.host-get-device-pointer.same-address-under-uva",
          "api.memory.host-get-device-pointer.any-page-locked-under-uva",
          "api.memory.host-get-device-pointer.coherent",
          "api.memory.host-get-device-pointer.typed-overload",
          "api.memory.host-register.device-access");
  const DevicePointerCase& c = GetParam();
  const int n = 256;
  int* host = nullptr;
  std::vector<int> storage;
  switch (c.memory) {
    case HostMemory::kMallocHost:
      ASSERT_EQ(mcMallocHost(&host, n * sizeof(int), c.flags), mcSuccess);
      break;
    case HostMemory::kHostAlloc:
      ASSERT_EQ(mcHostAlloc(&host, n * sizeof(int), c.flags), mcSuccess);
      break;
    case HostMemory::kRegistered:
      storage.resize(n);
      host = storage.data();
      ASSERT_EQ(mcHostRegister(host, n * sizeof(int), c.flags), mcSuccess);
      break;
  }
  for (int i = 0; i < n; ++i) host[i] = i;
  int* base = nullptr;
  ASSERT_EQ(mcHostGetDevicePointer(&base, host, 0), mcSuccess);
  EXPECT_EQ(base, host);
  void* interior = nullptr;
  ASSERT_EQ(mcHostGetDevicePointer(&interior, host + c.offset, 0), mcSuccess);
  EXPECT_EQ(interior, base + c.offset);
  AddToEach<<<4, 64>>>(base, n, 1000);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) ASSERT_EQ(host[i], i + 1000) << i;
  if (c.memory == HostMemory::kRegistered) {
    EXPECT_EQ(mcHostUnregister(host), mcSuccess);
  } else {
    EXPECT_EQ(mcFreeHost(host), mcSuccess);
  }
}

std::vector<DevicePointerCase> DevicePointerCases() {
  std::vector<DevicePointerCase> cases;
  for (unsigned flags : {0u, 1u, 2u, 3u}) {  // Portable, Mapped and both
    for (HostMemory memory : {HostMemory::kMallocHost, HostMemory::kHostAlloc,
                              HostMemory::kRegistered}) {
      for (size_t offset : {size_t{1}, size_t{255}}) {
        cases.push_back({memory, flags, offset});
      }
    }
  }
  return cases;
}

std::string DevicePointerName(
    const testing::TestParamInfo<DevicePointerCase>& info) {
  static const char* const kNames[] = {"MallocHost", "HostAlloc", "Registered"};
  return std::string(kNames[static_cast<int>(info.param.memory)]) + "_flags" +
         std::to_string(info.param.flags) + "_at" +
         std::to_string(info.param.offset);
}

INSTANTIATE_TEST_SUITE_P(EveryFlag, HostDevicePointer,
                         testing::ValuesIn(DevicePointerCases()),
                         DevicePointerName);

// --- mcMemGetAddressRange. ---

class AddressRange : public testing::TestWithParam<AttributeCase> {};

TEST_P(AddressRange, GivesTheAllocationsBaseAndSize) {
  MX_SPEC("api.memory.get-address-range.base-and-size");
  const AttributeCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  Buffer buffer(c.kind, kSize, 1);
  ASSERT_TRUE(buffer.ok());
  mcDeviceptr_t base = nullptr;
  size_t size = 0;
  ASSERT_EQ(mcMemGetAddressRange(&base, &size, buffer.data() + c.offset),
            mcSuccess);
  EXPECT_EQ(base, buffer.data());
  EXPECT_EQ(size, kSize);
  ASSERT_EQ(mcMemGetAddressRange(nullptr, &size, buffer.data() + c.offset),
            mcSuccess);
  ASSERT_EQ(mcMemGetAddressRange(&base, nullptr, buffer.data() + c.offset),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    EveryKind, AddressRange,
    testing::Values(AttributeCase{Kind::kDevice, 0},
                    AttributeCase{Kind::kDevice, kSize - 1},
                    AttributeCase{Kind::kPeer, 7},
                    AttributeCase{Kind::kManaged, 4096},
                    AttributeCase{Kind::kPinned, 1},
                    AttributeCase{Kind::kRegistered, kSize - 1}),
    [](const testing::TestParamInfo<AttributeCase>& info) {
      return std::string(KindName(info.param.kind)) + "_at" +
             std::to_string(info.param.offset);
    });

// --- Unified addressing. ---

TEST(UnifiedAddressing, EveryDeviceReportsIt) {
  MX_SPEC("api.memory.uva.device-supports-unified-addressing");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  for (int device = 0; device < count; ++device) {
    int value = 0;
    ASSERT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeUnifiedAddressing,
                                   device),
              mcSuccess);
    EXPECT_EQ(value, 1);
    mcDeviceProp_t prop;
    ASSERT_EQ(mcGetDeviceProperties(&prop, device), mcSuccess);
    EXPECT_EQ(prop.unifiedAddressing, 1);
  }
}

TEST(UnifiedAddressing, AllocationsOfEveryKindAreDisjoint) {
  MX_SPEC("api.memory.uva.single-address-space",
          "api.memory.uva.devices-have-distinct-ranges");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_REQUIRE_CAPABILITY("managed_memory");
  std::vector<Buffer*> buffers;
  for (Kind kind : mxcts::conformance::memory::RuntimeKinds()) {
    for (int i = 0; i < 3; ++i) buffers.push_back(new Buffer(kind, 5000, i));
  }
  for (Buffer* a : buffers) {
    ASSERT_TRUE(a->ok());
    mcPointerAttribute_t attributes;
    ASSERT_EQ(mcPointerGetAttributes(&attributes, a->data() + 4999), mcSuccess);
    if (a->kind() == Kind::kDevice || a->kind() == Kind::kPeer) {
      EXPECT_EQ(attributes.device, a->kind() == Kind::kPeer ? 1 : 0);
    }
    for (Buffer* b : buffers) {
      if (a == b) continue;
      const uintptr_t a0 = reinterpret_cast<uintptr_t>(a->data());
      const uintptr_t b0 = reinterpret_cast<uintptr_t>(b->data());
      EXPECT_TRUE(a0 + 5000 <= b0 || b0 + 5000 <= a0);
    }
  }
  for (Buffer* buffer : buffers) delete buffer;
}

__global__ void Increment(unsigned char* bytes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bytes[i] += 1;
}

class SameAddress : public testing::TestWithParam<Kind> {};

TEST_P(SameAddress, KernelsOfEveryDeviceReachTheMemory) {
  MX_SPEC("api.memory.uva.pointer-valid-on-all-devices",
          "api.memory.uva.svm-host-and-device-access",
          "api.memory.malloc-host.device-accessible");
  MX_REQUIRE_MEMORY_KIND(GetParam());
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  Buffer buffer(GetParam(), 300, 9);
  ASSERT_TRUE(buffer.ok());
  for (int device : {0, 1}) {
    ScopedDevice on(device);
    Increment<<<5, 64>>>(buffer.data(), 300);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  }
  std::vector<unsigned char> want = buffer.Initial();
  for (unsigned char& byte : want) byte += 2;
  EXPECT_EQ(mxcts::conformance::memory::FirstDifference(buffer.Read(), want),
            "");
}

INSTANTIATE_TEST_SUITE_P(HostAndManaged, SameAddress,
                         testing::Values(Kind::kPinned, Kind::kRegistered,
                                         Kind::kManaged),
                         [](const testing::TestParamInfo<Kind>& info) {
                           return std::string(KindName(info.param));
                         });

}  // namespace
