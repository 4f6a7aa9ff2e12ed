#include "tools/rules_cc_shim_test/greeting.h"

namespace rules_cc_shim_test {

std::string Greet(const std::string& name) { return "hello, " + name; }

}  // namespace rules_cc_shim_test
