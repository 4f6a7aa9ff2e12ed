// Copyright mxcts authors.
//
// Conformance: devices whose compute mode limits who may use them
// (docs/spec/api-device.md, "Compute modes").
//
//   - Prohibited: the device is counted and its properties and attributes
//     are readable (computeMode reads mcComputeModeProhibited), but every
//     call that needs a context on it (an allocation, stream creation, a
//     launch, after mcSetDevice selected it) returns
//     mcErrorDevicesUnavailable.
//   - Exclusive process: once this process has a context on the device, a
//     second process's call that needs one returns
//     mcErrorDevicesUnavailable.
// The controls: the same calls on a device in the default mode succeed,
// in this process and in the second one.
//
// The source builds two targets (BUILD) whose MXCTS_DEVICE_CONFIG puts the
// reference's device 1 in the prohibited or the exclusive-process mode.
// The tests find such a device by its mcDeviceAttributeComputeMode, so a
// backend that ignores the variable checks the modes its devices have and
// skips the rest.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/child_process.h"
#include "conformance/api/testing/expect_error.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

int ComputeMode(int device) {
  int mode = -1;
  if (mcDeviceGetAttribute(&mode, mcDeviceAttributeComputeMode, device) !=
      mcSuccess) {
    return -1;
  }
  return mode;
}

// The first device in `mode`, or -1.
int DeviceInMode(int mode) {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return -1;
  for (int device = 0; device < count; ++device) {
    if (ComputeMode(device) == mode) return device;
  }
  return -1;
}

__global__ void Store(int* out) { *out = 1; }

// The calls that need a context on `device`, each expected to return
// `expected`.
std::string UseDevice(int device, mcError_t expected) {
  std::string problems;
  problems += Expect("mcSetDevice", mcSetDevice(device), mcSuccess);
  int* p = nullptr;
  problems += Expect("mcMalloc", mcMalloc(&p, sizeof(int)), expected);
  mcStream_t stream = nullptr;
  problems += Expect("mcStreamCreate", mcStreamCreate(&stream), expected);
  Store<<<1, 1>>>(p);
  problems += Expect("the launch", mcGetLastError(), expected);
  if (expected == mcSuccess) {
    problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
    mcStreamDestroy(stream);
    mcFree(p);
  }
  mcGetLastError();
  mcSetDevice(0);
  return problems;
}

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
