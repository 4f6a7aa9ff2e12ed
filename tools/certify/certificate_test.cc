// Copyright mxcts authors.

#include "tools/certify/certificate.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/spec/file_io.h"

namespace mxcts::certify {
namespace {

using ::testing::HasSubstr;

// A results directory as run.sh writes it, in the test's scratch space.
class RunDirectory : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(std::getenv("TEST_TMPDIR")) + "/" +
           testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void Write(const std::string& name, const std::string& text) {
    ASSERT_TRUE(spec::WriteFileAtomically(dir_ + "/" + name, text).ok());
  }
  std::string dir_;
};

constexpr char kStreamXml[] = R"(<?xml version="1.0"?>
<testsuites><testsuite name="S">
<testcase name="Passes" classname="S"/>
<testcase name="Fails" classname="S"><failure message="boom"/></testcase>
<testcase name="Known" classname="S" expectation="known failure: the warp is 32 lanes"><failure message="32 vs 64"/></testcase>
<testcase name="Skipped" classname="S"><skipped message="unsupported: no peer access"/></testcase>
</testsuite></testsuites>
)";

constexpr char kEventXml[] = R"(<?xml version="1.0"?>
<testsuites><testsuite name="E">
<testcase name="A" classname="E"/>
<testcase name="B" classname="E"/>
</testsuite></testsuites>
)";

TEST(ChapterOf, IsTheFirstTwoPartsBelowConformance) {
  EXPECT_EQ(ChapterOf("//conformance/api/stream/validation:x_test"),
            "api/stream");
  EXPECT_EQ(ChapterOf("//conformance/language/fp16/execution:y"),
            "language/fp16");
  EXPECT_EQ(ChapterOf("//reference/runtime:z"), "");  // control
}

TEST(BinaryNameOf, FlattensThePackage) {
  EXPECT_EQ(BinaryNameOf("//conformance/api/stream/validation:x_test"),
            "conformance_api_stream_validation__x_test");
  EXPECT_EQ(BinaryNameOf("no_colon"), "");
}

TEST_F(RunDirectory, CountsEachChapterAndKeepsExpectedFailuresApart) {
  Write("summary.txt",
        "FAILED //conformance/api/stream/validation:s_test\n"
        "PASSED //conformance/api/event/execution:e_test\n"
        "passed: 1\nfailed: 1\ntimed out: 0\n");
  Write("conformance_api_stream_validation__s_test.xml", kStreamXml);
  Write("conformance_api_event_execution__e_test.xml", kEventXml);
  Write("capabilities.txt", "device_count 1\n");
  absl::StatusOr<RunResults> run = ReadRunResults(dir_);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->chapters.size(), 2u);
  const ChapterCounts& stream = run->chapters.at("api/stream");
  EXPECT_EQ(stream.passed, 1);
  EXPECT_EQ(stream.failed, 1);
  EXPECT_EQ(stream.expected_failures, 1);
  EXPECT_EQ(stream.unsupported, 1);
  EXPECT_EQ(stream.crashed, 0);
  EXPECT_EQ(run->chapters.at("api/event").passed, 2);
  EXPECT_EQ(run->Totals().passed, 3);
  ASSERT_EQ(run->expected.size(), 1u);
  EXPECT_EQ(run->expected[0].reason, "the warp is 32 lanes");
  EXPECT_EQ(run->expected[0].target,
            "//conformance/api/stream/validation:s_test");
  ASSERT_EQ(run->failures.size(), 1u);
  EXPECT_THAT(run->failures[0],
              HasSubstr("S.Fails (//conformance/api/stream/"));
  EXPECT_EQ(
      run->reported_cases.at("//conformance/api/stream/validation:s_test"), 4);
  EXPECT_EQ(run->capabilities, "device_count 1\n");
}

TEST_F(RunDirectory, ATargetWithoutResultsIsCrashed) {
  Write("summary.txt",
        "FAILED //conformance/api/stream/validation:s_test\n"
        "TIMEOUT //conformance/api/stream/validation:t_test\n"
        "PASSED //conformance/api/event/execution:e_test\n");
  Write("conformance_api_event_execution__e_test.xml", kEventXml);
  absl::StatusOr<RunResults> run = ReadRunResults(dir_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->chapters.at("api/stream").crashed, 2);
  EXPECT_EQ(run->Totals().crashed, 2);
  EXPECT_THAT(run->failures, testing::Contains(HasSubstr("timed out")));
  EXPECT_EQ(
      run->reported_cases.at("//conformance/api/stream/validation:t_test"), 0);
}

// A listed case that passes fails its target in the expectation runner
// (an "unexpected pass"); the XML then holds only passes and known
// failures, and the failed target is still a problem of the run.
TEST_F(RunDirectory, AFailedTargetWithoutUnexpectedFailuresIsAFailure) {
  Write("summary.txt",
        "FAILED //conformance/api/event/execution:e_test\n"
        "PASSED //conformance/api/event/execution:f_test\n");
  Write("conformance_api_event_execution__e_test.xml", kEventXml);
  Write("conformance_api_event_execution__f_test.xml", kEventXml);
  absl::StatusOr<RunResults> run = ReadRunResults(dir_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->Totals().failed, 0);
  ASSERT_EQ(run->failures.size(), 1u);  // f_test, which passed, adds none
  EXPECT_THAT(run->failures[0],
              HasSubstr("//conformance/api/event/execution:e_test (failed "
                        "with no unexpected case failure"));
}

TEST_F(RunDirectory, OnlyPassesHaveNoFailures) {
  Write("summary.txt", "PASSED //conformance/api/event/execution:e_test\n");
  Write("conformance_api_event_execution__e_test.xml", kEventXml);
  absl::StatusOr<RunResults> run = ReadRunResults(dir_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->failures.empty());
  EXPECT_EQ(run->Totals().passed, 2);
}

TEST_F(RunDirectory, MissingOrEmptySummaryIsAnError) {
  absl::StatusOr<RunResults> run = ReadRunResults(dir_);
  EXPECT_FALSE(run.ok());
  Write("summary.txt", "passed: 0\n");
  run = ReadRunResults(dir_);
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(std::string(run.status().message()),
              HasSubstr("summary.txt: names no test target"));
}

TEST_F(RunDirectory, SummaryGivesEachTargetsVerdictInOrder) {
  Write("summary.txt",
        "TIMEOUT //conformance/api/stream/validation:s_test\n"
        "PASSED //conformance/api/event/execution:e_test\n"
        "SKIPPED //conformance/api/event/execution:not_a_verdict_test\n"
        "passed: 1\nfailed: 0\ntimed out: 1\n");
  absl::StatusOr<std::vector<TargetVerdict>> targets = ReadRunSummary(dir_);
  ASSERT_TRUE(targets.ok()) << targets.status();
  ASSERT_EQ(targets->size(), 2u);
  EXPECT_EQ((*targets)[0].verdict, "TIMEOUT");
  EXPECT_EQ((*targets)[0].label, "//conformance/api/stream/validation:s_test");
  EXPECT_EQ((*targets)[1].verdict, "PASSED");
  EXPECT_EQ((*targets)[1].label, "//conformance/api/event/execution:e_test");
}

TEST_F(RunDirectory, UnparsableXmlNamesTheFile) {
  Write("summary.txt", "PASSED //conformance/api/event/execution:e_test\n");
  Write("conformance_api_event_execution__e_test.xml", "<testsuites><oops>");
  absl::StatusOr<RunResults> run = ReadRunResults(dir_);
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(std::string(run.status().message()),
              HasSubstr("conformance_api_event_execution__e_test.xml"));
}

}  // namespace
}  // namespace mxcts::certify
