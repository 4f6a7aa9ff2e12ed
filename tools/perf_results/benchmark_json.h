// Copyright mxcts authors.
//
// tools/perf_results/benchmark_json.h: reading Google Benchmark's JSON
// output (--benchmark_format=json or --benchmark_out) into the results the
// history stores.
//
// Only the repetitions are kept (`"run_type": "iteration"`); the aggregates
// Google Benchmark adds (mean, median, stddev, cv) are recomputed by whoever
// needs them. Of each repetition's user counters, those with "ratio" as a
// word of their name ("ratio_to_memcpy", "grid_sync_ratio_to_context_switch")
// are the ratios to a physical limit measured in the same run
// (perf/README.md); they are what the dashboard tracks, since the machine's
// speed cancels out of them. Times are converted to nanoseconds.
//
//   absl::StatusOr<BenchmarkReport> report = ParseBenchmarkJson(text);
//   for (const BenchmarkResult& result : report->results) ...

#ifndef MXCTS_TOOLS_PERF_RESULTS_BENCHMARK_JSON_H_
#define MXCTS_TOOLS_PERF_RESULTS_BENCHMARK_JSON_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::perf_results {

// One repetition of one benchmark.
struct Repetition {
  int index = 0;  // Google Benchmark's repetition_index
  int64_t iterations = 0;
  double real_time_ns = 0;
  double cpu_time_ns = 0;
  std::map<std::string, double> ratios;  // ratio counter name -> value
};

// Every repetition of one benchmark (its run_name, for example
// "BM_AtomicAddPerThread/distinct:0/real_time"), in repetition order.
struct BenchmarkResult {
  std::string name;
  std::vector<Repetition> repetitions;
};

// The part of Google Benchmark's "context" that describes the machine.
struct BenchmarkContext {
  std::string date;  // as written, ISO 8601 with a UTC offset
  std::string host_name;
  int num_cpus = 0;
  double mhz_per_cpu = 0;
};

struct BenchmarkReport {
  BenchmarkContext context;
  std::vector<BenchmarkResult> results;
  // One line per benchmark that reported an error; it has no result.
  std::vector<std::string> errors;
};

// Returns true if the counter `name` is a ratio to a physical limit.
bool IsRatioCounter(absl::string_view name);

// Parses one JSON document of Google Benchmark. Fails with InvalidArgument
// naming what is wrong (not JSON, no "benchmarks" array, an entry without a
// name or time, an unknown time unit, a repetition given twice).
absl::StatusOr<BenchmarkReport> ParseBenchmarkJson(absl::string_view text);

}  // namespace mxcts::perf_results

#endif  // MXCTS_TOOLS_PERF_RESULTS_BENCHMARK_JSON_H_
