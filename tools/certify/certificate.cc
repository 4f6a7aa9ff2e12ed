// Copyright mxcts authors.
//
// The certificate of a bundle's run (certificate.h).

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

// A table cell: '|' would end it.
std::string Cell(absl::string_view text) {
  return absl::StrReplaceAll(text, {{"|", "\\|"}, {"\n", " "}});
}

std::string Row(absl::string_view name, const ChapterCounts& c) {
  return absl::StrCat("| ", name, " | ", c.passed, " | ", c.failed, " | ",
                      c.unsupported, " | ", c.expected_failures, " | ",
                      c.crashed, " |\n");
}

}  // namespace

void ChapterCounts::Add(const ChapterCounts& other) {
  passed += other.passed;
  failed += other.failed;
  unsupported += other.unsupported;
  expected_failures += other.expected_failures;
  crashed += other.crashed;
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

absl::StatusOr<RunResults> ReadRunResults(const std::string& dir) {
  const std::string summary_path = dir + "/summary.txt";
  absl::StatusOr<std::string> summary = spec::ReadFile(summary_path);
  if (!summary.ok()) return summary.status();
  RunResults run;
  absl::StatusOr<std::string> capabilities =
      spec::ReadFile(dir + "/capabilities.txt");
  if (capabilities.ok()) run.capabilities = *capabilities;
  int targets = 0;
  for (absl::string_view line : absl::StrSplit(*summary, '\n')) {
    std::vector<absl::string_view> words =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words.size() != 2 || !absl::StartsWith(words[1], "//")) continue;
    const absl::string_view verdict = words[0];
    const std::string label(words[1]);
    if (verdict != "PASSED" && verdict != "FAILED" && verdict != "TIMEOUT") {
      continue;
    }
    ++targets;
    ChapterCounts& counts = run.chapters[ChapterOf(label)];
    const std::string xml = dir + "/" + BinaryNameOf(label) + ".xml";
    std::error_code error;
    if (verdict == "TIMEOUT" || !std::filesystem::exists(xml, error)) {
      ++counts.crashed;
      run.failures.push_back(absl::StrCat(
          label, " (",
          verdict == "TIMEOUT" ? "timed out" : "no results: it crashed",
          "; its log is ", BinaryNameOf(label), ".log)"));
      continue;
    }
    absl::StatusOr<std::vector<spec::TestCaseResult>> cases =
        spec::ReadTestResultsFile(xml);
    if (!cases.ok()) return cases.status();
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
  }
  if (targets == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(summary_path, ": names no test target (expected lines ",
                     "\"PASSED|FAILED|TIMEOUT //label\" from run.sh)"));
  }
  return run;
}

std::string FormatCertificate(const RunResults& run,
                              const CertificateInfo& info) {
  const ChapterCounts totals = run.Totals();
  const bool certified = totals.failed == 0 && totals.crashed == 0;
  std::string page = absl::StrCat(
      "# Conformance certificate: ", info.backend, "\n\n",
      "Written by tools/certify from the results of the suite's bundle run ",
      "on the device (docs/backend-guide.md).\n\n", "| | |\n|---|---|\n",
      "| backend | ", Cell(info.backend), " |\n", "| device | ",
      Cell(info.device), " |\n", "| driver | ", Cell(info.driver), " |\n",
      "| date | ", Cell(info.date), " |\n", "| commit | ", Cell(info.commit),
      " |\n", "| verdict | ",
      certified ? "certified: no unexpected failure, no crash"
                : "not certified: unexpected failures or crashes (below)",
      " |\n\n", "## Test cases per chapter\n\n",
      "| chapter | passed | failed | unsupported | expected failures | "
      "crashed targets |\n",
      "|---|---|---|---|---|---|\n");
  for (const auto& [name, counts] : run.chapters) page += Row(name, counts);
  page += Row("**total**", totals);
  if (!run.failures.empty()) {
    page += "\n## Unexpected failures and crashes\n\n";
    for (const std::string& failure : run.failures) {
      absl::StrAppend(&page, "- ", failure, "\n");
    }
  }
  if (!run.expected.empty()) {
    page += absl::StrCat(
        "\n## Expected failures\n\n",
        "Listed in the backend's expectations file, each with its reason.\n\n",
        "| target | test | reason |\n|---|---|---|\n");
    for (const ExpectedFailure& e : run.expected) {
      absl::StrAppend(&page, "| ", Cell(e.target), " | ", Cell(e.test), " | ",
                      Cell(e.reason), " |\n");
    }
  }
  if (!run.capabilities.empty()) {
    absl::StrAppend(
        &page, "\n## Capability manifest of the run\n\n```\n", run.capabilities,
        absl::EndsWith(run.capabilities, "\n") ? "" : "\n", "```\n");
  }
  return page;
}

}  // namespace mxcts::certify
