// Copyright mxcts authors.
//
// Tests under MACA_VISIBLE_DEVICES set to the empty string (by the BUILD
// rule): no device is visible. [api.env.visible-devices.none-visible]

#include <gtest/gtest.h>

#include <cstdlib>

#include "mc_runtime.h"

namespace {

TEST(NoDevice, CountIsZeroAndNoDevice) {
  ASSERT_STREQ(std::getenv("MACA_VISIBLE_DEVICES"), "");
  int count = 7;
  EXPECT_EQ(mcGetDeviceCount(&count), mcErrorNoDevice);
  EXPECT_EQ(count, 0);
}

TEST(NoDevice, CallsThatNeedADeviceReturnNoDevice) {
  void* p = nullptr;
  EXPECT_EQ(mcMalloc(&p, 16), mcErrorNoDevice);
  EXPECT_EQ(mcSetDevice(0), mcErrorNoDevice);
  EXPECT_EQ(mcDeviceSynchronize(), mcErrorNoDevice);
  EXPECT_EQ(mcInit(0), mcErrorNoDevice);
  int device = 0;
  EXPECT_EQ(mcGetDevice(&device), mcErrorNoDevice);
}

TEST(NoDevice, CallsThatNeedNoDeviceStillWork) {
  int version = 0;
  EXPECT_EQ(mcRuntimeGetVersion(&version), mcSuccess);
  EXPECT_EQ(mcDriverGetVersion(&version), mcSuccess);
  EXPECT_STREQ(mcGetErrorName(mcErrorNoDevice), "mcErrorNoDevice");
}

}  // namespace
