// Copyright mxcts authors.
//
// Conformance: errors of the device queries, mcGetDeviceProperties,
// mcDeviceGetAttribute, mcDeviceGetUuid, mcDeviceGetPCIBusId and
// mcDeviceGetByPCIBusId (docs/spec/api-device.md), each beside a control
// call that succeeds, and none storing anything.

#include <mc_runtime.h>

#include <climits>
#include <cstring>
#include <string>

#include "conformance/testing/spec.h"

namespace {

int DeviceCount() {
  int count = 0;
  EXPECT_EQ(mcGetDeviceCount(&count), mcSuccess);
  return count;
}

// Ordinals no device has, relative to the device count.
enum class BadOrdinal { kMinusOne, kCount, kCountPlusOne, kIntMax, kIntMin };

int Ordinal(BadOrdinal bad) {
  switch (bad) {
    case BadOrdinal::kMinusOne:
      return -1;
    case BadOrdinal::kCount:
      return DeviceCount();
    case BadOrdinal::kCountPlusOne:
      return DeviceCount() + 1;
    case BadOrdinal::kIntMax:
      return INT_MAX;
    case BadOrdinal::kIntMin:
      return INT_MIN;
  }
  return -1;
}

std::string OrdinalName(const testing::TestParamInfo<BadOrdinal>& info) {
  const char* names[] = {"MinusOne", "Count", "CountPlusOne", "IntMax",
                         "IntMin"};
  return names[static_cast<int>(info.param)];
}

class BadDeviceOrdinal : public testing::TestWithParam<BadOrdinal> {
 protected:
  void TearDown() override { mcGetLastError(); }
  int ordinal() const { return Ordinal(GetParam()); }
};

TEST_P(BadDeviceOrdinal, PropertiesAreInvalidDevice) {
  MX_SPEC("api.device.props.invalid-ordinal-is-invalid-device");
  mcDeviceProp_t prop;
  std::memset(&prop, 0x5a, sizeof(prop));
  EXPECT_EQ(mcGetDeviceProperties(&prop, ordinal()), mcErrorInvalidDevice);
  EXPECT_EQ(prop.warpSize, 0x5a5a5a5a);
  EXPECT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);  // control
}

TEST_P(BadDeviceOrdinal, AttributeIsInvalidDevice) {
  MX_SPEC("api.device.attribute.invalid-ordinal-is-invalid-device");
  int value = -7;
  EXPECT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeWarpSize, ordinal()),
            mcErrorInvalidDevice);
  EXPECT_EQ(value, -7);
  EXPECT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeWarpSize, 0),
            mcSuccess);
}

TEST_P(BadDeviceOrdinal, UuidIsInvalidDevice) {
  MX_SPEC("api.device.uuid.invalid-ordinal-is-invalid-device");
  mcUuid_t uuid;
  std::memset(&uuid, 0x11, sizeof(uuid));
  EXPECT_EQ(mcDeviceGetUuid(&uuid, ordinal()), mcErrorInvalidDevice);
  EXPECT_EQ(uuid.bytes[0], 0x11);
  EXPECT_EQ(mcDeviceGetUuid(&uuid, 0), mcSuccess);
}

TEST_P(BadDeviceOrdinal, PciBusIdIsInvalidDevice) {
  MX_SPEC("api.device.pci.get-bus-id-invalid-device");
  char id[32] = "unchanged";
  EXPECT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), ordinal()),
            mcErrorInvalidDevice);
  EXPECT_STREQ(id, "unchanged");
  EXPECT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), 0), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Ordinals, BadDeviceOrdinal,
                         testing::Values(BadOrdinal::kMinusOne,
                                         BadOrdinal::kCount,
                                         BadOrdinal::kCountPlusOne,
                                         BadOrdinal::kIntMax,
                                         BadOrdinal::kIntMin),
                         OrdinalName);

TEST(DeviceQueryValidation, PropertiesWithNullIsInvalidValue) {
  MX_SPEC("api.device.props.null-is-invalid-value");
  EXPECT_EQ(mcGetDeviceProperties(nullptr, 0), mcErrorInvalidValue);
  mcDeviceProp_t prop;
  EXPECT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  mcGetLastError();
}

TEST(DeviceQueryValidation, AttributeWithNullIsInvalidValue) {
  MX_SPEC("api.device.attribute.null-is-invalid-value");
  EXPECT_EQ(mcDeviceGetAttribute(nullptr, mcDeviceAttributeWarpSize, 0),
            mcErrorInvalidValue);
  int value = 0;
  EXPECT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeWarpSize, 0),
            mcSuccess);
  mcGetLastError();
}

class NotAnAttribute : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(NotAnAttribute, IsInvalidValueAndStoresNothing) {
  MX_SPEC("api.device.attribute.invalid-attribute-is-invalid-value");
  int value = -7;
  EXPECT_EQ(mcDeviceGetAttribute(
                &value, static_cast<mcDeviceAttribute_t>(GetParam()), 0),
            mcErrorInvalidValue);
  EXPECT_EQ(value, -7);
  EXPECT_EQ(
      mcDeviceGetAttribute(&value, mcDeviceAttributeMaxThreadsPerBlock, 0),
      mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Values, NotAnAttribute,
                         testing::Values(0, -1, 10000, 0x7fffffff),
                         [](const testing::TestParamInfo<int>& info) {
                           return info.param < 0
                                      ? std::string("Minus") +
                                            std::to_string(-info.param)
                                      : std::to_string(info.param);
                         });

TEST(DeviceQueryValidation, UuidWithNullIsInvalidValue) {
  MX_SPEC("api.device.uuid.null-is-invalid-value");
  EXPECT_EQ(mcDeviceGetUuid(nullptr, 0), mcErrorInvalidValue);
  mcUuid_t uuid;
  EXPECT_EQ(mcDeviceGetUuid(&uuid, 0), mcSuccess);
  mcGetLastError();
}

class BadBusIdBuffer : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(BadBusIdBuffer, IsInvalidValue) {
  MX_SPEC("api.device.pci.get-bus-id-null-is-invalid-value");
  char id[32] = "unchanged";
  EXPECT_EQ(mcDeviceGetPCIBusId(id, GetParam(), 0), mcErrorInvalidValue);
  EXPECT_STREQ(id, "unchanged");
  EXPECT_EQ(mcDeviceGetPCIBusId(nullptr, 32, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetPCIBusId(id, 32, 0), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Lengths, BadBusIdBuffer,
                         testing::Values(0, -1, INT_MIN),
                         [](const testing::TestParamInfo<int>& info) {
                           return info.param == 0    ? std::string("Zero")
                                  : info.param == -1 ? std::string("MinusOne")
                                                     : std::string("IntMin");
                         });

class MalformedBusId : public testing::TestWithParam<const char*> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(MalformedBusId, IsInvalidValue) {
  MX_SPEC("api.device.pci.get-by-bus-id-null-is-invalid-value");
  int device = 77;
  EXPECT_EQ(mcDeviceGetByPCIBusId(&device, GetParam()), mcErrorInvalidValue)
      << GetParam();
  EXPECT_EQ(device, 77);
  char id[32];
  ASSERT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), 0), mcSuccess);
  EXPECT_EQ(mcDeviceGetByPCIBusId(&device, id), mcSuccess);  // control
  EXPECT_EQ(device, 0);
}

INSTANTIATE_TEST_SUITE_P(Strings, MalformedBusId,
                         testing::Values("", "1b", "1b:00", "gpu0", "zz:00.0",
                                         "0000:1b:00.0.0", "0000:1b:00:00.0",
                                         "0000-1b-00.0", ":1b:00.0", "1b:00.",
                                         "1b:.0"));

TEST(DeviceQueryValidation, ByPciBusIdWithNullIsInvalidValue) {
  MX_SPEC("api.device.pci.get-by-bus-id-null-is-invalid-value");
  char id[32];
  ASSERT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), 0), mcSuccess);
  int device = 77;
  EXPECT_EQ(mcDeviceGetByPCIBusId(nullptr, id), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetByPCIBusId(&device, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(device, 77);
  EXPECT_EQ(mcDeviceGetByPCIBusId(&device, id), mcSuccess);
  mcGetLastError();
}

TEST(DeviceQueryValidation, ByPciBusIdOfNoDeviceIsInvalidDevice) {
  MX_SPEC("api.device.pci.get-by-bus-id-unknown-is-invalid-device");
  // A bus id that is well formed but one no visible device has: the
  // domain 0xffff is not used by any device.
  int device = 77;
  EXPECT_EQ(mcDeviceGetByPCIBusId(&device, "ffff:ff:1f.7"),
            mcErrorInvalidDevice);
  EXPECT_EQ(device, 77);
  char id[32];
  ASSERT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), 0), mcSuccess);
  EXPECT_EQ(mcDeviceGetByPCIBusId(&device, id), mcSuccess);
  mcGetLastError();
}

}  // namespace
