// Copyright mxcts authors.
//
// Conformance: the implementation-defined parts of the device limits
// (docs/spec/api-device.md, "Limits").
//
//   - The stack size: an implementation may raise it for a launch that
//     needs more, and then keeps and reports the raised value. So the
//     reported value never drops below what was set across launches that
//     use much stack, and stays what it became for later launches. The
//     control shows the reported value follows an explicit change.
//   - The device runtime limits: a change made while a kernel is in flight
//     is either refused with mcErrorNotPermitted (the value stays) or
//     accepted (reported at once); either way the kernel launched before
//     the change sees the old value, and a change made with the device
//     idle applies to the next launch (the control). Run in a fresh process
//     with the reference's deferred timeline, so the kernel is still in
//     flight at the change.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// --- The stack size. ---

// Fills a local array of `bytes` (at most the frame) and stores the sum of
// its first and last element, so that the array stays.
__global__ void UseStack(int bytes, int* out) {
  volatile char frame[24 * 1024];
  const int n = bytes < static_cast<int>(sizeof(frame))
                    ? bytes
                    : static_cast<int>(sizeof(frame));
  for (int i = 0; i < n; ++i) frame[i] = static_cast<char>(i);
  *out = frame[0] + frame[n - 1];
}

size_t StackLimit() {
  size_t value = 0;
  EXPECT_EQ(mcDeviceGetLimit(&value, mcLimitStackSize), mcSuccess);
  return value;
}

TEST(StackSize, RaisedValueIsKeptAndReported) {
  MX_SPEC("api.device.limit.stack-size-grows-automatically");
  const size_t original = StackLimit();
  // Control: an explicit change is what the limit then reports.
  ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, 2048), mcSuccess);
  const size_t set = StackLimit();
  EXPECT_GE(set, 2048u);
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, sizeof(int)), mcSuccess);
  // A launch whose frame is larger than the set size: either the
  // implementation raised the stack for it, or the frame fitted what it
  // gives anyway; the reported value must not drop.
  UseStack<<<1, 64>>>(24 * 1024, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const size_t after_big = StackLimit();
  EXPECT_GE(after_big, set);
  // Kept for later launches, small ones included.
  UseStack<<<1, 64>>>(16, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(StackLimit(), after_big);
  int value = 0;
  ASSERT_EQ(mcMemcpy(&value, out, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 15);  // 0 + 15: the small launch ran
  EXPECT_EQ(mcFree(out), mcSuccess);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, original), mcSuccess);
  EXPECT_EQ(StackLimit(), original);
}

// --- The device runtime limits while a kernel is in flight. ---

__global__ void ReadLimit(mcLimit_t limit, size_t* out) {
  mcDeviceGetLimit(out, limit);
}

std::string ChangeWhileInFlight(mcLimit_t limit, size_t before, size_t during,
                                size_t idle) {
  std::string problems;
  problems += Expect("mcDeviceSetLimit with the device idle",
                     mcDeviceSetLimit(limit, before), mcSuccess);
  size_t* seen = nullptr;
  problems += Expect("mcMallocManaged",
                     mcMallocManaged(&seen, 2 * sizeof(size_t)), mcSuccess);
  seen[0] = seen[1] = 0;
  ReadLimit<<<1, 1>>>(limit, &seen[0]);
  const mcError_t changed = mcDeviceSetLimit(limit, during);
  size_t reported = 0;
  problems +=
      Expect("mcDeviceGetLimit", mcDeviceGetLimit(&reported, limit), mcSuccess);
  if (changed == mcErrorNotPermitted) {
    mcGetLastError();
    if (reported != before) {
      problems += "a refused change left the limit at " +
                  std::to_string(reported) + "; ";
    }
  } else if (changed == mcSuccess) {
    if (reported != during) {
      problems +=
          "an accepted change reports " + std::to_string(reported) + "; ";
    }
  } else {
    problems += std::string(
                    "the change while a kernel was in flight "
                    "returned ") +
                mcGetErrorName(changed) + "; ";
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (seen[0] != before) {
    problems += "the kernel launched before the change saw " +
                std::to_string(seen[0]) + "; ";
  }
  // Control: with the device idle the change applies to the next launch.
  problems += Expect("mcDeviceSetLimit after the kernel",
                     mcDeviceSetLimit(limit, idle), mcSuccess);
  ReadLimit<<<1, 1>>>(limit, &seen[1]);
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (seen[1] != idle) {
    problems += "the next kernel saw " + std::to_string(seen[1]) +
                ", expected " + std::to_string(idle) + "; ";
  }
  mcFree(seen);
  return problems;
}

class DeviceRuntimeLimit
    : public DeferredModeTest<testing::TestWithParam<mcLimit_t>> {};

TEST_P(DeviceRuntimeLimit, ChangeWhileAKernelIsInFlight) {
  MX_SPEC("api.device.limit.device-runtime-limits-before-launch");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_EXPECT_IN_FRESH_PROCESS(ChangeWhileInFlight(GetParam(), 5, 9, 12));
}

INSTANTIATE_TEST_SUITE_P(Limits, DeviceRuntimeLimit,
                         testing::Values(mcLimitDevRuntimeSyncDepth,
                                         mcLimitDevRuntimePendingLaunchCount),
                         [](const testing::TestParamInfo<mcLimit_t>& info) {
                           return info.param == mcLimitDevRuntimeSyncDepth
                                      ? std::string("SyncDepth")
                                      : std::string("PendingLaunchCount");
                         });

}  // namespace
}  // namespace mxcts::conformance
