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
//
// Where a clause lets an implementation report one of several errors, the
// test names them all: MX_EXPECT_TRAP(..., AnyOf(mcErrorMisalignedAddress,
// mcErrorIllegalAddress), ...); later calls must then keep returning the
// one that was reported.
//
// The wording of a diagnostic is the reference's own: the pattern is
// matched where the backend claims `reference_choices` (capabilities.h).
// Elsewhere the check is that a diagnostic appeared at all (the process
// wrote something to stderr).

#ifndef MXCTS_CONFORMANCE_TESTING_TRAP_EXPECTATION_H_
#define MXCTS_CONFORMANCE_TESTING_TRAP_EXPECTATION_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "conformance/testing/capabilities.h"

namespace mxcts::conformance {

// The errors a trap may be reported with: one, or up to four where the
// clause allows any of them.
struct TrapErrors {
  TrapErrors(mcError_t error) : errors{error}, count(1) {}  // NOLINT: implicit
  mcError_t errors[4];
  int count;

  bool Contains(mcError_t error) const {
    for (int i = 0; i < count; ++i) {
      if (errors[i] == error) return true;
    }
    return false;
  }
  // "mcErrorA" or "mcErrorA or mcErrorB ...".
  std::string Names() const {
    std::string names;
    for (int i = 0; i < count; ++i) {
      if (i > 0) names += " or ";
      names += mcGetErrorName(errors[i]);
    }
    return names;
  }
};

// Any of the errors given (two to four).
inline TrapErrors AnyOf(mcError_t first, mcError_t second) {
  TrapErrors errors(first);
  errors.errors[errors.count++] = second;
  return errors;
}
inline TrapErrors AnyOf(mcError_t first, mcError_t second, mcError_t third) {
  TrapErrors errors = AnyOf(first, second);
  errors.errors[errors.count++] = third;
  return errors;
}

// The pattern a trap's stderr must match: `pattern` where the backend
// claims reference_choices (or the manifest cannot say: the strict check
// then fails loudly rather than passing), and "any diagnostic" elsewhere.
inline std::string TrapDiagnosticPattern(const char* pattern) {
  const CapabilityRequirement reference =
      RequireCapability("reference_choices");
  if (reference.status == CapabilityRequirement::Status::kUnsupported) {
    return ".";
  }
  return pattern;
}
inline std::string TrapDiagnosticPattern(const std::string& pattern) {
  return TrapDiagnosticPattern(pattern.c_str());
}

// Runs in the child process: exits 0 if `observed` is `expected` and the
// error is sticky; otherwise says why on stderr and exits 1.
[[noreturn]] inline void ExitWithTrapVerdict(mcError_t observed,
                                             const TrapErrors& allowed) {
  if (!allowed.Contains(observed)) {
    std::fprintf(stderr, "MX_EXPECT_TRAP: the call returned %s, expected %s\n",
                 mcGetErrorName(observed), allowed.Names().c_str());
    std::fflush(stderr);
    _exit(1);
  }
  const mcError_t expected = observed;
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
// expression) observes a trap with `error` (an mcError_t or AnyOf(...)),
// sticky afterwards, and the process's stderr matches the regular
// expression `pattern` (GoogleTest's regular expression syntax) where the
// backend claims reference_choices, or is not empty elsewhere.
#define MX_EXPECT_TRAP(statement, error, pattern)                          \
  do {                                                                     \
    if (::mxcts::conformance::UseReexecutingDeathTests()) {                \
      EXPECT_EXIT(                                                         \
          ::mxcts::conformance::ExitWithTrapVerdict((statement), (error)), \
          ::testing::ExitedWithCode(0),                                    \
          ::mxcts::conformance::TrapDiagnosticPattern(pattern));           \
    }                                                                      \
  } while (false)

// MX_EXPECT_NO_TRAP(statement): `statement` (an mcError_t expression)
// returns mcSuccess, in this process.
#define MX_EXPECT_NO_TRAP(statement) \
  EXPECT_EQ((statement), mcSuccess) << "expected no trap"

#endif  // MXCTS_CONFORMANCE_TESTING_TRAP_EXPECTATION_H_
