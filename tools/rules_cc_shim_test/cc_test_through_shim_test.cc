// A cc_test declared through the shim, linking a cc_library declared through
// the shim: the library's code and its propagated `defines` must both arrive.
#include <gtest/gtest.h>

#include "tools/rules_cc_shim_test/greeting.h"

namespace {

TEST(RulesCcShim, LibraryCodeLinksIntoTest) {
  EXPECT_EQ(rules_cc_shim_test::Greet("wave"), "hello, wave");
  // Control: a different argument gives a different result, so the check
  // above is not satisfied by a constant.
  EXPECT_NE(rules_cc_shim_test::Greet("block"), "hello, wave");
}

TEST(RulesCcShim, LibraryDefinesPropagateToDependents) {
#ifdef MXCTS_SHIM_DEFINE_PROPAGATES
  EXPECT_EQ(MXCTS_SHIM_DEFINE_PROPAGATES, 1);
#else
  FAIL() << "cc_library `defines` did not reach a dependent through the shim";
#endif
}

}  // namespace
