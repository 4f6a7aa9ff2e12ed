// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/language/services/fresh_process.h
// -----------------------------------------------------------------------------
//
// MX_EXPECT_IN_FRESH_PROCESS runs a check in a process of its own, one that
// has not used the device yet. Rules that depend on what the process did
// before (a limit that can be set only before the first kernel uses printf
// or malloc, a sticky error) need that; a GoogleTest death test in the
// "threadsafe" style re-executes the test binary for just the current test,
// so the check starts from a fresh runtime on every backend:
//
//   std::string SmallHeapRunsOut() {
//     if (mcDeviceSetLimit(mcLimitMallocHeapSize, 4096) != mcSuccess)
//       return "mcDeviceSetLimit failed";
//     ...
//     return "";  // the rule holds
//   }
//
//   TEST(DeviceHeap, SmallHeapRunsOut) {
//     MX_SPEC("lang.malloc.alloc.null-when-exhausted");
//     MX_EXPECT_IN_FRESH_PROCESS(SmallHeapRunsOut());
//   }
//
// The check is an expression of type std::string: empty when the rule
// holds, otherwise what went wrong, which the test's failure message shows
// (with everything else the child wrote to stderr). Code of the test body
// before the macro runs in the child process too, so keep device work out
// of it.

#ifndef MXCTS_CONFORMANCE_LANGUAGE_SERVICES_FRESH_PROCESS_H_
#define MXCTS_CONFORMANCE_LANGUAGE_SERVICES_FRESH_PROCESS_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {

// Runs in the child process: exits 0 if `problems` is empty, otherwise
// writes them to stderr and exits 1.
[[noreturn]] inline void ExitWithCheckVerdict(const std::string& problems) {
  std::fflush(stdout);
  if (!problems.empty()) {
    std::fprintf(stderr, "MX_EXPECT_IN_FRESH_PROCESS: %s\n", problems.c_str());
    std::fflush(stderr);
    _exit(1);
  }
  std::fflush(stderr);
  _exit(0);
}

}  // namespace mxcts::conformance

// MX_EXPECT_IN_FRESH_PROCESS(check): `check` (a std::string expression)
// returns "" when evaluated in a fresh process.
#define MX_EXPECT_IN_FRESH_PROCESS(check)                              \
  do {                                                                 \
    if (::mxcts::conformance::UseReexecutingDeathTests()) {            \
      EXPECT_EXIT(::mxcts::conformance::ExitWithCheckVerdict((check)), \
                  ::testing::ExitedWithCode(0), "");                   \
    }                                                                  \
  } while (false)

#endif  // MXCTS_CONFORMANCE_LANGUAGE_SERVICES_FRESH_PROCESS_H_
