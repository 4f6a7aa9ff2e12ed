// Copyright mxcts authors.
//
// Tests of the memory manager: allocation per kind and device, release,
// and the pointer checks of copies and sets (every direction, with a
// control beside each rejected case).

#include "reference/runtime/memory/memory_manager.h"

#include <gtest/gtest.h>

#include <cstring>
#include <tuple>

#include "mc_runtime_api.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

constexpr size_t kCapacity = size_t{1} << 30;

MemoryManager& M() { return MemoryManager::Get(); }

void* Device(int device, size_t size) {
  absl::StatusOr<void*> p = M().AllocateDevice(device, size, kCapacity);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : nullptr;
}

mcError_t ErrorOf(const absl::Status& status) { return ToMcError(status); }

TEST(Allocation, DeviceMemoryIsAlignedTaggedAndUsable) {
  void* p = Device(0, 1000);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);
  std::optional<Allocation> a = M().Find(static_cast<char*>(p) + 999);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->kind, MemoryKind::kDevice);
  EXPECT_EQ(a->device, 0);
  EXPECT_EQ(a->size, 1000u);
  std::memset(p, 1, 1000);
  EXPECT_TRUE(M().Free(p, {MemoryKind::kDevice}, "test").ok());
}

TEST(Allocation, DevicesGetDisjointRanges) {
  // [api.memory.uva.devices-have-distinct-ranges]
  void* on0 = Device(0, 64);
  void* on1 = Device(1, 64);
  EXPECT_EQ(M().Find(on0)->device, 0);
  EXPECT_EQ(M().Find(on1)->device, 1);
  EXPECT_NE(on0, on1);
  EXPECT_TRUE(M().InArena(on0) && M().InArena(on1));
  M().ReleaseDevice(0);
  M().ReleaseDevice(1);
}

TEST(Allocation, OverCapacityIsMemoryAllocation) {
  // [api.memory.malloc.out-of-memory]
  EXPECT_EQ(ErrorOf(M().AllocateDevice(0, kCapacity + 1, kCapacity).status()),
            mcErrorMemoryAllocation);
  EXPECT_EQ(ErrorOf(M().AllocateDevice(0, SIZE_MAX, kCapacity).status()),
            mcErrorMemoryAllocation);
  void* half = Device(0, kCapacity / 2);
  EXPECT_EQ(
      ErrorOf(M().AllocateDevice(0, kCapacity / 2 + 1, kCapacity).status()),
      mcErrorMemoryAllocation);
  // Control: what is left still fits, and the other device is unaffected.
  void* rest = Device(0, kCapacity / 2);
  EXPECT_NE(rest, nullptr);
  EXPECT_NE(Device(1, kCapacity / 2), nullptr);
  EXPECT_EQ(M().DeviceBytesInUse(0), kCapacity);
  (void)half;
  M().ReleaseDevice(0);
  M().ReleaseDevice(1);
  EXPECT_EQ(M().DeviceBytesInUse(0), 0u);
}

TEST(Free, NeedsTheStartOfALiveAllocationOfAnAllowedKind) {
  void* p = Device(0, 256);
  char* interior = static_cast<char*>(p) + 8;
  // [api.memory.free.interior-pointer]
  EXPECT_EQ(ErrorOf(M().Free(interior, {MemoryKind::kDevice}, "mcFree")),
            mcErrorInvalidValue);
  // A kind the caller does not release (mcFreeHost on device memory).
  EXPECT_EQ(ErrorOf(M().Free(p, {MemoryKind::kHost}, "mcFreeHost")),
            mcErrorInvalidValue);
  EXPECT_TRUE(M().Find(p).has_value());  // nothing changed
  EXPECT_TRUE(M().Free(p, {MemoryKind::kDevice}, "mcFree").ok());  // control
  // [api.memory.free.double-free]
  EXPECT_EQ(ErrorOf(M().Free(p, {MemoryKind::kDevice}, "mcFree")),
            mcErrorInvalidValue);
  int on_stack = 0;
  EXPECT_EQ(ErrorOf(M().Free(&on_stack, {MemoryKind::kDevice}, "mcFree")),
            mcErrorInvalidValue);
}

TEST(ReleaseDevice, ReleasesOnlyThatDevicesAllocations) {
  void* d0 = Device(0, 64);
  void* h0 = *M().AllocateHost(0, 64, 0);
  void* m0 = *M().AllocateManaged(0, 64, mcMemAttachGlobal, kCapacity);
  void* d1 = Device(1, 64);
  M().ReleaseDevice(0);
  EXPECT_FALSE(M().Find(d0).has_value());
  EXPECT_FALSE(M().Find(h0).has_value());
  EXPECT_FALSE(M().Find(m0).has_value());
  EXPECT_TRUE(M().Find(d1).has_value());
  M().ReleaseDevice(1);
}

// --- Copies. ---

enum class Side { kPageable, kDevice, kHost, kManaged, kNull, kFreed };

const char* SideName(Side side) {
  switch (side) {
    case Side::kPageable:
      return "Pageable";
    case Side::kDevice:
      return "Device";
    case Side::kHost:
      return "PageLocked";
    case Side::kManaged:
      return "Managed";
    case Side::kNull:
      return "Null";
    case Side::kFreed:
      return "Freed";
  }
  return "?";
}

class CopyTest : public testing::Test {
 protected:
  void SetUp() override {
    device_ = Device(0, kBytes);
    host_ = *M().AllocateHost(0, kBytes, 0);
    managed_ = *M().AllocateManaged(0, kBytes, mcMemAttachGlobal, kCapacity);
    freed_ = Device(0, kBytes);
    ASSERT_TRUE(M().Free(freed_, {MemoryKind::kDevice}, "test").ok());
  }
  void TearDown() override { M().ReleaseDevice(0); }

  void* Pointer(Side side, bool source) {
    switch (side) {
      case Side::kPageable:
        return source ? pageable_source_ : pageable_;
      case Side::kDevice:
        return device_;
      case Side::kHost:
        return host_;
      case Side::kManaged:
        return managed_;
      case Side::kNull:
        return nullptr;
      case Side::kFreed:
        return freed_;
    }
    return nullptr;
  }

  static constexpr size_t kBytes = 64;
  char pageable_[kBytes] = {};
  char pageable_source_[kBytes] = {};
  void* device_ = nullptr;
  void* host_ = nullptr;
  void* managed_ = nullptr;
  void* freed_ = nullptr;
};

// (kind, destination, source, expected error)
using CopyCase = std::tuple<int, Side, Side, mcError_t>;

class CopyDirection : public CopyTest,
                      public testing::WithParamInterface<CopyCase> {};

TEST_P(CopyDirection, IsCheckedAgainstTheTable) {
  auto [kind, to, from, expected] = GetParam();
  void* dst = Pointer(to, /*source=*/false);
  void* src = Pointer(from, /*source=*/true);
  if (src != nullptr && from != Side::kFreed) std::memset(src, 0x5a, kBytes);
  if (dst != nullptr && to != Side::kFreed) std::memset(dst, 0, kBytes);
  absl::Status status = M().Copy(dst, src, kBytes, kind, "mcMemcpy");
  EXPECT_EQ(ToMcError(status), expected) << status;
  if (expected == mcSuccess) {
    EXPECT_EQ(static_cast<unsigned char*>(dst)[kBytes - 1], 0x5a);
  } else if (dst != nullptr && to != Side::kFreed) {
    // [api.memory.lifetime.failed-call-changes-nothing]
    EXPECT_EQ(static_cast<unsigned char*>(dst)[0], 0);
  }
}

std::string CopyCaseName(const testing::TestParamInfo<CopyCase>& info) {
  auto [kind, to, from, expected] = info.param;
  static const char* const kKindNames[] = {"HostToHost", "HostToDevice",
                                           "DeviceToHost", "DeviceToDevice",
                                           "Default"};
  std::string kind_name = kind >= 0 && kind <= 4 ? kKindNames[kind]
                          : kind < 0 ? "BadKindMinus" + std::to_string(-kind)
                                     : "BadKind" + std::to_string(kind);
  return kind_name + "To" + SideName(to) + "From" + SideName(from);
}

constexpr int kHtoH = mcMemcpyHostToHost;
constexpr int kHtoD = mcMemcpyHostToDevice;
constexpr int kDtoH = mcMemcpyDeviceToHost;
constexpr int kDtoD = mcMemcpyDeviceToDevice;
constexpr int kDefault = mcMemcpyDefault;

INSTANTIATE_TEST_SUITE_P(
    AllKinds, CopyDirection,
    testing::Values(
        // [api.memory.memcpy.kind-host-to-device]
        CopyCase{kHtoD, Side::kDevice, Side::kPageable, mcSuccess},
        CopyCase{kHtoD, Side::kManaged, Side::kHost, mcSuccess},
        CopyCase{kHtoD, Side::kHost, Side::kPageable, mcSuccess},
        // [api.memory.memcpy.device-side-not-device-memory]
        CopyCase{kHtoD, Side::kPageable, Side::kPageable, mcErrorInvalidValue},
        // [api.memory.memcpy.kind-device-to-host]
        CopyCase{kDtoH, Side::kPageable, Side::kDevice, mcSuccess},
        CopyCase{kDtoH, Side::kPageable, Side::kManaged, mcSuccess},
        CopyCase{kDtoH, Side::kPageable, Side::kPageable, mcErrorInvalidValue},
        // [api.memory.memcpy.kind-device-to-device]
        CopyCase{kDtoD, Side::kDevice, Side::kManaged, mcSuccess},
        CopyCase{kDtoD, Side::kDevice, Side::kPageable, mcErrorInvalidValue},
        CopyCase{kDtoD, Side::kPageable, Side::kDevice, mcErrorInvalidValue},
        // [api.memory.memcpy.kind-host-to-host]
        CopyCase{kHtoH, Side::kPageable, Side::kHost, mcSuccess},
        // [api.memory.memcpy.kind-default-infers]
        CopyCase{kDefault, Side::kDevice, Side::kPageable, mcSuccess},
        CopyCase{kDefault, Side::kPageable, Side::kDevice, mcSuccess},
        CopyCase{kDefault, Side::kPageable, Side::kPageable, mcSuccess},
        // [api.memory.memcpy.invalid-kind]
        CopyCase{5, Side::kDevice, Side::kPageable,
                 mcErrorInvalidMemcpyDirection},
        CopyCase{-1, Side::kDevice, Side::kPageable,
                 mcErrorInvalidMemcpyDirection},
        // [api.memory.memcpy.null-pointer]
        CopyCase{kHtoD, Side::kNull, Side::kPageable, mcErrorInvalidValue},
        CopyCase{kDtoH, Side::kPageable, Side::kNull, mcErrorInvalidValue},
        // [api.memory.lifetime.freed-pointer-in-api]
        CopyCase{kHtoD, Side::kFreed, Side::kPageable, mcErrorInvalidValue},
        CopyCase{kDefault, Side::kPageable, Side::kFreed, mcErrorInvalidValue}),
    CopyCaseName);

TEST_F(CopyTest, CountZeroSucceedsEvenWithNull) {
  // [api.memory.memcpy.count-zero]
  EXPECT_TRUE(M().Copy(nullptr, nullptr, 0, kHtoD, "mcMemcpy").ok());
  EXPECT_EQ(ToMcError(M().Copy(nullptr, nullptr, 0, 9, "mcMemcpy")),
            mcErrorInvalidMemcpyDirection);  // the kind is still checked
}

TEST_F(CopyTest, RangePastTheEndOfAnAllocationIsInvalidValue) {
  // [api.memory.memcpy.past-end-of-allocation]
  char source[kBytes + 1] = {};
  std::memset(device_, 7, kBytes);
  EXPECT_EQ(ToMcError(M().Copy(device_, source, kBytes + 1, kHtoD, "t")),
            mcErrorInvalidValue);
  EXPECT_EQ(static_cast<char*>(device_)[0], 7);  // nothing copied
  char* last = static_cast<char*>(device_) + kBytes - 1;
  EXPECT_EQ(ToMcError(M().Copy(source, last, 2, kDtoH, "t")),
            mcErrorInvalidValue);
  EXPECT_TRUE(M().Copy(source, last, 1, kDtoH, "t").ok());  // control
}

TEST_F(CopyTest, SetNeedsRuntimeMemory) {
  // [api.memory.memset.sets-bytes]
  ASSERT_TRUE(M().Set(device_, 0x1ff, kBytes, "mcMemset").ok());
  EXPECT_EQ(static_cast<unsigned char*>(device_)[kBytes - 1], 0xff);
  EXPECT_TRUE(M().Set(managed_, 1, kBytes, "mcMemset").ok());
  EXPECT_TRUE(M().Set(host_, 1, kBytes, "mcMemset").ok());
  // [api.memory.memset.not-device-memory]
  EXPECT_EQ(ToMcError(M().Set(pageable_, 1, kBytes, "mcMemset")),
            mcErrorInvalidValue);
  EXPECT_EQ(ToMcError(M().Set(nullptr, 1, 1, "mcMemset")), mcErrorInvalidValue);
  EXPECT_EQ(ToMcError(M().Set(freed_, 1, 1, "mcMemset")), mcErrorInvalidValue);
  // [api.memory.memset.past-end-of-allocation]
  EXPECT_EQ(ToMcError(M().Set(device_, 2, kBytes + 1, "mcMemset")),
            mcErrorInvalidValue);
  EXPECT_EQ(static_cast<unsigned char*>(device_)[0], 0xff);
  // [api.memory.memset.count-zero]
  EXPECT_TRUE(M().Set(nullptr, 1, 0, "mcMemset").ok());
}

TEST(RegisteredRange, IsAcceptedAsDeviceMemory) {
  static int variable[4];
  ASSERT_TRUE(M().RegisterRange(variable, sizeof(variable),
                                MemoryKind::kDeviceVariable, 1)
                  .ok());
  int source[4] = {1, 2, 3, 4};
  EXPECT_TRUE(M().Copy(variable, source, sizeof(source), kHtoD, "t").ok());
  EXPECT_EQ(variable[3], 4);
  M().UnregisterRange(variable);
  // Control: once unregistered it is pageable memory again.
  EXPECT_EQ(ToMcError(M().Copy(variable, source, sizeof(source), kHtoD, "t")),
            mcErrorInvalidValue);
}

}  // namespace
}  // namespace mxcts::runtime
