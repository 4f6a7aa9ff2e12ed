#include "tools/mutate/results.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mxcts::mutate {
namespace {

using ::testing::HasSubstr;

MutantResult Result(const std::string& id, const std::string& chapter,
                    MutantStatus status) {
  MutantResult result;
  result.id = id;
  result.file = "a.cc";
  result.line = 3;
  result.op = "negate";
  result.clauses = {"api.a.b", "api.a.c"};
  result.chapter = chapter;
  result.status = status;
  result.seconds = 12.25;
  result.targets = {"//x:y", "//x:z"};
  return result;
}

TEST(ResultsTest, FormatAndParseRoundTrip) {
  std::string text =
      ResultsHeader() +
      FormatResult(Result("a.cc:3:negate", "api-a", MutantStatus::kKilled)) +
      FormatResult(Result("a.cc:3:skip", "api-a", MutantStatus::kNoTests));
  absl::StatusOr<std::vector<MutantResult>> parsed =
      ParseResults("r.tsv", text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->size(), 2u);
  EXPECT_EQ((*parsed)[0].id, "a.cc:3:negate");
  EXPECT_EQ((*parsed)[0].line, 3);
  EXPECT_EQ((*parsed)[0].clauses.size(), 2u);
  EXPECT_EQ((*parsed)[0].status, MutantStatus::kKilled);
  EXPECT_EQ((*parsed)[1].status, MutantStatus::kNoTests);
  EXPECT_EQ((*parsed)[1].targets.back(), "//x:z");
}

TEST(ResultsTest, MalformedFilesAreNamedWithTheLine) {
  absl::StatusOr<std::vector<MutantResult>> parsed =
      ParseResults("r.tsv", "id\tfile\n");
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.status().message(), HasSubstr("r.tsv:1:"));
  parsed = ParseResults("r.tsv", ResultsHeader() + "a\tb\n");
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.status().message(), HasSubstr("r.tsv:2: expected 9"));
  parsed = ParseResults("r.tsv",
                        ResultsHeader() + "a\tb\t1\tnegate\t\t\tdead\t1\t\n");
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.status().message(), HasSubstr("unknown status \"dead\""));
}

TEST(ResultsTest, ScoreIsKilledOverKilledAndSurvived) {
  std::vector<MutantResult> results = {
      Result("1", "api-a", MutantStatus::kKilled),
      Result("2", "api-a", MutantStatus::kKilled),
      Result("3", "api-a", MutantStatus::kKilled),
      Result("4", "api-a", MutantStatus::kSurvived),
      Result("5", "api-a", MutantStatus::kNoTests),
      Result("6", "api-a", MutantStatus::kBuildError),
      Result("7", "api-b", MutantStatus::kNoTests),
  };
  std::map<std::string, MutationCounts> counts = CountsByChapter(results);
  EXPECT_EQ(counts["api-a"].total, 6);
  EXPECT_EQ(counts["api-a"].no_tests, 1);
  EXPECT_EQ(counts["api-a"].build_errors, 1);
  EXPECT_DOUBLE_EQ(*counts["api-a"].Score(), 0.75);
  EXPECT_EQ(FormatScore(counts["api-a"]), "75.0%");
  // Control: a chapter with no killed or surviving mutant has no score.
  EXPECT_FALSE(counts["api-b"].Score().has_value());
  EXPECT_EQ(FormatScore(counts["api-b"]), "-");
  const std::string table = SummaryTable(results);
  EXPECT_THAT(table, HasSubstr("api-a"));
  EXPECT_THAT(table, HasSubstr("75.0%"));
}

TEST(ResultsTest, EquivalentMutantsRoundTripAndDoNotCount) {
  std::string text =
      ResultsHeader() +
      FormatResult(Result("a.cc:3:skip", "api-a", MutantStatus::kEquivalent));
  absl::StatusOr<std::vector<MutantResult>> parsed =
      ParseResults("r.tsv", text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].status, MutantStatus::kEquivalent);
  std::vector<MutantResult> results = *parsed;
  results.push_back(Result("1", "api-a", MutantStatus::kKilled));
  MutationCounts counts = CountsByChapter(results)["api-a"];
  EXPECT_EQ(counts.equivalent, 1);
  EXPECT_DOUBLE_EQ(*counts.Score(), 1.0);
  // Control: the same mutant surviving halves the score.
  results[0].status = MutantStatus::kSurvived;
  EXPECT_DOUBLE_EQ(*CountsByChapter(results)["api-a"].Score(), 0.5);
}

}  // namespace
}  // namespace mxcts::mutate
