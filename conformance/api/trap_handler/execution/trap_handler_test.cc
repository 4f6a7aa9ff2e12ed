// Copyright mxcts authors.
//
// Conformance: the trap handler policies that MACA_TRAP_HANDLER selects,
// and the kernel timeout's error (docs/spec/api-trap-handler.md,
// docs/spec/api-environment.md). Each setting is read when the runtime
// initializes, so each check runs in a fresh process with the variable set
// (conformance/testing/fresh_process.h):
//   - policy 2 reports floating-point exceptions, policy 1 (and an invalid
//     value, and none) gives the IEEE result;
//   - policy 0 lets a kernel run on past a failed assert; policy 1 stops it;
//   - a kernel past MACA_KERNEL_TIMEOUT is stopped with
//     mcErrorLaunchTimeout, and an invalid timeout value breaks nothing.

#include <assert.h>
#include <mc_runtime.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using ::mxcts::conformance::AnyOf;
using ::mxcts::conformance::ScopedEnvironment;

// --- Numeric exceptions. ---

enum class Operation { kDivide, kSubtract, kMultiply };

template <typename T>
__global__ void Compute(Operation operation, T a, T b, T* out) {
  T result = 0;
  switch (operation) {
    case Operation::kDivide:
      result = a / b;
      break;
    case Operation::kSubtract:
      result = a - b;
      break;
    case Operation::kMultiply:
      result = a * b;
      break;
  }
  out[threadIdx.x] = result;
}

struct Numeric {
  const char* name;
  bool is_double;
  Operation operation;
  double a;
  double b;
  const char* exception;  // what the diagnostic says under policy 2
  double ieee_result;     // under policy 1
};

template <typename T>
mcError_t ComputeAs(const Numeric& n, T* result) {
  T* out = nullptr;
  if (mcMalloc(&out, 32 * sizeof(T)) != mcSuccess) return mcErrorUnknown;
  Compute<T>
      <<<1, 32>>>(n.operation, static_cast<T>(n.a), static_cast<T>(n.b), out);
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) {
    mcMemcpy(result, out + 31, sizeof(T), mcMemcpyDeviceToHost);
  }
  return error;
}

mcError_t ComputeNumeric(const Numeric& n, double* result) {
  if (n.is_double) return ComputeAs<double>(n, result);
  float single = 0;
  const mcError_t error = ComputeAs<float>(n, &single);
  *result = single;
  return error;
}

// Whether the kernel ran and gave the IEEE result; says why not on stderr.
bool GivesIeeeResult(const Numeric& n) {
  double result = 0;
  const mcError_t error = ComputeNumeric(n, &result);
  const bool same =
      std::isnan(n.ieee_result) ? std::isnan(result) : result == n.ieee_result;
  if (error != mcSuccess || !same) {
    std::fprintf(stderr, "%s: %s, result %g, expected %g\n", n.name,
                 mcGetErrorName(error), result, n.ieee_result);
  }
  return error == mcSuccess && same;
}

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const Numeric kNumerics[] = {
    {"FloatDivisionByZero", false, Operation::kDivide, 1, 0, "division by zero",
     kInfinity},
    {"FloatZeroByZero", false, Operation::kDivide, 0, 0, "invalid operation",
     kNaN},
    {"FloatInfinityMinusInfinity", false, Operation::kSubtract, kInfinity,
     kInfinity, "invalid operation", kNaN},
    {"FloatOverflow", false, Operation::kMultiply, 3e38, 10, "overflow",
     kInfinity},
    {"DoubleDivisionByZero", true, Operation::kDivide, -1, 0,
     "division by zero", -kInfinity},
    {"DoubleZeroByZero", true, Operation::kDivide, 0, 0, "invalid operation",
     kNaN},
    {"DoubleOverflow", true, Operation::kMultiply, 1e308, 1e10, "overflow",
     kInfinity},
};

const Numeric kOrdinaryDivision = {
    "FloatDivision", false, Operation::kDivide, 3, 2, "", 1.5};

std::string NumericName(const testing::TestParamInfo<Numeric>& info) {
  return info.param.name;
}

class NumericException : public testing::TestWithParam<Numeric> {};

TEST_P(NumericException, PolicyTwoReportsIt) {
  MX_SPEC("api.trap.policy.two-reports-numeric",
          "api.trap.error.other-causes-launch-failure",
          "api.env.trap-handler.values", "api.trap.error.sticky");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedEnvironment policy("MACA_TRAP_HANDLER", "2");
  const std::string pattern =
      std::string("Compute.*floating-point exception: ") + GetParam().exception;
  MX_EXPECT_TRAP(
      [this] {
        double ignored = 0;
        return ComputeNumeric(GetParam(), &ignored);
      }(),
      mcErrorLaunchFailure, pattern.c_str());
}

TEST_P(NumericException, PolicyOneGivesTheIeeeResult) {
  MX_SPEC("api.trap.policy.default-reports-fatal",
          "api.env.trap-handler.values");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedEnvironment policy("MACA_TRAP_HANDLER", "1");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(GivesIeeeResult(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Operations, NumericException,
                         testing::ValuesIn(kNumerics), NumericName);

TEST(TrapPolicy, UnsetPolicyGivesTheIeeeResult) {
  MX_SPEC("api.trap.policy.default-reports-fatal");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedEnvironment policy("MACA_TRAP_HANDLER", nullptr);
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(GivesIeeeResult(kNumerics[0]));
}

TEST(TrapPolicy, PolicyTwoLetsOrdinaryArithmeticRun) {
  MX_SPEC("api.trap.policy.two-reports-numeric");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedEnvironment policy("MACA_TRAP_HANDLER", "2");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(GivesIeeeResult(kOrdinaryDivision));
}

class InvalidPolicy : public testing::TestWithParam<const char*> {};

TEST_P(InvalidPolicy, MeansTheDefaultForNumericExceptions) {
  MX_SPEC("api.trap.policy.invalid-value-uses-default",
          "api.env.general.invalid-value-uses-default");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedEnvironment policy("MACA_TRAP_HANDLER", GetParam());
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(GivesIeeeResult(kNumerics[0]) &&
                                   GivesIeeeResult(kNumerics[1]));
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidPolicy,
                         testing::Values("3", "-1", "two", "", "22"));

// --- Failed asserts under policies 0 and 1. ---

// Every thread stores its id + 1, except that thread `failing` of block
// `block` fails its assertion first.
__global__ void AssertThenStore(int block, int failing, int* out) {
  const int id = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  assert(!(static_cast<int>(blockIdx.x) == block &&
           static_cast<int>(threadIdx.x) == failing));
  out[id] = id + 1;
}

mcError_t RunAssert(int block, int failing, int* host) {
  int* out = nullptr;
  if (mcMalloc(&out, 128 * sizeof(int)) != mcSuccess ||
      mcMemset(out, 0, 128 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  AssertThenStore<<<2, 64>>>(block, failing, out);
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) {
    mcMemcpy(host, out, 128 * sizeof(int), mcMemcpyDeviceToHost);
  }
  return error;
}

// Whether the grid ran on past the failed assert of thread `failing` of
// block `block`, silently: success, no diagnostic, every other thread done.
bool RanOnSilently(int block, int failing) {
  int host[128] = {};
  testing::internal::CaptureStderr();
  const mcError_t error = RunAssert(block, failing, host);
  const mcError_t later = mcDeviceSynchronize();
  const std::string diagnostic = testing::internal::GetCapturedStderr();
  bool others_done = true;
  for (int id = 0; id < 128; ++id) {
    const bool failed_thread = id == block * 64 + failing;
    if (!failed_thread && host[id] != id + 1) others_done = false;
  }
  if (error != mcSuccess || later != mcSuccess || !diagnostic.empty() ||
      !others_done) {
    std::fprintf(stderr, "%s, then %s; diagnostic '%s'; others done: %d\n",
                 mcGetErrorName(error), mcGetErrorName(later),
                 diagnostic.c_str(), others_done ? 1 : 0);
    return false;
  }
  return true;
}

class PolicyZero : public testing::TestWithParam<int> {};

TEST_P(PolicyZero, FailedAssertIsNotReportedAndTheKernelRunsOn) {
  MX_SPEC("api.trap.policy.zero-disables-reporting",
          "api.env.trap-handler.values");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedEnvironment policy("MACA_TRAP_HANDLER", "0");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(
      RanOnSilently(GetParam() / 64, GetParam() % 64));
}

// Linear thread ids of the failing thread: first, middle, last.
INSTANTIATE_TEST_SUITE_P(FailingThreads, PolicyZero,
                         testing::Values(0, 70, 127));

TEST(TrapPolicy, PolicyOneReportsTheFailedAssert) {
  MX_SPEC("api.trap.policy.default-reports-fatal", "api.trap.error.assert");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedEnvironment policy("MACA_TRAP_HANDLER", "1");
  int host[128] = {};
  MX_EXPECT_TRAP(RunAssert(1, 6, host), mcErrorAssert,
                 "AssertThenStore.*block \\(1,0,0\\) thread \\(6,0,0\\)");
}

TEST(TrapPolicy, InvalidPolicyReportsTheFailedAssert) {
  MX_SPEC("api.trap.policy.invalid-value-uses-default",
          "api.trap.error.assert");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedEnvironment policy("MACA_TRAP_HANDLER", "9");
  int host[128] = {};
  MX_EXPECT_TRAP(RunAssert(0, 0, host), mcErrorAssert,
                 "block \\(0,0,0\\) thread \\(0,0,0\\)");
}

// --- The kernel timeout. ---

__global__ void SpinUntil(volatile int* stop) {
  while (*stop == 0) {
  }
}

mcError_t RunSpin(int stop) {
  int* flag = nullptr;
  if (mcMalloc(&flag, sizeof(int)) != mcSuccess ||
      mcMemcpy(flag, &stop, sizeof(int), mcMemcpyHostToDevice) != mcSuccess) {
    return mcErrorUnknown;
  }
  SpinUntil<<<1, 1>>>(flag);
  return mcDeviceSynchronize();
}

TEST(KernelTimeout, StoppedKernelIsLaunchTimeout) {
  MX_SPEC("api.trap.error.timeout", "api.env.kernel-timeout.values",
          "api.trap.diagnostic.printed-on-trap");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", "100");
  MX_EXPECT_TRAP(RunSpin(0),
                 AnyOf(mcErrorLaunchTimeout, mcErrorKernelExecTimeout),
                 "kernel '.*SpinUntil.*MACA_KERNEL_TIMEOUT=100 ms");
}

TEST(KernelTimeout, TimeoutStillStopsAKernelUnderPolicyZero) {
  // The reference cannot run an endless kernel on: under policy 0 it
  // reports the timeout as under policy 1.
  MX_SPEC("api.trap.policy.zero-disables-reporting", "api.trap.error.timeout");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", "50");
  ScopedEnvironment policy("MACA_TRAP_HANDLER", "0");
  MX_EXPECT_TRAP(RunSpin(0),
                 AnyOf(mcErrorLaunchTimeout, mcErrorKernelExecTimeout),
                 "MACA_KERNEL_TIMEOUT=50 ms");
}

class TimeoutValue : public testing::TestWithParam<const char*> {};

TEST_P(TimeoutValue, ShortKernelRuns) {
  // Values in range, clamped ("70000") and ignored ("abc", "-5"): none
  // stops a kernel that ends at once, and none breaks initialization.
  MX_SPEC("api.env.kernel-timeout.out-of-range",
          "api.env.kernel-timeout.values",
          "api.env.general.invalid-value-uses-default");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", GetParam());
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(RunSpin(1) == mcSuccess &&
                                   RunSpin(1) == mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Values, TimeoutValue,
                         testing::Values("0", "1000", "60000", "70000", "abc",
                                         "-5", ""));

}  // namespace
