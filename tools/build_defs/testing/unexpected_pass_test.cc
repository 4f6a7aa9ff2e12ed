// Copyright mxcts authors.
//
// Passes, but fake_expectations.txt lists it as a known failure:
// rule_failure_test.sh checks that its target fails with "unexpected pass".
// Tagged manual, so it runs only there.
#include <gtest/gtest.h>

namespace {

TEST(UnexpectedPass, Passes) { SUCCEED(); }

}  // namespace
