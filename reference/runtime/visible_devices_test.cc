// Copyright mxcts authors.
//
// Tests of the device enumeration variables. [api.env.visible-devices.*]

#include "reference/runtime/visible_devices.h"

#include <gtest/gtest.h>

#include "reference/runtime/device_config.h"

namespace mxcts::runtime {
namespace {

using V = std::vector<int>;

TEST(VisibleDevices, UnsetShowsAll) {
  EXPECT_EQ(VisibleSystemDevices(nullptr, 3), (V{0, 1, 2}));
}

TEST(VisibleDevices, ListRestrictsAndRenumbers) {
  EXPECT_EQ(VisibleSystemDevices("1", 2), (V{1}));
  EXPECT_EQ(VisibleSystemDevices("1,0", 2), (V{1, 0}));
  EXPECT_EQ(VisibleSystemDevices(" 1 , 0 ", 2), (V{1, 0}));
}

TEST(VisibleDevices, InvalidEntryTruncates) {
  EXPECT_EQ(VisibleSystemDevices("0,7,1", 2), (V{0}));
  EXPECT_EQ(VisibleSystemDevices("1,x,0", 2), (V{1}));
  EXPECT_EQ(VisibleSystemDevices("1,-1,0", 2), (V{1}));
  EXPECT_EQ(VisibleSystemDevices("1,GPU-1234", 2), (V{1}));
}

TEST(VisibleDevices, DuplicateEntryTruncates) {
  EXPECT_EQ(VisibleSystemDevices("1,1,0", 2), (V{1}));
}

TEST(VisibleDevices, EmptyOrInvalidFirstSelectsNone) {
  EXPECT_EQ(VisibleSystemDevices("", 2), V{});
  EXPECT_EQ(VisibleSystemDevices("  ", 2), V{});
  EXPECT_EQ(VisibleSystemDevices("9", 2), V{});
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
