// Tests of the chapter parser: a well-formed chapter, then one test per
// problem the lint must report, each naming the file and line.
#include "tools/spec/spec_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::spec {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

constexpr char kGoodChapter[] = R"(# Streams

Streams order work.

Clause prefix: `api.stream`, `api.callback`

## Creating streams

### api.stream.create.returns-distinct-handles

Two successful calls of `mcStreamCreate` return different handles.
A second line of the statement.

- kind: requirement
- testability: testable
- source: seed 001 (runtime guide), "streams"

### api.stream.create.null-pointer-is-invalid-value

`mcStreamCreate(nullptr)` returns `mcErrorInvalidValue`.

- kind: error
- error: mcErrorInvalidValue
- testability: testable
- source: CUDA semantics of cudaStreamCreate

## Callbacks

```markdown
### this.is.an-example-in-a-code-block
```

### api.callback.priority.is-a-hint

The scheduler may ignore priorities.

- kind: implementation-defined
- testability: untestable: no program can observe scheduling priority
- source: CUDA semantics of cudaStreamCreateWithPriority
)";

std::vector<std::string> Messages(const std::vector<Diagnostic>& problems) {
  std::vector<std::string> messages;
  for (const Diagnostic& problem : problems) {
    messages.push_back(problem.ToString());
  }
  return messages;
}

// Parses `text` as docs/spec/api-stream.md and returns the diagnostics.
std::vector<std::string> Problems(const std::string& text) {
  std::vector<Diagnostic> problems;
  ParseChapter("docs/spec/api-stream.md", text, &problems);
  return Messages(problems);
}

// Returns a one-clause chapter with `body` under the clause heading `id`.
std::string OneClause(const std::string& id, const std::string& body) {
  return "# Streams\n\nClause prefix: `api.stream`\n\n### " + id + "\n\n" +
         body;
}

constexpr char kGoodBody[] =
    "A statement.\n\n- kind: requirement\n- testability: testable\n"
    "- source: seed 001\n";

TEST(ParseChapter, ReadsTitlePrefixesSectionsAndClauses) {
  std::vector<Diagnostic> problems;
  Chapter chapter =
      ParseChapter("docs/spec/api-stream.md", kGoodChapter, &problems);
  EXPECT_THAT(Messages(problems), IsEmpty());
  EXPECT_EQ(chapter.name, "api-stream");
  EXPECT_EQ(chapter.title, "Streams");
  EXPECT_THAT(chapter.prefixes, ElementsAre("api.stream", "api.callback"));
  ASSERT_THAT(chapter.clauses, SizeIs(3));

  const Clause& first = chapter.clauses[0];
  EXPECT_EQ(first.id, "api.stream.create.returns-distinct-handles");
  EXPECT_EQ(first.line, 9);
  EXPECT_EQ(first.section, "Creating streams");
  EXPECT_EQ(first.statement,
            "Two successful calls of `mcStreamCreate` return different "
            "handles.\nA second line of the statement.");
  EXPECT_EQ(first.kind, ClauseKind::kRequirement);
  EXPECT_TRUE(first.testable);
  EXPECT_EQ(first.source, "seed 001 (runtime guide), \"streams\"");

  const Clause& error = chapter.clauses[1];
  EXPECT_EQ(error.kind, ClauseKind::kError);
  EXPECT_EQ(error.error, "mcErrorInvalidValue");

  // The heading inside the code block is not a clause.
  const Clause& untestable = chapter.clauses[2];
  EXPECT_EQ(untestable.id, "api.callback.priority.is-a-hint");
  EXPECT_EQ(untestable.section, "Callbacks");
  EXPECT_EQ(untestable.kind, ClauseKind::kImplementationDefined);
  EXPECT_FALSE(untestable.testable);
  EXPECT_EQ(untestable.untestable_reason,
            "no program can observe scheduling priority");
}

TEST(ParseChapter, WellFormedOneClauseChapterIsTheControl) {
  EXPECT_THAT(Problems(OneClause("api.stream.sync.waits", kGoodBody)),
              IsEmpty());
}

TEST(ParseChapter, MalformedIdNamesFileAndLine) {
  EXPECT_THAT(
      Problems(OneClause("api.stream.Sync_Waits", kGoodBody)),
      ElementsAre(HasSubstr("docs/spec/api-stream.md:5: malformed clause ID "
                            "'api.stream.Sync_Waits'")));
}

TEST(ParseChapter, IdWithTwoComponentsIsMalformed) {
  EXPECT_THAT(Problems(OneClause("api.stream", kGoodBody)),
              ElementsAre(HasSubstr("malformed clause ID")));
}

TEST(ParseChapter, IdOutsideTheChapterPrefixesIsReported) {
  EXPECT_THAT(Problems(OneClause("api.event.sync.waits", kGoodBody)),
              ElementsAre(HasSubstr("does not start with a prefix")));
}

TEST(ParseChapter, MissingFieldsAreEachReported) {
  EXPECT_THAT(Problems(OneClause("api.stream.sync.waits", "A statement.\n")),
              ElementsAre(HasSubstr("missing field 'kind'"),
                          HasSubstr("missing field 'testability'"),
                          HasSubstr("missing field 'source'")));
}

TEST(ParseChapter, EmptyStatementIsReported) {
  EXPECT_THAT(
      Problems(OneClause("api.stream.sync.waits",
                         "- kind: requirement\n- testability: testable\n"
                         "- source: seed 001\n")),
      ElementsAre(HasSubstr("5: clause api.stream.sync.waits: the "
                            "statement is empty")));
}

TEST(ParseChapter, ErrorKindNeedsErrorField) {
  EXPECT_THAT(Problems(OneClause("api.stream.sync.bad-handle",
                                 "A statement.\n\n- kind: error\n"
                                 "- testability: testable\n- source: s\n")),
              ElementsAre(HasSubstr("needs an 'error' field")));
}

TEST(ParseChapter, ErrorFieldOnlyWithErrorKind) {
  EXPECT_THAT(
      Problems(OneClause("api.stream.sync.waits",
                         "A statement.\n\n- kind: requirement\n"
                         "- error: mcErrorInvalidValue\n"
                         "- testability: testable\n- source: s\n")),
      ElementsAre(HasSubstr("belongs only to a clause of kind 'error'")));
}

TEST(ParseChapter, ErrorFieldMustNameAnEnumerator) {
  EXPECT_THAT(Problems(OneClause("api.stream.sync.bad-handle",
                                 "A statement.\n\n- kind: error\n"
                                 "- error: cudaErrorInvalidValue\n"
                                 "- testability: testable\n- source: s\n")),
              ElementsAre(HasSubstr("10: clause api.stream.sync.bad-handle: "
                                    "error 'cudaErrorInvalidValue'")));
}

TEST(ParseChapter, UnknownKindFieldAndTestabilityAreReported) {
  EXPECT_THAT(Problems(OneClause("api.stream.sync.waits",
                                 "A statement.\n\n- kind: must\n"
                                 "- testability: maybe\n- source: s\n"
                                 "- owner: me\n")),
              ElementsAre(HasSubstr("unknown kind 'must'"),
                          HasSubstr("testability must be"),
                          HasSubstr("unknown field 'owner'")));
}

TEST(ParseChapter, UntestableNeedsAReason) {
  EXPECT_THAT(Problems(OneClause("api.stream.sync.waits",
                                 "A statement.\n\n- kind: requirement\n"
                                 "- testability: untestable:\n"
                                 "- source: s\n")),
              ElementsAre(HasSubstr("testability must be")));
}

TEST(ParseChapter, DuplicateFieldIsReported) {
  EXPECT_THAT(Problems(OneClause("api.stream.sync.waits",
                                 std::string(kGoodBody) + "- source: again\n")),
              ElementsAre(HasSubstr("field 'source' given twice")));
}

TEST(ParseChapter, TextAfterTheFieldListIsInformative) {
  std::vector<Diagnostic> problems;
  Chapter chapter = ParseChapter(
      "docs/spec/api-stream.md",
      OneClause("api.stream.sync.waits",
                std::string(kGoodBody) + "\nA note for readers.\n"),
      &problems);
  EXPECT_THAT(Messages(problems), IsEmpty());
  ASSERT_THAT(chapter.clauses, SizeIs(1));
  EXPECT_EQ(chapter.clauses[0].statement, "A statement.");
}

TEST(ParseChapter, MissingTitleAndPrefixLineAreReported) {
  EXPECT_THAT(Problems("Streams\n"),
              ElementsAre(HasSubstr("api-stream.md:1: the first line must be "
                                    "the chapter title"),
                          HasSubstr("no 'Clause prefix:' line")));
}

TEST(ParseChapter, UnexpectedHeadingLevelIsReported) {
  EXPECT_THAT(Problems("# Streams\n\nClause prefix: `api.stream`\n\n# Again\n"),
              ElementsAre(HasSubstr("5: unexpected heading level")));
}

TEST(ParseChapter, UnterminatedCodeBlockIsReported) {
  EXPECT_THAT(Problems("# Streams\n\nClause prefix: `api.stream`\n\n```\n"),
              ElementsAre(HasSubstr("unterminated ``` code block")));
}

TEST(IsWellFormedClauseId, AcceptsAndRejects) {
  EXPECT_TRUE(IsWellFormedClauseId("lang.launch.config-evaluated-before-args"));
  EXPECT_TRUE(IsWellFormedClauseId("api.memory.malloc-3d.zero-extent"));
  EXPECT_FALSE(IsWellFormedClauseId("lang.launch"));
  EXPECT_FALSE(IsWellFormedClauseId("lang.launch.Config"));
  EXPECT_FALSE(IsWellFormedClauseId("lang..launch.x"));
  EXPECT_FALSE(IsWellFormedClauseId("lang.launch.-x"));
  EXPECT_FALSE(IsWellFormedClauseId("lang.launch.x--y"));
  EXPECT_FALSE(IsWellFormedClauseId("lang.launch.x_y"));
  EXPECT_FALSE(IsWellFormedClauseId("4.2.1"));
}

}  // namespace
}  // namespace mxcts::spec
