// Copyright mxcts authors.
//
// tools/perf_results/backend_comparison.h: one implementation's benchmark
// times against a baseline's, benchmark by benchmark, for the same
// benchmark sources built both ways and run on the same machine (the CUDA
// backend against its native CUDA twin, perf/native_cuda/README.md).
//
// Ratios to physical limits are for tracking one backend over time; here
// the two programs do the same work on the same hardware, so their times
// compare directly. Each side's time is the median real time over all its
// repetitions (several runs of a binary merge by benchmark name).
//
//   BackendComparison comparison = CompareBackends(cuda, native, 0.05);
//   std::string table = RenderComparison(comparison, "cuda", "native");

#ifndef MXCTS_TOOLS_PERF_RESULTS_BACKEND_COMPARISON_H_
#define MXCTS_TOOLS_PERF_RESULTS_BACKEND_COMPARISON_H_

#include <string>
#include <vector>

#include "tools/perf_results/benchmark_json.h"

namespace mxcts::perf_results {

// One benchmark that both sides ran.
struct ComparedBenchmark {
  std::string name;
  int candidate_repetitions = 0;
  int baseline_repetitions = 0;
  double candidate_median_ns = 0;
  double baseline_median_ns = 0;
  double ratio = 0;     // candidate_median_ns / baseline_median_ns
  bool within = false;  // ratio <= 1 + tolerance
};

struct BackendComparison {
  double tolerance = 0;
  std::vector<ComparedBenchmark> compared;  // by name
  std::vector<std::string> only_candidate;  // benchmarks one side lacks
  std::vector<std::string> only_baseline;
  // The number of compared benchmarks beyond the tolerance.
  int beyond() const;
};

// Compares the candidate's results with the baseline's. Results of the
// same name on one side (one per run of a binary) are merged first; a
// baseline median of zero makes no ratio, and the benchmark counts as
// beyond the tolerance. `tolerance` is a fraction (0.05 for 5%).
BackendComparison CompareBackends(const std::vector<BenchmarkResult>& candidate,
                                  const std::vector<BenchmarkResult>& baseline,
                                  double tolerance);

// A Markdown table (benchmark, both medians, the ratio, within or beyond
// the tolerance), then the benchmarks only one side ran, then a summary
// line.
std::string RenderComparison(const BackendComparison& comparison,
                             const std::string& candidate_name,
                             const std::string& baseline_name);

}  // namespace mxcts::perf_results

#endif  // MXCTS_TOOLS_PERF_RESULTS_BACKEND_COMPARISON_H_
