// Copyright mxcts authors.
//
// A header listed in an mxmaca_test's srcs: an input of the compiles, not
// compiled itself.
#ifndef MXCTS_TOOLS_BUILD_DEFS_TESTING_PASSING_HELPER_H_
#define MXCTS_TOOLS_BUILD_DEFS_TESTING_PASSING_HELPER_H_

// Defined in passing_helper.cc, the test's second source: returns 11.
int HelperFromSecondSource();

#endif  // MXCTS_TOOLS_BUILD_DEFS_TESTING_PASSING_HELPER_H_
