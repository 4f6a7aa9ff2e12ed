// Copyright mxcts authors.
//
// Tests of the stack pool: page rounding, reuse of released stacks, the
// guard page below each stack, and finding the stack of an address.

#include "reference/device/fibers/stack_pool.h"

#include <csignal>
#include <cstdint>

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

}  // namespace
}  // namespace mxcts::device_internal
