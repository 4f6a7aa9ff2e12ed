// Conformance: mcLaunchCooperativeKernelMultiDevice
// (docs/spec/api-cooperative-groups.md, "Multi-device cooperative launch").
// Its argument checks hold on every backend; a backend that does not
// support the launch (cooperativeMultiDeviceLaunch 0, as the reference)
// answers a valid list with mcErrorNotSupported, and the tests of what the
// launch does need the cooperative_multi_device capability.

#include <maca_cooperative_groups.h>

#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

namespace cg = cooperative_groups;

__global__ void AddOne(int* cell) { atomicAdd(cell, 1); }
__global__ void AddTwo(int* cell) { atomicAdd(cell, 2); }

class MultiDeviceLaunchTest : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
    ASSERT_EQ(mcGetDeviceCount(&devices_), mcSuccess);
    ASSERT_GE(devices_, 2) << "the manifest claims two devices";
    ASSERT_EQ(mcMallocManaged(&cell_, sizeof(int)), mcSuccess);
    *cell_ = 0;
    for (int device = 0; device < 2; ++device) {
      ASSERT_EQ(mcSetDevice(device), mcSuccess);
      ASSERT_EQ(mcStreamCreate(&streams_[device]), mcSuccess);
    }
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    args_[0] = &cell_;
    for (int device = 0; device < 2; ++device) {
      mcLaunchParams& entry = list_[device];
      entry.func = (void*)AddOne;
      entry.gridDim = dim3(2);
      entry.blockDim = dim3(32);
      entry.args = args_;
      entry.sharedMem = 0;
      entry.stream = streams_[device];
    }
  }
  void TearDown() override {
    if (devices_ < 2) return;
    mcDeviceSynchronize();
    for (int device = 0; device < 2; ++device) {
      mcSetDevice(device);
      mcStreamDestroy(streams_[device]);
    }
    mcSetDevice(0);
    mcFree(cell_);
    mcGetLastError();
  }
  // Whether every device supports multi-device cooperative launches.
  bool Supported() {
    for (int device = 0; device < 2; ++device) {
      int value = 0;
      EXPECT_EQ(
          mcDeviceGetAttribute(
              &value, mcDeviceAttributeCooperativeMultiDeviceLaunch, device),
          mcSuccess);
      if (value == 0) return false;
    }
    return true;
  }

  int devices_ = 0;
  int* cell_ = nullptr;
  void* args_[1] = {};
  mcStream_t streams_[2] = {};
  mcLaunchParams list_[2] = {};
};

TEST_F(MultiDeviceLaunchTest, NullListIsInvalidValue) {
  MX_SPEC("api.coop.multi-device.entries-must-match");
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(nullptr, 2, 0),
            mcErrorInvalidValue);
}

TEST_F(MultiDeviceLaunchTest, NoDevicesIsInvalidValue) {
  MX_SPEC("api.coop.multi-device.entries-must-match");
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 0, 0),
            mcErrorInvalidValue);
}

TEST_F(MultiDeviceLaunchTest, MoreEntriesThanDevicesIsInvalidValue) {
  MX_SPEC("api.coop.multi-device.entries-must-match");
  std::vector<mcLaunchParams> many(devices_ + 1, list_[0]);
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(
                many.data(), static_cast<unsigned>(many.size()), 0),
            mcErrorInvalidValue);
}

TEST_F(MultiDeviceLaunchTest, EntriesWithDifferentKernelsAreInvalidValue) {
  MX_SPEC("api.coop.multi-device.entries-must-match");
  list_[1].func = (void*)AddTwo;
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 2, 0),
            mcErrorInvalidValue);
}

TEST_F(MultiDeviceLaunchTest, EntriesWithDifferentGridsAreInvalidValue) {
  MX_SPEC("api.coop.multi-device.entries-must-match");
  list_[1].gridDim = dim3(3);
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 2, 0),
            mcErrorInvalidValue);
}

TEST_F(MultiDeviceLaunchTest, EntriesWithDifferentBlocksAreInvalidValue) {
  MX_SPEC("api.coop.multi-device.entries-must-match");
  list_[1].blockDim = dim3(64);
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 2, 0),
            mcErrorInvalidValue);
}

TEST_F(MultiDeviceLaunchTest, EntriesWithDifferentSharedMemoryAreInvalidValue) {
  MX_SPEC("api.coop.multi-device.entries-must-match");
  list_[1].sharedMem = 128;
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 2, 0),
            mcErrorInvalidValue);
}

TEST_F(MultiDeviceLaunchTest, MatchingEntriesAreNotInvalidValue) {
  MX_SPEC("api.coop.multi-device.entries-must-match",
          "api.coop.multi-device.distinct-devices");
  const mcError_t result = mcLaunchCooperativeKernelMultiDevice(list_, 2, 0);
  EXPECT_NE(result, mcErrorInvalidValue);
  EXPECT_NE(result, mcErrorInvalidDevice);
}

TEST_F(MultiDeviceLaunchTest, TwoEntriesOnOneDeviceAreInvalidDevice) {
  MX_SPEC("api.coop.multi-device.distinct-devices");
  list_[1].stream = streams_[0];
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 2, 0),
            mcErrorInvalidDevice);
}

TEST_F(MultiDeviceLaunchTest, WithoutSupportAValidListIsNotSupported) {
  MX_SPEC("api.coop.multi-device.unsupported");
  if (Supported())
    GTEST_SKIP() << "unsupported: the devices support the launch, so "
                    "no list of them is refused";
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 2, 0),
            mcErrorNotSupported);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell_, 0);
}

TEST_F(MultiDeviceLaunchTest, LaunchesOnEveryDevice) {
  MX_SPEC("api.coop.multi-device.launches-all");
  MX_REQUIRE_CAPABILITY("cooperative_multi_device");
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 2, 0), mcSuccess);
  for (int device = 0; device < 2; ++device) {
    EXPECT_EQ(mcStreamSynchronize(streams_[device]), mcSuccess);
  }
  EXPECT_EQ(*cell_, 2 * 2 * 32);
}

TEST_F(MultiDeviceLaunchTest, WaitsForEveryStreamByDefault) {
  MX_SPEC("api.coop.multi-device.default-sync");
  MX_REQUIRE_CAPABILITY("cooperative_multi_device");
  AddTwo<<<1, 1, 0, streams_[1]>>>(cell_);
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 2, 0), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(streams_[0]), mcSuccess);
  // Both kernels ran after the work of stream 1 and before the sync of
  // stream 0 returned.
  EXPECT_EQ(*cell_, 2 + 2 * 2 * 32);
}

TEST_F(MultiDeviceLaunchTest, TooLargeAGridIsRefused) {
  MX_SPEC("api.coop.multi-device.too-large");
  MX_REQUIRE_CAPABILITY("cooperative_multi_device");
  for (mcLaunchParams& entry : list_) entry.gridDim = dim3(1000, 1000);
  EXPECT_EQ(mcLaunchCooperativeKernelMultiDevice(list_, 2, 0),
            mcErrorCooperativeLaunchTooLarge);
}

}  // namespace
