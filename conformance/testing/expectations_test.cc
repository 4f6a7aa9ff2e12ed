// Copyright mxcts authors.
//
// Tests of the expectations file parser: well-formed entries with their
// targets expanded, the selection of one target's entries, and every kind of
// malformed line rejected with file and line.
#include "conformance/testing/expectations.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::conformance {
namespace {

using ::testing::HasSubstr;

std::string ParseError(const std::string& text) {
  absl::StatusOr<std::vector<Expectation>> parsed =
      ParseExpectations(text, "x.txt");
  EXPECT_FALSE(parsed.ok()) << "accepted:\n" << text;
  return parsed.ok() ? "" : std::string(parsed.status().message());
}

TEST(ExpandTargetLabel, RelativeLabelsAreUnderConformance) {
  EXPECT_EQ(ExpandTargetLabel("api/stream:query_test"),
            "//conformance/api/stream:query_test");
  EXPECT_EQ(ExpandTargetLabel(":top_test"), "//conformance:top_test");
  EXPECT_EQ(ExpandTargetLabel("//tools/x:y_test"), "//tools/x:y_test");
}

TEST(ExpandTargetLabel, RejectsWhatIsNotALabel) {
  EXPECT_EQ(ExpandTargetLabel("api/stream/query_test"), "");  // no ':'
  EXPECT_EQ(ExpandTargetLabel("api/stream:"), "");
  EXPECT_EQ(ExpandTargetLabel("a:b:c"), "");
  EXPECT_EQ(ExpandTargetLabel("@repo//a:b"), "");
  EXPECT_EQ(ExpandTargetLabel("/abs:b"), "");
}

TEST(ParseExpectations, ReadsEntriesWithMultiWordReasons) {
  absl::StatusOr<std::vector<Expectation>> parsed = ParseExpectations(
      "# Known failures of the fake backend.\n"
      "\n"
      "api/stream:query_test  StreamQuery.ReportsBusy   runs eager; issue 12 \n"
      "  //tools/x:y_test Prefix/Suite.Name/3 reason\n",
      "x.txt");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->size(), 2u);
  const Expectation& first = (*parsed)[0];
  EXPECT_EQ(first.target, "//conformance/api/stream:query_test");
  EXPECT_EQ(first.test, "StreamQuery.ReportsBusy");
  EXPECT_EQ(first.reason, "runs eager; issue 12");
  EXPECT_EQ(first.line, 3);
  EXPECT_EQ((*parsed)[1].target, "//tools/x:y_test");
  EXPECT_EQ((*parsed)[1].test, "Prefix/Suite.Name/3");
  EXPECT_EQ((*parsed)[1].line, 4);
}

TEST(ParseExpectations, ReasonIsRequired) {
  EXPECT_THAT(ParseError("api:t Suite.Name\n"),
              HasSubstr("x.txt:1: an entry is '<target> <Suite.Name> "
                        "<reason>', and the reason is missing"));
  EXPECT_THAT(ParseError("api:t Suite.Name   \t\n"),
              HasSubstr("reason is missing"));
}

TEST(ParseExpectations, TargetMustBeALabel) {
  EXPECT_THAT(ParseError("\napi/t Suite.Name why\n"),
              HasSubstr("x.txt:2: 'api/t' is not a test target"));
}

TEST(ParseExpectations, TestMustBeSuiteDotName) {
  EXPECT_THAT(ParseError("api:t SuiteName why\n"),
              HasSubstr("x.txt:1: 'SuiteName' is not a GoogleTest name"));
  EXPECT_THAT(ParseError("api:t .Name why\n"), HasSubstr("not a GoogleTest"));
  EXPECT_THAT(ParseError("api:t Suite. why\n"), HasSubstr("not a GoogleTest"));
}

TEST(ParseExpectations, EntryMayNotRepeat) {
  EXPECT_THAT(ParseError("api:t S.N one\n//conformance/api:t S.N two\n"),
              HasSubstr("x.txt:2: //conformance/api:t S.N is listed twice"));
  // Control: the same test name under another target is another entry.
  EXPECT_TRUE(ParseExpectations("api:t S.N one\napi:u S.N two\n", "x").ok());
}

TEST(ExpectationsForTarget, SelectsOneTargetsEntries) {
  absl::StatusOr<std::vector<Expectation>> parsed =
      ParseExpectations("api:t S.A a\napi:u S.B b\napi:t S.C c\n", "x.txt");
  ASSERT_TRUE(parsed.ok());
  std::vector<Expectation> mine =
      ExpectationsForTarget(*parsed, "//conformance/api:t");
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(mine[0].test, "S.A");
  EXPECT_EQ(mine[1].test, "S.C");
  EXPECT_EQ(ExpectationsForTarget(*parsed, "@//conformance/api:u").size(), 1u);
  EXPECT_TRUE(ExpectationsForTarget(*parsed, "//conformance/api:v").empty());
}

TEST(ReadExpectations, NamesAMissingFile) {
  absl::StatusOr<std::vector<Expectation>> parsed =
      ReadExpectations("/nonexistent/x.txt");
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(std::string(parsed.status().message()),
              HasSubstr("/nonexistent/x.txt"));
}

TEST(MarkKnownFailures, AddsTheReasonToTheListedCaseOnly) {
  const std::string xml =
      "<testsuite name=\"S\">\n"
      "<testcase name=\"A\" status=\"run\" classname=\"S\">"
      "<failure message=\"x\"/></testcase>\n"
      "<testcase name=\"B\" status=\"run\" classname=\"S\">"
      "<failure message=\"y\"/></testcase>\n"
      "<testcase name=\"A\" status=\"run\" classname=\"T\"></testcase>\n"
      "</testsuite>\n";
  Expectation entry;
  entry.target = "//conformance/api:t";
  entry.test = "S.A";
  entry.reason = "needs \"two\" devices";
  const std::string marked = MarkKnownFailures(xml, {entry});
  EXPECT_THAT(marked,
              HasSubstr("<testcase name=\"A\" expectation=\"known failure: "
                        "needs &quot;two&quot; devices\" status=\"run\" "
                        "classname=\"S\"><failure"));
  // Controls: the unlisted case and the same name in another suite stay.
  EXPECT_THAT(marked, HasSubstr("<testcase name=\"B\" status=\"run\""));
  // (The document is rewritten by an XML library, so an empty element may
  // close itself; only the attributes are compared.)
  EXPECT_THAT(marked, HasSubstr("<testcase name=\"A\" status=\"run\" "
                                "classname=\"T\""));
  EXPECT_EQ(MarkKnownFailures(xml, {}), xml);
}

}  // namespace
}  // namespace mxcts::conformance
