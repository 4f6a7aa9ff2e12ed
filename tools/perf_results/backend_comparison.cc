// Copyright mxcts authors.

#include "tools/perf_results/backend_comparison.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/perf_results/change_points.h"

namespace mxcts::perf_results {
namespace {

// Every repetition's real time, by benchmark name, over all the results.
std::map<std::string, std::vector<double>> TimesByName(
    const std::vector<BenchmarkResult>& results) {
  std::map<std::string, std::vector<double>> times;
  for (const BenchmarkResult& result : results) {
    std::vector<double>& list = times[result.name];
    for (const Repetition& repetition : result.repetitions) {
      list.push_back(repetition.real_time_ns);
    }
  }
  return times;
}

// A time in the unit that keeps it readable.
std::string FormatNanoseconds(double ns) {
  if (ns >= 1e6) return absl::StrFormat("%.3f ms", ns / 1e6);
  if (ns >= 1e3) return absl::StrFormat("%.3f us", ns / 1e3);
  return absl::StrFormat("%.1f ns", ns);
}

}  // namespace

int BackendComparison::beyond() const {
  int count = 0;
  for (const ComparedBenchmark& benchmark : compared) {
    count += benchmark.within ? 0 : 1;
  }
  return count;
}

BackendComparison CompareBackends(const std::vector<BenchmarkResult>& candidate,
                                  const std::vector<BenchmarkResult>& baseline,
                                  double tolerance) {
  BackendComparison comparison;
  comparison.tolerance = tolerance;
  const std::map<std::string, std::vector<double>> ours =
      TimesByName(candidate);
  const std::map<std::string, std::vector<double>> theirs =
      TimesByName(baseline);
  for (const auto& [name, times] : ours) {
    auto other = theirs.find(name);
    if (other == theirs.end() || other->second.empty() || times.empty()) {
      comparison.only_candidate.push_back(name);
      continue;
    }
    ComparedBenchmark compared;
    compared.name = name;
    compared.candidate_repetitions = static_cast<int>(times.size());
    compared.baseline_repetitions = static_cast<int>(other->second.size());
    compared.candidate_median_ns = Median(times);
    compared.baseline_median_ns = Median(other->second);
    if (compared.baseline_median_ns > 0) {
      compared.ratio =
          compared.candidate_median_ns / compared.baseline_median_ns;
      compared.within = compared.ratio <= 1 + tolerance;
    }
    comparison.compared.push_back(compared);
  }
  for (const auto& [name, times] : theirs) {
    auto other = ours.find(name);
    if (other == ours.end() || other->second.empty() || times.empty()) {
      comparison.only_baseline.push_back(name);
    }
  }
  return comparison;
}

std::string RenderComparison(const BackendComparison& comparison,
                             const std::string& candidate_name,
                             const std::string& baseline_name) {
  const std::string limit =
      absl::StrFormat("%.4g%%", 100 * comparison.tolerance);
  std::string text = absl::StrCat(
      "| benchmark | ", candidate_name, " (median) | ", baseline_name,
      " (median) | ratio | within ", limit, " |\n|---|---:|---:|---:|---|\n");
  for (const ComparedBenchmark& b : comparison.compared) {
    absl::StrAppend(
        &text, "| ", b.name, " | ", FormatNanoseconds(b.candidate_median_ns),
        " | ", FormatNanoseconds(b.baseline_median_ns), " | ",
        b.baseline_median_ns > 0 ? absl::StrFormat("%.3f", b.ratio) : "-",
        " | ", b.within ? "yes" : "**no**", " |\n");
  }
  for (const std::string& name : comparison.only_candidate) {
    absl::StrAppend(&text, "\nonly ", candidate_name, " ran ", name);
  }
  for (const std::string& name : comparison.only_baseline) {
    absl::StrAppend(&text, "\nonly ", baseline_name, " ran ", name);
  }
  if (!comparison.only_candidate.empty() || !comparison.only_baseline.empty()) {
    absl::StrAppend(&text, "\n");
  }
  absl::StrAppend(&text, "\n", comparison.compared.size(),
                  " benchmarks compared, ", comparison.beyond(), " beyond ",
                  limit, " of ", baseline_name, "\n");
  return text;
}

}  // namespace mxcts::perf_results
