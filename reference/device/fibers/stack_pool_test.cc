// Copyright mxcts authors.
//
// Tests of the stack pool: page rounding, reuse of released stacks, the
// guard page below each stack, the slabs with canaries beyond the guarded
// budget, and finding the stack of an address.

#include "reference/device/fibers/stack_pool.h"

#include <csignal>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace mxcts::device_internal {
namespace {

bool KilledByFault(int status) {
  return testing::KilledBySignal(SIGSEGV)(status) ||
         testing::KilledBySignal(SIGABRT)(status);
}

TEST(StackPool, ReusesReleasedStacks) {
  StackPool pool(10000);
  EXPECT_EQ(pool.stack_bytes() % 4096, 0u);
  EXPECT_GE(pool.stack_bytes(), 10000u);
  absl::StatusOr<Stack> a = pool.Acquire();
  absl::StatusOr<Stack> b = pool.Acquire();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->base, b->base);
  EXPECT_EQ(pool.mapped_count(), 2u);
  pool.Release(*a);
  EXPECT_EQ(pool.idle_count(), 1u);
  absl::StatusOr<Stack> c = pool.Acquire();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->base, a->base);
  EXPECT_EQ(pool.mapped_count(), 2u);
}

TEST(StackPool, WholeStackIsWritable) {
  StackPool pool(8192);
  absl::StatusOr<Stack> stack = pool.Acquire();
  ASSERT_TRUE(stack.ok());
  volatile char* base = static_cast<char*>(stack->base);
  base[0] = 1;
  base[stack->size - 1] = 2;
  EXPECT_EQ(base[0] + base[stack->size - 1], 3);
}

void WriteBelowStack() {
  StackPool pool(8192);
  absl::StatusOr<Stack> stack = pool.Acquire();
  volatile char* base = static_cast<char*>(stack->base);
  base[-1] = 1;
}

TEST(StackPoolDeathTest, GuardPageBelowTheStackFaults) {
  // Control of the test above.
  // A fault: SIGSEGV, or SIGABRT where AddressSanitizer reports it.
  EXPECT_EXIT(WriteBelowStack(), KilledByFault, "");
}

TEST(StackPool, FindsTheStackWhoseGuardAnAddressHits) {
  StackPool pool(8192);
  absl::StatusOr<Stack> stack = pool.Acquire();
  ASSERT_TRUE(stack.ok());
  const uintptr_t base = reinterpret_cast<uintptr_t>(stack->base);
  const size_t guard = pool.guard_bytes();
  ASSERT_NE(pool.OverflowedStack(base - 1, 0), nullptr);
  EXPECT_EQ(pool.OverflowedStack(base - 1, 0)->base, stack->base);
  EXPECT_NE(pool.OverflowedStack(base - guard, 0), nullptr);
  // Below the guard page only within `below`.
  EXPECT_EQ(pool.OverflowedStack(base - guard - 1, 0), nullptr);
  EXPECT_NE(pool.OverflowedStack(base - guard - 1, 4096), nullptr);
  // The stack itself is no overflow.
  EXPECT_EQ(pool.OverflowedStack(base, 4096), nullptr);
  EXPECT_EQ(pool.OverflowedStack(base + 100, 4096), nullptr);
}

TEST(StackPool, CoversItsStacksAndTheirGuards) {
  StackPool pool(8192);
  absl::StatusOr<Stack> stack = pool.Acquire();
  ASSERT_TRUE(stack.ok());
  const uintptr_t base = reinterpret_cast<uintptr_t>(stack->base);
  const uintptr_t top = reinterpret_cast<uintptr_t>(stack->top());
  EXPECT_TRUE(pool.Covers(base, 0));
  EXPECT_TRUE(pool.Covers(top, 0));
  EXPECT_TRUE(pool.Covers(base - pool.guard_bytes(), 0));
  EXPECT_FALSE(pool.Covers(base - pool.guard_bytes() - 1, 0));
  EXPECT_TRUE(pool.Covers(base - pool.guard_bytes() - 1, 64));
  EXPECT_FALSE(pool.Covers(top + 1, 0));
  int on_this_stack = 0;
  EXPECT_FALSE(pool.Covers(reinterpret_cast<uintptr_t>(&on_this_stack), 0));
}

TEST(StackPool, BeyondTheGuardedBudgetStacksShareSlabs) {
  StackPool pool(8192, /*guarded_budget=*/2);
  std::vector<Stack> stacks;
  for (int i = 0; i < 4; ++i) {
    absl::StatusOr<Stack> stack = pool.Acquire();
    ASSERT_TRUE(stack.ok());
    stacks.push_back(*stack);
  }
  EXPECT_TRUE(stacks[0].guarded);
  EXPECT_TRUE(stacks[1].guarded);
  // The slab's lowest stack sits on the slab's guard page; the next one has
  // it as its neighbour.
  EXPECT_TRUE(stacks[2].guarded);
  EXPECT_FALSE(stacks[3].guarded);
  EXPECT_EQ(static_cast<char*>(stacks[3].base),
            static_cast<char*>(stacks[2].top()));
  EXPECT_EQ(pool.guarded_count(), 2u);
  EXPECT_EQ(pool.mapped_count(), 4u);
}

TEST(StackPool, AnOverwrittenCanaryIsNoticed) {
  StackPool pool(8192, /*guarded_budget=*/0);
  absl::StatusOr<Stack> lowest = pool.Acquire();
  absl::StatusOr<Stack> stack = pool.Acquire();
  ASSERT_TRUE(lowest.ok() && stack.ok());
  ASSERT_FALSE(stack->guarded);
  // Control: a fresh stack's canary is intact, and writing just above it
  // leaves it so.
  EXPECT_TRUE(pool.CanaryIntact(*stack));
  volatile char* base = static_cast<char*>(stack->base);
  base[StackPool::kCanaryBytes] = 1;
  EXPECT_TRUE(pool.CanaryIntact(*stack));
  base[StackPool::kCanaryBytes - 1] = 1;
  EXPECT_FALSE(pool.CanaryIntact(*stack));
  // A guarded stack has no canary to break.
  EXPECT_TRUE(pool.CanaryIntact(*lowest));
  // Handed out again, the stack starts with its canary whole.
  pool.Release(*stack);
  absl::StatusOr<Stack> again = pool.Acquire();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->base, stack->base);
  EXPECT_TRUE(pool.CanaryIntact(*again));
}

TEST(StackPool, OnlyGuardedStacksOverflowIntoAGuardPage) {
  StackPool pool(8192, /*guarded_budget=*/0);
  absl::StatusOr<Stack> lowest = pool.Acquire();
  absl::StatusOr<Stack> above = pool.Acquire();
  ASSERT_TRUE(lowest.ok() && above.ok());
  const uintptr_t lowest_base = reinterpret_cast<uintptr_t>(lowest->base);
  const uintptr_t above_base = reinterpret_cast<uintptr_t>(above->base);
  ASSERT_NE(pool.OverflowedStack(lowest_base - 1, 0), nullptr);
  EXPECT_EQ(pool.OverflowedStack(lowest_base - 1, 0)->base, lowest->base);
  // Below the upper stack is the lower one's memory, not a guard page.
  EXPECT_EQ(pool.OverflowedStack(above_base - 1, 0), nullptr);
  EXPECT_TRUE(pool.Covers(above_base - 1, 0));
}

// More stacks than the system's mappings allow guard pages for (two
// mappings each, 65,530 mappings by default): the pool still hands them out.
TEST(StackPool, HandsOutMoreStacksThanMappingsAllowGuardsFor) {
  StackPool pool(16 * 1024);
  constexpr int kStacks = 40000;
  std::vector<Stack> stacks;
  stacks.reserve(kStacks);
  for (int i = 0; i < kStacks; ++i) {
    absl::StatusOr<Stack> stack = pool.Acquire();
    ASSERT_TRUE(stack.ok()) << "stack " << i << ": " << stack.status();
    stacks.push_back(*stack);
  }
  EXPECT_LT(pool.guarded_count(), static_cast<size_t>(kStacks));
  EXPECT_GT(pool.guarded_count(), 0u);
  // Every one is usable over its whole length.
  for (const Stack& stack : stacks) {
    static_cast<volatile char*>(stack.base)[stack.size - 1] = 1;
  }
}

}  // namespace
}  // namespace mxcts::device_internal
