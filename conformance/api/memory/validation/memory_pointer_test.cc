// Copyright mxcts authors.
//
// Conformance: the errors of bad pointer queries and settings
// (docs/spec/api-memory.md): mcPointerGetAttributes without an output,
// mcPointerSetAttribute with a null value, an attribute that cannot be set
// or memory that is not a device allocation, and mcMemGetAddressRange of
// memory in no allocation; each beside a control that succeeds.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::Kind;
using mxcts::conformance::memory::KindName;

TEST(PointerAttributeErrors, NullOutputIsInvalidValue) {
  MX_SPEC("api.memory.pointer-attributes.null-attributes");
  Buffer device(Kind::kDevice, 64, 1);
  ASSERT_TRUE(device.ok());
  EXPECT_EQ(mcPointerGetAttributes(nullptr, device.data()),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  mcPointerAttribute_t a;
  EXPECT_EQ(mcPointerGetAttributes(&a, device.data()), mcSuccess);
}

class SetAttributeOtherAttribute : public testing::TestWithParam<int> {};

TEST_P(SetAttributeOtherAttribute, IsInvalidValue) {
  MX_SPEC("api.memory.pointer-set-attribute.invalid");
  Buffer device(Kind::kDevice, 64, 1);
  ASSERT_TRUE(device.ok());
  unsigned int value = 1;
  EXPECT_EQ(
      mcPointerSetAttribute(
          &value, static_cast<mcPointer_attribute>(GetParam()), device.data()),
      mcErrorInvalidValue);
  EXPECT_EQ(mcPointerSetAttribute(&value, mcPointerAttributeSyncMemops,
                                  device.data()),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Attributes, SetAttributeOtherAttribute,
                         testing::Values(0, 1, 2, 3, 4, 5, 7, 8, 9, 100));

class SetAttributeNotDevice : public testing::TestWithParam<Kind> {};

TEST_P(SetAttributeNotDevice, IsInvalidValue) {
  MX_SPEC("api.memory.pointer-set-attribute.invalid",
          "api.memory.pointer-set-attribute.sync-memops");
  MX_REQUIRE_MEMORY_KIND(GetParam());
  Buffer buffer(GetParam(), 64, 1);
  ASSERT_TRUE(buffer.ok());
  unsigned int value = 1;
  EXPECT_EQ(mcPointerSetAttribute(&value, mcPointerAttributeSyncMemops,
                                  buffer.data()),
            mcErrorInvalidValue);
  Buffer device(Kind::kDevice, 64, 2);
  ASSERT_TRUE(device.ok());
  EXPECT_EQ(mcPointerSetAttribute(&value, mcPointerAttributeSyncMemops,
                                  device.data() + 63),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Kinds, SetAttributeNotDevice,
                         testing::Values(Kind::kPageable, Kind::kPinned,
                                         Kind::kRegistered, Kind::kManaged),
                         [](const testing::TestParamInfo<Kind>& info) {
                           return std::string(KindName(info.param));
                         });

TEST(SetAttributeErrors, NullValueAndReleasedMemoryAreInvalidValue) {
  MX_SPEC("api.memory.pointer-set-attribute.invalid");
  void* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, 64), mcSuccess);
  unsigned int value = 1;
  EXPECT_EQ(
      mcPointerSetAttribute(nullptr, mcPointerAttributeSyncMemops, device),
      mcErrorInvalidValue);
  EXPECT_EQ(mcPointerSetAttribute(&value, mcPointerAttributeSyncMemops, device),
            mcSuccess);
  ASSERT_EQ(mcFree(device), mcSuccess);
  EXPECT_EQ(mcPointerSetAttribute(&value, mcPointerAttributeSyncMemops, device),
            mcErrorInvalidValue);
}

TEST(SyncMemops, SynchronousCopiesStillWork) {
  MX_SPEC("api.memory.pointer-set-attribute.sync-memops");
  Buffer a(Kind::kDevice, 256, 1);
  Buffer b(Kind::kDevice, 256, 2);
  ASSERT_TRUE(a.ok() && b.ok());
  unsigned int value = 1;
  ASSERT_EQ(
      mcPointerSetAttribute(&value, mcPointerAttributeSyncMemops, a.data()),
      mcSuccess);
  ASSERT_EQ(mcMemcpy(a.data(), b.data(), 256, mcMemcpyDeviceToDevice),
            mcSuccess);
  ASSERT_EQ(mcMemset(a.data(), 0x31, 8), mcSuccess);
  std::vector<unsigned char> want = b.Initial();
  for (int i = 0; i < 8; ++i) want[i] = 0x31;
  EXPECT_EQ(mxcts::conformance::memory::FirstDifference(a.Read(), want), "");
}

class AddressRangeErrors : public testing::TestWithParam<int> {};

TEST_P(AddressRangeErrors, MemoryInNoAllocationIsInvalidValue) {
  MX_SPEC("api.memory.get-address-range.not-an-allocation");
  int on_stack = 0;
  std::vector<char> heap(16);
  void* freed = nullptr;
  ASSERT_EQ(mcMalloc(&freed, 64), mcSuccess);
  ASSERT_EQ(mcFree(freed), mcSuccess);
  void* const pointers[] = {&on_stack, heap.data(), freed, nullptr};
  mcDeviceptr_t base = reinterpret_cast<void*>(uintptr_t{0x5});
  size_t size = 5;
  EXPECT_EQ(mcMemGetAddressRange(&base, &size, pointers[GetParam()]),
            mcErrorInvalidValue);
  EXPECT_EQ(base, reinterpret_cast<void*>(uintptr_t{0x5}));
  EXPECT_EQ(size, 5u);
  // Control: a live allocation.
  Buffer device(Kind::kDevice, 64, 1);
  ASSERT_TRUE(device.ok());
  EXPECT_EQ(mcMemGetAddressRange(&base, &size, device.data() + 10), mcSuccess);
  EXPECT_EQ(base, device.data());
}

INSTANTIATE_TEST_SUITE_P(Pointers, AddressRangeErrors, testing::Range(0, 4));

}  // namespace
