// -----------------------------------------------------------------------------
// File: summary.h
// -----------------------------------------------------------------------------
//
// One summary of a test run: every case of Bazel's test results counted as
// passed, failed, skipped or known failure, and each failure named with the
// file it came from. tools/test_summary prints it; the classification of a
// single case is tools/spec/test_results' (the one reader of test XML).
//
// Example:
//
//   absl::StatusOr<std::vector<spec::TestCaseResult>> cases =
//       spec::ReadTestResultsDir("bazel-testlogs");
//   if (!cases.ok()) return cases.status();
//   TestSummary summary = SummarizeTests(*cases);
//   std::cout << FormatSummary(summary);  // ends "tests: 3 passed, ..."
//   return summary.failed > 0 ? 1 : 0;
#ifndef MXCTS_TOOLS_RESULTS_SUMMARY_SUMMARY_H_
#define MXCTS_TOOLS_RESULTS_SUMMARY_SUMMARY_H_

#include <string>
#include <vector>

#include "tools/spec/test_results.h"

namespace mxcts::results_summary {

struct TestSummary {
  int passed = 0;
  // Failed cases the backend's expectations do not list.
  int failed = 0;
  // Skipped, unsupported and disabled (GoogleTest's DISABLED_) cases.
  int skipped = 0;
  // Failed cases whose expectation attribute starts with "known failure"
  // (set by the conformance expectation runner); they do not fail a run.
  int known_failures = 0;
  // Failed cases that crashed, hung or exited their test binary (the
  // expectation runner's case isolation marks them); counted in `failed`.
  int aborted = 0;
  // One line per failed or known-failed case, in the order read:
  // "FAILED: Suite.Name  (path/test.xml)",
  // "FAILED: Suite.Name crashed: SIGSEGV (signal 11)  (path/test.xml)" or
  // "KNOWN FAILURE: Suite.Name  (path/test.xml)".
  std::vector<std::string> failure_lines;
};

// Counts `cases` (see TestSummary for how each outcome is counted).
TestSummary SummarizeTests(const std::vector<spec::TestCaseResult>& cases);

// Returns the failure lines, then the count line
// "tests: N passed, N failed, N skipped" with ", N known failures" and
// ", N crashed or hung" appended when there are any; every line ends in
// "\n".
std::string FormatSummary(const TestSummary& summary);

}  // namespace mxcts::results_summary

#endif  // MXCTS_TOOLS_RESULTS_SUMMARY_SUMMARY_H_
