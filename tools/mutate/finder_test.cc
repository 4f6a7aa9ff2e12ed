#include "tools/mutate/finder.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mxcts::mutate {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::string ReadTestdata(const std::string& name) {
  std::ifstream in("tools/mutate/testdata/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const TaggedCheck* CheckAt(const std::vector<TaggedCheck>& checks, int line) {
  for (const TaggedCheck& check : checks) {
    if (check.line == line) return &check;
  }
  return nullptr;
}

class FinderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    text_ = ReadTestdata("checks.cc");
    ASSERT_FALSE(text_.empty());
    checks_ = FindTaggedChecks("checks.cc", text_);
  }
  std::string Condition(const TaggedCheck& check) const {
    return text_.substr(check.begin, check.end - check.begin);
  }
  std::string text_;
  std::vector<TaggedCheck> checks_;
};

TEST(ClauseTagsInTest, FindsBracketedIdsOnly) {
  EXPECT_THAT(ClauseTagsIn("// [api.a.b] and [api.c.d-e] [api.a.b]"),
              ElementsAre("api.a.b", "api.c.d-e"));
  // Controls: two components, capitals or no brackets are no tags.
  EXPECT_THAT(ClauseTagsIn("// [api.a] [Api.b.c] api.d.e x[0]"), IsEmpty());
}

TEST_F(FinderTest, TrailingTagOnTheIfLine) {
  const TaggedCheck* check = CheckAt(checks_, 5);
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->kind, CheckKind::kIf);
  EXPECT_THAT(check->clauses, ElementsAre("fix.alpha.size-zero"));
  EXPECT_EQ(Condition(*check), "size == 0");
}

TEST_F(FinderTest, TagInTheCommentLinesAbove) {
  const TaggedCheck* check = CheckAt(checks_, 14);
  ASSERT_NE(check, nullptr);
  EXPECT_THAT(check->clauses, ElementsAre("fix.alpha.null-pointer"));
  EXPECT_EQ(Condition(*check), "ptr == nullptr");
}

TEST_F(FinderTest, TagsOpeningTheBody) {
  const TaggedCheck* check = CheckAt(checks_, 21);
  ASSERT_NE(check, nullptr);
  EXPECT_THAT(check->clauses, ElementsAre("fix.alpha.invalid-flags",
                                          "fix.beta.flags-checked-first"));
  EXPECT_EQ(Condition(*check), "(flags & ~3) != 0");
}

TEST_F(FinderTest, MultiLineConditionTaggedAtItsEnd) {
  const TaggedCheck* check = CheckAt(checks_, 30);
  ASSERT_NE(check, nullptr);
  EXPECT_THAT(check->clauses, ElementsAre("fix.alpha.ordered"));
  EXPECT_EQ(Condition(*check), "a > b &&\n      b > 0");
}

TEST_F(FinderTest, UntaggedIfIsNoCheck) {
  EXPECT_EQ(CheckAt(checks_, 39), nullptr);  // Untagged
  // A tag above a function is separated from the if by code and a blank.
  EXPECT_EQ(CheckAt(checks_, 49), nullptr);
}

TEST_F(FinderTest, ParenthesisInALiteralDoesNotEndTheCondition) {
  const TaggedCheck* check = CheckAt(checks_, 56);
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(Condition(*check), "s[0] == ')'");
}

TEST_F(FinderTest, TaggedReturnIfErrorIsACheckUntaggedIsNot) {
  const TaggedCheck* check = CheckAt(checks_, 64);
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->kind, CheckKind::kReturnIfError);
  EXPECT_THAT(check->clauses, ElementsAre("fix.beta.checked-call"));
  EXPECT_EQ(Condition(*check), "MX_RETURN_IF_ERROR(Validate(v));");
  EXPECT_EQ(CheckAt(checks_, 65), nullptr);
}

TEST_F(FinderTest, PreprocessorConstexprAndInitStatementsAreNoChecks) {
  EXPECT_EQ(CheckAt(checks_, 70), nullptr);
  EXPECT_EQ(CheckAt(checks_, 73), nullptr);
  EXPECT_EQ(CheckAt(checks_, 76), nullptr);
}

TEST_F(FinderTest, FindsExactlyTheTaggedChecks) {
  std::vector<int> lines;
  for (const TaggedCheck& check : checks_) {
    lines.push_back(check.line);
    EXPECT_EQ(check.file, "checks.cc");
  }
  EXPECT_THAT(lines, ElementsAre(5, 14, 21, 30, 56, 64));
}

}  // namespace
}  // namespace mxcts::mutate
