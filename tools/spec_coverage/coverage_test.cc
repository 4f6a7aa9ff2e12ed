// Tests of the coverage join: each clause status, precedence between
// outcomes, parameterised names, aliases, unknown references, and counts.
#include "tools/spec_coverage/coverage.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace mxcts::spec {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A chapter with clauses a.b.c1 ... a.b.cN; the last one untestable.
SpecIndex MakeIndex(int testable_clauses) {
  std::string text = "# Chapter\n\nClause prefix: `a.b`\n";
  for (int i = 1; i <= testable_clauses + 1; ++i) {
    text += "\n### a.b.c" + std::to_string(i) +
            "\n\nStatement.\n\n- kind: requirement\n- testability: " +
            (i <= testable_clauses ? std::string("testable")
                                   : std::string("untestable: a hint")) +
            "\n- source: seed 001\n";
  }
  SpecSources sources;
  sources.chapters.push_back({"spec/a.md", text});
  sources.aliases = {"spec/aliases.txt", "a.b.old -> a.b.c1\n"};
  std::vector<Diagnostic> problems;
  SpecIndex index = BuildSpecIndex(sources, &problems);
  EXPECT_THAT(problems, IsEmpty());
  return index;
}

ScannedSource Source(std::vector<ScannedTest> tests) {
  ScannedSource source;
  source.tests = std::move(tests);
  return source;
}

ScannedTest SourceTest(const std::string& suite, const std::string& name,
                       std::vector<std::string> ids) {
  ScannedTest test{suite, name, "conformance/x_test.cc", 7, {}};
  for (const std::string& id : ids) test.clauses.push_back({id, 8});
  return test;
}

TestCaseResult Result(const std::string& name, Outcome outcome,
                      std::vector<std::string> ids = {}) {
  TestCaseResult result;
  result.name = name;
  result.outcome = outcome;
  result.spec_clauses = std::move(ids);
  if (outcome == Outcome::kFailed) result.message = "x_test.cc:9 failed";
  return result;
}

const ClauseCoverage& ClauseAt(const CoverageModel& model, int index) {
  return model.chapters.at(0).clauses.at(index);
}

TEST(BuildCoverage, ClauseWithoutTestsIsUncoveredNeverPassing) {
  SpecIndex index = MakeIndex(1);
  CoverageModel model = BuildCoverage(index, {}, {{"reference", {}}});
  EXPECT_EQ(ClauseAt(model, 0).status,
            std::vector<ClauseStatus>{ClauseStatus::kUncovered});
  EXPECT_FALSE(ClauseAt(model, 0).covered);
  EXPECT_FALSE(ClauseAt(model, 0).passing);
  EXPECT_EQ(model.totals.passing, 0);
}

TEST(BuildCoverage, EachOutcomeGivesItsStatus) {
  SpecIndex index = MakeIndex(5);
  std::vector<ScannedSource> sources = {Source({
      SourceTest("S", "Passes", {"a.b.c1"}),
      SourceTest("S", "Fails", {"a.b.c2"}),
      SourceTest("S", "Unsupported", {"a.b.c3"}),
      SourceTest("S", "NeverRan", {"a.b.c4"}),
      SourceTest("S", "DISABLED_Planned", {"a.b.c5"}),
  })};
  std::vector<BackendResults> backends = {
      {"reference",
       {
           Result("S.Passes", Outcome::kPassed),
           Result("S.Fails", Outcome::kFailed),
           Result("S.Unsupported", Outcome::kUnsupported),
           Result("S.DISABLED_Planned", Outcome::kDisabled),
       }}};
  CoverageModel model = BuildCoverage(index, sources, backends);
  EXPECT_THAT(model.problems, IsEmpty());
  EXPECT_EQ(ClauseAt(model, 0).status[0], ClauseStatus::kPassing);
  EXPECT_EQ(ClauseAt(model, 1).status[0], ClauseStatus::kFailing);
  EXPECT_EQ(ClauseAt(model, 2).status[0], ClauseStatus::kUnsupported);
  EXPECT_EQ(ClauseAt(model, 3).status[0], ClauseStatus::kNotRun);
  EXPECT_EQ(ClauseAt(model, 4).status[0], ClauseStatus::kPlanned);
  EXPECT_FALSE(ClauseAt(model, 4).covered);
  // An unsupported clause is covered but not passing.
  EXPECT_TRUE(ClauseAt(model, 2).covered);
  EXPECT_FALSE(ClauseAt(model, 2).passing);
  ASSERT_EQ(ClauseAt(model, 1).tests.size(), 1u);
  EXPECT_EQ(ClauseAt(model, 1).tests[0].messages.at("reference"),
            "x_test.cc:9 failed");
  EXPECT_EQ(ClauseAt(model, 1).tests[0].location, "conformance/x_test.cc:7");

  EXPECT_EQ(model.totals.total, 6);
  EXPECT_EQ(model.totals.testable, 5);
  EXPECT_EQ(model.totals.covered, 4);
  EXPECT_EQ(model.totals.passing, 1);
  EXPECT_EQ(model.totals.by_backend[0].at(ClauseStatus::kFailing), 1);
}

TEST(BuildCoverage, OneFailingTestMakesTheClauseFailing) {
  SpecIndex index = MakeIndex(1);
  std::vector<ScannedSource> sources = {Source(
      {SourceTest("S", "A", {"a.b.c1"}), SourceTest("S", "B", {"a.b.c1"})})};
  CoverageModel model = BuildCoverage(
      index, sources,
      {{"reference",
        {Result("S.A", Outcome::kPassed), Result("S.B", Outcome::kFailed)}}});
  EXPECT_EQ(ClauseAt(model, 0).status[0], ClauseStatus::kFailing);
  // Control: without the failure the clause passes.
  model = BuildCoverage(
      index, sources,
      {{"reference",
        {Result("S.A", Outcome::kPassed), Result("S.B", Outcome::kPassed)}}});
  EXPECT_EQ(ClauseAt(model, 0).status[0], ClauseStatus::kPassing);
}

TEST(BuildCoverage, PassingMeansPassingOnEveryBackend) {
  SpecIndex index = MakeIndex(1);
  std::vector<ScannedSource> sources = {
      Source({SourceTest("S", "A", {"a.b.c1"})})};
  CoverageModel model =
      BuildCoverage(index, sources,
                    {{"reference", {Result("S.A", Outcome::kPassed)}},
                     {"vendor", {Result("S.A", Outcome::kUnsupported)}}});
  EXPECT_EQ(ClauseAt(model, 0).status,
            (std::vector<ClauseStatus>{ClauseStatus::kPassing,
                                       ClauseStatus::kUnsupported}));
  EXPECT_FALSE(ClauseAt(model, 0).passing);
  EXPECT_EQ(model.totals.passing, 0);
  EXPECT_EQ(model.totals.covered, 1);
}

TEST(BuildCoverage, ParameterisedInstancesJoinTheirSourceTest) {
  SpecIndex index = MakeIndex(1);
  std::vector<ScannedSource> sources = {
      Source({SourceTest("Sizes", "CopiesAll", {"a.b.c1"})})};
  CoverageModel model = BuildCoverage(
      index, sources,
      {{"reference",
        {Result("AllSizes/Sizes.CopiesAll/0", Outcome::kPassed),
         Result("AllSizes/Sizes.CopiesAll/1", Outcome::kFailed),
         Result("AllSizes/Sizes.CopiesAll/2", Outcome::kPassed)}}});
  ASSERT_EQ(ClauseAt(model, 0).tests.size(), 1u);
  EXPECT_EQ(ClauseAt(model, 0).tests[0].name, "Sizes.CopiesAll");
  EXPECT_EQ(ClauseAt(model, 0).status[0], ClauseStatus::kFailing);
}

TestCaseResult KnownFailure(const std::string& name) {
  TestCaseResult result = Result(name, Outcome::kFailed);
  result.expectation = "known failure: the wave is 32 lanes";
  return result;
}

TEST(BuildCoverage, KnownFailuresMakeAnExpectedFailureNotAFailure) {
  SpecIndex index = MakeIndex(1);
  std::vector<ScannedSource> sources = {Source(
      {SourceTest("S", "A", {"a.b.c1"}), SourceTest("S", "B", {"a.b.c1"})})};
  CoverageModel model = BuildCoverage(
      index, sources,
      {{"cuda", {Result("S.A", Outcome::kPassed), KnownFailure("S.B")}}});
  EXPECT_EQ(ClauseAt(model, 0).status[0], ClauseStatus::kExpectedFailure);
  EXPECT_FALSE(ClauseAt(model, 0).passing);
  EXPECT_EQ(model.totals.by_backend[0].at(ClauseStatus::kExpectedFailure), 1);
  const LinkedTest& b = ClauseAt(model, 0).tests.at(1);
  EXPECT_EQ(TestOutcomeName(b, "cuda", b.outcomes.at("cuda")),
            "expected-failure");
  EXPECT_EQ(b.messages.at("cuda"),
            "known failure: the wave is 32 lanes\nx_test.cc:9 failed");
  // Control: an unexpected failure beside it makes the clause failing.
  model = BuildCoverage(
      index, sources,
      {{"cuda", {Result("S.A", Outcome::kFailed), KnownFailure("S.B")}}});
  EXPECT_EQ(ClauseAt(model, 0).status[0], ClauseStatus::kFailing);
}

TEST(BuildCoverage, OneUnexpectedlyFailingInstanceMakesTheTestFail) {
  SpecIndex index = MakeIndex(1);
  std::vector<ScannedSource> sources = {
      Source({SourceTest("Sizes", "CopiesAll", {"a.b.c1"})})};
  // Whichever order the instances come in.
  for (bool known_first : {true, false}) {
    std::vector<TestCaseResult> results = {
        KnownFailure("AllSizes/Sizes.CopiesAll/0"),
        Result("AllSizes/Sizes.CopiesAll/1", Outcome::kFailed)};
    if (!known_first) std::swap(results[0], results[1]);
    CoverageModel model = BuildCoverage(index, sources, {{"cuda", results}});
    EXPECT_EQ(ClauseAt(model, 0).status[0], ClauseStatus::kFailing);
    EXPECT_EQ(ClauseAt(model, 0).tests[0].messages.at("cuda"),
              "x_test.cc:9 failed");
  }
  // Control: every failed instance known, one passing.
  CoverageModel model =
      BuildCoverage(index, sources,
                    {{"cuda",
                      {KnownFailure("AllSizes/Sizes.CopiesAll/0"),
                       Result("AllSizes/Sizes.CopiesAll/1", Outcome::kPassed),
                       KnownFailure("AllSizes/Sizes.CopiesAll/2")}}});
  EXPECT_EQ(ClauseAt(model, 0).status[0], ClauseStatus::kExpectedFailure);
}

TEST(BuildCoverage, StatusDiffersWhenTheBackendsDisagree) {
  SpecIndex index = MakeIndex(2);
  std::vector<ScannedSource> sources = {Source(
      {SourceTest("S", "A", {"a.b.c1"}), SourceTest("S", "B", {"a.b.c2"})})};
  CoverageModel model = BuildCoverage(
      index, sources,
      {{"reference",
        {Result("S.A", Outcome::kPassed), Result("S.B", Outcome::kPassed)}},
       {"cuda",
        {Result("S.A", Outcome::kPassed), Result("S.B", Outcome::kFailed)}}});
  EXPECT_TRUE(StatusDiffers(ClauseAt(model, 1)));
  // Control: the clause both pass does not differ.
  EXPECT_FALSE(StatusDiffers(ClauseAt(model, 0)));
  // With one backend nothing differs.
  model = BuildCoverage(index, sources,
                        {{"cuda", {Result("S.B", Outcome::kFailed)}}});
  EXPECT_FALSE(StatusDiffers(ClauseAt(model, 1)));
}

TEST(BuildCoverage, ResultPropertiesLinkTestsWithoutSources) {
  SpecIndex index = MakeIndex(1);
  CoverageModel model =
      BuildCoverage(index, {},
                    {{"vendor",
                      {Result("Other.Test", Outcome::kPassed, {"a.b.c1"}),
                       Result("NotConformance.Test", Outcome::kPassed)}}});
  ASSERT_EQ(ClauseAt(model, 0).tests.size(), 1u);
  EXPECT_EQ(ClauseAt(model, 0).tests[0].name, "Other.Test");
  EXPECT_EQ(ClauseAt(model, 0).status[0], ClauseStatus::kPassing);
  EXPECT_EQ(model.results_read, 2);
}

TEST(BuildCoverage, AliasesResolveAndUnknownIdsAreProblems) {
  SpecIndex index = MakeIndex(1);
  std::vector<ScannedSource> sources = {
      Source({SourceTest("S", "Old", {"a.b.old"}),
              SourceTest("S", "Bad", {"a.b.nope"})})};
  CoverageModel model = BuildCoverage(index, sources, {});
  ASSERT_EQ(ClauseAt(model, 0).tests.size(), 1u);
  EXPECT_EQ(ClauseAt(model, 0).tests[0].name, "S.Old");
  EXPECT_THAT(model.problems,
              ElementsAre(HasSubstr("test S.Bad (conformance/x_test.cc:7) "
                                    "names 'a.b.nope', which is not a "
                                    "clause")));
  // With no backend, a covered clause is not passing.
  EXPECT_TRUE(ClauseAt(model, 0).covered);
  EXPECT_FALSE(ClauseAt(model, 0).passing);
}

TEST(BuildCoverage, UntestableClausesAreCountedApart) {
  SpecIndex index = MakeIndex(1);
  std::vector<ScannedSource> sources = {
      Source({SourceTest("S", "A", {"a.b.c2"})})};
  CoverageModel model =
      BuildCoverage(index, sources, {{"r", {Result("S.A", Outcome::kPassed)}}});
  EXPECT_EQ(model.totals.total, 2);
  EXPECT_EQ(model.totals.testable, 1);
  EXPECT_EQ(model.totals.covered, 0);
  EXPECT_EQ(model.chapters[0].counts.testable, 1);
}

mutate::MutantResult Mutant(const std::string& chapter,
                            mutate::MutantStatus status) {
  mutate::MutantResult result;
  result.id = "reference/x.cc:1:negate";
  result.chapter = chapter;
  result.status = status;
  return result;
}

TEST(AddMutationResults, CountsEachChapterAndTheTotals) {
  SpecIndex index = MakeIndex(1);
  CoverageModel model = BuildCoverage(index, {}, {});
  EXPECT_FALSE(model.has_mutation);
  AddMutationResults({Mutant("a", mutate::MutantStatus::kKilled),
                      Mutant("a", mutate::MutantStatus::kSurvived),
                      Mutant("a", mutate::MutantStatus::kNoTests)},
                     &model);
  EXPECT_TRUE(model.has_mutation);
  ASSERT_EQ(model.chapters.size(), 1u);
  EXPECT_EQ(model.chapters[0].mutation.killed, 1);
  EXPECT_EQ(model.chapters[0].mutation.survived, 1);
  EXPECT_EQ(model.chapters[0].mutation.no_tests, 1);
  EXPECT_DOUBLE_EQ(*model.chapters[0].mutation.Score(), 0.5);
  EXPECT_EQ(model.mutation_totals.total, 3);
  EXPECT_THAT(model.problems, IsEmpty());
}

TEST(AddMutationResults, UnknownChapterCountsInTotalsAndIsAProblem) {
  SpecIndex index = MakeIndex(1);
  CoverageModel model = BuildCoverage(index, {}, {});
  AddMutationResults({Mutant("gone", mutate::MutantStatus::kKilled)}, &model);
  EXPECT_EQ(model.chapters[0].mutation.total, 0);
  EXPECT_EQ(model.mutation_totals.killed, 1);
  EXPECT_THAT(model.problems,
              ElementsAre(HasSubstr("chapter \"gone\", which is not")));
}

}  // namespace
}  // namespace mxcts::spec
