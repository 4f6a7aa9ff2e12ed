// Copyright mxcts authors.
//
// Tests of the device enumeration variables: MACA_DEVICE_ORDER,
// MACA_VISIBLE_DEVICES with index and UUID entries, MXCTS_DEVICE_COUNT.
// [api.env.visible-devices.*] [api.env.device-order.values]

#include "reference/runtime/devices/visible_devices.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "reference/runtime/devices/device_config.h"

namespace mxcts::runtime {
namespace {

using V = std::vector<int>;

// `count` default devices.
std::vector<mcDeviceProp_t> System(int count) {
  std::vector<mcDeviceProp_t> system;
  for (int i = 0; i < count; ++i) {
    system.push_back(config::DefaultDeviceProperties(i));
  }
  return system;
}

V Select(const char* value, int count) {
  std::vector<mcDeviceProp_t> system = System(count);
  return SelectVisibleDevices(
      value, EnumerationOrder(system, DeviceOrder::kFastestFirst), system);
}

TEST(VisibleDevices, UnsetShowsAll) {
  EXPECT_EQ(Select(nullptr, 3), (V{0, 1, 2}));
  EXPECT_EQ(VisibleSystemDevices(nullptr, 3), (V{0, 1, 2}));
}

TEST(VisibleDevices, ListRestrictsAndRenumbers) {
  EXPECT_EQ(Select("1", 2), (V{1}));
  EXPECT_EQ(Select("1,0", 2), (V{1, 0}));
  EXPECT_EQ(Select(" 1 , 0 ", 2), (V{1, 0}));
  EXPECT_EQ(VisibleSystemDevices("1,0", 2), (V{1, 0}));
}

TEST(VisibleDevices, InvalidEntryTruncates) {
  EXPECT_EQ(Select("0,7,1", 2), (V{0}));
  EXPECT_EQ(Select("1,x,0", 2), (V{1}));
  EXPECT_EQ(Select("1,-1,0", 2), (V{1}));
  EXPECT_EQ(Select("1,GPU-1234", 2), (V{1}));
  EXPECT_EQ(Select("1,,0", 2), (V{1}));
}

TEST(VisibleDevices, DuplicateEntryTruncates) {
  EXPECT_EQ(Select("1,1,0", 2), (V{1}));
}

TEST(VisibleDevices, EmptyOrInvalidFirstSelectsNone) {
  EXPECT_EQ(Select("", 2), V{});
  EXPECT_EQ(Select("  ", 2), V{});
  EXPECT_EQ(Select("9", 2), V{});
}

TEST(VisibleDevices, UuidEntriesSelectTheirDevice) {
  const std::string second = UuidText(config::DeviceUuid(1));
  EXPECT_EQ(second, "GPU-6d786374-7300-4000-8000-000000000001");
  EXPECT_EQ(Select(second.c_str(), 3), (V{1}));
  // Either case; mixed with indices.
  std::string upper = second;
  for (size_t i = 4; i < upper.size(); ++i) {
    upper[i] = static_cast<char>(std::toupper(upper[i]));
  }
  EXPECT_EQ(Select((upper + ",2").c_str(), 3), (V{1, 2}));
  // The same device by UUID and by index is a repeat.
  EXPECT_EQ(Select((second + ",1,0").c_str(), 3), (V{1}));
  // A UUID no device has, or a shortened one, names no device.
  EXPECT_EQ(Select("0,GPU-6d786374-7300-4000-8000-000000000009", 3), (V{0}));
  EXPECT_EQ(Select("GPU-6d786374", 3), V{});
}

std::vector<mcDeviceProp_t> MixedSystem() {
  // System device 0: capability 9.0 on bus 0x30; 1: 10.0 on bus 0x20;
  // 2: 10.0 on bus 0x10.
  std::vector<mcDeviceProp_t> system = System(3);
  system[0].major = 9;
  system[0].pciBusID = 0x30;
  system[1].pciBusID = 0x20;
  system[2].pciBusID = 0x10;
  return system;
}

TEST(DeviceOrder, FastestFirstByCapabilityThenPciLocation) {
  EXPECT_EQ(EnumerationOrder(MixedSystem(), DeviceOrder::kFastestFirst),
            (V{2, 1, 0}));
  std::vector<mcDeviceProp_t> system = MixedSystem();
  system[0].minor = 0;
  system[0].major = 11;
  EXPECT_EQ(EnumerationOrder(system, DeviceOrder::kFastestFirst), (V{0, 2, 1}));
}

TEST(DeviceOrder, PciBusIdAscending) {
  EXPECT_EQ(EnumerationOrder(MixedSystem(), DeviceOrder::kPciBusId),
            (V{2, 1, 0}));
  std::vector<mcDeviceProp_t> system = MixedSystem();
  system[2].pciDomainID = 1;  // a higher domain sorts last
  EXPECT_EQ(EnumerationOrder(system, DeviceOrder::kPciBusId), (V{1, 0, 2}));
}

TEST(DeviceOrder, DefaultProfilesKeepSystemOrder) {
  EXPECT_EQ(EnumerationOrder(System(4), DeviceOrder::kFastestFirst),
            (V{0, 1, 2, 3}));
  EXPECT_EQ(EnumerationOrder(System(4), DeviceOrder::kPciBusId),
            (V{0, 1, 2, 3}));
}

TEST(DeviceOrder, IndicesReferToTheEnumerationOrder) {
  std::vector<mcDeviceProp_t> system = MixedSystem();
  V order = EnumerationOrder(system, DeviceOrder::kPciBusId);
  EXPECT_EQ(SelectVisibleDevices("0", order, system), (V{2}));
  EXPECT_EQ(SelectVisibleDevices("2,0", order, system), (V{0, 2}));
  EXPECT_EQ(SelectVisibleDevices(nullptr, order, system), order);
}

TEST(SimulatedDeviceCount, DefaultsAndRange) {
  EXPECT_EQ(SimulatedDeviceCount(nullptr), config::kDefaultDeviceCount);
  EXPECT_EQ(SimulatedDeviceCount("4"), 4);
  EXPECT_EQ(SimulatedDeviceCount("0"), 0);
  EXPECT_EQ(SimulatedDeviceCount("17"), config::kDefaultDeviceCount);
  EXPECT_EQ(SimulatedDeviceCount("two"), config::kDefaultDeviceCount);
}

}  // namespace
}  // namespace mxcts::runtime
