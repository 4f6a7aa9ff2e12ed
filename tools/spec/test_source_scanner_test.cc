// Tests of the test-source scanner: tests and their clause references,
// comments, stray references, and every supported test macro.
#include "tools/spec/test_source_scanner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace mxcts::spec {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::IsEmpty;
using ::testing::SizeIs;

constexpr char kSource[] =
    R"cc(// A conformance test.
#include "conformance/testing/spec.h"

         TEST(StreamCreate, ReturnsDistinctHandles) {
           MX_SPEC("api.stream.create.returns-distinct-handles");
           // MX_SPEC("commented.out.reference") names nothing.
           /* MX_SPEC("block.comment.reference") neither. */
           const char* text = "// not a comment";
           (void)text;
         }

         TEST_F(StreamFixture, NullIsInvalid) {
           MX_SPEC("api.stream.create.null-pointer-is-invalid-value",
                   "api.error.last-error.records-failure");
         }

         TEST_P(StreamPriority, ClampsOutOfRange) {
           MX_SPEC("api.stream.create-with-priority.clamps");
         }

         TEST(Planned, DISABLED_NamesNoClauseYet) {}
    )cc";

TEST(ScanTestSource, FindsTestsAndTheirClauses) {
  ScannedSource scanned = ScanTestSource("stream_test.cc", kSource);
  EXPECT_THAT(scanned.stray_references, IsEmpty());
  ASSERT_THAT(scanned.tests, SizeIs(4));

  EXPECT_EQ(scanned.tests[0].FullName(), "StreamCreate.ReturnsDistinctHandles");
  EXPECT_EQ(scanned.tests[0].line, 4);
  EXPECT_EQ(scanned.tests[0].file, "stream_test.cc");
  EXPECT_THAT(scanned.tests[0].clauses,
              ElementsAre(Field(&ClauseReference::id,
                                "api.stream.create.returns-distinct-handles")));
  EXPECT_EQ(scanned.tests[0].clauses[0].line, 5);

  EXPECT_EQ(scanned.tests[1].FullName(), "StreamFixture.NullIsInvalid");
  EXPECT_THAT(
      scanned.tests[1].clauses,
      ElementsAre(
          Field(&ClauseReference::id,
                "api.stream.create.null-pointer-is-invalid-value"),
          Field(&ClauseReference::id, "api.error.last-error.records-failure")));

  // A macro split across lines is still found.
  EXPECT_EQ(scanned.tests[2].FullName(), "StreamPriority.ClampsOutOfRange");
  EXPECT_EQ(scanned.tests[2].line, 17);

  EXPECT_THAT(scanned.tests[3].clauses, IsEmpty());
}

TEST(ScanTestSource, ReferenceBeforeAnyTestIsStray) {
  ScannedSource scanned = ScanTestSource(
      "x.cc", "static void Helper() { MX_SPEC(\"a.b.c\"); }\nTEST(A, B) {}\n");
  EXPECT_THAT(scanned.stray_references,
              ElementsAre(Field(&ClauseReference::id, "a.b.c")));
  ASSERT_THAT(scanned.tests, SizeIs(1));
  EXPECT_THAT(scanned.tests[0].clauses, IsEmpty());
}

TEST(BlankOutComments, KeepsLinesAndStrings) {
  EXPECT_EQ(BlankOutComments("a // b\nc /* d\ne */ f \"// g\""),
            "a     \nc     \n     f \"// g\"");
}

}  // namespace
}  // namespace mxcts::spec
