// Copyright mxcts authors.
//
// Tests of the device entry points with the default two simulated devices:
// validation (errors for bad calls) and execution (results of good calls).

#include <gtest/gtest.h>

#include <thread>

#include "mc_runtime.h"

namespace {

// --- Validation. ---

TEST(DeviceValidation, NullOutputsAreInvalidValue) {
  EXPECT_EQ(mcGetDeviceCount(nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcGetDevice(nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcGetDeviceProperties(nullptr, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetAttribute(nullptr, mcDeviceAttributeWarpSize, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcRuntimeGetVersion(nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcDriverGetVersion(nullptr), mcErrorInvalidValue);
  mcGetLastError();
}

TEST(DeviceValidation, BadOrdinalIsInvalidDevice) {
  // [api.device.set.invalid-ordinal-is-invalid-device]
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  EXPECT_EQ(mcSetDevice(2), mcErrorInvalidDevice);
  EXPECT_EQ(mcSetDevice(-1), mcErrorInvalidDevice);
  int current = -1;
  EXPECT_EQ(mcGetDevice(&current), mcSuccess);
  EXPECT_EQ(current, 1);  // unchanged by the failed calls
  mcDeviceProp_t prop;
  EXPECT_EQ(mcGetDeviceProperties(&prop, 2), mcErrorInvalidDevice);
  int value = 0;
  EXPECT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeWarpSize, -1),
            mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeWarpSize, 1),
            mcSuccess);  // control
  mcSetDevice(0);
  mcGetLastError();
}

TEST(DeviceValidation, UnknownAttributeIsInvalidValue) {
  int value = 0;
  EXPECT_EQ(
      mcDeviceGetAttribute(&value, static_cast<mcDeviceAttribute_t>(0), 0),
      mcErrorInvalidValue);
  EXPECT_EQ(
      mcDeviceGetAttribute(&value, static_cast<mcDeviceAttribute_t>(12345), 0),
      mcErrorInvalidValue);
  mcGetLastError();
}

TEST(DeviceValidation, InitFlagsMustBeZero) {
  EXPECT_EQ(mcInit(1), mcErrorInvalidValue);
  EXPECT_EQ(mcInit(0), mcSuccess);
  EXPECT_EQ(mcInit(0), mcSuccess);  // again: no further effect
  mcGetLastError();
}

// --- Execution. ---

TEST(DeviceExecution, CountsTwoSimulatedDevices) {
  int count = 0;
  EXPECT_EQ(mcGetDeviceCount(&count), mcSuccess);
  EXPECT_EQ(count, 2);
}

TEST(DeviceExecution, CurrentDeviceDefaultsToZeroPerThread) {
  // [api.device.set.default-is-device-zero] [api.device.set.per-host-thread]
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  int seen_by_new_thread = -1;
  std::thread other([&] { mcGetDevice(&seen_by_new_thread); });
  other.join();
  EXPECT_EQ(seen_by_new_thread, 0);
  int mine = -1;
  mcGetDevice(&mine);
  EXPECT_EQ(mine, 1);
  mcSetDevice(0);
}

TEST(DeviceExecution, PropertiesAreTheC500Profile) {
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 1), mcSuccess);
  EXPECT_STREQ(prop.name, "MetaX C500");
  EXPECT_EQ(prop.warpSize, 64);
  EXPECT_EQ(prop.waveSize, 64);
  EXPECT_EQ(prop.maxThreadsPerBlock, 1024);
  EXPECT_EQ(prop.multiProcessorCount, 104);
  EXPECT_GT(prop.totalGlobalMem, 0u);
}

TEST(DeviceExecution, AttributeAgreesWithProperty) {
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  int value = 0;
  ASSERT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeMaxGridDimY, 0),
            mcSuccess);
  EXPECT_EQ(value, prop.maxGridSize[1]);
  ASSERT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeWarpSize, 0),
            mcSuccess);
  EXPECT_EQ(value, 64);
}

TEST(DeviceExecution, VersionsFollowTheEncoding) {
  int runtime = 0, driver = 0;
  ASSERT_EQ(mcRuntimeGetVersion(&runtime), mcSuccess);
  ASSERT_EQ(mcDriverGetVersion(&driver), mcSuccess);
  EXPECT_EQ(runtime, MACART_VERSION);
  EXPECT_GE(runtime / 1000, 1);
  EXPECT_GE(driver, runtime);
}

TEST(DeviceExecution, SynchronizeIdleDeviceSucceeds) {
  // [api.device.synchronize.idle-returns-success]
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
}

TEST(DeviceExecution, ResetReleasesOnlyTheCurrentDevicesAllocations) {
  // [api.device.reset.destroys-allocations]
  // [api.device.reset.only-current-device]
  void* on0 = nullptr;
  void* on1 = nullptr;
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcMalloc(&on1, 64), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcMalloc(&on0, 64), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  // [api.device.reset.freed-pointer-is-invalid-value]
  EXPECT_EQ(mcFree(on0), mcErrorInvalidValue);
  EXPECT_EQ(mcFree(on1), mcSuccess);  // control: device 1 kept it
  // [api.device.reset.next-call-creates-new-context]
  void* again = nullptr;
  EXPECT_EQ(mcMalloc(&again, 64), mcSuccess);
  EXPECT_EQ(mcFree(again), mcSuccess);
  mcGetLastError();
}

TEST(DeviceExecution, ResetDestroysTheDevicesStreams) {
  // [api.device.reset.destroys-streams-and-events]
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream), mcErrorInvalidResourceHandle);
  mcGetLastError();
}

TEST(DeviceExecution, CountIsStableAcrossReset) {
  // [api.device.count.stable-for-process]
  int before = 0, after = 0;
  mcGetDeviceCount(&before);
  mcDeviceReset();
  mcGetDeviceCount(&after);
  EXPECT_EQ(before, after);
}

}  // namespace
