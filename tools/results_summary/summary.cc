// Counting a test run. The outcome of each case comes from test_results
// (failure first, then notrun, then skip); this file only decides which count
// it joins. A known failure is still a failure in the XML, so the
// expectation attribute is checked only for failed cases: a listed case that
// passes counts as passed here (the expectation runner reports it as
// unexpectedly passing).
//
// Tested by summary_test.cc and tools/test_summary_test.sh.
#include "tools/results_summary/summary.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace mxcts::results_summary {

TestSummary SummarizeTests(const std::vector<spec::TestCaseResult>& cases) {
  TestSummary summary;
  for (const spec::TestCaseResult& result : cases) {
    switch (result.outcome) {
      case spec::Outcome::kFailed:
        if (absl::StartsWith(result.expectation, "known failure")) {
          ++summary.known_failures;
          summary.failure_lines.push_back(absl::StrCat(
              "KNOWN FAILURE: ", result.name, "  (", result.file, ")"));
        } else {
          ++summary.failed;
          if (!result.aborted.empty()) ++summary.aborted;
          summary.failure_lines.push_back(absl::StrCat(
              "FAILED: ", result.name, result.aborted.empty() ? "" : " ",
              result.aborted, "  (", result.file, ")"));
        }
        break;
      case spec::Outcome::kSkipped:
      case spec::Outcome::kUnsupported:
      case spec::Outcome::kDisabled:
        ++summary.skipped;
        break;
      case spec::Outcome::kPassed:
        ++summary.passed;
        break;
    }
  }
  return summary;
}

std::string FormatSummary(const TestSummary& summary) {
  std::string out;
  for (const std::string& line : summary.failure_lines) {
    absl::StrAppend(&out, line, "\n");
  }
  absl::StrAppend(&out, "tests: ", summary.passed, " passed, ", summary.failed,
                  " failed, ", summary.skipped, " skipped");
  if (summary.known_failures > 0) {
    absl::StrAppend(&out, ", ", summary.known_failures, " known failures");
  }
  if (summary.aborted > 0) {
    absl::StrAppend(&out, ", ", summary.aborted, " crashed or hung");
  }
  out += "\n";
  return out;
}

}  // namespace mxcts::results_summary
