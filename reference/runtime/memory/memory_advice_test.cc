// Copyright mxcts authors.
//
// Tests of ManagedAdvice: advice over part of an allocation, queries over
// ranges that mix advised and unadvised bytes, and forgetting.

#include "reference/runtime/memory/memory_advice.h"

#include <gtest/gtest.h>

#include <vector>

namespace mxcts::runtime {
namespace {

constexpr uintptr_t kBase = 0x100000;
constexpr size_t kSize = 0x1000;

TEST(ManagedAdvice, UnadvisedMemoryHasTheDefaults) {
  ManagedAdvice advice;
  RangeAdvice r = advice.Query(kBase, kSize, kBase, kSize);
  EXPECT_FALSE(r.read_mostly);
  EXPECT_EQ(r.preferred_location, kNoLocation);
  EXPECT_TRUE(r.accessed_by.empty());
  EXPECT_EQ(r.last_prefetch, kNoLocation);
}

TEST(ManagedAdvice, AdviceHoldsOnlyWhereGiven) {
  ManagedAdvice advice;
  advice.Apply(kBase, kSize, kBase + 0x100, 0x100,
               [](AdviceState& s) { s.read_mostly = true; });
  EXPECT_TRUE(advice.Query(kBase, kSize, kBase + 0x100, 0x100).read_mostly);
  EXPECT_TRUE(advice.Query(kBase, kSize, kBase + 0x180, 1).read_mostly);
  EXPECT_TRUE(advice.Query(kBase, kSize, kBase + 0x1ff, 1).read_mostly);
  // One byte outside, on either side, breaks "every byte".
  EXPECT_FALSE(advice.Query(kBase, kSize, kBase + 0xff, 0x101).read_mostly);
  EXPECT_FALSE(advice.Query(kBase, kSize, kBase + 0x100, 0x101).read_mostly);
  EXPECT_FALSE(advice.Query(kBase, kSize, kBase, kSize).read_mostly);
}

TEST(ManagedAdvice, LocationsMustAgreeOverTheRange) {
  ManagedAdvice advice;
  advice.Apply(kBase, kSize, kBase, 0x800,
               [](AdviceState& s) { s.preferred_location = 1; });
  advice.Apply(kBase, kSize, kBase + 0x800, 0x800,
               [](AdviceState& s) { s.preferred_location = kHostLocation; });
  EXPECT_EQ(advice.Query(kBase, kSize, kBase, 0x800).preferred_location, 1);
  EXPECT_EQ(advice.Query(kBase, kSize, kBase + 0x800, 8).preferred_location,
            kHostLocation);
  EXPECT_EQ(advice.Query(kBase, kSize, kBase + 0x7ff, 2).preferred_location,
            kNoLocation);
}

TEST(ManagedAdvice, AccessedByListsLocationsSetEverywhere) {
  ManagedAdvice advice;
  const uint64_t host = ManagedAdvice::LocationBit(kHostLocation);
  const uint64_t one = ManagedAdvice::LocationBit(1);
  advice.Apply(kBase, kSize, kBase, kSize,
               [&](AdviceState& s) { s.accessed_by |= one | host; });
  advice.Apply(kBase, kSize, kBase + 0x10, 0x10,
               [&](AdviceState& s) { s.accessed_by &= ~one; });
  EXPECT_EQ(advice.Query(kBase, kSize, kBase, 0x10).accessed_by,
            (std::vector<int>{kHostLocation, 1}));
  EXPECT_EQ(advice.Query(kBase, kSize, kBase, kSize).accessed_by,
            (std::vector<int>{kHostLocation}));
  EXPECT_EQ(ManagedAdvice::LocationBit(-2), 0u);
}

TEST(ManagedAdvice, UndoingAdviceAndForgetting) {
  ManagedAdvice advice;
  advice.Apply(kBase, kSize, kBase + 8, 8,
               [](AdviceState& s) { s.last_prefetch = 0; });
  EXPECT_EQ(advice.Query(kBase, kSize, kBase + 8, 8).last_prefetch, 0);
  advice.Apply(kBase, kSize, kBase + 8, 8,
               [](AdviceState& s) { s.last_prefetch = kNoLocation; });
  EXPECT_EQ(advice.Query(kBase, kSize, kBase + 8, 8).last_prefetch,
            kNoLocation);
  advice.Apply(kBase, kSize, kBase, kSize,
               [](AdviceState& s) { s.last_prefetch = 1; });
  advice.Forget(kBase);
  EXPECT_EQ(advice.Query(kBase, kSize, kBase, kSize).last_prefetch,
            kNoLocation);
}

}  // namespace
}  // namespace mxcts::runtime
