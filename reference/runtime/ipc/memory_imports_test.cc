// Copyright mxcts authors.
//
// Tests of mappings. The exporter is this same process (MemoryImports
// maps any exported allocation; refusing one's own handle is the entry
// point's check), so each test sees both sides: the mapping is device
// memory of the allocation's device at another address, shares every
// byte, counts opens, and goes on close or reset.

#include "reference/runtime/ipc/memory_imports.h"

#include <gtest/gtest.h>

#include <cstring>

#include "mc_runtime_api.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/ipc/memory_exports.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/peer/peer_access.h"

namespace mxcts::runtime {
namespace {

class Mapping : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    ASSERT_EQ(mcMalloc(&p_, 5000), mcSuccess);
    std::memset(p_, 0x41, 5000);
    absl::StatusOr<MemHandleFields> fields = MemoryExports::Get().Export(p_);
    ASSERT_TRUE(fields.ok()) << fields.status();
    fields_ = *fields;
  }
  void TearDown() override {
    if (p_ != nullptr) mcFree(p_);
  }
  void* p_ = nullptr;
  MemHandleFields fields_;
};

TEST_F(Mapping, SharesEveryByteAtAnotherAddress) {
  absl::StatusOr<void*> q = MemoryImports::Get().Open(fields_, 0, 0);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_NE(*q, p_);
  // A checked allocation ends at its guard page: off a page boundary.
  if (MemoryManager::Get().checked_mode()) {
    EXPECT_NE(fields_.offset, 0u);
  }
  auto* mapped = static_cast<unsigned char*>(*q);
  EXPECT_EQ(mapped[4999], 0x41);
  mapped[0] = 0x7e;
  EXPECT_EQ(static_cast<unsigned char*>(p_)[0], 0x7e);
  static_cast<unsigned char*>(p_)[4000] = 0x3d;
  EXPECT_EQ(mapped[4000], 0x3d);
  std::optional<Allocation> a = MemoryManager::Get().Find(mapped + 4999);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->kind, MemoryKind::kDevice);
  EXPECT_EQ(a->origin, DeviceOrigin::kIpcMapping);
  EXPECT_EQ(a->device, 0);
  EXPECT_EQ(a->base, reinterpret_cast<uintptr_t>(*q));
  EXPECT_EQ(a->size, 5000u);
  // Mappings are another process's memory: not this process's in use.
  EXPECT_TRUE(MemoryImports::Get().Close(*q).ok());
  EXPECT_FALSE(MemoryManager::Get().Find(*q).has_value());
  EXPECT_EQ(static_cast<unsigned char*>(p_)[0], 0x7e);
}

TEST_F(Mapping, IsNotCountedAsDeviceMemoryInUse) {
  const size_t before = MemoryManager::Get().DeviceBytesInUse(0);
  absl::StatusOr<void*> q = MemoryImports::Get().Open(fields_, 0, 0);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(MemoryManager::Get().DeviceBytesInUse(0), before);
  EXPECT_TRUE(MemoryImports::Get().Close(*q).ok());
}

TEST_F(Mapping, OpenTwiceCountsAndLastCloseUnmaps) {
  absl::StatusOr<void*> first = MemoryImports::Get().Open(fields_, 0, 0);
  absl::StatusOr<void*> second = MemoryImports::Get().Open(fields_, 0, 0);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(MemoryImports::Get().size(), 1u);
  EXPECT_TRUE(MemoryImports::Get().Close(*first).ok());
  EXPECT_TRUE(MemoryImports::Get().IsOpen(*first));
  EXPECT_TRUE(MemoryImports::Get().Close(*first).ok());
  EXPECT_FALSE(MemoryImports::Get().IsOpen(*first));
  EXPECT_EQ(ToMcError(MemoryImports::Get().Close(*first)), mcErrorInvalidValue);
}

TEST_F(Mapping, CloseOfOtherPointersIsInvalidValue) {
  EXPECT_EQ(ToMcError(MemoryImports::Get().Close(p_)), mcErrorInvalidValue);
  EXPECT_EQ(ToMcError(MemoryImports::Get().Close(nullptr)),
            mcErrorInvalidValue);
}

TEST_F(Mapping, FreedExportDoesNotOpen) {
  ASSERT_EQ(mcFree(p_), mcSuccess);
  p_ = nullptr;
  EXPECT_EQ(ToMcError(MemoryImports::Get().Open(fields_, 0, 0).status()),
            mcErrorInvalidValue);
  EXPECT_EQ(MemoryImports::Get().size(), 0u);
}

TEST_F(Mapping, UnknownDeviceIsInvalidDeviceAndMapsNothing) {
  MemHandleFields fields = fields_;
  fields.device = 1000;
  EXPECT_EQ(ToMcError(MemoryImports::Get().Open(fields, 0, 0).status()),
            mcErrorInvalidDevice);
  EXPECT_EQ(MemoryImports::Get().size(), 0u);
}

TEST_F(Mapping, LazyFlagEnablesPeerAccessFromCurrentDevice) {
  PeerAccessTable& peers = PeerAccessTable::Get();
  ASSERT_FALSE(peers.IsEnabled(1, 0));
  absl::StatusOr<void*> plain = MemoryImports::Get().Open(fields_, 1, 0);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(peers.IsEnabled(1, 0));
  absl::StatusOr<void*> lazy =
      MemoryImports::Get().Open(fields_, 1, mcIpcMemLazyEnablePeerAccess);
  ASSERT_TRUE(lazy.ok());
  EXPECT_TRUE(peers.IsEnabled(1, 0));
  EXPECT_TRUE(MemoryImports::Get().Close(*plain).ok());
  EXPECT_TRUE(MemoryImports::Get().Close(*lazy).ok());
  EXPECT_TRUE(peers.Disable(1, 0).ok());
}

TEST_F(Mapping, DeviceResetUnmapsHoweverOftenOpened) {
  absl::StatusOr<void*> q = MemoryImports::Get().Open(fields_, 0, 0);
  ASSERT_TRUE(MemoryImports::Get().Open(fields_, 0, 0).ok());
  ASSERT_TRUE(q.ok());
  MemoryImports::Get().ReleaseDevice(1);  // another device's: stays
  EXPECT_TRUE(MemoryImports::Get().IsOpen(*q));
  MemoryImports::Get().ReleaseDevice(0);
  EXPECT_FALSE(MemoryImports::Get().IsOpen(*q));
  EXPECT_FALSE(MemoryManager::Get().Find(*q).has_value());
  // The exporter's allocation is untouched.
  EXPECT_EQ(static_cast<unsigned char*>(p_)[10], 0x41);
}

}  // namespace
}  // namespace mxcts::runtime
