// -----------------------------------------------------------------------------
// File: conformance/testing/fresh_process.h
// -----------------------------------------------------------------------------
//
// Running a check in a process of its own, one that has not used the device
// yet. Rules that depend on what the process did before (a limit that can
// be set only before the first kernel uses printf or malloc, a sticky
// error) or on environment variables the runtime reads once, when it
// initializes (MACA_TRAP_HANDLER, MACA_KERNEL_TIMEOUT, the reference's
// MXCTS_MEMCHECK) [api.env.general.read-at-initialization], need that. A
// GoogleTest death test in the "threadsafe" style re-executes the test
// binary for just the current test, so the check starts from a fresh
// runtime on every backend, with the environment the test body set:
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
//   TEST(Timeout, ShortKernelRuns) {
//     MX_SPEC("api.env.kernel-timeout.values");
//     ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", "200");
//     MX_EXPECT_HOLDS_IN_FRESH_PROCESS(LaunchShortKernel() == mcSuccess);
//   }
//
// Code of the test body before the macro runs in the child process too, so
// keep device work out of it. MX_EXPECT_TRAP (trap_expectation.h) already
// runs its statement in a fresh process.

#ifndef MXCTS_CONFORMANCE_TESTING_FRESH_PROCESS_H_
#define MXCTS_CONFORMANCE_TESTING_FRESH_PROCESS_H_

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <string>

#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {

// Sets environment variable `name` to `value` (null: unsets it) until the
// end of the scope, then restores what it was.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    if (const char* old = getenv(name)) previous_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnvironment() {
    if (previous_.has_value()) {
      setenv(name_.c_str(), previous_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::string name_;
  std::optional<std::string> previous_;
};

// Runs in the child process: exits 0 if `problems` is empty, otherwise
// writes them to stderr and exits 1.
[[noreturn]] inline void ExitWithCheckVerdict(const std::string& problems) {
  std::fflush(stdout);
  if (!problems.empty()) {
    std::fprintf(stderr, "fresh-process check failed: %s\n", problems.c_str());
    std::fflush(stderr);
    _exit(1);
  }
  std::fflush(stderr);
  _exit(0);
}

// The bool form: what failed is whatever the check wrote to stderr.
[[noreturn]] inline void ExitWithCheckVerdict(bool passed) {
  ExitWithCheckVerdict(std::string(passed ? "" : "the check was false"));
}

}  // namespace mxcts::conformance

// MX_EXPECT_IN_FRESH_PROCESS(check): `check` (a std::string expression)
// returns "" when evaluated in a fresh process.
// MX_EXPECT_HOLDS_IN_FRESH_PROCESS(check): `check` (a bool expression) is
// true when evaluated in a fresh process.
#define MX_EXPECT_IN_FRESH_PROCESS(check)                              \
  do {                                                                 \
    if (::mxcts::conformance::UseReexecutingDeathTests()) {            \
      EXPECT_EXIT(::mxcts::conformance::ExitWithCheckVerdict((check)), \
                  ::testing::ExitedWithCode(0), "");                   \
    }                                                                  \
  } while (false)
#define MX_EXPECT_HOLDS_IN_FRESH_PROCESS(check) \
  MX_EXPECT_IN_FRESH_PROCESS(static_cast<bool>(check))

#endif  // MXCTS_CONFORMANCE_TESTING_FRESH_PROCESS_H_
