// Copyright mxcts authors.
//
// Tests of AddressArena: reservation, page-granular allocation with a guard
// page, preference for fresh addresses, reuse after exhaustion.

#include "reference/runtime/address_arena.h"

#include <gtest/gtest.h>

#include <cstring>

namespace mxcts::runtime {
namespace {

std::unique_ptr<AddressArena> SmallArena(size_t pages) {
  absl::StatusOr<std::unique_ptr<AddressArena>> arena = AddressArena::Reserve(
      "test", pages * AddressArena::PageSize(), AddressArena::PageSize());
  EXPECT_TRUE(arena.ok()) << arena.status();
  return std::move(*arena);
}

TEST(AddressArena, AllocationIsUsableAndInsideTheArena) {
  auto arena = SmallArena(64);
  absl::StatusOr<void*> p = arena->Allocate(1000);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(arena->Contains(*p));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*p) % 256, 0u);
  std::memset(*p, 0xab, AddressArena::PageSize());  // a whole page is usable
  EXPECT_EQ(static_cast<unsigned char*>(*p)[999], 0xab);
  int outside = 0;
  EXPECT_FALSE(arena->Contains(&outside));  // control
}

TEST(AddressArena, AllocationsDoNotTouchAndLeaveAGuardPage) {
  auto arena = SmallArena(64);
  size_t page = AddressArena::PageSize();
  uintptr_t a = reinterpret_cast<uintptr_t>(*arena->Allocate(page));
  uintptr_t b = reinterpret_cast<uintptr_t>(*arena->Allocate(page));
  EXPECT_GE(b, a + 2 * page);
  // The last byte of `a` is writable; the byte after it faults.
  *reinterpret_cast<volatile char*>(a + page - 1) = 1;
  EXPECT_DEATH({ *reinterpret_cast<volatile char*>(a + page) = 1; }, "");
}

TEST(AddressArena, ReleasedMemoryFaults) {
  auto arena = SmallArena(64);
  void* p = *arena->Allocate(64);
  *static_cast<volatile char*>(p) = 1;  // control: accessible while live
  arena->Release(p, 64);
  EXPECT_DEATH({ *static_cast<volatile char*>(p) = 1; }, "");
}

TEST(AddressArena, ZeroAndOversizedRequestsFail) {
  auto arena = SmallArena(4);
  EXPECT_FALSE(arena->Allocate(0).ok());
  EXPECT_FALSE(arena->Allocate(4 * AddressArena::PageSize()).ok());
  EXPECT_TRUE(arena->Allocate(AddressArena::PageSize()).ok());  // control
}

TEST(AddressArena, ReleasedRangeIsNotReusedWhileFreshSpaceRemains) {
  auto arena = SmallArena(64);
  void* first = *arena->Allocate(100);
  arena->Release(first, 100);
  void* second = *arena->Allocate(100);
  EXPECT_NE(first, second);
}

TEST(AddressArena, ReleasedRangeIsReusedWhenFreshSpaceRunsOut) {
  auto arena = SmallArena(4);  // room for two one-page allocations
  size_t page = AddressArena::PageSize();
  void* a = *arena->Allocate(page);
  void* b = *arena->Allocate(page);
  EXPECT_FALSE(arena->Allocate(page).ok());
  arena->Release(a, page);
  absl::StatusOr<void*> c = arena->Allocate(page);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(*c, a);
  // Released memory comes back zeroed (its pages were dropped).
  EXPECT_EQ(*static_cast<unsigned char*>(*c), 0);
  (void)b;
}

TEST(AddressArena, NeighbouringReleasesMerge) {
  auto arena = SmallArena(4);
  size_t page = AddressArena::PageSize();
  void* a = *arena->Allocate(page);
  void* b = *arena->Allocate(page);
  arena->Release(a, page);
  arena->Release(b, page);
  // Two pages plus a guard page fit only in the merged range.
  absl::StatusOr<void*> big = arena->Allocate(3 * page);
  ASSERT_TRUE(big.ok()) << big.status();
  EXPECT_EQ(*big, a);
}

}  // namespace
}  // namespace mxcts::runtime
