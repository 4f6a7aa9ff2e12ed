// Conformance: a device without cooperative launches
// (docs/spec/api-cooperative-groups.md, api.coop.launch.unsupported-device
// and api.coop.launch.device-attribute). The target runs with
// MXCTS_DEVICE_CONFIG turning cooperativeLaunch off on device 1; device 0
// is the control.

#include <maca_cooperative_groups.h>

#include "conformance/testing/spec.h"

namespace {

__global__ void CountThreads(unsigned* count) { atomicAdd(count, 1u); }

// Launches CountThreads cooperatively on `device`; returns the launch's
// result and stores how many threads ran.
mcError_t LaunchOn(int device, unsigned* ran) {
  EXPECT_EQ(mcSetDevice(device), mcSuccess);
  unsigned* count = nullptr;
  EXPECT_EQ(mcMallocManaged(&count, sizeof(unsigned)), mcSuccess);
  *count = 0;
  void* args[] = {&count};
  const mcError_t result = mcLaunchCooperativeKernel(
      (const void*)CountThreads, dim3(2), dim3(32), args, 0, 0);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  *ran = *count;
  mcFree(count);
  mcGetLastError();
  return result;
}

TEST(UnsupportedDevice, AttributeIsZero) {
  MX_SPEC("api.coop.launch.device-attribute");
  int value = -1;
  ASSERT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeCooperativeLaunch, 1),
            mcSuccess);
  EXPECT_EQ(value, 0);
}

TEST(UnsupportedDevice, LaunchIsNotSupported) {
  MX_SPEC("api.coop.launch.unsupported-device");
  unsigned ran = 99;
  EXPECT_EQ(LaunchOn(1, &ran), mcErrorNotSupported);
  EXPECT_EQ(ran, 0u);
}

TEST(SupportedDevice, AttributeIsOne) {
  MX_SPEC("api.coop.launch.device-attribute");
  int value = -1;
  ASSERT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeCooperativeLaunch, 0),
            mcSuccess);
  EXPECT_EQ(value, 1);
}

TEST(SupportedDevice, LaunchRuns) {
  MX_SPEC("api.coop.launch.unsupported-device", "api.coop.launch.runs-kernel");
  unsigned ran = 0;
  EXPECT_EQ(LaunchOn(0, &ran), mcSuccess);
  EXPECT_EQ(ran, 64u);
}

}  // namespace
