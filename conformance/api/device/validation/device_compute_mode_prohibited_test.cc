// Copyright mxcts authors.
//
// Conformance: a device in the prohibited compute mode
// (docs/spec/api-device.md, "Compute modes"): it is counted and its
// properties and attributes are readable (computeMode reads
// mcComputeModeProhibited), but every call that needs a context on it (an
// allocation, stream creation, a launch, after mcSetDevice selected it)
// returns mcErrorDevicesUnavailable. The control: the same calls on a
// device in the default mode succeed. The target's MXCTS_DEVICE_CONFIG
// (BUILD) puts the reference's device 1 in the mode; the test finds it by
// mcDeviceAttributeComputeMode, so a backend that ignores the variable is
// skipped unless it has such a device.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/device/validation/compute_mode_testing.h"
#include "conformance/api/testing/expect_error.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

TEST(ComputeModeProhibited, ContextCallsAreDevicesUnavailable) {
  MX_SPEC("api.device.compute-mode.prohibited-is-devices-unavailable");
  const int prohibited = DeviceInMode(mcComputeModeProhibited);
  const int usable = DeviceInMode(mcComputeModeDefault);
  if (prohibited < 0 || usable < 0) {
    GTEST_SKIP() << "unsupported: no device in the prohibited mode beside "
                    "one in the default mode (the _prohibited target "
                    "configures one)";
  }
  int count = 0;
  EXPECT_EQ(mcGetDeviceCount(&count), mcSuccess);
  EXPECT_GT(count, prohibited);
  mcDeviceProp_t properties;
  EXPECT_EQ(mcGetDeviceProperties(&properties, prohibited), mcSuccess);
  EXPECT_EQ(properties.computeMode, mcComputeModeProhibited);
  EXPECT_EQ(UseDevice(prohibited, mcErrorDevicesUnavailable), "");
  EXPECT_EQ(UseDevice(usable, mcSuccess), "");  // control
}

}  // namespace
}  // namespace mxcts::conformance
