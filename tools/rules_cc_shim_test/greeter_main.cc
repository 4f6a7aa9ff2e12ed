// Prints a greeting for argv[1]; exits 2 without an argument.
#include <cstdio>

#include "tools/rules_cc_shim_test/greeting.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: greeter NAME\n");
    return 2;
  }
  std::printf("%s\n", rules_cc_shim_test::Greet(argv[1]).c_str());
  return 0;
}
