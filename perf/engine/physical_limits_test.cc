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
}

}  // namespace
}  // namespace mxcts::perf
