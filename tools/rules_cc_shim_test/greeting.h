// A tiny library used only to exercise the @rules_cc shim's forwarding.
#ifndef MXCTS_TOOLS_RULES_CC_SHIM_TEST_GREETING_H_
#define MXCTS_TOOLS_RULES_CC_SHIM_TEST_GREETING_H_

#include <string>

namespace rules_cc_shim_test {

// Returns "hello, <name>".
std::string Greet(const std::string& name);

}  // namespace rules_cc_shim_test

#endif  // MXCTS_TOOLS_RULES_CC_SHIM_TEST_GREETING_H_
