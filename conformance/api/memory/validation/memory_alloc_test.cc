// Copyright mxcts authors.
//
// Conformance: the errors of bad allocation and release calls
// (docs/spec/api-memory.md): mcMalloc without an output or beyond the
// device's memory, mcFree and mcFreeHost of every kind of pointer they do
// not own, and mcMemGetInfo without outputs. A failed release leaves the
// allocation live and usable; a failed allocation allocates nothing and
// leaves the device usable.

#include <mc_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::FreeMemory;
using mxcts::conformance::memory::Kind;

__device__ int device_variable[16];

TEST(MallocErrors, NullOutputIsInvalidValue) {
  MX_SPEC("api.memory.malloc.null-pointer-to-pointer");
  const size_t before = FreeMemory();
  EXPECT_EQ(mcMalloc(static_cast<void**>(nullptr), 64), mcErrorInvalidValue);
  EXPECT_EQ(mcMalloc(static_cast<float**>(nullptr), 64), mcErrorInvalidValue);
  EXPECT_EQ(FreeMemory(), before);
  void* control = nullptr;
  ASSERT_EQ(mcMalloc(&control, 64), mcSuccess);
  EXPECT_EQ(mcFree(control), mcSuccess);
}

class OutOfMemory : public testing::TestWithParam<int> {};

TEST_P(OutOfMemory, IsMemoryAllocationAndNotSticky) {
  MX_SPEC("api.memory.malloc.out-of-memory",
          "api.memory.malloc.out-of-memory-not-sticky");
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  const size_t sizes[] = {prop.totalGlobalMem + 1, prop.totalGlobalMem * 2,
                          SIZE_MAX, SIZE_MAX - 4095};
  Buffer kept(Kind::kDevice, 1000, 3);
  ASSERT_TRUE(kept.ok());
  const size_t before = FreeMemory();
  void* p = reinterpret_cast<void*>(uintptr_t{0x40});
  EXPECT_EQ(mcMalloc(&p, sizes[GetParam()]), mcErrorMemoryAllocation);
  EXPECT_EQ(mcGetLastError(), mcErrorMemoryAllocation);
  EXPECT_EQ(mcGetLastError(), mcSuccess);  // not sticky
  EXPECT_EQ(FreeMemory(), before);
  // Control: a size that fits; the earlier allocation keeps its bytes.
  ASSERT_EQ(mcMalloc(&p, 4096), mcSuccess);
  EXPECT_EQ(mcMemset(p, 0, 4096), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(kept.FirstChange(), "");
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Sizes, OutOfMemory, testing::Range(0, 4));

// --- mcFree of what is not a device or managed allocation start. ---

enum class NotOwned {
  kStack,
  kHeap,
  kMallocHost,
  kRegistered,
  kDeviceInterior,
  kDeviceLastByte,
  kManagedInterior,
  kDeviceVariable,
  kBogusAddress,
};

const char* NotOwnedName(NotOwned what) {
  static const char* const kNames[] = {
      "Stack",           "Heap",           "MallocHost",
      "Registered",      "DeviceInterior", "DeviceLastByte",
      "ManagedInterior", "DeviceVariable", "BogusAddress"};
  return kNames[static_cast<int>(what)];
}

class FreeErrors : public testing::TestWithParam<NotOwned> {};

TEST_P(FreeErrors, IsInvalidValueAndKeepsEveryAllocation) {
  MX_SPEC("api.memory.free.non-device-pointer",
          "api.memory.free.interior-pointer",
          "api.memory.lifetime.failed-call-changes-nothing");
  const NotOwned what = GetParam();
  if (what == NotOwned::kManagedInterior) {
    MX_REQUIRE_CAPABILITY("managed_memory");
  }
  int on_stack = 0;
  Buffer heap(Kind::kPageable, 64, 1);
  Buffer pinned(Kind::kPinned, 64, 2);
  Buffer registered(Kind::kRegistered, 64, 3);
  Buffer device(Kind::kDevice, 64, 4);
  ASSERT_TRUE(heap.ok() && pinned.ok() && registered.ok() && device.ok());
  void* managed = nullptr;
  if (what == NotOwned::kManagedInterior) {
    ASSERT_EQ(mcMallocManaged(&managed, 64), mcSuccess);
  }
  void* variable = nullptr;
  ASSERT_EQ(mcGetSymbolAddress(&variable, device_variable), mcSuccess);
  void* target = nullptr;
  switch (what) {
    case NotOwned::kStack:
      target = &on_stack;
      break;
    case NotOwned::kHeap:
      target = heap.data();
      break;
    case NotOwned::kMallocHost:
      target = pinned.data();
      break;
    case NotOwned::kRegistered:
      target = registered.data();
      break;
    case NotOwned::kDeviceInterior:
      target = device.data() + 1;
      break;
    case NotOwned::kDeviceLastByte:
      target = device.data() + 63;
      break;
    case NotOwned::kManagedInterior:
      target = static_cast<char*>(managed) + 8;
      break;
    case NotOwned::kDeviceVariable:
      target = variable;
      break;
    case NotOwned::kBogusAddress:
      target = reinterpret_cast<void*>(uintptr_t{0x7});
      break;
  }
  EXPECT_EQ(mcFree(target), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Every allocation is still live and holds its bytes.
  EXPECT_EQ(device.FirstChange(), "");
  EXPECT_EQ(pinned.FirstChange(), "");
  EXPECT_EQ(mcMemset(device.data(), 1, 64), mcSuccess);
  if (managed != nullptr) {
    EXPECT_EQ(mcMemset(managed, 1, 64), mcSuccess);
    EXPECT_EQ(mcFree(managed), mcSuccess);  // control
  }
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, pinned.data()), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeHost);
  ASSERT_EQ(mcPointerGetAttributes(&a, registered.data()), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeHost);
}

INSTANTIATE_TEST_SUITE_P(
    Pointers, FreeErrors,
    testing::Values(NotOwned::kStack, NotOwned::kHeap, NotOwned::kMallocHost,
                    NotOwned::kRegistered, NotOwned::kDeviceInterior,
                    NotOwned::kDeviceLastByte, NotOwned::kManagedInterior,
                    NotOwned::kDeviceVariable, NotOwned::kBogusAddress),
    [](const testing::TestParamInfo<NotOwned>& info) {
      return std::string(NotOwnedName(info.param));
    });

class DoubleFree : public testing::TestWithParam<Kind> {};

TEST_P(DoubleFree, SecondReleaseIsInvalidValue) {
  MX_SPEC("api.memory.free.double-free", "api.memory.free.releases-allocation",
          "api.memory.free-host.not-host-allocation");
  const Kind kind = GetParam();
  MX_REQUIRE_MEMORY_KIND(kind);
  void* p = nullptr;
  switch (kind) {
    case Kind::kPinned:
      ASSERT_EQ(mcMallocHost(&p, 64), mcSuccess);
      break;
    case Kind::kManaged:
      ASSERT_EQ(mcMallocManaged(&p, 64), mcSuccess);
      break;
    default: {
      mxcts::conformance::memory::ScopedDevice on(kind == Kind::kPeer);
      ASSERT_EQ(mcMalloc(&p, 64), mcSuccess);
      break;
    }
  }
  auto release = [&] {
    return kind == Kind::kPinned ? mcFreeHost(p) : mcFree(p);
  };
  EXPECT_EQ(release(), mcSuccess);  // control: the first release
  EXPECT_EQ(release(), mcErrorInvalidValue);
  EXPECT_EQ(release(), mcErrorInvalidValue);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, DoubleFree,
    testing::Values(Kind::kDevice, Kind::kPeer, Kind::kManaged, Kind::kPinned),
    [](const testing::TestParamInfo<Kind>& info) {
      return std::string(mxcts::conformance::memory::KindName(info.param));
    });

// --- mcFreeHost of what is not an mcMallocHost allocation start. ---

enum class NotHost { kDevice, kManaged, kHeap, kRegistered, kInterior };

class FreeHostErrors : public testing::TestWithParam<NotHost> {};

TEST_P(FreeHostErrors, IsInvalidValueAndKeepsTheAllocation) {
  MX_SPEC("api.memory.free-host.not-host-allocation",
          "api.memory.managed.released-by-mcfree");
  const NotHost what = GetParam();
  if (what == NotHost::kManaged) {
    MX_REQUIRE_CAPABILITY("managed_memory");
  }
  const Kind kind = what == NotHost::kDevice       ? Kind::kDevice
                    : what == NotHost::kManaged    ? Kind::kManaged
                    : what == NotHost::kHeap       ? Kind::kPageable
                    : what == NotHost::kRegistered ? Kind::kRegistered
                                                   : Kind::kPinned;
  Buffer buffer(kind, 128, 5);
  ASSERT_TRUE(buffer.ok());
  void* target = buffer.data() + (what == NotHost::kInterior ? 16 : 0);
  EXPECT_EQ(mcFreeHost(target), mcErrorInvalidValue);
  EXPECT_EQ(buffer.FirstChange(), "");
  // Control: the allocation is still usable (the Buffer releases it).
  if (kind != Kind::kPageable) {
    EXPECT_EQ(mcMemset(buffer.data(), 0, 128), mcSuccess);
  }
}

std::string NotHostName(const testing::TestParamInfo<NotHost>& info) {
  static const char* const kNames[] = {"Device", "Managed", "Heap",
                                       "Registered", "Interior"};
  return kNames[static_cast<int>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(Pointers, FreeHostErrors,
                         testing::Values(NotHost::kDevice, NotHost::kManaged,
                                         NotHost::kHeap, NotHost::kRegistered,
                                         NotHost::kInterior),
                         NotHostName);

TEST(MemGetInfoErrors, NullOutputsAreInvalidValue) {
  MX_SPEC("api.memory.get-info.null-arguments");
  size_t free = 0, total = 0;
  EXPECT_EQ(mcMemGetInfo(nullptr, &total), mcErrorInvalidValue);
  EXPECT_EQ(mcMemGetInfo(&free, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcMemGetInfo(nullptr, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcMemGetInfo(&free, &total), mcSuccess);
}

}  // namespace
