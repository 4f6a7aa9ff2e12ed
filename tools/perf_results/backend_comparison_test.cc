// Copyright mxcts authors.
//
// Tests the comparison of a backend's benchmark times with a baseline's:
// medians over merged runs, the tolerance (with a control on each side of
// it), benchmarks one side lacks, and the rendered table.
#include "tools/perf_results/backend_comparison.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::perf_results {
namespace {

// A result named `name` whose repetitions took `times` nanoseconds.
BenchmarkResult Result(const std::string& name,
                       const std::vector<double>& times) {
  BenchmarkResult result;
  result.name = name;
  for (size_t i = 0; i < times.size(); ++i) {
    Repetition repetition;
    repetition.index = static_cast<int>(i);
    repetition.iterations = 100;
    repetition.real_time_ns = times[i];
    result.repetitions.push_back(repetition);
  }
  return result;
}

TEST(CompareBackends, RatioOfMediansWithinTheTolerance) {
  const BackendComparison comparison =
      CompareBackends({Result("BM_Launch", {104, 100, 500})},
                      {Result("BM_Launch", {100, 90, 110})}, 0.05);
  ASSERT_EQ(comparison.compared.size(), 1u);
  const ComparedBenchmark& launch = comparison.compared[0];
  EXPECT_EQ(launch.candidate_median_ns, 104);  // the outlier 500 is no median
  EXPECT_EQ(launch.baseline_median_ns, 100);
  EXPECT_DOUBLE_EQ(launch.ratio, 1.04);
  EXPECT_TRUE(launch.within);
  EXPECT_EQ(comparison.beyond(), 0);
}

TEST(CompareBackends, BeyondTheToleranceIsCounted) {
  const BackendComparison comparison = CompareBackends(
      {Result("BM_Fast", {100}), Result("BM_Slow", {106})},
      {Result("BM_Fast", {100}), Result("BM_Slow", {100})}, 0.05);
  ASSERT_EQ(comparison.compared.size(), 2u);
  EXPECT_TRUE(comparison.compared[0].within);  // BM_Fast, the control
  EXPECT_FALSE(comparison.compared[1].within);
  EXPECT_EQ(comparison.beyond(), 1);
}

TEST(CompareBackends, FasterThanTheBaselineIsWithin) {
  const BackendComparison comparison = CompareBackends(
      {Result("BM_Copy", {80})}, {Result("BM_Copy", {100})}, 0.05);
  ASSERT_EQ(comparison.compared.size(), 1u);
  EXPECT_DOUBLE_EQ(comparison.compared[0].ratio, 0.8);
  EXPECT_TRUE(comparison.compared[0].within);
}

TEST(CompareBackends, ResultsOfOneNameMergeAcrossRuns) {
  // Two rounds of the same binary: the median is over all six repetitions.
  const BackendComparison comparison = CompareBackends(
      {Result("BM_Event", {10, 11, 12}), Result("BM_Event", {13, 14, 15})},
      {Result("BM_Event", {10, 10}), Result("BM_Event", {10})}, 0.05);
  ASSERT_EQ(comparison.compared.size(), 1u);
  EXPECT_EQ(comparison.compared[0].candidate_repetitions, 6);
  EXPECT_EQ(comparison.compared[0].baseline_repetitions, 3);
  EXPECT_DOUBLE_EQ(comparison.compared[0].candidate_median_ns, 12.5);
  EXPECT_FALSE(comparison.compared[0].within);
}

TEST(CompareBackends, BenchmarksOfOneSideAreListedNotCompared) {
  const BackendComparison comparison = CompareBackends(
      {Result("BM_Both", {1}), Result("BM_OnlyOurs", {1})},
      {Result("BM_Both", {1}), Result("BM_OnlyTheirs", {1})}, 0.05);
  ASSERT_EQ(comparison.compared.size(), 1u);
  EXPECT_EQ(comparison.compared[0].name, "BM_Both");
  EXPECT_EQ(comparison.only_candidate, std::vector<std::string>{"BM_OnlyOurs"});
  EXPECT_EQ(comparison.only_baseline,
            std::vector<std::string>{"BM_OnlyTheirs"});
}

TEST(CompareBackends, ZeroBaselineIsBeyondWithoutARatio) {
  const BackendComparison comparison =
      CompareBackends({Result("BM_X", {5})}, {Result("BM_X", {0})}, 0.05);
  ASSERT_EQ(comparison.compared.size(), 1u);
  EXPECT_FALSE(comparison.compared[0].within);
  EXPECT_EQ(comparison.beyond(), 1);
}

TEST(RenderComparison, TableRowsOneSidedBenchmarksAndSummary) {
  const BackendComparison comparison = CompareBackends(
      {Result("BM_Launch", {2500}), Result("BM_Graph", {1.2e6}),
       Result("BM_Mine", {1})},
      {Result("BM_Launch", {2000}), Result("BM_Graph", {1.2e6})}, 0.05);
  const std::string table = RenderComparison(comparison, "cuda", "native");
  EXPECT_NE(table.find("| benchmark | cuda (median) | native (median) | "
                       "ratio | within 5% |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| BM_Launch | 2.500 us | 2.000 us | 1.250 | **no** |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| BM_Graph | 1.200 ms | 1.200 ms | 1.000 | yes |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("only cuda ran BM_Mine"), std::string::npos) << table;
  EXPECT_NE(table.find("2 benchmarks compared, 1 beyond 5% of native"),
            std::string::npos)
      << table;
}

}  // namespace
}  // namespace mxcts::perf_results
