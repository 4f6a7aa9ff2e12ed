// Copyright mxcts authors.
//
// A header of a cc_library dependency, found as <fake_dep.h> only through
// the include path the library exports (its `includes`), which the MXMACA
// rules must pass to the driver.
#ifndef MXCTS_TOOLS_BUILD_DEFS_TESTING_DEP_INCLUDE_FAKE_DEP_H_
#define MXCTS_TOOLS_BUILD_DEFS_TESTING_DEP_INCLUDE_FAKE_DEP_H_

// Returns what the dependency's source computes: 6 * 7.
int FakeDependencyAnswer();

#endif  // MXCTS_TOOLS_BUILD_DEFS_TESTING_DEP_INCLUDE_FAKE_DEP_H_
