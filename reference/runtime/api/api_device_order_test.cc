// Copyright mxcts authors.
//
// Tests of MACA_DEVICE_ORDER over simulated devices that differ, as
// MXCTS_DEVICE_COUNT=3 and MXCTS_DEVICE_CONFIG (set by the BUILD rule)
// make them:
//
//   system device 0: compute capability 10.0, PCI bus 0x50;
//   system device 1: 9.0, bus 0x1c, named "MetaX C280";
//   system device 2: 10.0, bus 0x1d.
//
// PCI_BUS_ID numbers them 1, 2, 0; FASTEST_FIRST (the default) 2, 0, 1.
// The same source runs under both values. [api.env.device-order.values]

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mc_runtime.h"

namespace {

bool PciOrder() {
  const char* order = std::getenv("MACA_DEVICE_ORDER");
  return order != nullptr && std::strcmp(order, "PCI_BUS_ID") == 0;
}

// PCI bus of each ordinal.
std::vector<int> ExpectedBuses() {
  return PciOrder() ? std::vector<int>{0x1c, 0x1d, 0x50}
                    : std::vector<int>{0x1d, 0x50, 0x1c};
}

TEST(DeviceOrder, OrdinalsFollowTheOrder) {
  ASSERT_STREQ(std::getenv("MXCTS_DEVICE_COUNT"), "3");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  ASSERT_EQ(count, 3);
  for (int ordinal = 0; ordinal < 3; ++ordinal) {
    mcDeviceProp_t prop;
    ASSERT_EQ(mcGetDeviceProperties(&prop, ordinal), mcSuccess);
    EXPECT_EQ(prop.pciBusID, ExpectedBuses()[ordinal]) << ordinal;
    int major = 0;
    ASSERT_EQ(mcDeviceGetAttribute(
                  &major, mcDeviceAttributeComputeCapabilityMajor, ordinal),
              mcSuccess);
    EXPECT_EQ(major, prop.pciBusID == 0x1c ? 9 : 10);
    EXPECT_STREQ(prop.name,
                 prop.pciBusID == 0x1c ? "MetaX C280" : "MetaX C500");
  }
}

TEST(DeviceOrder, BusIdsMapBackToOrdinals) {
  for (int ordinal = 0; ordinal < 3; ++ordinal) {
    char id[16];
    ASSERT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), ordinal), mcSuccess);
    int found = -1;
    ASSERT_EQ(mcDeviceGetByPCIBusId(&found, id), mcSuccess) << id;
    EXPECT_EQ(found, ordinal);
  }
}

TEST(DeviceOrder, ChooseDeviceFindsTheOddOneOut) {
  mcDeviceProp_t wanted;
  std::memset(&wanted, 0, sizeof(wanted));
  wanted.major = 9;
  int device = -1;
  ASSERT_EQ(mcChooseDevice(&device, &wanted), mcSuccess);
  EXPECT_EQ(device, PciOrder() ? 0 : 2);
}

}  // namespace
