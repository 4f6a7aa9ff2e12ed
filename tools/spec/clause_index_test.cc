// Tests of the clause index: cross-chapter duplicates, aliases, the lock of
// published IDs, resolution, and the JSON and ID-list outputs.
#include "tools/spec/clause_index.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::spec {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string Chapter(const std::string& prefix,
                    const std::vector<std::string>& ids) {
  std::string text = "# Chapter\n\nClause prefix: `" + prefix + "`\n";
  for (const std::string& id : ids) {
    text += "\n### " + id +
            "\n\nA statement.\n\n- kind: requirement\n"
            "- testability: testable\n- source: seed 001\n";
  }
  return text;
}

SpecSources TwoChapters() {
  SpecSources sources;
  sources.chapters.push_back(
      {"spec/api-stream.md",
       Chapter("api.stream", {"api.stream.sync.waits",
                              "api.stream.query.reports-not-ready"})});
  sources.chapters.push_back(
      {"spec/api-event.md", Chapter("api.event", {"api.event.sync.waits"})});
  sources.aliases.path = "spec/aliases.txt";
  sources.lock.path = "spec/clauses.lock";
  return sources;
}

std::vector<std::string> Messages(const std::vector<Diagnostic>& problems) {
  std::vector<std::string> messages;
  for (const Diagnostic& problem : problems) {
    messages.push_back(problem.ToString());
  }
  return messages;
}

TEST(SpecIndex, CleanSpecHasNoProblemsAndFindsClauses) {
  std::vector<Diagnostic> problems;
  SpecIndex index = BuildSpecIndex(TwoChapters(), &problems);
  EXPECT_THAT(Messages(problems), IsEmpty());
  EXPECT_EQ(index.clause_count(), 3);
  // Chapters are sorted by path.
  ASSERT_EQ(index.chapters().size(), 2u);
  EXPECT_EQ(index.chapters()[0].name, "api-event");
  const Clause* clause = index.Find("api.stream.sync.waits");
  ASSERT_NE(clause, nullptr);
  EXPECT_EQ(clause->file, "spec/api-stream.md");
  EXPECT_EQ(index.Find("api.stream.sync.missing"), nullptr);
}

TEST(SpecIndex, DuplicateAcrossChaptersNamesBothPlaces) {
  SpecSources sources = TwoChapters();
  sources.chapters.push_back(
      {"spec/api-stream-more.md",
       Chapter("api.stream", {"api.stream.sync.waits"})});
  std::vector<Diagnostic> problems;
  BuildSpecIndex(sources, &problems);
  EXPECT_THAT(Messages(problems),
              ElementsAre(HasSubstr("spec/api-stream.md:5: duplicate clause ID "
                                    "'api.stream.sync.waits', first defined at "
                                    "spec/api-stream-more.md:5")));
}

TEST(SpecIndex, PublishedIdThatVanishedWithoutAliasIsReported) {
  SpecSources sources = TwoChapters();
  sources.lock.text = "api.stream.sync.waits\napi.stream.sync.old-name\n";
  std::vector<Diagnostic> problems;
  BuildSpecIndex(sources, &problems);
  EXPECT_THAT(Messages(problems),
              ElementsAre(HasSubstr("clause 'api.stream.sync.old-name' was "
                                    "published but is no longer in the "
                                    "spec")));
}

TEST(SpecIndex, AliasKeepsARenamedIdReferable) {
  SpecSources sources = TwoChapters();
  sources.lock.text = "api.stream.sync.old-name\n";
  sources.aliases.text =
      "# comment\napi.stream.sync.old-name -> api.stream.sync.waits\n";
  std::vector<Diagnostic> problems;
  SpecIndex index = BuildSpecIndex(sources, &problems);
  EXPECT_THAT(Messages(problems), IsEmpty());
  const Clause* clause = index.Resolve("api.stream.sync.old-name");
  ASSERT_NE(clause, nullptr);
  EXPECT_EQ(clause->id, "api.stream.sync.waits");
  EXPECT_THAT(index.ReferableIds(), HasSubstr("api.stream.sync.old-name\n"));
}

TEST(SpecIndex, RetiredIdSatisfiesTheLockButResolvesToNothing) {
  SpecSources sources = TwoChapters();
  sources.lock.text = "api.stream.sync.gone\n";
  sources.aliases.text = "api.stream.sync.gone -> retired: merged away\n";
  std::vector<Diagnostic> problems;
  SpecIndex index = BuildSpecIndex(sources, &problems);
  EXPECT_THAT(Messages(problems), IsEmpty());
  EXPECT_EQ(index.Resolve("api.stream.sync.gone"), nullptr);
  EXPECT_THAT(index.ReferableIds(),
              ::testing::Not(HasSubstr("api.stream.sync.gone")));
}

TEST(SpecIndex, BadAliasesAreReported) {
  SpecSources sources = TwoChapters();
  sources.aliases.text =
      "api.stream.sync.a -> api.stream.sync.nowhere\n"   // unknown target
      "api.stream.sync.waits -> api.event.sync.waits\n"  // still live
      "api.stream.sync.x -> api.stream.sync.y\n"         // loop with next
      "api.stream.sync.y -> api.stream.sync.x\n"
      "no arrow here\n"
      "api.stream.sync.z -> retired:\n";
  std::vector<Diagnostic> problems;
  BuildSpecIndex(sources, &problems);
  EXPECT_THAT(
      Messages(problems),
      ElementsAre(HasSubstr("aliases.txt:5: expected 'old.id -> new.id'"),
                  HasSubstr("aliases.txt:6: a retired ID needs a reason"),
                  HasSubstr("aliases.txt:2: 'api.stream.sync.waits' is "
                            "aliased but is still a clause"),
                  HasSubstr("aliases.txt:1: alias 'api.stream.sync.a -> "
                            "api.stream.sync.nowhere' leads to no clause"),
                  HasSubstr("aliases.txt:3: alias"),
                  HasSubstr("aliases.txt:4: alias")));
}

TEST(SpecIndex, MalformedLockLineIsReported) {
  SpecSources sources = TwoChapters();
  sources.lock.text = "Not An Id\n";
  std::vector<Diagnostic> problems;
  BuildSpecIndex(sources, &problems);
  EXPECT_THAT(Messages(problems),
              ElementsAre(HasSubstr("clauses.lock:1: malformed clause ID")));
}

TEST(SpecIndex, EmptyChapterAndEmptySpecAreReported) {
  SpecSources empty;
  std::vector<Diagnostic> problems;
  BuildSpecIndex(empty, &problems);
  EXPECT_THAT(Messages(problems), ElementsAre(HasSubstr("no chapter files")));

  SpecSources sources = TwoChapters();
  sources.chapters.push_back(
      {"spec/api-graph.md", "# Graphs\n\nClause prefix: `api.graph`\n"});
  problems.clear();
  BuildSpecIndex(sources, &problems);
  EXPECT_THAT(Messages(problems),
              ElementsAre(HasSubstr("api-graph.md: the chapter has no "
                                    "clauses")));
}

TEST(SpecIndex, UpdatedLockAddsLiveIdsAndKeepsOldOnes) {
  SpecSources sources = TwoChapters();
  sources.lock.text = "api.stream.sync.gone\n";
  sources.aliases.text = "api.stream.sync.gone -> retired: merged\n";
  std::vector<Diagnostic> problems;
  SpecIndex index = BuildSpecIndex(sources, &problems);
  std::string lock = index.UpdatedLock();
  EXPECT_THAT(lock, HasSubstr("api.event.sync.waits\n"
                              "api.stream.query.reports-not-ready\n"
                              "api.stream.sync.gone\n"
                              "api.stream.sync.waits\n"));
}

TEST(SpecIndex, JsonHoldsChaptersClausesAndFields) {
  SpecSources sources = TwoChapters();
  sources.aliases.text = "api.stream.sync.old -> api.stream.sync.waits\n";
  std::vector<Diagnostic> problems;
  SpecIndex index = BuildSpecIndex(sources, &problems);
  std::string json = index.ToJson();
  EXPECT_THAT(json, HasSubstr("\"clause_count\": 3"));
  EXPECT_THAT(json, HasSubstr("\"name\": \"api-stream\""));
  EXPECT_THAT(json, HasSubstr("\"id\": \"api.stream.sync.waits\""));
  EXPECT_THAT(json, HasSubstr("\"kind\": \"requirement\""));
  EXPECT_THAT(json, HasSubstr("\"old\": \"api.stream.sync.old\""));
}

TEST(SpecIndex, LoadSpecDirectoryReadsChaptersAliasesAndLock) {
  std::vector<Diagnostic> problems;
  absl::StatusOr<SpecIndex> index =
      LoadSpecDirectory("tools/spec/testdata/spec/good", &problems);
  ASSERT_TRUE(index.ok()) << index.status();
  EXPECT_THAT(Messages(problems), IsEmpty());
  EXPECT_EQ(index->clause_count(), 2);
  EXPECT_NE(index->Resolve("api.stream.create.old-name"), nullptr);
}

TEST(SpecIndex, LoadSpecDirectoryReportsAMalformedFileByNameAndLine) {
  std::vector<Diagnostic> problems;
  absl::StatusOr<SpecIndex> index =
      LoadSpecDirectory("tools/spec/testdata/spec/malformed", &problems);
  ASSERT_TRUE(index.ok()) << index.status();
  EXPECT_THAT(Messages(problems),
              ElementsAre(HasSubstr("tools/spec/testdata/spec/malformed/"
                                    "api-stream.md:5: malformed clause ID "
                                    "'api.stream.Create'")));
}

TEST(SpecIndex, LoadSpecDirectoryFailsOnAMissingDirectory) {
  std::vector<Diagnostic> problems;
  absl::StatusOr<SpecIndex> index =
      LoadSpecDirectory("tools/spec/testdata/spec/missing", &problems);
  ASSERT_FALSE(index.ok());
  EXPECT_THAT(std::string(index.status().message()),
              HasSubstr("tools/spec/testdata/spec/missing"));
}

}  // namespace
}  // namespace mxcts::spec
