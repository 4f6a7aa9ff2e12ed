// Copyright mxcts authors.
//
// Fails, and no expectation lists it: rule_failure_test.sh checks that its
// target fails. Tagged manual, so it runs only there.
#include <gtest/gtest.h>

namespace {

TEST(UnlistedFailure, Fails) { ADD_FAILURE() << "a failure nobody expects"; }

}  // namespace
