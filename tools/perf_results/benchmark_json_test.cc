// Tests the reader of Google Benchmark JSON: repetitions kept, aggregates
// dropped, units converted, ratio counters told from the others, errors
// left out and malformed files refused.
#include "tools/perf_results/benchmark_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace mxcts::perf_results {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

constexpr char kTwoRepetitions[] = R"json({
  "context": {"date": "2026-11-27T10:10:24+00:00", "host_name": "vm",
              "num_cpus": 2, "mhz_per_cpu": 2596},
  "benchmarks": [
    {"name": "BM_A/real_time", "run_name": "BM_A/real_time",
     "run_type": "iteration", "repetitions": 2, "repetition_index": 0,
     "iterations": 9, "real_time": 1.5, "cpu_time": 1.25, "time_unit": "ms",
     "native_atomic_ns": 4.6, "ns_per_thread_operation": 4.7,
     "ratio_to_native_atomic": 1.03},
    {"name": "BM_A/real_time", "run_name": "BM_A/real_time",
     "run_type": "iteration", "repetitions": 2, "repetition_index": 1,
     "iterations": 9, "real_time": 2, "cpu_time": 2, "time_unit": "us",
     "ratio_to_native_atomic": 0.98},
    {"name": "BM_A/real_time_mean", "run_name": "BM_A/real_time",
     "run_type": "aggregate", "aggregate_name": "mean", "repetitions": 2,
     "iterations": 2, "real_time": 1.0, "cpu_time": 1.0, "time_unit": "ms",
     "ratio_to_native_atomic": 1.005},
    {"name": "BM_B", "run_name": "BM_B", "run_type": "iteration",
     "repetitions": 2, "repetition_index": 0, "iterations": 1,
     "real_time": 0, "cpu_time": 0, "time_unit": "ns",
     "error_occurred": true, "error_message": "mcMalloc failed"}
  ]})json";

TEST(BenchmarkJson, KeepsRepetitionsInNanosecondsAndDropsAggregates) {
  absl::StatusOr<BenchmarkReport> report = ParseBenchmarkJson(kTwoRepetitions);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->context.date, "2026-11-27T10:10:24+00:00");
  EXPECT_EQ(report->context.num_cpus, 2);
  ASSERT_EQ(report->results.size(), 1u);
  const BenchmarkResult& a = report->results[0];
  EXPECT_EQ(a.name, "BM_A/real_time");
  ASSERT_EQ(a.repetitions.size(), 2u);
  EXPECT_EQ(a.repetitions[0].index, 0);
  EXPECT_EQ(a.repetitions[0].iterations, 9);
  EXPECT_DOUBLE_EQ(a.repetitions[0].real_time_ns, 1.5e6);
  EXPECT_DOUBLE_EQ(a.repetitions[0].cpu_time_ns, 1.25e6);
  EXPECT_DOUBLE_EQ(a.repetitions[1].real_time_ns, 2e3);
  // Only the ratio counter; "ns_per_thread_operation" holds "ratio" inside
  // a word and is not one.
  EXPECT_THAT(a.repetitions[0].ratios,
              ElementsAre(Pair("ratio_to_native_atomic", 1.03)));
  EXPECT_THAT(a.repetitions[1].ratios,
              ElementsAre(Pair("ratio_to_native_atomic", 0.98)));
}

TEST(BenchmarkJson, LeavesOutABenchmarkThatReportedAnError) {
  absl::StatusOr<BenchmarkReport> report = ParseBenchmarkJson(kTwoRepetitions);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->errors.size(), 1u);
  EXPECT_THAT(report->errors[0], HasSubstr("BM_B: mcMalloc failed"));
}

TEST(BenchmarkJson, TellsRatioCountersFromOthers) {
  EXPECT_TRUE(IsRatioCounter("ratio_to_memcpy"));
  EXPECT_TRUE(IsRatioCounter("grid_sync_ratio_to_context_switch"));
  EXPECT_FALSE(IsRatioCounter("ns_per_thread_operation"));
  EXPECT_FALSE(IsRatioCounter("copy_bytes_per_second"));
}

TEST(BenchmarkJson, AnEntryWithoutRunTypeIsRepetitionZero) {
  absl::StatusOr<BenchmarkReport> report = ParseBenchmarkJson(
      R"({"benchmarks": [{"name": "BM_C", "iterations": 3, "real_time": 5,
          "cpu_time": 5, "time_unit": "s", "ratio_to_x": 2}]})");
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->results.size(), 1u);
  EXPECT_EQ(report->results[0].repetitions[0].index, 0);
  EXPECT_DOUBLE_EQ(report->results[0].repetitions[0].real_time_ns, 5e9);
}

TEST(BenchmarkJson, RefusesMalformedInput) {
  EXPECT_THAT(ParseBenchmarkJson("{not json").status().message(),
              HasSubstr("not a JSON object"));
  EXPECT_THAT(ParseBenchmarkJson(R"({"context": {}})").status().message(),
              HasSubstr("no \"benchmarks\" array"));
  EXPECT_THAT(ParseBenchmarkJson(R"({"benchmarks": [{"real_time": 1}]})")
                  .status()
                  .message(),
              HasSubstr("has no \"name\""));
  EXPECT_THAT(ParseBenchmarkJson(R"({"benchmarks": [{"name": "BM_D",
                  "cpu_time": 1}]})")
                  .status()
                  .message(),
              HasSubstr("BM_D\" has no numeric \"real_time\""));
  EXPECT_THAT(ParseBenchmarkJson(R"({"benchmarks": [{"name": "BM_E",
                  "real_time": 1, "cpu_time": 1, "time_unit": "fortnight"}]})")
                  .status()
                  .message(),
              HasSubstr("unknown time_unit \"fortnight\""));
  EXPECT_THAT(ParseBenchmarkJson(R"({"benchmarks": [
                  {"name": "BM_F", "real_time": 1, "cpu_time": 1},
                  {"name": "BM_F", "real_time": 1, "cpu_time": 1}]})")
                  .status()
                  .message(),
              HasSubstr("BM_F\" has repetition 0 twice"));
}

}  // namespace
}  // namespace mxcts::perf_results
