#include "tools/spec/test_results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mxcts::spec {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

namespace fs = std::filesystem;

// Tests run in the workspace's runfiles root, so testdata paths are relative
// to it.
const std::string kData = "tools/spec/testdata/results";

// A fresh directory under the test's temporary directory.
std::string TempDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  fs::path dir = fs::path(tmp != nullptr ? tmp : "/tmp") / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::vector<std::string> Names(const std::vector<TestCaseResult>& results) {
  std::vector<std::string> names;
  for (const TestCaseResult& result : results) names.push_back(result.name);
  return names;
}

std::vector<std::string> Outcomes(const std::vector<TestCaseResult>& results) {
  std::vector<std::string> outcomes;
  for (const TestCaseResult& result : results) {
    outcomes.emplace_back(OutcomeName(result.outcome));
  }
  return outcomes;
}

TEST(OutcomeName, NamesEveryOutcome) {
  EXPECT_EQ(OutcomeName(Outcome::kPassed), "passed");
  EXPECT_EQ(OutcomeName(Outcome::kFailed), "failed");
  EXPECT_EQ(OutcomeName(Outcome::kSkipped), "skipped");
  EXPECT_EQ(OutcomeName(Outcome::kUnsupported), "unsupported");
  EXPECT_EQ(OutcomeName(Outcome::kDisabled), "disabled");
}

// testdata/results/gtest_1_12/test.xml was written by GoogleTest 1.12.1 for a
// test with a passing case, a case with two failed expectations, a case
// skipped as "Unsupported: ...", a plainly skipped case and a DISABLED_ case.
TEST(ReadTestResultsFile, ClassifiesRealGoogleTestOutput) {
  const std::string path = kData + "/gtest_1_12/test.xml";
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsFile(path);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(Names(*results),
              ElementsAre("StreamCreate.ReturnsDistinctHandles",
                          "StreamCreate.RejectsNullOutput",
                          "StreamPriority.HighestPriorityRuns",
                          "StreamPriority.NeedsTwoDevices",
                          "StreamDestroy.DISABLED_WhileCapturing"));
  EXPECT_THAT(Outcomes(*results), ElementsAre("passed", "failed", "unsupported",
                                              "skipped", "disabled"));
  for (const TestCaseResult& result : *results) EXPECT_EQ(result.file, path);
}

TEST(ReadTestResultsFile, ReadsTheSpecPropertyGoogleTestWrites) {
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsFile(kData + "/gtest_1_12/test.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 5u);
  EXPECT_THAT((*results)[0].spec_clauses,
              ElementsAre("api.stream.create", "api.stream.handle-unique"));
  EXPECT_THAT((*results)[1].spec_clauses,
              ElementsAre("api.stream.create-null-output"));
  EXPECT_THAT((*results)[2].spec_clauses, ElementsAre("api.stream.priority"));
  EXPECT_THAT((*results)[3].spec_clauses, IsEmpty());
  // A disabled test never runs, so it records no property.
  EXPECT_THAT((*results)[4].spec_clauses, IsEmpty());
}

TEST(ReadTestResultsFile, KeepsTheFirstMessageOfEachCase) {
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsFile(kData + "/gtest_1_12/test.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 5u);
  EXPECT_EQ((*results)[0].message, "");
  EXPECT_EQ((*results)[1].message,
            "stream/stream_test.cc:7\nExpected equality of these values:\n"
            "  1\n  2\nfirst");
  EXPECT_EQ((*results)[2].message,
            "stream/stream_test.cc:12\nUnsupported: stream priorities");
  EXPECT_EQ((*results)[3].message,
            "stream/stream_test.cc:15\nneeds two devices");
  EXPECT_EQ((*results)[4].message, "");
}

TEST(ReadTestResultsFile, ReadsHandWrittenShapes) {
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsFile(kData + "/hand_written/test.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(Names(*results),
              ElementsAre("Memcpy.CopiesBytes", "Memcpy.BothSpecForms",
                          "Memcpy.Throws", "Memcpy.BareSkip",
                          "Memcpy.SkipResultOnly", "Memcpy.UnsupportedInText"));
  EXPECT_THAT(Outcomes(*results),
              ElementsAre("passed", "passed", "failed", "skipped", "skipped",
                          "unsupported"));
  // The spec attribute, split on ", "; both forms at once, without repeats.
  EXPECT_THAT((*results)[0].spec_clauses,
              ElementsAre("api.memcpy.copies", "api.memcpy.sync"));
  EXPECT_THAT((*results)[1].spec_clauses,
              ElementsAre("api.memcpy.copies", "api.memcpy.overlap"));
  EXPECT_EQ((*results)[2].message, "uncaught exception");
  EXPECT_EQ((*results)[3].message, "");
  EXPECT_EQ((*results)[5].message, "UNSUPPORTED: peer copies");
}

TEST(ReadTestResultsFile, ReadsBazelsXmlForAShellTest) {
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsFile(kData + "/bazel_sh_test/test.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 1u);
  const TestCaseResult& result = (*results)[0];
  EXPECT_EQ(result.name, "tools/launch_check_test");
  EXPECT_EQ(result.outcome, Outcome::kFailed);
  EXPECT_EQ(result.message, "exited with error code 1");
  EXPECT_THAT(result.spec_clauses, IsEmpty());
}

TEST(ReadTestResultsFile, MalformedFileErrorNamesFileAndLine) {
  const std::string path =
      kData + "/malformed/conformance/api/bad_test/test.xml";
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsFile(path);
  EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument);
  // The file, the line the parser stopped on, and pugixml's reason.
  EXPECT_EQ(results.status().message(),
            path + ": line 5: Start-end tags mismatch");
}

TEST(ReadTestResultsFile, MissingFileIsNotFound) {
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsFile(kData + "/no/such/test.xml");
  EXPECT_EQ(results.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(results.status().message()),
              HasSubstr("no/such/test.xml"));
}

TEST(ParseTestResults, CountsACaseWithTwoFailuresOnce) {
  absl::StatusOr<std::vector<TestCaseResult>> results = ParseTestResults(
      "<testsuites><testsuite name=\"S\">"
      "<testcase name=\"T\" classname=\"S\">"
      "<failure message=\"one\"/><failure message=\"two\"/>"
      "</testcase></testsuite></testsuites>",
      "inline.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ((*results)[0].outcome, Outcome::kFailed);
  EXPECT_EQ((*results)[0].message, "one");
  EXPECT_EQ((*results)[0].file, "inline.xml");
}

TEST(ParseTestResults, KeepsTheExpectationTheRunnerAdded) {
  absl::StatusOr<std::vector<TestCaseResult>> results = ParseTestResults(
      "<testsuite name=\"S\">"
      "<testcase name=\"Listed\" expectation=\"known failure: a &amp; b\" "
      "classname=\"S\"><failure message=\"x\"/></testcase>"
      "<testcase name=\"Unlisted\" classname=\"S\"/>"
      "</testsuite>",
      "inline.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ((*results)[0].expectation, "known failure: a & b");
  EXPECT_EQ((*results)[0].outcome, Outcome::kFailed);
  EXPECT_EQ((*results)[1].expectation, "");
}

TEST(ParseTestResults, KeepsHowAnAbortedCaseEnded) {
  absl::StatusOr<std::vector<TestCaseResult>> results = ParseTestResults(
      "<testsuite name=\"S\">"
      "<testcase name=\"Crashes\" aborted=\"crashed: SIGSEGV (signal 11)\" "
      "classname=\"S\"><failure message=\"crashed\"/></testcase>"
      "<testcase name=\"Fails\" classname=\"S\"><failure message=\"x\"/>"
      "</testcase></testsuite>",
      "inline.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ((*results)[0].aborted, "crashed: SIGSEGV (signal 11)");
  EXPECT_EQ((*results)[0].outcome, Outcome::kFailed);
  EXPECT_EQ((*results)[1].aborted, "");
}

TEST(ParseTestResults, FailureOutranksSkipAndNotRun) {
  absl::StatusOr<std::vector<TestCaseResult>> results = ParseTestResults(
      "<testsuite name=\"S\">"
      "<testcase name=\"T\" classname=\"S\" status=\"notrun\" "
      "result=\"skipped\"><skipped message=\"unsupported\"/>"
      "<failure>failed first</failure></testcase>"
      "<testcase name=\"U\" classname=\"S\" status=\"notrun\" "
      "result=\"skipped\"><skipped message=\"unsupported\"/></testcase>"
      "</testsuite>",
      "inline.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(Outcomes(*results), ElementsAre("failed", "disabled"));
  EXPECT_EQ((*results)[0].message, "failed first");
}

TEST(ParseTestResults, UnsupportedOnlyAtTheStartOfTheSkipMessage) {
  absl::StatusOr<std::vector<TestCaseResult>> results = ParseTestResults(
      "<testsuites><testsuite name=\"S\">"
      "<testcase name=\"A\" classname=\"S\" result=\"skipped\">"
      "<skipped message=\"a.cc:3&#x0A;unsupported\"/></testcase>"
      "<testcase name=\"B\" classname=\"S\" result=\"skipped\">"
      "<skipped message=\"a.cc:4&#x0A;not unsupported\"/></testcase>"
      "<testcase name=\"C\" classname=\"S\" result=\"skipped\">"
      "<skipped message=\"Unsupported feature\"/></testcase>"
      "<testcase name=\"D\" classname=\"S\" result=\"skipped\">"
      "<skipped message=\"a.cc:5\"/></testcase>"
      "</testsuite></testsuites>",
      "inline.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(Outcomes(*results),
              ElementsAre("unsupported", "skipped", "unsupported", "skipped"));
}

TEST(ParseTestResults, TrimsLongMessagesOnACharacterBoundary) {
  // 499 ASCII bytes, then a two-byte character that would end at byte 501.
  std::string message = std::string(499, 'x') + "\xC3\xA9" + "tail";
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ParseTestResults("<testsuite><testcase name=\"T\"><failure message=\"  " +
                           message + "\"/></testcase></testsuite>",
                       "inline.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].message, std::string(499, 'x'));
  EXPECT_LE((*results)[0].message.size(), kMaxMessageLength);
}

TEST(ParseTestResults, UsesTheNameAloneWithoutAClassname) {
  absl::StatusOr<std::vector<TestCaseResult>> results = ParseTestResults(
      "<testsuites><testsuite><testcase name=\"pkg/target\" classname=\"\"/>"
      "</testsuite></testsuites>",
      "inline.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(Names(*results), ElementsAre("pkg/target"));
}

TEST(ParseTestResults, IgnoresElementsOutsideSuites) {
  absl::StatusOr<std::vector<TestCaseResult>> results = ParseTestResults(
      "<testsuites><testsuite name=\"S\"><system-out><testcase name=\"log\"/>"
      "</system-out><testsuite><testcase name=\"Nested\" classname=\"S\"/>"
      "</testsuite></testsuite></testsuites>",
      "inline.xml");
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(Names(*results), ElementsAre("S.Nested"));
}

TEST(ParseTestResults, RejectsAnotherRoot) {
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ParseTestResults("<?xml version=\"1.0\"?>\n<report/>", "r.xml");
  EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(results.status().message(),
            "r.xml: line 2: root element is <report>, not <testsuites> or "
            "<testsuite>");
}

TEST(ParseTestResults, RejectsACaseWithoutAName) {
  absl::StatusOr<std::vector<TestCaseResult>> results = ParseTestResults(
      "<testsuites>\n<testsuite>\n<testcase classname=\"S\"/>\n"
      "</testsuite></testsuites>",
      "r.xml");
  EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(results.status().message(),
            "r.xml: line 3: <testcase> has no name");
}

TEST(ReadTestResultsDir, ReadsNestedDirectoriesInPathOrder) {
  const std::string dir = kData + "/tree";
  absl::StatusOr<std::vector<TestCaseResult>> results = ReadTestResultsDir(dir);
  ASSERT_TRUE(results.ok()) << results.status();
  // results.xml is not a test.xml, so its case is not read.
  EXPECT_THAT(
      Names(*results),
      ElementsAre("EventRecord.RecordsOnStream", "StreamCreate.ReturnsHandle",
                  "StreamCreate.RejectsNull", "tools/launch_check_test"));
  EXPECT_THAT(Outcomes(*results),
              ElementsAre("passed", "passed", "failed", "passed"));
  EXPECT_EQ((*results)[0].file, dir + "/conformance/api/event_test/test.xml");
  EXPECT_EQ((*results)[1].file, dir + "/conformance/api/stream_test/test.xml");
  EXPECT_EQ((*results)[3].file, dir + "/tools/launch_check_test/test.xml");
  EXPECT_THAT((*results)[1].spec_clauses, ElementsAre("api.stream.create"));
}

TEST(ReadTestResultsDir, FollowsSymbolicLinksOnce) {
  const std::string tmp = TempDir("links");
  const fs::path tree = fs::absolute(kData + "/tree");
  std::error_code error;
  // A link to the whole tree, as bazel-testlogs is, holding a link to a
  // directory in it and a link back to itself.
  fs::create_directory_symlink(tree, tmp + "/bazel-testlogs", error);
  ASSERT_FALSE(error) << error.message();
  const std::string copy = TempDir("links_copy");
  fs::create_directory_symlink(tree / "tools", copy + "/tools", error);
  ASSERT_FALSE(error) << error.message();
  fs::create_directory_symlink(copy, copy + "/loop", error);
  ASSERT_FALSE(error) << error.message();
  fs::create_symlink(copy + "/missing", copy + "/dangling", error);
  ASSERT_FALSE(error) << error.message();

  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsDir(tmp + "/bazel-testlogs");
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(results->size(), 4u);

  results = ReadTestResultsDir(copy);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(Names(*results), ElementsAre("tools/launch_check_test"));
  EXPECT_EQ((*results)[0].file, copy + "/tools/launch_check_test/test.xml");
}

TEST(ReadTestResultsDir, MissingDirIsNotFound) {
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsDir(kData + "/no_such_dir");
  EXPECT_EQ(results.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(results.status().message()),
              StartsWith(kData + "/no_such_dir: "));
}

TEST(ReadTestResultsDir, EmptyDirIsNotFound) {
  const std::string dir = TempDir("empty");
  absl::StatusOr<std::vector<TestCaseResult>> results = ReadTestResultsDir(dir);
  EXPECT_EQ(results.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(results.status().message(), dir + ": no test.xml files");
}

TEST(ReadTestResultsDir, DirWithoutTestXmlIsNotFound) {
  const std::string dir = kData + "/no_results";
  absl::StatusOr<std::vector<TestCaseResult>> results = ReadTestResultsDir(dir);
  EXPECT_EQ(results.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(results.status().message(), dir + ": no test.xml files");
}

TEST(ReadTestResultsDir, AFileIsNotADirectory) {
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsDir(kData + "/gtest_1_12/test.xml");
  EXPECT_EQ(results.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ReadTestResultsDir, MalformedFileErrorNamesFileAndLine) {
  absl::StatusOr<std::vector<TestCaseResult>> results =
      ReadTestResultsDir(kData + "/malformed");
  EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(
      std::string(results.status().message()),
      StartsWith(kData + "/malformed/conformance/api/bad_test/test.xml: "
                         "line 5: "));
}

// Copies the tree's stream_test results to `dir`/`relative` and dates the
// copy `age` seconds in the past.
void PlaceResults(const std::string& dir, const std::string& relative,
                  int age) {
  const fs::path target = fs::path(dir) / relative;
  fs::create_directories(target.parent_path());
  fs::copy_file(kData + "/tree/conformance/api/stream_test/test.xml", target,
                fs::copy_options::overwrite_existing);
  fs::last_write_time(
      target, fs::file_time_type::clock::now() - std::chrono::seconds(age));
}

TEST(ReadTestResultsDir, OnlyTheNewestShardingOfATargetIsRead) {
  // A target Bazel ran unsharded, then in 3 shards, then in 2 (newest): its
  // directory keeps all three sets.
  const std::string dir = TempDir("resharded");
  PlaceResults(dir, "big_test/test.xml", 300);
  for (int k = 1; k <= 3; ++k) {
    PlaceResults(dir, "big_test/shard_" + std::to_string(k) + "_of_3/test.xml",
                 200);
  }
  PlaceResults(dir, "big_test/shard_1_of_2/test.xml", 100);
  PlaceResults(dir, "big_test/shard_2_of_2/test.xml", 90);
  // Another target, unsharded, older than all of those: still read.
  PlaceResults(dir, "small_test/test.xml", 1000);
  absl::StatusOr<std::vector<TestCaseResult>> results = ReadTestResultsDir(dir);
  ASSERT_TRUE(results.ok()) << results.status();
  std::vector<std::string> files;
  for (const TestCaseResult& result : *results) files.push_back(result.file);
  EXPECT_THAT(files, ElementsAre(dir + "/big_test/shard_1_of_2/test.xml",
                                 dir + "/big_test/shard_1_of_2/test.xml",
                                 dir + "/big_test/shard_2_of_2/test.xml",
                                 dir + "/big_test/shard_2_of_2/test.xml",
                                 dir + "/small_test/test.xml",
                                 dir + "/small_test/test.xml"));

  // Run unsharded again (newest): only its test.xml counts.
  PlaceResults(dir, "big_test/test.xml", 10);
  results = ReadTestResultsDir(dir);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 4u);
  EXPECT_EQ((*results)[0].file, dir + "/big_test/test.xml");
}

// A directory holding links to parts of testdata/results/tree, as one
// machine's share of the suite's results would hold those parts.
std::string PartOfTree(const std::string& name,
                       const std::vector<std::string>& parts) {
  const std::string dir = TempDir(name);
  const fs::path tree = fs::absolute(kData + "/tree");
  for (const std::string& part : parts) {
    const fs::path link = fs::path(dir) / part;
    fs::create_directories(link.parent_path());
    std::error_code error;
    fs::create_directory_symlink(tree / part, link, error);
    EXPECT_FALSE(error) << part << ": " << error.message();
  }
  return dir;
}

TEST(ReadTestResultsDirs, DisjointPartsReadAsTheWhole) {
  const std::string first = PartOfTree("part_conformance", {"conformance"});
  const std::string second = PartOfTree("part_tools", {"tools"});
  absl::StatusOr<std::vector<TestCaseResult>> whole =
      ReadTestResultsDir(kData + "/tree");
  ASSERT_TRUE(whole.ok()) << whole.status();
  absl::StatusOr<std::vector<TestCaseResult>> merged =
      ReadTestResultsDirs({first, second});
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(Names(*merged), Names(*whole));
  EXPECT_EQ(Outcomes(*merged), Outcomes(*whole));
  EXPECT_EQ((*merged)[0].file, first + "/conformance/api/event_test/test.xml");
  EXPECT_EQ((*merged)[3].file, second + "/tools/launch_check_test/test.xml");

  // Control: one part alone is not the whole.
  merged = ReadTestResultsDirs({first});
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_NE(Names(*merged), Names(*whole));
}

TEST(ReadTestResultsDirs, BazelShardsOfOneTestMayBeInDifferentParts) {
  // A test with shard_count = 2 leaves shard_1_of_2/test.xml and
  // shard_2_of_2/test.xml; two machines may each hold one.
  const fs::path source =
      fs::absolute(kData + "/tree/conformance/api/stream_test/test.xml");
  std::vector<std::string> dirs;
  for (const std::string shard : {"shard_1_of_2", "shard_2_of_2"}) {
    const std::string dir = TempDir("sharded_" + shard);
    const fs::path target = fs::path(dir) / "conformance/api/big_test" / shard;
    fs::create_directories(target);
    fs::copy_file(source, target / "test.xml");
    dirs.push_back(dir);
  }
  absl::StatusOr<std::vector<TestCaseResult>> merged =
      ReadTestResultsDirs(dirs);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(merged->size(), 4u);
}

TEST(ReadTestResultsDirs, OverlappingPartsAreRejected) {
  const std::string first = PartOfTree("overlap_a", {"conformance"});
  const std::string second =
      PartOfTree("overlap_b", {"conformance/api/stream_test", "tools"});
  absl::StatusOr<std::vector<TestCaseResult>> merged =
      ReadTestResultsDirs({first, second + "/"});
  EXPECT_EQ(merged.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(merged.status().message()),
              StartsWith("conformance/api/stream_test/test.xml is in both " +
                         first + " and " + second + "/: "));
}

TEST(ReadTestResultsDirs, NoDirectoriesIsAnError) {
  absl::StatusOr<std::vector<TestCaseResult>> merged = ReadTestResultsDirs({});
  EXPECT_EQ(merged.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ReadTestResultsDirs, AMissingPartIsNamed) {
  const std::string first = PartOfTree("present", {"tools"});
  absl::StatusOr<std::vector<TestCaseResult>> merged =
      ReadTestResultsDirs({first, kData + "/no_such_dir"});
  EXPECT_EQ(merged.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(merged.status().message()),
              StartsWith(kData + "/no_such_dir: "));
}

}  // namespace
}  // namespace mxcts::spec
