// Copyright mxcts authors.
//
// Tests of AddressArena: reservation, page-granular allocation with a guard
// page, preference for fresh addresses, reuse after exhaustion; and the
// checked layout: guard pages on both sides, the end touching the guard,
// no reuse, placements.

#include "reference/runtime/memory/address_arena.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <optional>

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

// --- The checked layout (MXCTS_MEMCHECK=1). ---

std::unique_ptr<AddressArena> CheckedArena(size_t pages) {
  absl::StatusOr<std::unique_ptr<AddressArena>> arena =
      AddressArena::Reserve("checked", pages * AddressArena::PageSize(),
                            AddressArena::PageSize(), ArenaLayout::kChecked);
  EXPECT_TRUE(arena.ok()) << arena.status();
  return std::move(*arena);
}

// Whether one byte at `address` can be read, found without touching it:
// write(2) reports EFAULT for an inaccessible source.
bool Readable(uintptr_t address) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) return false;
  const bool readable =
      write(pipe_ends[1], reinterpret_cast<const void*>(address), 1) == 1;
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  return readable;
}

class CheckedLayout : public testing::TestWithParam<size_t> {};

TEST_P(CheckedLayout, EndRoundedTo256TouchesTheGuardPageAfter) {
  const size_t size = GetParam();
  auto arena = CheckedArena(64);
  absl::StatusOr<void*> p = arena->Allocate(size);
  ASSERT_TRUE(p.ok()) << p.status();
  const uintptr_t base = reinterpret_cast<uintptr_t>(*p);
  const size_t rounded = (size + 255) / 256 * 256;
  EXPECT_EQ(base % 256, 0u);  // [api.memory.malloc.alignment-256]
  EXPECT_TRUE(Readable(base));
  EXPECT_TRUE(Readable(base + size - 1));
  EXPECT_TRUE(Readable(base + rounded - 1));  // the slack up to 256
  EXPECT_FALSE(Readable(base + rounded));
  EXPECT_EQ((base + rounded) % AddressArena::PageSize(), 0u);
  std::memset(*p, 0x5a, size);
}

TEST_P(CheckedLayout, GuardPageBeforeTheFirstPage) {
  const size_t size = GetParam();
  auto arena = CheckedArena(64);
  const uintptr_t base = reinterpret_cast<uintptr_t>(*arena->Allocate(size));
  const size_t page = AddressArena::PageSize();
  const uintptr_t first_page = base / page * page;
  EXPECT_TRUE(Readable(first_page));
  EXPECT_FALSE(Readable(first_page - 1));
  EXPECT_FALSE(Readable(first_page - page));
}

TEST_P(CheckedLayout, PlacementExplainsGuardsAndRelease) {
  const size_t size = GetParam();
  auto arena = CheckedArena(64);
  const uintptr_t base = reinterpret_cast<uintptr_t>(*arena->Allocate(size));
  const size_t page = AddressArena::PageSize();
  for (uintptr_t address :
       {base, base + size - 1, base + (size + 255) / 256 * 256,
        base / page * page - 1}) {
    std::optional<AddressArena::Placement> placement =
        arena->PlacementAround(address);
    ASSERT_TRUE(placement.has_value()) << address - base;
    EXPECT_EQ(placement->base, base);
    EXPECT_EQ(placement->size, size);
    EXPECT_FALSE(placement->released);
  }
  arena->Release(reinterpret_cast<void*>(base), size);
  EXPECT_FALSE(Readable(base));
  std::optional<AddressArena::Placement> after = arena->PlacementAround(base);
  ASSERT_TRUE(after.has_value());
  EXPECT_TRUE(after->released);
  // Beyond every allocation: nothing to say.
  EXPECT_FALSE(arena->PlacementAround(arena->end() - 1).has_value());
}

TEST_P(CheckedLayout, ReleasedRangeIsNeverReused) {
  const size_t size = GetParam();
  auto arena = CheckedArena(256);
  void* first = *arena->Allocate(size);
  arena->Release(first, size);
  absl::StatusOr<void*> second = arena->Allocate(size);
  ASSERT_TRUE(second.ok());
  EXPECT_NE(*second, first);
  EXPECT_FALSE(Readable(reinterpret_cast<uintptr_t>(first)));
  EXPECT_TRUE(Readable(reinterpret_cast<uintptr_t>(*second)));
}

INSTANTIATE_TEST_SUITE_P(Sizes, CheckedLayout,
                         testing::Values(1, 100, 256, 1000, 1024, 4096, 4097,
                                         65536));

TEST(CheckedLayoutLimits, ArenaRunsOutInsteadOfReusing) {
  auto arena = CheckedArena(6);  // two spans of three pages
  const size_t page = AddressArena::PageSize();
  void* a = *arena->Allocate(page);
  ASSERT_TRUE(arena->Allocate(page).ok());
  arena->Release(a, page);
  EXPECT_FALSE(arena->Allocate(page).ok());
}

TEST(CheckedLayoutLimits, PackedArenaHasNoPlacements) {
  auto arena = SmallArena(8);
  const uintptr_t base = reinterpret_cast<uintptr_t>(*arena->Allocate(100));
  EXPECT_FALSE(arena->PlacementAround(base).has_value());
  EXPECT_EQ(arena->layout(), ArenaLayout::kPacked);
}

}  // namespace
}  // namespace mxcts::runtime
