// Copyright mxcts authors.
//
// The fake backend's runtime library (see fake_runtime.h). Linking it is
// what the tests of the rules check, through DeviceCount().
// Tested by passing_test.cc.
#include "tools/build_defs/testing/fake_runtime.h"

namespace mxcts::fake_backend {

int DeviceCount() { return 1; }

}  // namespace mxcts::fake_backend
