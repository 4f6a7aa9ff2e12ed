// Tests the naming of changes: commit range, direction by counter, and
// which regressions are current.
#include "tools/perf_results/regressions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace mxcts::perf_results {
namespace {

// A series of `levels.size()` runs with three tight repetitions at each
// level; run i is at commit "commit<i>".
Series MakeSeries(const std::string& counter,
                  const std::vector<double>& levels) {
  Series series{"reference", "BM_X", counter, {}};
  for (size_t i = 0; i < levels.size(); ++i) {
    SeriesPoint point;
    point.run_id = static_cast<int64_t>(i + 1);
    point.commit = "commit" + std::to_string(i);
    point.date = "2026-11-" + std::to_string(10 + i) + "T00:00:00Z";
    point.values = {levels[i] * 0.99, levels[i], levels[i] * 1.01,
                    levels[i] * 0.995, levels[i] * 1.005};
    series.points.push_back(point);
  }
  return series;
}

TEST(Regressions, ACostRatioGoingUpIsACurrentRegression) {
  const std::vector<Change> changes = DetectChanges(
      {MakeSeries("ratio_to_native", {1, 1, 1, 1, 1.5, 1.5, 1.5, 1.5})},
      DetectorOptions{});
  ASSERT_EQ(changes.size(), 1u);
  const Change& change = changes[0];
  EXPECT_EQ(change.benchmark, "BM_X");
  EXPECT_EQ(change.backend, "reference");
  EXPECT_EQ(change.point.index, 4);
  EXPECT_EQ(change.commit_before, "commit3");
  EXPECT_EQ(change.commit_after, "commit4");
  EXPECT_EQ(CommitRange(change), "commit3..commit4");
  EXPECT_EQ(change.date_after, "2026-11-14T00:00:00Z");
  EXPECT_TRUE(change.regression);
  EXPECT_TRUE(change.current);
}

TEST(Regressions, ABandwidthRatioGoingUpIsAnImprovement) {
  EXPECT_FALSE(CounterLowerIsBetter("ratio_to_memcpy"));
  EXPECT_TRUE(CounterLowerIsBetter("ratio_to_native"));
  const std::vector<Change> changes = DetectChanges(
      {MakeSeries("ratio_to_memcpy", {0.5, 0.5, 0.5, 0.5, 0.9, 0.9, 0.9})},
      DetectorOptions{});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_FALSE(changes[0].regression);
  EXPECT_FALSE(changes[0].current);
  // Control: the same counter going down is a regression.
  const std::vector<Change> down = DetectChanges(
      {MakeSeries("ratio_to_memcpy", {0.9, 0.9, 0.9, 0.9, 0.5, 0.5, 0.5})},
      DetectorOptions{});
  ASSERT_EQ(down.size(), 1u);
  EXPECT_TRUE(down[0].regression);
}

TEST(Regressions, ARegressionUndoneLaterIsNotCurrent) {
  const std::vector<Change> changes =
      DetectChanges({MakeSeries("ratio_to_native",
                                {1, 1, 1, 1, 1.5, 1.5, 1.5, 1.5, 1, 1, 1, 1})},
                    DetectorOptions{});
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_TRUE(changes[0].regression);
  EXPECT_FALSE(changes[0].current);
  EXPECT_FALSE(changes[1].regression);
}

TEST(Regressions, AChangeWithinOneCommitIsTheMachinesNotTheCodes) {
  Series series =
      MakeSeries("ratio_to_native", {1, 1, 1, 1, 1.5, 1.5, 1.5, 1.5});
  for (SeriesPoint& point : series.points) point.commit = "same";
  const std::vector<Change> changes =
      DetectChanges({series}, DetectorOptions{});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_TRUE(changes[0].same_commit);
  EXPECT_TRUE(changes[0].regression);
  EXPECT_FALSE(changes[0].current);
  EXPECT_EQ(CommitRange(changes[0]), "same");
  // Control: one commit earlier on each side makes it the code's.
  series.points[3].commit = "before";
  const std::vector<Change> code = DetectChanges({series}, DetectorOptions{});
  ASSERT_EQ(code.size(), 1u);
  EXPECT_FALSE(code[0].same_commit);
  EXPECT_TRUE(code[0].current);
}

TEST(Regressions, NamesTheSeriesOfEachChange) {
  const std::vector<Change> changes =
      DetectChanges({MakeSeries("ratio_a", {1, 1, 1, 1, 1, 1}),
                     MakeSeries("ratio_b", {1, 1, 1, 2, 2, 2})},
                    DetectorOptions{});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].series_index, 1);
  EXPECT_EQ(changes[0].counter, "ratio_b");
}

TEST(Regressions, ACommitRangeOfOneCommitIsThatCommit) {
  Change change;
  change.commit_before = "0123456789abcdef0123";
  change.commit_after = "0123456789abcdef0123";
  EXPECT_EQ(CommitRange(change), "0123456789ab");
  change.commit_after = "fedcba9876543210";
  EXPECT_EQ(CommitRange(change), "0123456789ab..fedcba987654");
}

}  // namespace
}  // namespace mxcts::perf_results
