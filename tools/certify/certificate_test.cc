// Copyright mxcts authors.

#include "tools/certify/certificate.h"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/spec/file_io.h"

namespace mxcts::certify {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

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

CertificateInfo OnlyBackend() {
  CertificateInfo info;
  info.backend = "cuda";
  return info;
}

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

  const std::string page = FormatCertificate(
      *run, {"cuda", "NVIDIA H100", "580, CUDA 13", "2026-11-27", "abc123"});
  EXPECT_THAT(page, HasSubstr("| api/stream | 1 | 1 | 1 | 1 | 0 |"));
  EXPECT_THAT(page, HasSubstr("| **total** | 3 | 1 | 1 | 1 | 0 |"));
  EXPECT_THAT(page, HasSubstr("not certified"));
  EXPECT_THAT(page, HasSubstr("S.Fails (//conformance/api/stream/"));
  EXPECT_THAT(page, HasSubstr("the warp is 32 lanes"));
  EXPECT_THAT(page, HasSubstr("| commit | abc123 |"));
  EXPECT_THAT(page, HasSubstr("device_count 1"));
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
  EXPECT_THAT(FormatCertificate(*run, OnlyBackend()),
              HasSubstr("not certified"));
}

TEST_F(RunDirectory, OnlyPassesAndExpectedFailuresCertify) {
  Write("summary.txt", "PASSED //conformance/api/event/execution:e_test\n");
  Write("conformance_api_event_execution__e_test.xml", kEventXml);
  absl::StatusOr<RunResults> run = ReadRunResults(dir_);
  ASSERT_TRUE(run.ok()) << run.status();
  const std::string page = FormatCertificate(*run, OnlyBackend());
  EXPECT_THAT(page, HasSubstr("| verdict | certified"));
  EXPECT_THAT(page, Not(HasSubstr("Unexpected failures")));
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
