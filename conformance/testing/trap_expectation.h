// -----------------------------------------------------------------------------
// File: conformance/testing/trap_expectation.h
// -----------------------------------------------------------------------------
//
// MX_EXPECT_TRAP checks that device code traps: that the host call that
// observes the trap returns the expected error, that the error is sticky
// afterwards [api.trap.error.sticky], and that the diagnostic written to
// stderr matches a pattern [api.trap.diagnostic.content]:
//
//   TEST(Assert, FailureTraps) {
//     MX_SPEC("lang.assert.failure.stops-kernel");
//     MX_EXPECT_TRAP(LaunchAndSynchronize(), mcErrorAssert,
//                    "kernel 'FailingKernel.*' block \\(0,0,0\\)");
//   }
//
// The statement runs in a fresh process (a GoogleTest death test in the
// "threadsafe" style, which re-executes the test binary for just this
// test), so the sticky error of one trap never leaks into the next test and
// the check works on backends whose device state does not survive fork().
// The statement is an expression of type mcError_t: the result of the call
// that observes the trap, usually mcDeviceSynchronize() after a launch.
//
// A test of a trap also needs its control: the same kernel with the rule
// kept, which must give mcSuccess (MX_EXPECT_NO_TRAP does the launch in
// the same process and checks mcSuccess, so it needs no separate process).

#ifndef MXCTS_CONFORMANCE_TESTING_TRAP_EXPECTATION_H_
#define MXCTS_CONFORMANCE_TESTING_TRAP_EXPECTATION_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>
#include <unistd.h>

#include <cstdio>

namespace mxcts::conformance {

// Runs in the child process: exits 0 if `observed` is `expected` and the
// error is sticky; otherwise says why on stderr and exits 1.
[[noreturn]] inline void ExitWithTrapVerdict(mcError_t observed,
                                             mcError_t expected) {
  if (observed != expected) {
    std::fprintf(stderr, "MX_EXPECT_TRAP: the call returned %s, expected %s\n",
                 mcGetErrorName(observed), mcGetErrorName(expected));
    std::fflush(stderr);
    _exit(1);
  }
  // [api.trap.error.sticky] Later calls that use the device keep failing
  // with the same error, and mcGetLastError does not clear it.
  const mcError_t again = mcDeviceSynchronize();
  const mcError_t last = mcGetLastError();
  const mcError_t after = mcDeviceSynchronize();
  if (again != expected || last != expected || after != expected) {
    std::fprintf(stderr,
                 "MX_EXPECT_TRAP: the error is not sticky: later calls "
                 "returned %s, %s (mcGetLastError), %s\n",
                 mcGetErrorName(again), mcGetErrorName(last),
                 mcGetErrorName(after));
    std::fflush(stderr);
    _exit(1);
  }
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(0);
}

// Sets the death-test style for the process; returns true so that it can
// sit in a condition.
inline bool UseReexecutingDeathTests() {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  return true;
}

}  // namespace mxcts::conformance

// MX_EXPECT_TRAP(statement, error, pattern): `statement` (an mcError_t
// expression) observes a trap with `error`, sticky afterwards, and the
// process's stderr matches the regular expression `pattern` (GoogleTest's
// regular expression syntax).
#define MX_EXPECT_TRAP(statement, error, pattern)                          \
  do {                                                                     \
    if (::mxcts::conformance::UseReexecutingDeathTests()) {                \
      EXPECT_EXIT(                                                         \
          ::mxcts::conformance::ExitWithTrapVerdict((statement), (error)), \
          ::testing::ExitedWithCode(0), pattern);                          \
    }                                                                      \
  } while (false)

// MX_EXPECT_NO_TRAP(statement): `statement` (an mcError_t expression)
// returns mcSuccess, in this process.
#define MX_EXPECT_NO_TRAP(statement) \
  EXPECT_EQ((statement), mcSuccess) << "expected no trap"

#endif  // MXCTS_CONFORMANCE_TESTING_TRAP_EXPECTATION_H_
