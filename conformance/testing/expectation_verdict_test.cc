// Copyright mxcts authors.
//
// Tests of the expectation runner's verdict, one rule per test, each with
// the run that the rule lets pass beside the one it fails.
#include "conformance/testing/expectation_verdict.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::conformance {
namespace {

using spec::Outcome;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;

constexpr char kFile[] = "conformance/expectations/fake.txt";

spec::TestCaseResult Case(const std::string& name, Outcome outcome) {
  spec::TestCaseResult result;
  result.name = name;
  result.outcome = outcome;
  return result;
}

Expectation Entry(const std::string& test, int line) {
  return {"//conformance/api:t", test, "the backend lacks it", line};
}

TestRun MakeRun(int exit_code, std::vector<spec::TestCaseResult> cases) {
  TestRun run;
  run.exit_code = exit_code;
  run.cases = std::move(cases);
  return run;
}

TEST(JudgeTestRun, AllPassingWithNothingListedPasses) {
  Verdict verdict = JudgeTestRun(MakeRun(0, {Case("S.A", Outcome::kPassed),
                                             Case("S.B", Outcome::kPassed)}),
                                 {}, kFile);
  EXPECT_TRUE(verdict.passed);
  EXPECT_THAT(verdict.lines, Contains(HasSubstr("PASSED: 2 test cases")));
}

TEST(JudgeTestRun, ListedFailureIsKnownAndPasses) {
  Verdict verdict = JudgeTestRun(MakeRun(1, {Case("S.A", Outcome::kPassed),
                                             Case("S.B", Outcome::kFailed)}),
                                 {Entry("S.B", 7)}, kFile);
  EXPECT_TRUE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains("KNOWN FAILURE: S.B (the backend lacks it) "
                       "[conformance/expectations/fake.txt:7]"));
}

TEST(JudgeTestRun, UnlistedFailureFails) {
  Verdict verdict = JudgeTestRun(MakeRun(1, {Case("S.A", Outcome::kFailed),
                                             Case("S.B", Outcome::kFailed)}),
                                 {Entry("S.B", 7)}, kFile);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains(AllOf(HasSubstr("FAILED: S.A is not a known failure"),
                             HasSubstr(kFile))));
  EXPECT_THAT(verdict.lines, Contains(HasSubstr("KNOWN FAILURE: S.B")));
}

TEST(JudgeTestRun, ListedTestThatPassesFailsAsUnexpectedPass) {
  Verdict verdict = JudgeTestRun(MakeRun(0, {Case("S.B", Outcome::kPassed)}),
                                 {Entry("S.B", 7)}, kFile);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains("unexpected pass: S.B passes; remove it from "
                       "conformance/expectations/fake.txt (line 7)"));
}

TEST(JudgeTestRun, ListedTestThatDidNotRunIsStale) {
  Verdict verdict = JudgeTestRun(MakeRun(0, {Case("S.A", Outcome::kPassed)}),
                                 {Entry("S.Renamed", 3)}, kFile);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains(HasSubstr("stale expectation: S.Renamed is listed at "
                                 "conformance/expectations/fake.txt:3 but did "
                                 "not run")));
}

TEST(JudgeTestRun, ListedTestMissingFromAPartialRunIsIgnored) {
  TestRun run = MakeRun(0, {Case("S.A", Outcome::kPassed)});
  run.partial = true;
  EXPECT_TRUE(JudgeTestRun(run, {Entry("S.Filtered", 3)}, kFile).passed);
  // Control: a listed test that did run is still judged in a partial run.
  EXPECT_FALSE(JudgeTestRun(run, {Entry("S.A", 3)}, kFile).passed);
}

TEST(JudgeTestRun, ListedTestThatWasSkippedIsStale) {
  Verdict verdict =
      JudgeTestRun(MakeRun(0, {Case("S.B", Outcome::kUnsupported)}),
                   {Entry("S.B", 4)}, kFile);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains(HasSubstr("S.B is listed at "
                                 "conformance/expectations/fake.txt:4 but was "
                                 "unsupported")));
}

TEST(JudgeTestRun, UnlistedSkipsAndUnsupportedPass) {
  EXPECT_TRUE(JudgeTestRun(MakeRun(0, {Case("S.A", Outcome::kSkipped),
                                       Case("S.B", Outcome::kUnsupported),
                                       Case("S.C", Outcome::kDisabled)}),
                           {}, kFile)
                  .passed);
}

TEST(JudgeTestRun, CrashFailsEvenWithEveryFailureListed) {
  TestRun run = MakeRun(0, {Case("S.B", Outcome::kFailed)});
  run.signal = 11;
  Verdict verdict = JudgeTestRun(run, {Entry("S.B", 7)}, kFile);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains(HasSubstr("killed by signal 11; a crash is never a "
                                 "known failure")));
}

// Case isolation reported S.C's crash as its failure and ran the rest: the
// crash is never excused, the other cases are judged as usual.
TEST(JudgeTestRun, AbortedCaseFailsEvenWhenListedAndOthersAreJudged) {
  TestRun run =
      MakeRun(1, {Case("S.A", Outcome::kPassed), Case("S.B", Outcome::kFailed),
                  Case("S.C", Outcome::kFailed)});
  run.aborted = {{"S.C", "crashed: SIGSEGV (signal 11)", ""}};
  Verdict verdict =
      JudgeTestRun(run, {Entry("S.B", 7), Entry("S.C", 8)}, kFile);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains("FAILED: S.C crashed: SIGSEGV (signal 11); a crash or "
                       "hang is never a known failure"));
  EXPECT_THAT(verdict.lines, Contains(HasSubstr("KNOWN FAILURE: S.B")));
  EXPECT_THAT(verdict.lines, Contains(HasSubstr("3 test cases, 2 failing, 1 "
                                                "of them known, 1 problem")));
}

// Control: the same run with S.C failing by an assertion passes.
TEST(JudgeTestRun, SameRunWithoutTheAbortPasses) {
  TestRun run =
      MakeRun(1, {Case("S.A", Outcome::kPassed), Case("S.B", Outcome::kFailed),
                  Case("S.C", Outcome::kFailed)});
  Verdict verdict =
      JudgeTestRun(run, {Entry("S.B", 7), Entry("S.C", 8)}, kFile);
  EXPECT_TRUE(verdict.passed);
}

TEST(JudgeTestRun, HangOutsideAnyCaseFails) {
  TestRun run = MakeRun(0, {Case("S.A", Outcome::kPassed)});
  run.timed_out = true;
  run.timeout_seconds = 30;
  Verdict verdict = JudgeTestRun(run, {}, kFile);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains(HasSubstr("made no progress for 30 s outside any test "
                                 "case")));
}

TEST(JudgeTestRun, MissingResultFails) {
  TestRun run;
  run.exit_code = 1;
  run.missing_result_reason = "no such file";
  Verdict verdict = JudgeTestRun(run, {}, kFile);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains(HasSubstr("left no readable result: no such file")));
}

TEST(JudgeTestRun, NonZeroExitWithoutFailingCaseFails) {
  Verdict verdict =
      JudgeTestRun(MakeRun(3, {Case("S.A", Outcome::kPassed)}), {}, kFile);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.lines,
              Contains(HasSubstr("exited with status 3 but its result shows "
                                 "no failing test")));
}

}  // namespace
}  // namespace mxcts::conformance
