// Copyright mxcts authors.
//
// The memo of the last live handle (live_handle_memo.h): it holds the
// handle it kept until any handle leaves the registry, never another
// handle, never null, and a thread's memo is its own.

#include "backends/cuda/runtime/live_handle_memo.h"

#include <gtest/gtest.h>

#include <thread>

namespace mxcts::cuda_backend {
namespace {

int first_handle;
int second_handle;

TEST(LiveHandleMemo, HoldsTheKeptHandleUntilARetirement) {
  RetirementCount retired;
  LiveHandleMemo memo;
  EXPECT_FALSE(memo.Holds(&first_handle, retired));  // nothing kept yet
  memo.Keep(&first_handle, retired);
  EXPECT_TRUE(memo.Holds(&first_handle, retired));
  EXPECT_FALSE(memo.Holds(&second_handle, retired));
  retired.Bump();
  EXPECT_FALSE(memo.Holds(&first_handle, retired));
  memo.Keep(&first_handle, retired);  // found live again
  EXPECT_TRUE(memo.Holds(&first_handle, retired));
}

TEST(LiveHandleMemo, NeverHoldsNull) {
  RetirementCount retired;
  LiveHandleMemo memo;
  EXPECT_FALSE(memo.Holds(nullptr, retired));
  memo.Keep(nullptr, retired);
  EXPECT_FALSE(memo.Holds(nullptr, retired));
}

TEST(LiveHandleMemo, ARetirementInAnotherThreadMakesTheMemoStale) {
  RetirementCount retired;
  LiveHandleMemo memo;
  memo.Keep(&first_handle, retired);
  std::thread other([&retired] { retired.Bump(); });
  other.join();
  EXPECT_FALSE(memo.Holds(&first_handle, retired));
}

}  // namespace
}  // namespace mxcts::cuda_backend
