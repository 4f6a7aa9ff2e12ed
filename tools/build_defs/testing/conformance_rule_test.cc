// Copyright mxcts authors.
//
// A conformance_test on the fake backend: the rule compiles it with the
// backend's driver, links MX_SPEC, MX_REQUIRE_CAPABILITY and GoogleTest's
// main, and checks its clause references at build time. It names a real
// clause only because that check requires one; it tests the rule, not the
// clause, and lies outside conformance/, so no report counts it.
#include <gtest/gtest.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

#ifndef __FAKE_MXCC__
#error "compiled by something other than the fake backend's driver"
#endif

namespace {

std::string SpecProperty() {
  const ::testing::TestResult* result =
      ::testing::UnitTest::GetInstance()->current_test_info()->result();
  for (int i = 0; i < result->test_property_count(); ++i) {
    if (std::string(result->GetTestProperty(i).key()) == "spec") {
      return result->GetTestProperty(i).value();
    }
  }
  return "";
}

TEST(ConformanceRule, RecordsClausesAndReadsTheManifest) {
  MX_SPEC("lang.function.global.return-type-void");
  EXPECT_EQ(SpecProperty(), "lang.function.global.return-type-void");
  MX_REQUIRE_CAPABILITY("printf");
}

}  // namespace
