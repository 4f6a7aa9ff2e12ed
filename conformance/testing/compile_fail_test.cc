// Copyright mxcts authors.
//
// Tests of the must-not-compile verdict: the passing combination, then each
// way to fail it (the source compiles, the diagnostic does not match, the
// driver crashes, the control does not compile, the pattern is invalid),
// each message naming the file, the pattern and the driver's output; then
// the record format and the XML result, read back by the coverage tools'
// own reader.
#include "conformance/testing/compile_fail.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/string_view.h"
#include "re2/re2.h"
#include "tools/spec/test_results.h"

namespace mxcts::conformance {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kDiagnostic[] =
    "bad.cu:3:1: error: a __global__ function must return void\n";

CompileFailCase PassingCase() {
  return {"bad.cu", {1, kDiagnostic}, "good.cu", {0, ""}, "must return void"};
}

TEST(JudgeCompileFail, RejectedWithMatchingDiagnosticAndCompilingControl) {
  CompileFailVerdict verdict = JudgeCompileFail(PassingCase());
  EXPECT_TRUE(verdict.passed);
  EXPECT_THAT(verdict.message,
              HasSubstr("bad.cu is rejected: bad.cu:3:1: error: a __global__ "
                        "function must return void"));
}

TEST(JudgeCompileFail, SourceThatCompilesFails) {
  CompileFailCase test = PassingCase();
  test.rejected = {0, "note: all fine\n"};
  CompileFailVerdict verdict = JudgeCompileFail(test);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.message,
              AllOf(HasSubstr("bad.cu: the driver must reject it"),
                    HasSubstr("'must return void'"),
                    HasSubstr("The driver printed:\n    note: all fine")));
}

TEST(JudgeCompileFail, NonMatchingDiagnosticFails) {
  CompileFailCase test = PassingCase();
  test.error_pattern = "must not return";
  CompileFailVerdict verdict = JudgeCompileFail(test);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.message,
              AllOf(HasSubstr("bad.cu: the driver rejected it (exit 1), but no "
                              "diagnostic matches 'must not return'"),
                    HasSubstr("    bad.cu:3:1: error: a __global__")));
}

TEST(JudgeCompileFail, PatternIsARegularExpressionSearchedAnywhere) {
  CompileFailCase test = PassingCase();
  test.error_pattern = R"(bad\.cu:\d+:\d+: error: .*return void)";
  EXPECT_TRUE(JudgeCompileFail(test).passed);
  test.error_pattern = R"(^error)";  // control: anchored at the start
  EXPECT_FALSE(JudgeCompileFail(test).passed);
}

TEST(JudgeCompileFail, CrashIsNoDiagnostic) {
  CompileFailCase test = PassingCase();
  test.rejected.exit_code = 139;  // killed by SIGSEGV, as the shell reports it
  CompileFailVerdict verdict = JudgeCompileFail(test);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.message,
              HasSubstr("bad.cu: the driver crashed (killed by signal 11)"));
}

TEST(JudgeCompileFail, ControlThatFailsToCompileFails) {
  CompileFailCase test = PassingCase();
  test.control = {1, "good.cu:1:1: error: oops\n"};
  CompileFailVerdict verdict = JudgeCompileFail(test);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.message,
              AllOf(HasSubstr("good.cu (the control): the driver must compile "
                              "it, but it failed (exit 1)"),
                    HasSubstr("    good.cu:1:1: error: oops")));
}

TEST(JudgeCompileFail, ReportsEveryProblem) {
  CompileFailCase test = PassingCase();
  test.rejected = {0, ""};
  test.control = {1, ""};
  CompileFailVerdict verdict = JudgeCompileFail(test);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(
      verdict.message,
      AllOf(HasSubstr("bad.cu: the driver must reject it"),
            HasSubstr("good.cu (the control)"), HasSubstr("    (nothing)")));
}

TEST(JudgeCompileFail, InvalidPatternFails) {
  CompileFailCase test = PassingCase();
  test.error_pattern = "(unclosed";
  CompileFailVerdict verdict = JudgeCompileFail(test);
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.message,
              HasSubstr("the error pattern '(unclosed' is not a valid RE2"));
}

TEST(ParseCompileRecord, ReadsStatusAndOutput) {
  absl::StatusOr<CompileRecord> record =
      ParseCompileRecord("exit 1\nline one\nline two\n", "r");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->exit_code, 1);
  EXPECT_EQ(record->output, "line one\nline two\n");
  absl::StatusOr<CompileRecord> silent = ParseCompileRecord("exit 0\n", "r");
  ASSERT_TRUE(silent.ok());
  EXPECT_EQ(silent->exit_code, 0);
  EXPECT_EQ(silent->output, "");
}

TEST(ParseCompileRecord, RejectsOtherText) {
  for (const char* text :
       {"", "exit\n", "exit one\n", "status 1\n", "exit -1\n"}) {
    absl::StatusOr<CompileRecord> record = ParseCompileRecord(text, "rec");
    ASSERT_FALSE(record.ok()) << text;
    EXPECT_THAT(std::string(record.status().message()),
                HasSubstr("rec: not a compile record"));
  }
}

std::vector<std::string> OutcomesOf(const std::string& xml) {
  absl::StatusOr<std::vector<spec::TestCaseResult>> results =
      spec::ParseTestResults(xml, "result.xml");
  EXPECT_TRUE(results.ok()) << results.status() << "\n" << xml;
  std::vector<std::string> outcomes;
  if (!results.ok()) return outcomes;
  for (const spec::TestCaseResult& result : *results) {
    outcomes.push_back(result.name + " " +
                       std::string(spec::OutcomeName(result.outcome)));
  }
  return outcomes;
}

bool PointsAt(absl::string_view output, absl::string_view source, int line) {
  return RE2::PartialMatch(std::string(output),
                           RE2(LocationPattern(source, line)));
}

TEST(LocationPattern, MatchesTheFormsCompilersPrint) {
  // GCC and Clang; NVCC's front end; NVCC's instantiation note.
  EXPECT_TRUE(PointsAt("dir/bad.cu:6:5: error: no", "conformance/x/bad.cu", 6));
  EXPECT_TRUE(PointsAt("bad.cu:6: error: no", "bad.cu", 6));
  EXPECT_TRUE(PointsAt("note\n/tmp/a/bad.cu(6): error: no", "bad.cu", 6));
  EXPECT_TRUE(
      PointsAt("  detected during instantiation at line 6 of "
               "/tmp/a/bad.cu",
               "bad.cu", 6));
  EXPECT_TRUE(PointsAt("In file included from bad.cu:3", "bad.cu", 0));
}

TEST(LocationPattern, ControlOtherLinesAndFilesDoNotMatch) {
  EXPECT_FALSE(PointsAt("bad.cu:60:1: error: no", "bad.cu", 6));
  EXPECT_FALSE(PointsAt("bad.cu:16:1: error: no", "bad.cu", 6));
  EXPECT_FALSE(PointsAt("bad.cu(7): error: no", "bad.cu", 6));
  EXPECT_FALSE(PointsAt("notbad.cu:6:1: error: no", "bad.cu", 6));
  EXPECT_FALSE(PointsAt("error: no file named", "bad.cu", 0));
  // A dot in the name is a dot, not any character.
  EXPECT_FALSE(PointsAt("badxcu:6:1: error", "bad.cu", 6));
}

TEST(LocationPattern, JudgesARejectionInOtherWords) {
  const CompileFailCase test = {
      "bad.cu",
      {1, "bad.cu(6): error: something else entirely"},
      "good.cu",
      {0, ""},
      LocationPattern("bad.cu", 6)};
  EXPECT_TRUE(JudgeCompileFail(test).passed);
  CompileFailCase elsewhere = test;
  elsewhere.rejected.output = "bad.cu(2): error: an unrelated mistake";
  EXPECT_FALSE(JudgeCompileFail(elsewhere).passed);
}

TEST(SingleCaseResultXml, PassingCaseReadsBackWithItsClauses) {
  std::string xml = SingleCaseResultXml("MustNotCompile", "shared_init",
                                        "lang.a lang.b", false, "");
  EXPECT_THAT(OutcomesOf(xml),
              ElementsAre("MustNotCompile.shared_init passed"));
  absl::StatusOr<std::vector<spec::TestCaseResult>> results =
      spec::ParseTestResults(xml, "result.xml");
  ASSERT_TRUE(results.ok());
  EXPECT_THAT((*results)[0].spec_clauses, ElementsAre("lang.a", "lang.b"));
  EXPECT_THAT(xml, Not(HasSubstr("<failure")));
}

TEST(SingleCaseResultXml, FailingCaseKeepsItsMessageEscaped) {
  std::string xml = SingleCaseResultXml("MustNotCompile", "t", "", true,
                                        "a<b> & \"c\"\n    printed");
  EXPECT_THAT(OutcomesOf(xml), ElementsAre("MustNotCompile.t failed"));
  absl::StatusOr<std::vector<spec::TestCaseResult>> results =
      spec::ParseTestResults(xml, "result.xml");
  ASSERT_TRUE(results.ok());
  EXPECT_THAT((*results)[0].message, HasSubstr("a<b> & \"c\""));
  EXPECT_TRUE((*results)[0].spec_clauses.empty());
}

TEST(SkippedCaseResultXml, UnsupportedCaseReadsBackAsUnsupported) {
  std::string xml = SkippedCaseResultXml(
      "MustNotCompile", "launch", "api.a",
      "unsupported: the backend claims dynamic_parallelism");
  EXPECT_THAT(OutcomesOf(xml),
              ElementsAre("MustNotCompile.launch unsupported"));
  absl::StatusOr<std::vector<spec::TestCaseResult>> results =
      spec::ParseTestResults(xml, "result.xml");
  ASSERT_TRUE(results.ok());
  EXPECT_THAT((*results)[0].spec_clauses, ElementsAre("api.a"));
}

}  // namespace
}  // namespace mxcts::conformance
