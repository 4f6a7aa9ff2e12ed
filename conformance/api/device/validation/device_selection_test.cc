// Copyright mxcts authors.
//
// Conformance: errors of counting and selecting devices, initialization,
// versions, device flags, cache and shared memory configuration and
// mcChooseDevice (docs/spec/api-device.md), each beside a control call that
// succeeds, and each leaving the state as it was.

#include <mc_runtime.h>

#include <climits>
#include <cstring>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

int DeviceCount() {
  int count = 0;
  EXPECT_EQ(mcGetDeviceCount(&count), mcSuccess);
  return count;
}

std::string SignedName(const testing::TestParamInfo<int>& info) {
  if (info.param == INT_MIN) return "IntMin";
  if (info.param == INT_MAX) return "IntMax";
  return info.param < 0 ? "Minus" + std::to_string(-info.param)
                        : std::to_string(info.param);
}

TEST(DeviceCountValidation, NullIsInvalidValue) {
  MX_SPEC("api.device.count.null-is-invalid-value");
  EXPECT_EQ(mcGetDeviceCount(nullptr), mcErrorInvalidValue);
  int count = 0;
  EXPECT_EQ(mcGetDeviceCount(&count), mcSuccess);
  mcGetLastError();
}

TEST(CurrentDeviceValidation, GetWithNullIsInvalidValue) {
  MX_SPEC("api.device.get.null-is-invalid-value");
  EXPECT_EQ(mcGetDevice(nullptr), mcErrorInvalidValue);
  int device = -1;
  EXPECT_EQ(mcGetDevice(&device), mcSuccess);
  mcGetLastError();
}

// Offsets from the device count, or extreme values.
class BadSetDevice : public testing::TestWithParam<int> {
 protected:
  void TearDown() override {
    mcSetDevice(0);
    mcGetLastError();
  }
  int ordinal() const {
    const int p = GetParam();
    return (p == INT_MIN || p == INT_MAX || p < 0) ? p : DeviceCount() + p;
  }
};

TEST_P(BadSetDevice, IsInvalidDeviceAndKeepsTheCurrentDevice) {
  MX_SPEC("api.device.set.invalid-ordinal-is-invalid-device");
  const int last = DeviceCount() - 1;
  ASSERT_EQ(mcSetDevice(last), mcSuccess);  // control
  EXPECT_EQ(mcSetDevice(ordinal()), mcErrorInvalidDevice);
  int current = -1;
  ASSERT_EQ(mcGetDevice(&current), mcSuccess);
  EXPECT_EQ(current, last);
}

// 0 and 1 are the count and the count plus one; negative values and the
// extremes are used as they are.
INSTANTIATE_TEST_SUITE_P(Ordinals, BadSetDevice,
                         testing::Values(0, 1, -1, -2, INT_MAX, INT_MIN),
                         [](const testing::TestParamInfo<int>& info) {
                           if (info.param == 0) return std::string("Count");
                           if (info.param == 1)
                             return std::string("CountPlusOne");
                           return SignedName(info);
                         });

class BadInitFlags : public testing::TestWithParam<unsigned> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(BadInitFlags, AreInvalidValue) {
  MX_SPEC("api.device.init.nonzero-flags-is-invalid-value");
  EXPECT_EQ(mcInit(GetParam()), mcErrorInvalidValue);
  EXPECT_EQ(mcInit(0), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Flags, BadInitFlags,
                         testing::Values(1u, 2u, 0x80000000u, 0xffffffffu));

TEST(VersionValidation, RuntimeVersionWithNullIsInvalidValue) {
  MX_SPEC("api.device.version.runtime-null-is-invalid-value");
  EXPECT_EQ(mcRuntimeGetVersion(nullptr), mcErrorInvalidValue);
  int version = 0;
  EXPECT_EQ(mcRuntimeGetVersion(&version), mcSuccess);
  mcGetLastError();
}

TEST(VersionValidation, DriverVersionWithNullIsInvalidValue) {
  MX_SPEC("api.device.version.driver-null-is-invalid-value");
  EXPECT_EQ(mcDriverGetVersion(nullptr), mcErrorInvalidValue);
  int version = 0;
  EXPECT_EQ(mcDriverGetVersion(&version), mcSuccess);
  mcGetLastError();
}

class BadDeviceFlags : public testing::TestWithParam<unsigned> {
 protected:
  void TearDown() override {
    mcSetDeviceFlags(mcDeviceScheduleAuto);
    mcGetLastError();
  }
};

TEST_P(BadDeviceFlags, AreInvalidValueAndKeepTheFlags) {
  MX_SPEC("api.device.flags.invalid-flags-is-invalid-value");
  ASSERT_EQ(mcSetDeviceFlags(mcDeviceScheduleYield), mcSuccess);  // control
  unsigned before = 0;
  ASSERT_EQ(mcGetDeviceFlags(&before), mcSuccess);
  EXPECT_EQ(mcSetDeviceFlags(GetParam()), mcErrorInvalidValue);
  unsigned after = 0;
  ASSERT_EQ(mcGetDeviceFlags(&after), mcSuccess);
  EXPECT_EQ(after, before);
}

// Two or three scheduling flags at once, and bits that are no flag.
INSTANTIATE_TEST_SUITE_P(
    Flags, BadDeviceFlags,
    testing::Values(mcDeviceScheduleSpin | mcDeviceScheduleYield,
                    mcDeviceScheduleSpin | mcDeviceScheduleBlockingSync,
                    mcDeviceScheduleYield | mcDeviceScheduleBlockingSync,
                    mcDeviceScheduleMask, 0x20u, 0x100u, 0x80000000u));

TEST(DeviceFlagsValidation, GetWithNullIsInvalidValue) {
  MX_SPEC("api.device.flags.get-null-is-invalid-value");
  EXPECT_EQ(mcGetDeviceFlags(nullptr), mcErrorInvalidValue);
  unsigned flags = 0;
  EXPECT_EQ(mcGetDeviceFlags(&flags), mcSuccess);
  mcGetLastError();
}

class BadCacheConfig : public testing::TestWithParam<int> {
 protected:
  void TearDown() override {
    mcDeviceSetCacheConfig(mcFuncCachePreferNone);
    mcGetLastError();
  }
};

TEST_P(BadCacheConfig, IsInvalidValueAndKeepsTheConfiguration) {
  MX_SPEC("api.device.func.cache-config-bad-value-is-invalid-value");
  ASSERT_EQ(mcDeviceSetCacheConfig(mcFuncCachePreferShared), mcSuccess);
  mcFuncCache_t before;
  ASSERT_EQ(mcDeviceGetCacheConfig(&before), mcSuccess);
  EXPECT_EQ(mcDeviceSetCacheConfig(static_cast<mcFuncCache_t>(GetParam())),
            mcErrorInvalidValue);
  mcFuncCache_t after;
  ASSERT_EQ(mcDeviceGetCacheConfig(&after), mcSuccess);
  EXPECT_EQ(after, before);
}

INSTANTIATE_TEST_SUITE_P(Values, BadCacheConfig,
                         testing::Values(-1, 4, 100, INT_MAX), SignedName);

TEST(CacheConfigValidation, GetWithNullIsInvalidValue) {
  MX_SPEC("api.device.func.cache-config-bad-value-is-invalid-value");
  EXPECT_EQ(mcDeviceGetCacheConfig(nullptr), mcErrorInvalidValue);
  mcFuncCache_t config;
  EXPECT_EQ(mcDeviceGetCacheConfig(&config), mcSuccess);
  mcGetLastError();
}

class BadSharedMemConfig : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(BadSharedMemConfig, IsInvalidValueAndKeepsTheConfiguration) {
  MX_SPEC("api.device.shared-mem-config.bad-value-is-invalid-value");
  mcSharedMemConfig before;
  ASSERT_EQ(mcDeviceGetSharedMemConfig(&before), mcSuccess);
  EXPECT_EQ(
      mcDeviceSetSharedMemConfig(static_cast<mcSharedMemConfig>(GetParam())),
      mcErrorInvalidValue);
  mcSharedMemConfig after;
  ASSERT_EQ(mcDeviceGetSharedMemConfig(&after), mcSuccess);
  EXPECT_EQ(after, before);
  EXPECT_EQ(mcDeviceSetSharedMemConfig(mcSharedMemBankSizeDefault), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Values, BadSharedMemConfig,
                         testing::Values(-1, 3, 8, INT_MAX), SignedName);

TEST(SharedMemConfigValidation, GetWithNullIsInvalidValue) {
  MX_SPEC("api.device.shared-mem-config.bad-value-is-invalid-value");
  EXPECT_EQ(mcDeviceGetSharedMemConfig(nullptr), mcErrorInvalidValue);
  mcSharedMemConfig config;
  EXPECT_EQ(mcDeviceGetSharedMemConfig(&config), mcSuccess);
  mcGetLastError();
}

TEST(ChooseDeviceValidation, NullArgumentsAreInvalidValue) {
  MX_SPEC("api.device.choose.null-is-invalid-value");
  mcDeviceProp_t prop;
  std::memset(&prop, 0, sizeof(prop));
  int device = 77;
  EXPECT_EQ(mcChooseDevice(nullptr, &prop), mcErrorInvalidValue);
  EXPECT_EQ(mcChooseDevice(&device, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(device, 77);
  EXPECT_EQ(mcChooseDevice(&device, &prop), mcSuccess);
  EXPECT_GE(device, 0);
  mcGetLastError();
}

}  // namespace
