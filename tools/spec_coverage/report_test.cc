// Tests of the three report renderings on a small model.
#include "tools/spec_coverage/report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::spec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The two tests of the model's source: Sync.Waits and Sync.BadHandle,
// each naming one clause.
ScannedSource StreamSyncTests() {
  ScannedSource source;
  source.tests.push_back({"Sync",
                          "Waits",
                          "conformance/api/stream_sync_test.cc",
                          4,
                          {{"api.stream.sync.waits", 5}}});
  source.tests.push_back({"Sync",
                          "BadHandle",
                          "conformance/api/stream_sync_test.cc",
                          9,
                          {{"api.stream.sync.bad-handle", 10}}});
  return source;
}

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SpecSources sources;
    sources.chapters.push_back(
        {"spec/api-stream.md",
         "# Streams <&>\n\nClause prefix: `api.stream`\n\n"
         "### api.stream.sync.waits\n\nWaits for <all> work.\n\n"
         "- kind: requirement\n- testability: testable\n- source: s\n\n"
         "### api.stream.sync.bad-handle\n\nBad handles fail.\n\n"
         "- kind: error\n- error: mcErrorInvalidResourceHandle\n"
         "- testability: testable\n- source: s\n\n"
         "### api.stream.sync.untested\n\nNobody tests this.\n\n"
         "- kind: requirement\n- testability: testable\n- source: s\n"});
    std::vector<Diagnostic> problems;
    index_ = BuildSpecIndex(sources, &problems);
    ASSERT_TRUE(problems.empty());
    const ScannedSource source = StreamSyncTests();
    TestCaseResult passed;
    passed.name = "Sync.Waits";
    TestCaseResult failed;
    failed.name = "Sync.BadHandle";
    failed.outcome = Outcome::kFailed;
    failed.message = "expected <mcErrorInvalidResourceHandle>";
    model_ = BuildCoverage(index_, {source}, {{"reference", {passed, failed}}});
  }

  SpecIndex index_;
  CoverageModel model_;
};

TEST_F(ReportTest, JsonHasTheRequiredTotalsAndPerChapterCounts) {
  std::string json = CoverageJson(model_);
  EXPECT_THAT(json, HasSubstr("\"clauses_total\": 3"));
  EXPECT_THAT(json, HasSubstr("\"clauses_testable\": 3"));
  EXPECT_THAT(json, HasSubstr("\"clauses_covered\": 2"));
  EXPECT_THAT(json, HasSubstr("\"clauses_passing\": 1"));
  EXPECT_THAT(json, HasSubstr("\"name\": \"api-stream\""));
  EXPECT_THAT(json, HasSubstr("\"failing\": 1"));
  EXPECT_THAT(json, HasSubstr("\"reference\": \"uncovered\""));
  EXPECT_THAT(json, HasSubstr("\"reference\": \"failed\""));
}

TEST_F(ReportTest, MarkdownSummarisesTotalsAndChapters) {
  std::string markdown = CoverageMarkdown(model_);
  EXPECT_THAT(markdown, HasSubstr("Clauses: 3, testable: 3, covered: 2 "
                                  "(66.7%), passing on every backend: 1 "
                                  "(33.3%)."));
  EXPECT_THAT(markdown,
              HasSubstr("| api-stream | 3 | 3 | 2 (66.7%) | 1 (33.3%) | 1 |"));
}

TEST_F(ReportTest, HtmlIsSelfContainedEscapedAndFilterable) {
  std::string html = CoverageHtml(model_);
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  // Nothing is fetched from elsewhere.
  EXPECT_THAT(html, Not(HasSubstr("http://")));
  EXPECT_THAT(html, Not(HasSubstr("https://")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  // Filters and the data they read.
  EXPECT_THAT(html, HasSubstr("id=\"only-uncovered\""));
  EXPECT_THAT(html, HasSubstr("id=\"only-failing\""));
  EXPECT_THAT(html, HasSubstr("data-covered=\"no\" data-failing=\"no\""));
  EXPECT_THAT(html, HasSubstr("data-covered=\"yes\" data-failing=\"yes\""));
  // Text from the spec and results is escaped.
  EXPECT_THAT(html, HasSubstr("Streams &lt;&amp;&gt;"));
  EXPECT_THAT(html, HasSubstr("Waits for &lt;all&gt; work."));
  EXPECT_THAT(html, HasSubstr("expected &lt;mcErrorInvalidResourceHandle&gt;"));
  EXPECT_THAT(html, Not(HasSubstr("<all>")));
  // Outcomes per backend.
  EXPECT_THAT(html, HasSubstr("reference: failed"));
  EXPECT_THAT(html, HasSubstr("reference: passed"));
}

// The same model with a second backend beside the reference: it fails
// Sync.Waits by a known failure and Sync.BadHandle unexpectedly.
CoverageModel WithCuda(const SpecIndex& index) {
  const ScannedSource source = StreamSyncTests();
  TestCaseResult waits;
  waits.name = "Sync.Waits";
  TestCaseResult bad_handle;
  bad_handle.name = "Sync.BadHandle";
  TestCaseResult known = waits;
  known.outcome = Outcome::kFailed;
  known.expectation = "known failure: eager <launch>";
  TestCaseResult failed = bad_handle;
  failed.outcome = Outcome::kFailed;
  return BuildCoverage(
      index, {source},
      {{"reference", {waits, bad_handle}}, {"cuda", {known, failed}}});
}

TEST_F(ReportTest, SideBySideMarkdownGivesEachBackendAColumn) {
  CoverageModel model = WithCuda(index_);
  const std::string markdown = CoverageSideBySideMarkdown(model);
  // It starts with the summary.
  EXPECT_EQ(markdown.rfind(CoverageMarkdown(model), 0), 0u);
  EXPECT_THAT(markdown,
              HasSubstr("| chapter | backend | passing | failing | "
                        "expected failure | unsupported | not run |"));
  EXPECT_THAT(markdown, HasSubstr("| api-stream | reference | 2 | 0 | 0 | 0 | "
                                  "0 |\n|  | cuda | 0 | 1 | 1 | 0 | 0 |"));
  EXPECT_THAT(markdown, HasSubstr("| **all** | reference | 2 |"));
  EXPECT_THAT(markdown, HasSubstr("| clause | reference | cuda | differs |"));
  EXPECT_THAT(markdown,
              HasSubstr("`api.stream.sync.waits` | passing | expected-failure "
                        "| **yes** |"));
  EXPECT_THAT(markdown,
              HasSubstr("`api.stream.sync.bad-handle` | passing | failing | "
                        "**yes** |"));
  // Control: the clause nobody tests is the same on both.
  EXPECT_THAT(markdown,
              HasSubstr("`api.stream.sync.untested` | uncovered | uncovered "
                        "| |"));
  EXPECT_THAT(markdown, HasSubstr("## Clauses whose status differs (2)"));
  EXPECT_THAT(markdown,
              HasSubstr("| clause | reference | cuda | known failures |"));
  EXPECT_THAT(markdown,
              HasSubstr("| [`api.stream.sync.waits`]"
                        "(#api-stream-sync-waits) | passing | "
                        "expected-failure | cuda: eager &lt;launch&gt; |"));
  EXPECT_THAT(markdown, HasSubstr("| [`api.stream.sync.bad-handle`]"
                                  "(#api-stream-sync-bad-handle) | passing | "
                                  "failing |  |"));
  EXPECT_THAT(markdown, HasSubstr("<a id=\"api-stream-sync-waits\"></a>"));
}

TEST_F(ReportTest, SideBySideHtmlAndJsonMarkWhatDiffers) {
  CoverageModel model = WithCuda(index_);
  const std::string html = CoverageHtml(model);
  EXPECT_THAT(html, HasSubstr("id=\"only-differing\""));
  EXPECT_THAT(html, HasSubstr("<h2>Testable clauses per backend</h2>"));
  EXPECT_THAT(html, HasSubstr("data-failing=\"yes\" data-differs=\"yes\""));
  EXPECT_THAT(html, HasSubstr("<td class=\"status expected-failure\">"
                              "expected-failure</td>"));
  EXPECT_THAT(html, HasSubstr("cuda: expected-failure"));
  EXPECT_THAT(html, HasSubstr("known failure: eager &lt;launch&gt;"));
  const std::string json = CoverageJson(model);
  EXPECT_THAT(json, HasSubstr("\"clauses_differing\": 2"));
  EXPECT_THAT(json, HasSubstr("\"differs\": true"));
  EXPECT_THAT(json, HasSubstr("\"cuda\": \"expected-failure\""));
  EXPECT_THAT(json, HasSubstr("\"expected-failure\": 1"));
  // Control: one backend's page has no comparison.
  EXPECT_THAT(CoverageHtml(model_), Not(HasSubstr("id=\"only-differing\"")));
  EXPECT_THAT(CoverageHtml(model_), Not(HasSubstr("data-differs")));
  EXPECT_THAT(CoverageJson(model_), Not(HasSubstr("differ")));
}

void AddMutants(CoverageModel* model) {
  std::vector<mutate::MutantResult> results;
  for (mutate::MutantStatus status :
       {mutate::MutantStatus::kKilled, mutate::MutantStatus::kKilled,
        mutate::MutantStatus::kKilled, mutate::MutantStatus::kSurvived,
        mutate::MutantStatus::kNoTests, mutate::MutantStatus::kEquivalent}) {
    mutate::MutantResult result;
    result.chapter = "api-stream";
    result.status = status;
    results.push_back(result);
  }
  AddMutationResults(results, model);
}

TEST_F(ReportTest, MutationScoreColumnOnlyWithMutationResults) {
  // Control: without mutation results no report mentions a score.
  EXPECT_THAT(CoverageMarkdown(model_), Not(HasSubstr("mutation score")));
  EXPECT_THAT(CoverageHtml(model_), Not(HasSubstr("mutation score")));
  EXPECT_THAT(CoverageJson(model_), Not(HasSubstr("\"mutation\"")));
  AddMutants(&model_);
  const std::string markdown = CoverageMarkdown(model_);
  EXPECT_THAT(markdown, HasSubstr("| failing on reference | mutation score |"));
  EXPECT_THAT(markdown,
              HasSubstr("| api-stream | 3 | 3 | 2 (66.7%) | 1 (33.3%) | 1 | "
                        "75.0% (3/4) |"));
  // The equivalent mutant is counted but not scored.
  EXPECT_THAT(markdown, HasSubstr("Mutants: 6, killed: 3, survived: 1, "
                                  "no tests: 1, equivalent (not scored): 1"));
  const std::string html = CoverageHtml(model_);
  EXPECT_THAT(html, HasSubstr("<th>mutation score</th>"));
  EXPECT_THAT(html, HasSubstr("3/4 (75.0%)"));
  const std::string json = CoverageJson(model_);
  EXPECT_THAT(json, HasSubstr("\"killed\": 3"));
  EXPECT_THAT(json, HasSubstr("\"no_tests\": 1"));
  EXPECT_THAT(json, HasSubstr("\"equivalent\": 1"));
  EXPECT_THAT(json, HasSubstr("\"score\": 0.75"));
}

}  // namespace
}  // namespace mxcts::spec
