// Copyright mxcts authors.
//
// The results of a package's run (certificate.h).

#include "tools/certify/certificate.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tools/spec/file_io.h"
#include "tools/spec/test_results.h"

namespace mxcts::certify {
namespace {

constexpr absl::string_view kKnownFailure = "known failure: ";

}  // namespace

void ChapterCounts::Add(const ChapterCounts& other) {
  passed += other.passed;
  failed += other.failed;
  unsupported += other.unsupported;
  expected_failures += other.expected_failures;
  crashed += other.crashed;
  missing += other.missing;
}

ChapterCounts RunResults::Totals() const {
  ChapterCounts totals;
  for (const auto& [name, counts] : chapters) totals.Add(counts);
  return totals;
}

std::string ChapterOf(absl::string_view label) {
  absl::string_view rest = label;
  if (!absl::ConsumePrefix(&rest, "//conformance/")) return "";
  rest = rest.substr(0, rest.find(':'));
  std::vector<absl::string_view> parts = absl::StrSplit(rest, '/');
  if (parts.size() < 2) return std::string(parts[0]);
  return absl::StrCat(parts[0], "/", parts[1]);
}

std::string BinaryNameOf(absl::string_view label) {
  absl::string_view rest = label;
  absl::ConsumePrefix(&rest, "//");
  const size_t colon = rest.find(':');
  if (colon == absl::string_view::npos) return "";
  return absl::StrCat(absl::StrReplaceAll(rest.substr(0, colon), {{"/", "_"}}),
                      "__", rest.substr(colon + 1));
}

absl::StatusOr<std::vector<TargetVerdict>> ReadRunSummary(
    const std::string& dir) {
  const std::string summary_path = dir + "/summary.txt";
  absl::StatusOr<std::string> summary = spec::ReadFile(summary_path);
  if (!summary.ok()) return summary.status();
  std::vector<TargetVerdict> targets;
  for (absl::string_view line : absl::StrSplit(*summary, '\n')) {
    std::vector<absl::string_view> words =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words.size() != 2 || !absl::StartsWith(words[1], "//")) continue;
    if (words[0] != "PASSED" && words[0] != "FAILED" && words[0] != "TIMEOUT") {
      continue;
    }
    targets.push_back({std::string(words[0]), std::string(words[1])});
  }
  if (targets.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(summary_path, ": names no test target (expected lines ",
                     "\"PASSED|FAILED|TIMEOUT //label\" from run.sh)"));
  }
  return targets;
}

absl::StatusOr<RunResults> ReadRunResults(const std::string& dir) {
  absl::StatusOr<std::vector<TargetVerdict>> targets = ReadRunSummary(dir);
  if (!targets.ok()) return targets.status();
  RunResults run;
  absl::StatusOr<std::string> capabilities =
      spec::ReadFile(dir + "/capabilities.txt");
  if (capabilities.ok()) run.capabilities = *capabilities;
  for (const TargetVerdict& target : *targets) {
    const absl::string_view verdict = target.verdict;
    const std::string& label = target.label;
    ChapterCounts& counts = run.chapters[ChapterOf(label)];
    run.reported_cases[label] = 0;
    const std::string xml = dir + "/" + BinaryNameOf(label) + ".xml";
    std::error_code error;
    if (verdict == "TIMEOUT" || !std::filesystem::exists(xml, error)) {
      ++counts.crashed;
      run.crashed_targets.insert(label);
      run.failures.push_back(absl::StrCat(
          label, " (",
          verdict == "TIMEOUT" ? "timed out" : "no results: it crashed",
          "; its log is ", BinaryNameOf(label), ".log)"));
      continue;
    }
    absl::StatusOr<std::vector<spec::TestCaseResult>> cases =
        spec::ReadTestResultsFile(xml);
    if (!cases.ok()) return cases.status();
    run.reported_cases[label] = static_cast<int>(cases->size());
    const size_t failures_before = run.failures.size();
    for (const spec::TestCaseResult& c : *cases) {
      switch (c.outcome) {
        case spec::Outcome::kPassed:
          ++counts.passed;
          break;
        case spec::Outcome::kFailed: {
          absl::string_view reason = c.expectation;
          if (absl::ConsumePrefix(&reason, kKnownFailure)) {
            ++counts.expected_failures;
            run.expected.push_back({label, c.name, std::string(reason)});
          } else {
            ++counts.failed;
            run.failures.push_back(absl::StrCat(
                c.name, " (", label, ")",
                c.aborted.empty() ? "" : absl::StrCat(": ", c.aborted)));
          }
          break;
        }
        case spec::Outcome::kSkipped:
        case spec::Outcome::kUnsupported:
        case spec::Outcome::kDisabled:
          ++counts.unsupported;
          break;
      }
    }
    // The expectation runner also fails a target for a listed case that
    // passed or did not run (docs/backend-guide.md): its XML shows no
    // unexpected failure, yet the target failed, and so must the run.
    if (verdict == "FAILED" && run.failures.size() == failures_before) {
      run.failures.push_back(absl::StrCat(
          label,
          " (failed with no unexpected case failure: a listed case passed "
          "or did not run; its log is ",
          BinaryNameOf(label), ".log)"));
    }
  }
  return run;
}

}  // namespace mxcts::certify
