// Tests the change-point detector on synthetic histories whose changes are
// known: a step is found at its run with its size, noise without a step
// raises no alarm, a step smaller than the minimum effect is not reported
// (and is, with a smaller minimum: the control), two steps are both found.
#include "tools/perf_results/change_points.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace mxcts::perf_results {
namespace {

// `runs` runs of `repetitions` values: `level` (times `step` from run
// `step_at` on) with relative Gaussian noise `noise` per repetition and
// `run_noise` per run.
std::vector<std::vector<double>> History(int runs, int repetitions,
                                         double level, int step_at, double step,
                                         double noise, unsigned seed,
                                         double run_noise = 0) {
  std::mt19937 random(seed);
  std::normal_distribution<double> gauss(0, 1);
  std::vector<std::vector<double>> history(runs);
  for (int run = 0; run < runs; ++run) {
    const double run_level =
        level * (run >= step_at ? step : 1) * (1 + run_noise * gauss(random));
    for (int r = 0; r < repetitions; ++r) {
      history[run].push_back(run_level * (1 + noise * gauss(random)));
    }
  }
  return history;
}

TEST(ChangePoints, FindsAStepAtItsRunWithItsSize) {
  const auto history = History(20, 5, 2.0, 12, 1.3, 0.03, 1);
  const std::vector<ChangePoint> found =
      FindChangePoints(history, DetectorOptions{});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 12);
  EXPECT_NEAR(found[0].relative_change, 0.3, 0.05);
  EXPECT_NEAR(found[0].before_median, 2.0, 0.1);
  EXPECT_NEAR(found[0].after_median, 2.6, 0.1);
  EXPECT_GT(found[0].confidence, 0.999);
  EXPECT_DOUBLE_EQ(found[0].confidence, 1 - found[0].p_value);
}

TEST(ChangePoints, FindsAStepDownAtItsRun) {
  const auto history = History(10, 5, 1.0, 4, 0.7, 0.03, 2);
  const std::vector<ChangePoint> found =
      FindChangePoints(history, DetectorOptions{});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 4);
  EXPECT_NEAR(found[0].relative_change, -0.3, 0.05);
}

TEST(ChangePoints, FindsAStepDespiteRunToRunNoise) {
  const auto history = History(16, 5, 1.0, 8, 1.5, 0.03, 3, 0.03);
  const std::vector<ChangePoint> found =
      FindChangePoints(history, DetectorOptions{});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 8);
}

TEST(ChangePoints, NoiseWithoutAStepRaisesNoAlarm) {
  for (unsigned seed = 0; seed < 50; ++seed) {
    const auto history = History(20, 5, 1.0, 20, 1.0, 0.05, seed, 0.02);
    EXPECT_THAT(FindChangePoints(history, DetectorOptions{}),
                ::testing::IsEmpty())
        << "seed " << seed;
  }
}

TEST(ChangePoints, TheSignificanceLevelHoldsWithoutAMinimumEffect) {
  // With no minimum effect only the test stands between noise and an
  // alarm: at alpha 0.01, about one history in a hundred may alarm.
  DetectorOptions options;
  options.min_effect = 0;
  int alarms = 0;
  for (unsigned seed = 100; seed < 300; ++seed) {
    alarms +=
        !FindChangePoints(History(12, 5, 1.0, 12, 1.0, 0.05, seed), options)
             .empty();
  }
  EXPECT_LE(alarms, 6);
  // Control: a real step is found under the same options.
  EXPECT_FALSE(
      FindChangePoints(History(12, 5, 1.0, 6, 1.2, 0.05, 7), options).empty());
}

TEST(ChangePoints, AStepBelowTheMinimumEffectIsNotReported) {
  // 5% with 1% noise: significant, but under the 10% default.
  const auto history = History(20, 5, 1.0, 10, 1.05, 0.01, 4);
  EXPECT_THAT(FindChangePoints(history, DetectorOptions{}),
              ::testing::IsEmpty());
  // Control: with a 3% minimum the same step is found.
  DetectorOptions small;
  small.min_effect = 0.03;
  const std::vector<ChangePoint> found = FindChangePoints(history, small);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 10);
}

TEST(ChangePoints, OneOddRunIsNotAChange) {
  auto history = History(20, 5, 1.0, 20, 1.0, 0.02, 10);
  for (double& value : history[10]) value *= 3;
  EXPECT_THAT(FindChangePoints(history, DetectorOptions{}),
              ::testing::IsEmpty());
  // Control: three odd runs in a row (more than half the window) are a
  // level, found where it starts and where it ends.
  for (double& value : history[11]) value *= 3;
  for (double& value : history[12]) value *= 3;
  EXPECT_EQ(FindChangePoints(history, DetectorOptions{}).size(), 2u);
}

TEST(ChangePoints, FindsTwoSteps) {
  auto history = History(24, 5, 1.0, 8, 1.4, 0.02, 5);
  // Back down from run 16.
  for (int run = 16; run < 24; ++run) {
    for (double& value : history[run]) value /= 1.4;
  }
  const std::vector<ChangePoint> found =
      FindChangePoints(history, DetectorOptions{});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].index, 8);
  EXPECT_GT(found[0].relative_change, 0.3);
  EXPECT_EQ(found[1].index, 16);
  EXPECT_LT(found[1].relative_change, -0.2);
}

TEST(ChangePoints, NeedsMinRunsOnEachSide) {
  // A step in the last run alone is not a level yet (nor is a split before
  // it, whose window after holds an old and a new run).
  const auto history = History(10, 5, 1.0, 9, 2.0, 0.02, 6);
  EXPECT_THAT(FindChangePoints(history, DetectorOptions{}),
              ::testing::IsEmpty());
  // Control: allowed one run per side, it is found.
  DetectorOptions one;
  one.min_runs = 1;
  const std::vector<ChangePoint> found = FindChangePoints(history, one);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 9);
}

TEST(ChangePoints, EmptyRunsKeepTheirIndex) {
  auto history = History(12, 5, 1.0, 6, 1.5, 0.02, 8);
  history.insert(history.begin() + 3, std::vector<double>{});
  const std::vector<ChangePoint> found =
      FindChangePoints(history, DetectorOptions{});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 7);
}

TEST(ChangePoints, OptionsOutOfRangeFindNothing) {
  const auto history = History(10, 5, 1.0, 5, 2.0, 0.02, 9);
  DetectorOptions bad;
  bad.alpha = 0;
  EXPECT_THAT(FindChangePoints(history, bad), ::testing::IsEmpty());
  bad = DetectorOptions{};
  bad.min_runs = 0;
  EXPECT_THAT(FindChangePoints(history, bad), ::testing::IsEmpty());
  bad = DetectorOptions{};
  bad.window = 1;  // smaller than min_runs
  EXPECT_THAT(FindChangePoints(history, bad), ::testing::IsEmpty());
  // Control: the default options find the step.
  EXPECT_EQ(FindChangePoints(history, DetectorOptions{}).size(), 1u);
}

TEST(ChangePoints, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(Median({}), 0);
}

}  // namespace
}  // namespace mxcts::perf_results
