// Tests the Mann-Whitney U test against values worked out by hand and
// against its own symmetries.
#include "tools/perf_results/mann_whitney.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace mxcts::perf_results {
namespace {

TEST(MannWhitney, SeparatedSamplesOfThreeGiveTheExactSmallestP) {
  // One arrangement in C(6, 3) = 20 puts all of the first below; the
  // two-sided p-value doubles it.
  MannWhitneyResult r = MannWhitneyU({1.0, 1.1, 0.9}, {2.0, 2.1, 1.9});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_DOUBLE_EQ(r.p_value, 0.1);
  // Swapped: U is n1 n2 = 9, the same p.
  MannWhitneyResult swapped = MannWhitneyU({2.0, 2.1, 1.9}, {1.0, 1.1, 0.9});
  EXPECT_DOUBLE_EQ(swapped.u, 9);
  EXPECT_DOUBLE_EQ(swapped.p_value, 0.1);
}

TEST(MannWhitney, ExactCountsOfTwoAgainstTwo) {
  // U of {1, 4} against {2, 3}: 4 beats both, 1 neither: U = 2, the
  // middle of 0..4. The 6 arrangements have U = 0,1,2,2,3,4; P(U <= 2) =
  // 4/6, so p = min(1, 2 * 4/6) = 1.
  MannWhitneyResult middle = MannWhitneyU({1, 4}, {2, 3});
  EXPECT_DOUBLE_EQ(middle.u, 2);
  EXPECT_DOUBLE_EQ(middle.p_value, 1);
  // U = 1: P(U <= 1) = 2/6, p = 4/6.
  MannWhitneyResult one = MannWhitneyU({1, 2.5}, {2, 3});
  EXPECT_DOUBLE_EQ(one.u, 1);
  EXPECT_NEAR(one.p_value, 4.0 / 6, 1e-12);
}

TEST(MannWhitney, LargeSeparatedSamplesAreHighlySignificant) {
  std::vector<double> low, high;
  for (int i = 0; i < 20; ++i) {
    low.push_back(1 + 0.001 * i);
    high.push_back(2 + 0.001 * i);
  }
  MannWhitneyResult r = MannWhitneyU(low, high);
  EXPECT_TRUE(r.exact);  // 40 values, no ties
  EXPECT_LT(r.p_value, 1e-9);
  // Control: interleaved samples are not significant.
  std::vector<double> odd, even;
  for (int i = 0; i < 40; ++i) (i % 2 ? odd : even).push_back(i);
  EXPECT_GT(MannWhitneyU(odd, even).p_value, 0.5);
}

TEST(MannWhitney, TiesUseTheNormalApproximation) {
  MannWhitneyResult r = MannWhitneyU({1, 1, 1, 2, 2}, {2, 3, 3, 3, 3});
  EXPECT_FALSE(r.exact);
  // Ranks: 1,1,1 -> 2; 2,2,2 -> 5; 3 x4 -> 8.5. R1 = 6 + 10 = 16,
  // U = 16 - 15 = 1.
  EXPECT_DOUBLE_EQ(r.u, 1);
  EXPECT_GT(r.p_value, 0);
  EXPECT_LT(r.p_value, 0.05);
}

TEST(MannWhitney, EqualOrMissingSamplesGiveNoEvidence) {
  EXPECT_DOUBLE_EQ(MannWhitneyU({1, 1, 1}, {1, 1, 1}).p_value, 1);
  EXPECT_DOUBLE_EQ(MannWhitneyU({}, {1, 2}).p_value, 1);
}

}  // namespace
}  // namespace mxcts::perf_results
