// Copyright mxcts authors.
//
// Reads Google Benchmark's JSON (benchmark_json.h). The format is
// Google Benchmark 1.7's JSON reporter: a "context" object and a
// "benchmarks" array whose entries are either repetitions (run_type
// "iteration", with repetition_index) or aggregates (run_type "aggregate"),
// each with real_time, cpu_time, time_unit, iterations and its user
// counters as further numeric members. Entries are grouped by run_name (the
// name without an aggregate's suffix) in the order they first appear. An
// entry without run_type (an old reporter, or a run without repetitions) is
// a repetition of index 0.
//
// Tested by benchmark_json_test.cc.

#include "tools/perf_results/benchmark_json.h"

#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace mxcts::perf_results {
namespace {

using nlohmann::json;

// Members of a benchmark entry that are not user counters.
const std::set<std::string>& StandardMembers() {
  static const auto* members =
      new std::set<std::string>{"name",
                                "family_index",
                                "per_family_instance_index",
                                "run_name",
                                "run_type",
                                "repetitions",
                                "repetition_index",
                                "threads",
                                "iterations",
                                "real_time",
                                "cpu_time",
                                "time_unit",
                                "aggregate_name",
                                "aggregate_unit",
                                "error_occurred",
                                "error_message",
                                "label",
                                "big_o",
                                "rms",
                                "complexity_n"};
  return *members;
}

absl::StatusOr<double> NanosecondsPerUnit(const std::string& unit) {
  if (unit == "ns") return 1.0;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown time_unit \"", unit, "\""));
}

absl::StatusOr<double> NumberMember(const json& entry, const char* member,
                                    const std::string& name) {
  auto it = entry.find(member);
  if (it == entry.end() || !it->is_number()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "benchmark \"", name, "\" has no numeric \"", member, "\""));
  }
  return it->get<double>();
}

}  // namespace

bool IsRatioCounter(absl::string_view name) {
  // A word of its own: "ns_per_thread_operation" holds "ratio" too.
  return absl::StartsWith(name, "ratio_") || absl::StrContains(name, "_ratio_");
}

absl::StatusOr<BenchmarkReport> ParseBenchmarkJson(absl::string_view text) {
  json document = json::parse(text.begin(), text.end(), nullptr,
                              /*allow_exceptions=*/false);
  if (document.is_discarded() || !document.is_object()) {
    return absl::InvalidArgumentError("not a JSON object");
  }
  BenchmarkReport report;
  if (auto context = document.find("context");
      context != document.end() && context->is_object()) {
    report.context.date = context->value("date", "");
    report.context.host_name = context->value("host_name", "");
    report.context.num_cpus = context->value("num_cpus", 0);
    report.context.mhz_per_cpu = context->value("mhz_per_cpu", 0.0);
  }
  auto benchmarks = document.find("benchmarks");
  if (benchmarks == document.end() || !benchmarks->is_array()) {
    return absl::InvalidArgumentError("no \"benchmarks\" array");
  }
  absl::flat_hash_map<std::string, size_t> position;
  for (const json& entry : *benchmarks) {
    if (!entry.is_object() || !entry.contains("name") ||
        !entry["name"].is_string()) {
      return absl::InvalidArgumentError("a benchmark entry has no \"name\"");
    }
    const std::string name =
        entry.value("run_name", entry["name"].get<std::string>());
    if (entry.value("error_occurred", false)) {
      report.errors.push_back(
          absl::StrCat(name, ": ", entry.value("error_message", "error")));
      continue;
    }
    if (entry.value("run_type", "iteration") != "iteration") continue;

    Repetition repetition;
    repetition.index = entry.value("repetition_index", 0);
    absl::StatusOr<double> unit =
        NanosecondsPerUnit(entry.value("time_unit", "ns"));
    if (!unit.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("benchmark \"", name, "\": ", unit.status().message()));
    }
    absl::StatusOr<double> real = NumberMember(entry, "real_time", name);
    if (!real.ok()) return real.status();
    absl::StatusOr<double> cpu = NumberMember(entry, "cpu_time", name);
    if (!cpu.ok()) return cpu.status();
    repetition.real_time_ns = *real * *unit;
    repetition.cpu_time_ns = *cpu * *unit;
    repetition.iterations = entry.value("iterations", int64_t{0});
    for (auto member = entry.begin(); member != entry.end(); ++member) {
      if (StandardMembers().count(member.key()) != 0) continue;
      if (member->is_number() && IsRatioCounter(member.key())) {
        repetition.ratios[member.key()] = member->get<double>();
      }
    }

    auto [it, inserted] = position.try_emplace(name, report.results.size());
    if (inserted) report.results.push_back(BenchmarkResult{name, {}});
    BenchmarkResult& result = report.results[it->second];
    for (const Repetition& earlier : result.repetitions) {
      if (earlier.index == repetition.index) {
        return absl::InvalidArgumentError(
            absl::StrCat("benchmark \"", name, "\" has repetition ",
                         repetition.index, " twice"));
      }
    }
    result.repetitions.push_back(std::move(repetition));
  }
  return report;
}

}  // namespace mxcts::perf_results
