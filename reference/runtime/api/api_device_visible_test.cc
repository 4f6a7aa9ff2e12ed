// Copyright mxcts authors.
//
// Tests of device enumeration under MACA_VISIBLE_DEVICES=1,5 (set by the
// BUILD rule): system device 1 is the only visible one, renumbered 0, and
// the invalid entry 5 ends the list.

#include <gtest/gtest.h>

#include <cstdlib>

#include "mc_runtime.h"
#include "reference/runtime/devices/device_config.h"

namespace {

TEST(VisibleDevices, OnlyTheListedDeviceIsVisible) {
  // [api.env.visible-devices.restricts-and-renumbers]
  // [api.env.visible-devices.invalid-entry-truncates]
  ASSERT_STREQ(std::getenv("MACA_VISIBLE_DEVICES"), "1,5");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(mcSetDevice(1), mcErrorInvalidDevice);
  EXPECT_EQ(mcSetDevice(0), mcSuccess);
}

TEST(VisibleDevices, OrdinalZeroIsSystemDeviceOne) {
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  EXPECT_EQ(prop.pciBusID, mxcts::runtime::config::kPciBusIdBase + 1);
}

TEST(VisibleDevices, AreReadOnceAtInitialization) {
  // [api.env.general.read-at-initialization]
  int before = 0, after = 0;
  mcGetDeviceCount(&before);
  setenv("MACA_VISIBLE_DEVICES", "0,1", 1);
  mcGetDeviceCount(&after);
  EXPECT_EQ(before, after);
  setenv("MACA_VISIBLE_DEVICES", "1,5", 1);
}

}  // namespace
