// Copyright mxcts authors.
//
// The physical limits are measurements, so only their sanity is tested:
// positive and finite, and a switch costs more than nothing. No test here
// asserts how fast anything is.

#include "perf/engine/physical_limits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace mxcts::perf {
namespace {

bool PositiveAndFinite(double value) {
  return std::isfinite(value) && value > 0;
}

TEST(PhysicalLimits, MeasurementsArePositiveAndFinite) {
  std::vector<float> a(4096, 1.0f), b(4096, 2.0f), c(4096, 0.0f);
  EXPECT_TRUE(PositiveAndFinite(
      NativeVectorAddNanosPerElement(a.data(), b.data(), c.data(), 4096)));
  EXPECT_EQ(c[4095], 3.0f);  // the loop did the work
  EXPECT_TRUE(PositiveAndFinite(ContextSwitchNanoseconds()));
  EXPECT_TRUE(PositiveAndFinite(NativeAtomicAddNanoseconds(false)));
  EXPECT_TRUE(PositiveAndFinite(NativeAtomicAddNanoseconds(true)));
  EXPECT_TRUE(PositiveAndFinite(MutexLockUnlockNanoseconds()));
  EXPECT_TRUE(PositiveAndFinite(MallocFreeNanoseconds(4096)));
}

TEST(PhysicalLimits, MemcpyCopiesTheBytesItTimes) {
  std::vector<char> source(1 << 16, 'a'), destination(1 << 16, 'b');
  source.back() = 'z';
  EXPECT_TRUE(PositiveAndFinite(
      MemcpyNanoseconds(destination.data(), source.data(), source.size())));
  EXPECT_EQ(destination.front(), 'a');
  EXPECT_EQ(destination.back(), 'z');
  // Control: a copy of one byte leaves the rest alone.
  std::vector<char> partial(1 << 16, 'b');
  EXPECT_TRUE(
      PositiveAndFinite(MemcpyNanoseconds(partial.data(), source.data(), 1)));
  EXPECT_EQ(partial.front(), 'a');
  EXPECT_EQ(partial.back(), 'b');
}

}  // namespace
}  // namespace mxcts::perf
