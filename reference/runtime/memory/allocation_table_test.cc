// Copyright mxcts authors.
//
// Tests of AllocationTable: containment lookup, overlap rejection, erasure.

#include "reference/runtime/memory/allocation_table.h"

#include <gtest/gtest.h>

namespace mxcts::runtime {
namespace {

Allocation At(uintptr_t base, size_t size, int device = 0,
              MemoryKind kind = MemoryKind::kDevice) {
  Allocation a;
  a.base = base;
  a.size = size;
  a.kind = kind;
  a.device = device;
  return a;
}

const void* P(uintptr_t address) {
  return reinterpret_cast<const void*>(address);
}

TEST(AllocationTable, FindsTheAllocationContainingAnAddress) {
  AllocationTable table;
  ASSERT_TRUE(table.Insert(At(0x10000, 100)).ok());
  ASSERT_TRUE(table.Insert(At(0x20000, 50, 1, MemoryKind::kHost)).ok());
  EXPECT_EQ(table.Find(P(0x10000))->base, 0x10000u);
  EXPECT_EQ(table.Find(P(0x10063))->base, 0x10000u);  // last byte
  EXPECT_FALSE(table.Find(P(0x10064)).has_value());   // one past the end
  EXPECT_FALSE(table.Find(P(0xffff)).has_value());    // one before
  EXPECT_EQ(table.Find(P(0x20010))->kind, MemoryKind::kHost);
  EXPECT_EQ(table.Find(P(0x20010))->device, 1);
}

TEST(AllocationTable, RejectsOverlaps) {
  AllocationTable table;
  ASSERT_TRUE(table.Insert(At(0x10000, 0x100)).ok());
  EXPECT_FALSE(table.Insert(At(0x100ff, 0x10)).ok());
  EXPECT_FALSE(table.Insert(At(0xff00, 0x101)).ok());
  EXPECT_FALSE(table.Insert(At(0x10000, 1)).ok());
  EXPECT_FALSE(table.Insert(At(0x30000, 0)).ok());    // empty
  EXPECT_TRUE(table.Insert(At(0x10100, 0x10)).ok());  // adjacent: control
  EXPECT_TRUE(table.Insert(At(0xff00, 0x100)).ok());  // adjacent below
}

TEST(AllocationTable, EraseNeedsTheExactBase) {
  AllocationTable table;
  ASSERT_TRUE(table.Insert(At(0x10000, 0x100)).ok());
  EXPECT_FALSE(table.Erase(P(0x10001)).has_value());
  EXPECT_TRUE(table.Find(P(0x10000)).has_value());
  EXPECT_TRUE(table.Erase(P(0x10000)).has_value());
  EXPECT_FALSE(table.Find(P(0x10000)).has_value());
  EXPECT_FALSE(table.Erase(P(0x10000)).has_value());  // twice
}

TEST(AllocationTable, EraseIfAndTotalSizeSelectByPredicate) {
  AllocationTable table;
  ASSERT_TRUE(table.Insert(At(0x10000, 10, 0)).ok());
  ASSERT_TRUE(table.Insert(At(0x20000, 20, 1)).ok());
  ASSERT_TRUE(table.Insert(At(0x30000, 30, 0)).ok());
  auto on_device_0 = [](const Allocation& a) { return a.device == 0; };
  EXPECT_EQ(table.TotalSize(on_device_0), 40u);
  std::vector<Allocation> erased = table.EraseIf(on_device_0);
  EXPECT_EQ(erased.size(), 2u);
  EXPECT_EQ(table.TotalSize(on_device_0), 0u);
  EXPECT_TRUE(table.Find(P(0x20000)).has_value());
}

TEST(AllocationTable, FindOverlapFindsAnyIntersection) {
  AllocationTable table;
  ASSERT_TRUE(table.Insert(At(0x10000, 0x100)).ok());
  ASSERT_TRUE(table.Insert(At(0x20000, 0x100)).ok());
  EXPECT_EQ(table.FindOverlap(0xff00, 0x101)->base, 0x10000u);   // tail
  EXPECT_EQ(table.FindOverlap(0x100ff, 0x10)->base, 0x10000u);   // head
  EXPECT_EQ(table.FindOverlap(0x10010, 0x10)->base, 0x10000u);   // inside
  EXPECT_EQ(table.FindOverlap(0x0, 0x30000)->base, 0x10000u);    // around
  EXPECT_FALSE(table.FindOverlap(0xff00, 0x100).has_value());    // adjacent
  EXPECT_FALSE(table.FindOverlap(0x10100, 0xff00).has_value());  // between
  EXPECT_EQ(table.FindOverlap(0x10100, 0xff01)->base, 0x20000u);
}

TEST(AllocationTable, UpdateChangesFieldsButNotTheRange) {
  AllocationTable table;
  ASSERT_TRUE(table.Insert(At(0x10000, 0x100)).ok());
  EXPECT_FALSE(table.Update(P(0x10001), [](Allocation& a) { a.flags = 3; }));
  EXPECT_TRUE(table.Update(P(0x10000), [](Allocation& a) {
    a.sync_memops = true;
    a.size = 1;  // ignored: the range stays
  }));
  std::optional<Allocation> a = table.Find(P(0x100ff));
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->sync_memops);
  EXPECT_EQ(a->size, 0x100u);
  EXPECT_EQ(a->flags, 0u);
}

}  // namespace
}  // namespace mxcts::runtime
