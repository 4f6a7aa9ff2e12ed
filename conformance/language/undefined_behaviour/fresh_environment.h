// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/language/undefined_behaviour/fresh_environment.h
// -----------------------------------------------------------------------------
//
// Running a check under environment variables the runtime reads when it
// initializes (MACA_TRAP_HANDLER, MACA_KERNEL_TIMEOUT, and the reference's
// MXCTS_MEMCHECK). The runtime reads them once, at the first runtime call
// of the process [api.env.general.read-at-initialization], so a test that
// needs a setting sets it and then runs its check in a fresh process: a
// re-executed death-test child (conformance/testing/trap_expectation.h),
// which inherits the environment and initializes its runtime after the
// test body has set it.
//
//   TEST(Timeout, ShortKernelRuns) {
//     MX_SPEC("api.env.kernel-timeout.values");
//     ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", "200");
//     MX_EXPECT_HOLDS_IN_FRESH_PROCESS(LaunchShortKernel() == mcSuccess);
//   }
//
// MX_EXPECT_TRAP (trap_expectation.h) already runs its statement in a fresh
// process: set the variables before it in the test body. (The check here is
// a bool; conformance/language/services/fresh_process.h has a variant whose
// check returns what went wrong.)

#ifndef MXCTS_CONFORMANCE_LANGUAGE_UNDEFINED_BEHAVIOUR_FRESH_ENVIRONMENT_H_
#define MXCTS_CONFORMANCE_LANGUAGE_UNDEFINED_BEHAVIOUR_FRESH_ENVIRONMENT_H_

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

// Runs in the child: exits 0 if `passed`, else 1.
[[noreturn]] inline void ExitWithCheck(bool passed) {
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(passed ? 0 : 1);
}

}  // namespace mxcts::conformance

// MX_EXPECT_HOLDS_IN_FRESH_PROCESS(check): `check` (a bool expression, which
// may say on stderr why it is false) is true when evaluated in a fresh process.
#define MX_EXPECT_HOLDS_IN_FRESH_PROCESS(check)                 \
  do {                                                          \
    if (::mxcts::conformance::UseReexecutingDeathTests()) {     \
      EXPECT_EXIT(::mxcts::conformance::ExitWithCheck((check)), \
                  ::testing::ExitedWithCode(0), "");            \
    }                                                           \
  } while (false)

#endif  // MXCTS_CONFORMANCE_LANGUAGE_UNDEFINED_BEHAVIOUR_FRESH_ENVIRONMENT_H_
