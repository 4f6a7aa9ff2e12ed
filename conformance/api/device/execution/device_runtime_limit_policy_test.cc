// Copyright mxcts authors.
//
// Conformance: the device runtime limits changed while a kernel is in
// flight (docs/spec/api-device.md, "Limits"): the change is either refused
// with mcErrorNotPermitted (the value stays) or accepted (reported at
// once); either way the kernel launched before the change sees the old
// value, and a change made with the device idle applies to the next launch
// (the control). Run in a fresh process with the reference's deferred
// timeline, so the kernel is still in flight at the change.
//
// The kernels read the limits with the device runtime's mcDeviceGetLimit,
// so the target builds only where the backend has a device runtime
// (required_capability in BUILD).

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

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
