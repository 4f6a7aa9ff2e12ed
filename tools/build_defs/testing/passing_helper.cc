// Copyright mxcts authors.
//
// The second source of passing_test: compiled by the driver in an action of
// its own and linked with the first. Tested by passing_test.cc.
#include "tools/build_defs/testing/passing_helper.h"

int HelperFromSecondSource() { return 11; }
