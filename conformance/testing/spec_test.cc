// Tests of MX_SPEC: the clause IDs reach the running test's result as the
// "spec" property, which GoogleTest writes into its XML output.
#include "conformance/testing/spec.h"

#include <gtest/gtest.h>

#include <string>

namespace {

// Returns the current test's "spec" property, or "" if it has none.
std::string CurrentSpecProperty() {
  const ::testing::TestResult* result =
      ::testing::UnitTest::GetInstance()->current_test_info()->result();
  for (int i = 0; i < result->test_property_count(); ++i) {
    const ::testing::TestProperty& property = result->GetTestProperty(i);
    if (std::string(property.key()) == "spec") return property.value();
  }
  return "";
}

TEST(MxSpec, RecordsOneClause) {
  EXPECT_EQ(CurrentSpecProperty(), "");  // control: nothing before MX_SPEC
  MX_SPEC("api.stream.create.returns-distinct-handles");
  EXPECT_EQ(CurrentSpecProperty(),
            "api.stream.create.returns-distinct-handles");
}

TEST(MxSpec, RecordsSeveralClausesSeparatedBySpaces) {
  MX_SPEC("api.error.last-error.a", "api.error.last-error.b");
  EXPECT_EQ(CurrentSpecProperty(),
            "api.error.last-error.a api.error.last-error.b");
}

}  // namespace
