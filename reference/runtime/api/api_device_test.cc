// Copyright mxcts authors.
//
// Tests of the device entry points with the default two simulated devices:
// validation (errors for bad calls) and execution (results of good calls).

#include <gtest/gtest.h>

#include <cstring>
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

TEST(DeviceExecution, PciBusIdRoundTrips) {
  // [api.device.pci.get-bus-id-format]
  // [api.device.pci.get-by-bus-id-round-trip]
  char id[32];
  ASSERT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), 1), mcSuccess);
  EXPECT_STREQ(id, "0000:1c:00.0");
  int device = -1;
  for (const char* text :
       {"0000:1c:00.0", "0000:1C:00.0", "1c:00.0", "00000000:1c:0.0"}) {
    device = -1;
    EXPECT_EQ(mcDeviceGetByPCIBusId(&device, text), mcSuccess) << text;
    EXPECT_EQ(device, 1) << text;
  }
  ASSERT_EQ(mcDeviceGetPCIBusId(id, 5, 0), mcSuccess);  // truncated
  EXPECT_STREQ(id, "0000");
}

TEST(DeviceValidation, PciBusIdErrors) {
  char id[32] = "unchanged";
  EXPECT_EQ(mcDeviceGetPCIBusId(nullptr, 13, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetPCIBusId(id, 0, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetPCIBusId(id, 32, 2), mcErrorInvalidDevice);
  EXPECT_STREQ(id, "unchanged");
  int device = 7;
  EXPECT_EQ(mcDeviceGetByPCIBusId(&device, "0000:77:00.0"),
            mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceGetByPCIBusId(&device, "0000:1b:00.1"),
            mcErrorInvalidDevice);
  for (const char* bad : {"", "1b", "1b:00", "zz:00.0", "1b:00.8",
                          "0000:1b:00.0.0", "123:00.0", ":1b:00.0"}) {
    EXPECT_EQ(mcDeviceGetByPCIBusId(&device, bad), mcErrorInvalidValue) << bad;
  }
  EXPECT_EQ(mcDeviceGetByPCIBusId(nullptr, "0000:1b:00.0"),
            mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetByPCIBusId(&device, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(device, 7);
  mcGetLastError();
}

TEST(DeviceExecution, UuidIsThePropertysAndDistinct) {
  mcUuid_t first, second;
  ASSERT_EQ(mcDeviceGetUuid(&first, 0), mcSuccess);
  ASSERT_EQ(mcDeviceGetUuid(&second, 1), mcSuccess);
  EXPECT_NE(std::memcmp(first.bytes, second.bytes, 16), 0);
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 1), mcSuccess);
  EXPECT_EQ(std::memcmp(prop.uuid.bytes, second.bytes, 16), 0);
  EXPECT_EQ(mcDeviceGetUuid(nullptr, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetUuid(&first, 2), mcErrorInvalidDevice);
  mcGetLastError();
}

TEST(DeviceExecution, CacheAndSharedMemoryConfiguration) {
  mcFuncCache_t cache = mcFuncCachePreferEqual;
  ASSERT_EQ(mcDeviceGetCacheConfig(&cache), mcSuccess);
  EXPECT_EQ(cache, mcFuncCachePreferNone);
  ASSERT_EQ(mcDeviceSetCacheConfig(mcFuncCachePreferShared), mcSuccess);
  ASSERT_EQ(mcDeviceGetCacheConfig(&cache), mcSuccess);
  EXPECT_EQ(cache, mcFuncCachePreferShared);
  EXPECT_EQ(mcDeviceSetCacheConfig(static_cast<mcFuncCache_t>(4)),
            mcErrorInvalidValue);
  ASSERT_EQ(mcDeviceGetCacheConfig(&cache), mcSuccess);
  EXPECT_EQ(cache, mcFuncCachePreferShared);  // unchanged
  EXPECT_EQ(mcDeviceGetCacheConfig(nullptr), mcErrorInvalidValue);
  ASSERT_EQ(mcDeviceSetCacheConfig(mcFuncCachePreferNone), mcSuccess);

  mcSharedMemConfig banks = mcSharedMemBankSizeDefault;
  EXPECT_EQ(mcDeviceSetSharedMemConfig(mcSharedMemBankSizeEightByte),
            mcSuccess);
  ASSERT_EQ(mcDeviceGetSharedMemConfig(&banks), mcSuccess);
  EXPECT_EQ(banks, mcSharedMemBankSizeFourByte);
  EXPECT_EQ(mcDeviceSetSharedMemConfig(static_cast<mcSharedMemConfig>(3)),
            mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetSharedMemConfig(nullptr), mcErrorInvalidValue);
  mcGetLastError();
}

TEST(DeviceExecution, DeviceFlags) {
  unsigned flags = 99;
  ASSERT_EQ(mcGetDeviceFlags(&flags), mcSuccess);
  EXPECT_EQ(flags, 0u);
  ASSERT_EQ(mcSetDeviceFlags(mcDeviceScheduleBlockingSync | mcDeviceMapHost),
            mcSuccess);
  ASSERT_EQ(mcGetDeviceFlags(&flags), mcSuccess);
  EXPECT_EQ(flags, unsigned{mcDeviceScheduleBlockingSync | mcDeviceMapHost});
  EXPECT_EQ(mcSetDeviceFlags(mcDeviceScheduleSpin | mcDeviceScheduleYield),
            mcErrorInvalidValue);
  EXPECT_EQ(mcSetDeviceFlags(0x20), mcErrorInvalidValue);
  ASSERT_EQ(mcGetDeviceFlags(&flags), mcSuccess);
  EXPECT_EQ(flags, unsigned{mcDeviceScheduleBlockingSync | mcDeviceMapHost});
  EXPECT_EQ(mcGetDeviceFlags(nullptr), mcErrorInvalidValue);
  // Device 1 has its own flags.
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcGetDeviceFlags(&flags), mcSuccess);
  EXPECT_EQ(flags, 0u);
  mcSetDevice(0);
  ASSERT_EQ(mcSetDeviceFlags(mcDeviceScheduleAuto), mcSuccess);
  mcGetLastError();
}

TEST(DeviceExecution, ChooseDevice) {
  mcDeviceProp_t wanted;
  std::memset(&wanted, 0, sizeof(wanted));
  int device = -1;
  ASSERT_EQ(mcChooseDevice(&device, &wanted), mcSuccess);
  EXPECT_EQ(device, 0);  // nothing asked for: the first device
  wanted.pciBusID = 0x1c;
  wanted.major = 10;
  ASSERT_EQ(mcChooseDevice(&device, &wanted), mcSuccess);
  EXPECT_EQ(device, 1);
  EXPECT_EQ(mcChooseDevice(nullptr, &wanted), mcErrorInvalidValue);
  EXPECT_EQ(mcChooseDevice(&device, nullptr), mcErrorInvalidValue);
  mcGetLastError();
}

TEST(DeviceExecution, ProfilerSwitchesSucceed) {
  EXPECT_EQ(mcProfilerStart(), mcSuccess);
  EXPECT_EQ(mcProfilerStart(), mcSuccess);
  EXPECT_EQ(mcProfilerStop(), mcSuccess);
  EXPECT_EQ(mcProfilerStop(), mcSuccess);
}

TEST(DeviceExecution, LimitsSetGetAndErrors) {
  size_t value = 0;
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, 4), mcSuccess);
  ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitDevRuntimeSyncDepth), mcSuccess);
  EXPECT_EQ(value, 4u);
  EXPECT_EQ(mcDeviceSetLimit(mcLimitPersistingL2CacheSize, 0),
            mcErrorUnsupportedLimit);
  EXPECT_EQ(mcDeviceGetLimit(&value, static_cast<mcLimit_t>(99)),
            mcErrorUnsupportedLimit);
  EXPECT_EQ(mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, 48),
            mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetLimit(nullptr, mcLimitStackSize), mcErrorInvalidValue);
  // Device 1 keeps its own value.
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitDevRuntimeSyncDepth), mcSuccess);
  EXPECT_EQ(value, 2u);
  mcSetDevice(0);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, 2), mcSuccess);
  mcGetLastError();
}

TEST(DeviceExecution, ResetRestoresLimitsAndSettings) {
  // [api.device.reset.restores-defaults]
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, 4096), mcSuccess);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimePendingLaunchCount, 100),
            mcSuccess);
  ASSERT_EQ(mcDeviceSetCacheConfig(mcFuncCachePreferL1), mcSuccess);
  ASSERT_EQ(mcSetDeviceFlags(mcDeviceScheduleSpin), mcSuccess);
  size_t stack_default = 0;
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcDeviceGetLimit(&stack_default, mcLimitStackSize), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  size_t value = 0;
  ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitStackSize), mcSuccess);
  EXPECT_EQ(value, stack_default);
  ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitDevRuntimePendingLaunchCount),
            mcSuccess);
  EXPECT_EQ(value, 2048u);
  mcFuncCache_t cache;
  ASSERT_EQ(mcDeviceGetCacheConfig(&cache), mcSuccess);
  EXPECT_EQ(cache, mcFuncCachePreferNone);
  unsigned flags = 9;
  ASSERT_EQ(mcGetDeviceFlags(&flags), mcSuccess);
  EXPECT_EQ(flags, 0u);
  mcSetDevice(0);
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
