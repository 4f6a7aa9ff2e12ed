// Tests the counting of a test run over hand-made cases; the XML side is
// test_results_test.cc's and tools/test_summary_test.sh's.
#include "tools/results_summary/summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::results_summary {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

spec::TestCaseResult Case(const std::string& name, spec::Outcome outcome,
                          const std::string& expectation = "") {
  spec::TestCaseResult result;
  result.name = name;
  result.outcome = outcome;
  result.expectation = expectation;
  result.file = "logs/" + name + "/test.xml";
  return result;
}

TEST(SummarizeTests, CountsEachOutcomeOnce) {
  TestSummary summary = SummarizeTests({
      Case("S.Passes", spec::Outcome::kPassed),
      Case("S.Fails", spec::Outcome::kFailed),
      Case("S.Skips", spec::Outcome::kSkipped),
      Case("S.Unsupported", spec::Outcome::kUnsupported),
      Case("S.DISABLED_Planned", spec::Outcome::kDisabled),
  });
  EXPECT_EQ(summary.passed, 1);
  EXPECT_EQ(summary.failed, 1);
  EXPECT_EQ(summary.skipped, 3);
  EXPECT_EQ(summary.known_failures, 0);
  EXPECT_THAT(summary.failure_lines,
              ElementsAre("FAILED: S.Fails  (logs/S.Fails/test.xml)"));
}

TEST(SummarizeTests, KnownFailureCountsApartFromFailures) {
  TestSummary summary = SummarizeTests({
      Case("S.Listed", spec::Outcome::kFailed, "known failure: one device"),
      // Control: another expectation text is not a known failure.
      Case("S.Other", spec::Outcome::kFailed, "flaky"),
  });
  EXPECT_EQ(summary.known_failures, 1);
  EXPECT_EQ(summary.failed, 1);
  EXPECT_THAT(summary.failure_lines,
              ElementsAre("KNOWN FAILURE: S.Listed  (logs/S.Listed/test.xml)",
                          "FAILED: S.Other  (logs/S.Other/test.xml)"));
}

TEST(SummarizeTests, CrashedCaseIsAFailureNamedWithHowItEnded) {
  spec::TestCaseResult crashed = Case("S.Crashes", spec::Outcome::kFailed);
  crashed.aborted = "crashed: SIGSEGV (signal 11)";
  TestSummary summary = SummarizeTests({
      crashed,
      // Control: an ordinary failure is not counted as crashed.
      Case("S.Fails", spec::Outcome::kFailed),
  });
  EXPECT_EQ(summary.failed, 2);
  EXPECT_EQ(summary.aborted, 1);
  EXPECT_THAT(summary.failure_lines,
              ElementsAre("FAILED: S.Crashes crashed: SIGSEGV (signal 11)  "
                          "(logs/S.Crashes/test.xml)",
                          "FAILED: S.Fails  (logs/S.Fails/test.xml)"));
  EXPECT_EQ(
      FormatSummary(summary).substr(FormatSummary(summary).rfind("tests:")),
      "tests: 0 passed, 2 failed, 0 skipped, 1 crashed or hung\n");
}

TEST(SummarizeTests, ListedCaseThatPassesCountsAsPassed) {
  TestSummary summary = SummarizeTests(
      {Case("S.Fixed", spec::Outcome::kPassed, "known failure: was broken")});
  EXPECT_EQ(summary.passed, 1);
  EXPECT_EQ(summary.known_failures, 0);
  EXPECT_THAT(summary.failure_lines, IsEmpty());
}

TEST(FormatSummary, AddsKnownFailuresOnlyWhenThereAreAny) {
  TestSummary summary;
  summary.passed = 2;
  summary.failed = 1;
  summary.skipped = 3;
  summary.failure_lines = {"FAILED: S.F  (f.xml)"};
  EXPECT_EQ(FormatSummary(summary),
            "FAILED: S.F  (f.xml)\ntests: 2 passed, 1 failed, 3 skipped\n");
  summary.known_failures = 4;
  EXPECT_EQ(FormatSummary(summary),
            "FAILED: S.F  (f.xml)\n"
            "tests: 2 passed, 1 failed, 3 skipped, 4 known failures\n");
}

}  // namespace
}  // namespace mxcts::results_summary
