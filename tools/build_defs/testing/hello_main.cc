// Copyright mxcts authors.
//
// An mxmaca_binary on the fake backend: prints what it was built with, for
// binary_test.sh.
#include <cstdio>

#include "fake_sdk.h"
#include "tools/build_defs/testing/fake_runtime.h"

int main() {
  std::printf("hello from fake SDK %d with %d device(s)\n", FAKE_SDK_VERSION,
              mxcts::fake_backend::DeviceCount());
  return 0;
}
