// Copyright mxcts authors.
//
// The merge of case isolation's results (the processes are tested by
// case_isolation_cli_test.sh).
#include "conformance/testing/merged_results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tools/spec/test_results.h"

namespace mxcts::conformance {
namespace {

using spec::Outcome;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kFirst[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="2" failures="1" disabled="0" errors="0" time="0.1" timestamp="2026-11-27T10:00:00" name="AllTests">
  <testsuite name="S" tests="2" failures="1" disabled="0" skipped="0" errors="0" time="0.1">
    <testcase name="A" status="run" result="completed" time="0.05" classname="S">
      <properties><property name="spec" value="api.x.y"/></properties>
    </testcase>
    <testcase name="B" status="run" result="completed" time="0.05" classname="S">
      <failure message="a.cc:3&#x0A;wrong" type=""><![CDATA[a.cc:3
wrong]]></failure>
    </testcase>
  </testsuite>
</testsuites>
)";

constexpr char kSecond[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="2" failures="0" disabled="1" errors="0" time="0" name="AllTests">
  <testsuite name="T" tests="2" failures="0" disabled="1" skipped="0" errors="0" time="0">
    <testcase name="D" status="run" result="skipped" time="0" classname="T">
      <skipped message="unsupported: ipc"/>
    </testcase>
    <testcase name="DISABLED_E" status="notrun" result="suppressed" time="0" classname="T"/>
  </testsuite>
</testsuites>
)";

std::vector<spec::TestCaseResult> Parse(const std::string& xml) {
  absl::StatusOr<std::vector<spec::TestCaseResult>> cases =
      spec::ParseTestResults(xml, "merged.xml");
  EXPECT_TRUE(cases.ok()) << cases.status();
  return cases.ok() ? *cases : std::vector<spec::TestCaseResult>();
}

TEST(MergeResults, KeepsEveryCaseInTheListingsOrderWithTheAbortedOnes) {
  absl::StatusOr<std::string> merged = MergeResults(
      {kSecond, kFirst}, {"S.A", "S.C", "S.B", "T.D", "T.DISABLED_E"},
      {{"S.C", "crashed: SIGSEGV (signal 11)", "about to fault", 1.5}});
  ASSERT_TRUE(merged.ok()) << merged.status();
  const std::vector<spec::TestCaseResult> cases = Parse(*merged);
  ASSERT_EQ(cases.size(), 5u);
  std::vector<std::string> names;
  for (const auto& c : cases) names.push_back(c.name);
  EXPECT_THAT(names, ElementsAre("S.A", "S.C", "S.B", "T.D", "T.DISABLED_E"));
  EXPECT_EQ(cases[0].outcome, Outcome::kPassed);
  EXPECT_THAT(cases[0].spec_clauses, ElementsAre("api.x.y"));
  EXPECT_EQ(cases[1].outcome, Outcome::kFailed);
  EXPECT_EQ(cases[1].message, "crashed: SIGSEGV (signal 11)");
  EXPECT_EQ(cases[1].aborted, "crashed: SIGSEGV (signal 11)");
  EXPECT_EQ(cases[2].aborted, "");  // control: an ordinary failure
  EXPECT_EQ(cases[2].outcome, Outcome::kFailed);
  EXPECT_EQ(cases[3].outcome, Outcome::kUnsupported);
  EXPECT_EQ(cases[4].outcome, Outcome::kDisabled);
  EXPECT_THAT(*merged, HasSubstr("about to fault"));
  EXPECT_THAT(*merged, HasSubstr("time=\"1.500\""));
}

TEST(MergeResults, RecountsTheSuitesAndTheRoot) {
  absl::StatusOr<std::string> merged = MergeResults(
      {kFirst, kSecond}, {}, {{"T.Hangs", "timed out after 30 s", ""}});
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_THAT(*merged, HasSubstr("<testsuites tests=\"5\" failures=\"2\" "
                                 "disabled=\"1\" skipped=\"1\""));
  EXPECT_THAT(*merged, HasSubstr("<testsuite name=\"T\" tests=\"3\" "
                                 "failures=\"1\" disabled=\"1\" "
                                 "skipped=\"1\""));
  EXPECT_THAT(*merged, HasSubstr("timestamp=\"2026-11-27T10:00:00\""));
}

// Output with characters XML cannot hold, or with the end of a CDATA
// section, still gives a readable document.
TEST(MergeResults, EscapesTheAbortedCasesOutput) {
  absl::StatusOr<std::string> merged = MergeResults(
      {}, {"S.A"}, {{"S.A", "crashed: SIGABRT (signal 6)", "x\x01y ]]> z"}});
  ASSERT_TRUE(merged.ok()) << merged.status();
  const std::vector<spec::TestCaseResult> cases = Parse(*merged);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].outcome, Outcome::kFailed);
}

TEST(MergeResults, NamesABrokenResult) {
  absl::StatusOr<std::string> merged =
      MergeResults({kFirst, "<testsuites><oops"}, {}, {});
  ASSERT_FALSE(merged.ok());
  EXPECT_THAT(merged.status().message(), HasSubstr("result 2"));
}

TEST(ResultFromConsole, GivesEachEndedCaseItsOutcome) {
  const std::string xml = ResultFromConsole(
      {{"S.A", "OK"}, {"S.B", "FAILED"}, {"P/T.C/2", "SKIPPED"}},
      "lost with the process");
  const std::vector<spec::TestCaseResult> cases = Parse(xml);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].name, "S.A");
  EXPECT_EQ(cases[0].outcome, Outcome::kPassed);
  EXPECT_EQ(cases[1].outcome, Outcome::kFailed);
  EXPECT_EQ(cases[1].message, "lost with the process");
  EXPECT_EQ(cases[2].name, "P/T.C/2");
  // The skip's message is not in the end marker.
  EXPECT_EQ(cases[2].outcome, Outcome::kSkipped);
  // It merges like any result, with an abort outside any case.
  absl::StatusOr<std::string> merged = MergeResults(
      {xml}, {}, {{"OutsideCases.BetweenCases", "crashed: SIGSEGV", "", 0}});
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(Parse(*merged).size(), 4u);
}

}  // namespace
}  // namespace mxcts::conformance
