// Copyright mxcts authors.
//
// Conformance: a device in the exclusive-process compute mode
// (docs/spec/api-device.md, "Compute modes"): once this process has a
// context on it, a second process's call that needs one returns
// mcErrorDevicesUnavailable. The controls: the second process's calls on a
// device in the default mode succeed, and the holder keeps using the
// device. The target's MXCTS_DEVICE_CONFIG (BUILD) puts the reference's
// device 1 in the mode; the test finds it by mcDeviceAttributeComputeMode,
// so a backend that ignores the variable is skipped unless it has such a
// device.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/device/validation/compute_mode_testing.h"
#include "conformance/api/testing/child_process.h"
#include "conformance/api/testing/expect_error.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Child: argument "exclusive=<d>;usable=<u>". Device d is held by the
// parent; device u is in the default mode.
MX_CHILD_ROLE(UseAfterParent) {
  const int exclusive =
      static_cast<int>(ChildArgument(argument, "exclusive", -1));
  const int usable = static_cast<int>(ChildArgument(argument, "usable", -1));
  std::string problems =
      "held device: " + UseDevice(exclusive, mcErrorDevicesUnavailable);
  if (problems == "held device: ") problems.clear();
  const std::string control = UseDevice(usable, mcSuccess);
  if (!control.empty()) problems += "default-mode device: " + control;
  return problems;
}

TEST(ComputeModeExclusiveProcess, SecondProcessIsDevicesUnavailable) {
  MX_SPEC("api.device.compute-mode.exclusive-process");
  const int exclusive = DeviceInMode(mcComputeModeExclusiveProcess);
  const int usable = DeviceInMode(mcComputeModeDefault);
  if (exclusive < 0 || usable < 0) {
    GTEST_SKIP() << "unsupported: no device in the exclusive-process mode "
                    "beside one in the default mode (the _exclusive_process "
                    "target configures one)";
  }
  // This process takes a context on the device first.
  ASSERT_EQ(UseDevice(exclusive, mcSuccess), "");
  ChildProcess child("UseAfterParent",
                     "exclusive=" + std::to_string(exclusive) +
                         ";usable=" + std::to_string(usable));
  EXPECT_EQ(child.Wait(), 0);
  // The holder keeps using it.
  EXPECT_EQ(UseDevice(exclusive, mcSuccess), "");
}

}  // namespace
}  // namespace mxcts::conformance
