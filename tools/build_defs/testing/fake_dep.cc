// Copyright mxcts authors.
//
// The fake dependency of passing_test (see dep_include/fake_dep.h).
// Tested by passing_test.cc.
#include "fake_dep.h"

int FakeDependencyAnswer() { return 6 * 7; }
