// Tests of reading a backend's results: Bazel testlogs and a certification
// run's results (testdata/side_by_side), expected failures from the runner's
// mark and from an expectations file, exclusion, and the notes.
#include "tools/spec_coverage/backend_results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "conformance/testing/expectations.h"
#include "tools/spec/test_results.h"

namespace mxcts::spec {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kData[] = "tools/spec_coverage/testdata/side_by_side";

std::string Data(const std::string& path) {
  return std::string(kData) + "/" + path;
}

// Case name -> outcome name, with "+known" for a case marked known failure.
std::map<std::string, std::string> Outcomes(const BackendResults& backend) {
  std::map<std::string, std::string> outcomes;
  for (const TestCaseResult& result : backend.results) {
    outcomes[result.name] =
        std::string(OutcomeName(result.outcome)) +
        (absl::StartsWith(result.expectation, kKnownFailureMark) ? "+known"
                                                                 : "");
  }
  return outcomes;
}

std::vector<conformance::Expectation> CudaExpectations() {
  absl::StatusOr<std::vector<conformance::Expectation>> expectations =
      conformance::ReadExpectations(Data("cuda.txt"));
  EXPECT_TRUE(expectations.ok()) << expectations.status();
  return expectations.ok() ? *expectations
                           : std::vector<conformance::Expectation>{};
}

TEST(TestLogTarget, IsThePathBetweenDirectoryAndTestXml) {
  EXPECT_EQ(TestLogTarget("logs", "logs/conformance/api/x/y_test/test.xml"),
            "conformance/api/x/y_test");
  EXPECT_EQ(TestLogTarget("logs/", "logs/conformance/api/x/y_test/test.xml"),
            "conformance/api/x/y_test");
  EXPECT_EQ(TestLogTarget("logs", "logs/api/x/y_test/shard_2_of_4/test.xml"),
            "api/x/y_test");
  // Controls: a sibling directory, a file that is not a test log.
  EXPECT_EQ(TestLogTarget("logs", "logs2/api/x/y_test/test.xml"), "");
  EXPECT_EQ(TestLogTarget("logs", "logs/api/x/y_test/test.log"), "");
}

TEST(TargetMatchesLabel, MatchesTheLabelOrItsTailAtASlash) {
  EXPECT_TRUE(TargetMatchesLabel("conformance/api/x/y_test",
                                 "//conformance/api/x:y_test"));
  EXPECT_TRUE(TargetMatchesLabel("api/x/y_test", "//conformance/api/x:y_test"));
  EXPECT_TRUE(TargetMatchesLabel("conformance/y_test", "//conformance:y_test"));
  // Controls: another target, a tail that is not a whole component.
  EXPECT_FALSE(
      TargetMatchesLabel("api/x/z_test", "//conformance/api/x:y_test"));
  EXPECT_FALSE(TargetMatchesLabel("i/x/y_test", "//conformance/api/x:y_test"));
  EXPECT_FALSE(TargetMatchesLabel("", "//conformance/api/x:y_test"));
}

TEST(IsCertificationRun, IsADirectoryWithASummary) {
  EXPECT_TRUE(IsCertificationRun(Data("cuda")));
  EXPECT_FALSE(IsCertificationRun(Data("reference")));
}

TEST(ReadBackendResults, ReadsACertificationRunAndItsRunnersMarks) {
  std::vector<std::string> notes;
  absl::StatusOr<BackendResults> cuda =
      ReadBackendResults("cuda", {Data("cuda")}, {}, &notes);
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  EXPECT_EQ(cuda->name, "cuda");
  EXPECT_EQ(Outcomes(*cuda),
            (std::map<std::string, std::string>{
                {"StreamCreate.ReturnsDistinctHandles", "passed"},
                {"StreamCreate.NullPointerIsInvalidValue", "failed"},
                {"StreamCreate.FlagsAreKept", "failed+known"},
                {"StreamCreate.PriorityIsClamped", "failed"},
                {"StreamCreate.OnEachDevice", "unsupported"},
            }));
  // The target that timed out has no cases; the report says so.
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_THAT(notes[0], HasSubstr("cuda: //conformance/api/stream:"
                                  "stream_wait_test has no results (it "
                                  "timed out"));
  EXPECT_THAT(notes[0], HasSubstr("conformance_api_stream__stream_wait_test"
                                  ".log"));
}

TEST(ReadBackendResults, TheExpectationsFileMarksTheFailuresItLists) {
  BackendReadOptions options;
  options.expectations = CudaExpectations();
  std::vector<std::string> notes;
  absl::StatusOr<BackendResults> cuda =
      ReadBackendResults("cuda", {Data("cuda")}, options, &notes);
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  std::map<std::string, std::string> outcomes = Outcomes(*cuda);
  EXPECT_EQ(outcomes["StreamCreate.PriorityIsClamped"], "failed+known");
  // Control: an unlisted failure stays an unexpected failure.
  EXPECT_EQ(outcomes["StreamCreate.NullPointerIsInvalidValue"], "failed");
  for (const TestCaseResult& result : cuda->results) {
    if (result.name == "StreamCreate.PriorityIsClamped") {
      EXPECT_EQ(result.expectation,
                "known failure: [real difference] the priority is not "
                "clamped");
    }
  }
}

TEST(ReadBackendResults, ReadsTestLogsAndMatchesExpectationsBelowThem) {
  // Given below bazel-testlogs' conformance folder, the targets are
  // relative to it and still match the expectations' labels.
  BackendReadOptions options;
  options.expectations = {{"//conformance/api/stream:stream_test",
                           "StreamCreate.FlagsAreKept", "a reason", 1}};
  std::vector<std::string> notes;
  absl::StatusOr<BackendResults> reference = ReadBackendResults(
      "reference", {Data("reference/conformance")}, options, &notes);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(reference->results.size(), 6u);
  // The listed case passed: it is not a failure, and the notes say so.
  EXPECT_EQ(Outcomes(*reference)["StreamCreate.FlagsAreKept"], "passed+known");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_THAT(notes[0], HasSubstr("reference: StreamCreate.FlagsAreKept "
                                  "(api/stream/stream_test) passed, yet its "
                                  "expectations list it"));
}

TEST(ReadBackendResults, ExcludedTargetsAreLeftOutInBothLayouts) {
  BackendReadOptions options;
  options.excluded = {"api/stream/stream_wait"};
  std::vector<std::string> notes;
  absl::StatusOr<BackendResults> reference =
      ReadBackendResults("reference", {Data("reference")}, options, &notes);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(reference->results.size(), 5u);
  options.excluded = {"api/stream/stream_test"};
  absl::StatusOr<BackendResults> cuda =
      ReadBackendResults("cuda", {Data("cuda")}, options, &notes);
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  EXPECT_THAT(cuda->results, IsEmpty());
  // Control: nothing excluded.
  notes.clear();
  cuda = ReadBackendResults("cuda", {Data("cuda")}, {}, &notes);
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  EXPECT_EQ(cuda->results.size(), 5u);
}

TEST(ReadBackendResults, ErrorsNameWhatIsWrong) {
  std::vector<std::string> notes;
  absl::StatusOr<BackendResults> none =
      ReadBackendResults("cuda", {}, {}, &notes);
  EXPECT_FALSE(none.ok());
  absl::StatusOr<BackendResults> missing =
      ReadBackendResults("cuda", {Data("missing")}, {}, &notes);
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr(Data("missing")));
  EXPECT_THAT(notes, ElementsAre());
}

}  // namespace
}  // namespace mxcts::spec
