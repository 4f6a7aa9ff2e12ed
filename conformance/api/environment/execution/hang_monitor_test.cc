// Copyright mxcts authors.
//
// Conformance: MACA_MONITOR_HANG_TIMEOUT (docs/spec/api-environment.md,
// "Debugging"). A kernel still running after the set number of seconds is
// stopped by a trap with a diagnostic; the controls: a kernel that ends
// before the timeout runs to completion under the same setting, and with
// MACA_KERNEL_TIMEOUT set too the earlier of the two stops the kernel.
// Each setting runs in a fresh process; the stopped kernels wait for a
// flag nobody sets, so without the monitor they would never end.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using mxcts::conformance::ScopedEnvironment;

__global__ void WaitForFlag(volatile int* stop) {
  while (*stop == 0) {
  }
}

__global__ void CountTo(long long n, long long* out) {
  volatile long long i = 0;
  while (i < n) i = i + 1;
  *out = i;
}

mcError_t RunHungKernel() {
  int* flag = nullptr;
  const int zero = 0;
  if (mcMalloc(&flag, sizeof(int)) != mcSuccess ||
      mcMemcpy(flag, &zero, sizeof(int), mcMemcpyHostToDevice) != mcSuccess) {
    return mcErrorUnknown;
  }
  WaitForFlag<<<1, 1>>>(flag);
  return mcDeviceSynchronize();
}

// A kernel that counts to `n` (by default well within a second) runs to
// completion, with its result checked.
std::string ShortKernelCompletes(long long n = 100000) {
  long long* out = nullptr;
  if (mcMalloc(&out, sizeof(long long)) != mcSuccess) return "mcMalloc failed";
  CountTo<<<1, 1>>>(n, out);
  const mcError_t error = mcDeviceSynchronize();
  long long result = 0;
  mcMemcpy(&result, out, sizeof(result), mcMemcpyDeviceToHost);
  mcFree(out);
  if (error != mcSuccess) {
    return std::string("the kernel failed: ") + mcGetErrorName(error);
  }
  return result == n ? "" : "the kernel's result is wrong";
}

class HangTimeout : public testing::TestWithParam<const char*> {};

TEST_P(HangTimeout, StopsAKernelStillRunning) {
  MX_SPEC("api.env.monitor-hang-timeout.values",
          "api.env.monitor-hang-timeout.reference-monitor");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment kernel("MACA_KERNEL_TIMEOUT", nullptr);
  ScopedEnvironment hang("MACA_MONITOR_HANG_TIMEOUT", GetParam());
  MX_EXPECT_TRAP(RunHungKernel(), mcErrorLaunchTimeout,
                 "WaitForFlag.*hang monitor: kernel still running after "
                 "MACA_MONITOR_HANG_TIMEOUT=1 s");
}

// "1" in decimal and in hexadecimal.
INSTANTIATE_TEST_SUITE_P(Values, HangTimeout, testing::Values("1", "0x1"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           return info.index == 0 ? std::string("Decimal")
                                                  : std::string("Hex");
                         });

TEST(HangTimeout, ShortKernelRunsToCompletion) {
  MX_SPEC("api.env.monitor-hang-timeout.values");
  ScopedEnvironment hang("MACA_MONITOR_HANG_TIMEOUT", "1");
  MX_EXPECT_IN_FRESH_PROCESS(ShortKernelCompletes());
}

TEST(HangTimeout, InvalidValueMonitorsNothing) {
  MX_SPEC("api.env.monitor-hang-timeout.out-of-range",
          "api.env.general.invalid-value-uses-default");
  ScopedEnvironment hang("MACA_MONITOR_HANG_TIMEOUT", "soon");
  MX_EXPECT_IN_FRESH_PROCESS(ShortKernelCompletes());
}

TEST(HangTimeout, KernelTimeoutFirstWhenEarlier) {
  MX_SPEC("api.env.monitor-hang-timeout.reference-monitor",
          "api.env.kernel-timeout.values");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment kernel("MACA_KERNEL_TIMEOUT", "100");
  ScopedEnvironment hang("MACA_MONITOR_HANG_TIMEOUT", "30");
  MX_EXPECT_TRAP(RunHungKernel(), mcErrorLaunchTimeout,
                 "MACA_KERNEL_TIMEOUT=100 ms");
}

// The control of KernelTimeoutFirstWhenEarlier: under the same settings a
// kernel that ends long before 100 ms runs to completion.
TEST(HangTimeout, KernelWithinBothTimeoutsRunsWhenKernelTimeoutIsEarlier) {
  MX_SPEC("api.env.monitor-hang-timeout.reference-monitor",
          "api.env.kernel-timeout.values");
  ScopedEnvironment kernel("MACA_KERNEL_TIMEOUT", "100");
  ScopedEnvironment hang("MACA_MONITOR_HANG_TIMEOUT", "30");
  MX_EXPECT_IN_FRESH_PROCESS(ShortKernelCompletes(1000));
}

TEST(HangTimeout, HangMonitorFirstWhenEarlier) {
  MX_SPEC("api.env.monitor-hang-timeout.reference-monitor",
          "api.env.kernel-timeout.values");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment kernel("MACA_KERNEL_TIMEOUT", "60000");
  ScopedEnvironment hang("MACA_MONITOR_HANG_TIMEOUT", "1");
  MX_EXPECT_TRAP(RunHungKernel(), mcErrorLaunchTimeout,
                 "MACA_MONITOR_HANG_TIMEOUT=1 s");
}

// The control of HangMonitorFirstWhenEarlier: under the same settings a
// kernel that ends well within a second runs to completion.
TEST(HangTimeout, KernelWithinBothTimeoutsRunsWhenHangMonitorIsEarlier) {
  MX_SPEC("api.env.monitor-hang-timeout.reference-monitor",
          "api.env.kernel-timeout.values");
  ScopedEnvironment kernel("MACA_KERNEL_TIMEOUT", "60000");
  ScopedEnvironment hang("MACA_MONITOR_HANG_TIMEOUT", "1");
  MX_EXPECT_IN_FRESH_PROCESS(ShortKernelCompletes());
}

}  // namespace
