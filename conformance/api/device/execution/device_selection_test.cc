// Copyright mxcts authors.
//
// Conformance: results of counting and selecting devices, the current
// device per host thread, implicit initialization, synchronization,
// versions, mcInit, the profiler switches, PCI bus ids, mcChooseDevice,
// device flags and the cache and shared memory configuration
// (docs/spec/api-device.md). Tests that depend on one device ordinal run
// once per ordinal the backend has.

#include <mc_runtime.h>

#include <atomic>
#include <cctype>
#include <cstring>
#include <string>
#include <thread>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

constexpr int kOrdinals = 2;

__global__ void AddOne(int* data) { data[threadIdx.x] += 1; }

std::string OrdinalName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

TEST(DeviceCount, IsPositiveAndStable) {
  MX_SPEC("api.device.count.returns-visible-devices",
          "api.device.count.stable-for-process");
  int first = 0, second = 0, after_reset = 0;
  ASSERT_EQ(mcGetDeviceCount(&first), mcSuccess);
  EXPECT_GT(first, 0);
  ASSERT_EQ(mcGetDeviceCount(&second), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  ASSERT_EQ(mcGetDeviceCount(&after_reset), mcSuccess);
  EXPECT_EQ(first, second);
  EXPECT_EQ(first, after_reset);
}

class EveryOrdinal : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
  }
  void TearDown() override {
    mcSetDevice(0);
    mcGetLastError();
  }
  int device() const { return GetParam(); }
};

TEST_P(EveryOrdinal, IsAcceptedByEveryDeviceCall) {
  MX_SPEC("api.device.count.ordinals-are-dense");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  ASSERT_LT(device(), count);
  EXPECT_EQ(mcSetDevice(device()), mcSuccess);
  mcDeviceProp_t prop;
  EXPECT_EQ(mcGetDeviceProperties(&prop, device()), mcSuccess);
  int value = 0;
  EXPECT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeWarpSize, device()),
            mcSuccess);
}

TEST_P(EveryOrdinal, SetDeviceSelectsWhereWorkGoes) {
  MX_SPEC("api.device.set.selects-current-device",
          "api.device.get.returns-current");
  ASSERT_EQ(mcSetDevice(device()), mcSuccess);
  int current = -1;
  ASSERT_EQ(mcGetDevice(&current), mcSuccess);
  EXPECT_EQ(current, device());
  int* data = nullptr;
  ASSERT_EQ(mcMalloc(&data, 64 * sizeof(int)), mcSuccess);
  mcPointerAttribute_t attributes;
  ASSERT_EQ(mcPointerGetAttributes(&attributes, data), mcSuccess);
  EXPECT_EQ(attributes.device, device());
  ASSERT_EQ(mcMemset(data, 0, 64 * sizeof(int)), mcSuccess);
  AddOne<<<1, 64>>>(data);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  int host[64];
  ASSERT_EQ(mcMemcpy(host, data, sizeof(host), mcMemcpyDeviceToHost),
            mcSuccess);
  for (int v : host) EXPECT_EQ(v, 1);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  int stream_device = -1;
  ASSERT_EQ(mcStreamGetDevice(stream, &stream_device), mcSuccess);
  EXPECT_EQ(stream_device, device());
  mcStreamDestroy(stream);
  mcFree(data);
}

TEST_P(EveryOrdinal, PciBusIdRoundTrips) {
  MX_SPEC("api.device.pci.get-by-bus-id-round-trip",
          "api.device.pci.get-bus-id-format");
  char id[64];
  ASSERT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), device()), mcSuccess);
  ASSERT_EQ(std::strlen(id), 12u) << id;
  int found = -1;
  ASSERT_EQ(mcDeviceGetByPCIBusId(&found, id), mcSuccess);
  EXPECT_EQ(found, device());
  std::string upper = id;
  for (char& c : upper) c = static_cast<char>(std::toupper(c));
  found = -1;
  ASSERT_EQ(mcDeviceGetByPCIBusId(&found, upper.c_str()), mcSuccess);
  EXPECT_EQ(found, device());
  const std::string without_domain = std::string(id).substr(5);
  found = -1;
  if (std::string(id).substr(0, 5) == "0000:") {
    ASSERT_EQ(mcDeviceGetByPCIBusId(&found, without_domain.c_str()), mcSuccess);
    EXPECT_EQ(found, device());
  }
}

TEST_P(EveryOrdinal, PciBusIdIsTruncatedToTheBuffer) {
  MX_SPEC("api.device.pci.get-bus-id-format");
  char full[64];
  ASSERT_EQ(mcDeviceGetPCIBusId(full, sizeof(full), device()), mcSuccess);
  for (int len : {1, 5, 12, 13}) {
    char id[64];
    std::memset(id, 'x', sizeof(id));
    ASSERT_EQ(mcDeviceGetPCIBusId(id, len, device()), mcSuccess) << len;
    EXPECT_EQ(std::strlen(id), static_cast<size_t>(len - 1)) << len;
    EXPECT_EQ(std::string(id), std::string(full).substr(0, len - 1));
    EXPECT_EQ(id[len], 'x') << "wrote past len " << len;
  }
}

TEST_P(EveryOrdinal, ChooseDeviceFindsAnExactMatch) {
  MX_SPEC("api.device.choose.best-match");
  mcDeviceProp_t wanted;
  ASSERT_EQ(mcGetDeviceProperties(&wanted, device()), mcSuccess);
  int chosen = -1;
  ASSERT_EQ(mcChooseDevice(&chosen, &wanted), mcSuccess);
  mcDeviceProp_t got;
  ASSERT_EQ(mcGetDeviceProperties(&got, chosen), mcSuccess);
  EXPECT_STREQ(got.name, wanted.name);
  EXPECT_EQ(got.major, wanted.major);
  EXPECT_EQ(got.minor, wanted.minor);
  EXPECT_EQ(got.pciBusID, wanted.pciBusID);
  EXPECT_EQ(chosen, device());
}

TEST_P(EveryOrdinal, SynchronizeWaitsForTheDevicesWork) {
  MX_SPEC("api.device.synchronize.waits-for-all-work",
          "api.device.synchronize.idle-returns-success");
  ASSERT_EQ(mcSetDevice(device()), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);  // idle
  // Work in the legacy stream and in a non-blocking stream, on separate
  // halves of the memory.
  int* data = nullptr;
  ASSERT_EQ(mcMallocManaged(&data, 128 * sizeof(int)), mcSuccess);
  for (int i = 0; i < 128; ++i) data[i] = i;
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&stream, mcStreamNonBlocking), mcSuccess);
  AddOne<<<1, 64>>>(data);
  AddOne<<<1, 64, 0, stream>>>(data + 64);
  AddOne<<<1, 64, 0, stream>>>(data + 64);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(data[i], i + 1) << i;
  for (int i = 64; i < 128; ++i) EXPECT_EQ(data[i], i + 2) << i;
  mcStreamDestroy(stream);
  mcFree(data);
}

INSTANTIATE_TEST_SUITE_P(Ordinals, EveryOrdinal, testing::Range(0, kOrdinals),
                         OrdinalName);

TEST(CurrentDevice, IsPerHostThreadAndStartsAtZero) {
  MX_SPEC("api.device.set.default-is-device-zero",
          "api.device.set.per-host-thread");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  int seen_by_new_thread = -1;
  std::thread other([&] { mcGetDevice(&seen_by_new_thread); });
  other.join();
  EXPECT_EQ(seen_by_new_thread, 0);
  int mine = -1;
  ASSERT_EQ(mcGetDevice(&mine), mcSuccess);
  EXPECT_EQ(mine, 1);
  // A thread selecting a device does not move this thread.
  std::thread selector([] { mcSetDevice(0); });
  selector.join();
  ASSERT_EQ(mcGetDevice(&mine), mcSuccess);
  EXPECT_EQ(mine, 1);
  mcSetDevice(0);
}

std::string DeviceZeroAtStart() {
  int device = -1;
  if (mcGetDevice(&device) != mcSuccess) return "mcGetDevice failed";
  return device == 0 ? "" : "the first device is " + std::to_string(device);
}

TEST(CurrentDevice, IsZeroInAFreshProcess) {
  MX_SPEC("api.device.set.default-is-device-zero");
  MX_EXPECT_IN_FRESH_PROCESS(DeviceZeroAtStart());
}

// The first call of a fresh process, an allocation, initializes the
// runtime by itself; a kernel then runs.
std::string WorksWithoutInitialization() {
  int* data = nullptr;
  if (mcMallocManaged(&data, 64 * sizeof(int)) != mcSuccess) {
    return "mcMallocManaged failed";
  }
  for (int i = 0; i < 64; ++i) data[i] = i;
  AddOne<<<1, 64>>>(data);
  if (mcDeviceSynchronize() != mcSuccess) return "mcDeviceSynchronize failed";
  for (int i = 0; i < 64; ++i) {
    if (data[i] != i + 1) return "the kernel did not run";
  }
  mcFree(data);
  return "";
}

TEST(Initialization, FirstCallInitializesTheRuntime) {
  MX_SPEC("api.device.context.implicit-initialization");
  MX_EXPECT_IN_FRESH_PROCESS(WorksWithoutInitialization());
}

TEST(Initialization, ContextIsSharedByHostThreads) {
  MX_SPEC("api.device.context.shared-by-host-threads",
          "api.device.compute-mode.default-allows-sharing");
  int* data = nullptr;
  mcStream_t stream = nullptr;
  std::thread creator([&] {
    mcMallocManaged(&data, 64 * sizeof(int));
    mcStreamCreate(&stream);
  });
  creator.join();
  ASSERT_NE(data, nullptr);
  ASSERT_NE(stream, nullptr);
  for (int i = 0; i < 64; ++i) data[i] = 0;
  std::atomic<int> failures{0};
  std::thread user([&] {
    AddOne<<<1, 64, 0, stream>>>(data);
    if (mcStreamSynchronize(stream) != mcSuccess) ++failures;
  });
  user.join();
  AddOne<<<1, 64, 0, stream>>>(data);
  EXPECT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(failures.load(), 0);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(data[i], 2) << i;
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(mcFree(data), mcSuccess);
}

TEST(Initialization, InitSucceedsAndRepeats) {
  MX_SPEC("api.device.init.initializes");
  EXPECT_EQ(mcInit(0), mcSuccess);
  EXPECT_EQ(mcInit(0), mcSuccess);
  int count = 0;
  EXPECT_EQ(mcGetDeviceCount(&count), mcSuccess);
}

TEST(Versions, RuntimeVersionIsTheHeadersVersion) {
  MX_SPEC("api.device.version.runtime");
  int version = 0;
  ASSERT_EQ(mcRuntimeGetVersion(&version), mcSuccess);
  EXPECT_EQ(version, MACART_VERSION);
  EXPECT_GE(version / 1000, 1);
  EXPECT_LT((version % 1000) / 10, 100);
}

TEST(Versions, DriverVersionUsesTheSameEncoding) {
  MX_SPEC("api.device.version.driver");
  int version = -1;
  ASSERT_EQ(mcDriverGetVersion(&version), mcSuccess);
  EXPECT_GE(version, 0);
  if (version != 0) {
    int runtime = 0;
    ASSERT_EQ(mcRuntimeGetVersion(&runtime), mcSuccess);
    EXPECT_GE(version / 1000, 1);
  }
}

TEST(Profiler, StartAndStopSucceedAndChangeNothing) {
  MX_SPEC("api.device.profiler.start-stop");
  int* data = nullptr;
  ASSERT_EQ(mcMallocManaged(&data, 64 * sizeof(int)), mcSuccess);
  for (int i = 0; i < 64; ++i) data[i] = i;
  EXPECT_EQ(mcProfilerStart(), mcSuccess);
  EXPECT_EQ(mcProfilerStart(), mcSuccess);
  AddOne<<<1, 64>>>(data);
  EXPECT_EQ(mcProfilerStop(), mcSuccess);
  EXPECT_EQ(mcProfilerStop(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(data[i], i + 1);
  mcFree(data);
}

class DeviceFlags : public testing::TestWithParam<unsigned> {
 protected:
  void TearDown() override {
    mcSetDeviceFlags(mcDeviceScheduleAuto);
    mcGetLastError();
  }
};

TEST_P(DeviceFlags, SetThenGetReportsThem) {
  MX_SPEC("api.device.flags.set-and-get",
          "api.device.flags.after-initialization");
  // The runtime is initialized already: the reference accepts flags anyway.
  ASSERT_EQ(mcSetDeviceFlags(GetParam()), mcSuccess);
  unsigned flags = 0xdead;
  ASSERT_EQ(mcGetDeviceFlags(&flags), mcSuccess);
  EXPECT_EQ(flags & mcDeviceScheduleMask, GetParam() & mcDeviceScheduleMask);
  EXPECT_EQ(flags & GetParam(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Flags, DeviceFlags,
    testing::Values(mcDeviceScheduleAuto, mcDeviceScheduleSpin,
                    mcDeviceScheduleYield, mcDeviceScheduleBlockingSync,
                    mcDeviceScheduleAuto | mcDeviceMapHost,
                    mcDeviceScheduleSpin | mcDeviceLmemResizeToMax,
                    mcDeviceScheduleBlockingSync | mcDeviceMapHost |
                        mcDeviceLmemResizeToMax));

class CacheConfig : public testing::TestWithParam<mcFuncCache_t> {
 protected:
  void TearDown() override {
    mcDeviceSetCacheConfig(mcFuncCachePreferNone);
    mcGetLastError();
  }
};

TEST_P(CacheConfig, SetThenGetReportsItOrNone) {
  MX_SPEC("api.device.func.device-cache-config");
  ASSERT_EQ(mcDeviceSetCacheConfig(GetParam()), mcSuccess);
  mcFuncCache_t config;
  ASSERT_EQ(mcDeviceGetCacheConfig(&config), mcSuccess);
  EXPECT_TRUE(config == GetParam() || config == mcFuncCachePreferNone)
      << config;
}

TEST_P(CacheConfig, ResetRestoresTheDefault) {
  MX_SPEC("api.device.reset.restores-defaults");
  mcFuncCache_t before;
  ASSERT_EQ(mcDeviceGetCacheConfig(&before), mcSuccess);
  ASSERT_EQ(mcDeviceSetCacheConfig(GetParam()), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  mcFuncCache_t after;
  ASSERT_EQ(mcDeviceGetCacheConfig(&after), mcSuccess);
  EXPECT_EQ(after, before);
}

INSTANTIATE_TEST_SUITE_P(Values, CacheConfig,
                         testing::Values(mcFuncCachePreferNone,
                                         mcFuncCachePreferShared,
                                         mcFuncCachePreferL1,
                                         mcFuncCachePreferEqual));

class SharedMemConfig : public testing::TestWithParam<mcSharedMemConfig> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(SharedMemConfig, IsAcceptedAndBanksStayFourBytes) {
  MX_SPEC("api.device.shared-mem-config.fixed-four-byte-banks");
  ASSERT_EQ(mcDeviceSetSharedMemConfig(GetParam()), mcSuccess);
  mcSharedMemConfig config;
  ASSERT_EQ(mcDeviceGetSharedMemConfig(&config), mcSuccess);
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  EXPECT_TRUE(config == mcSharedMemBankSizeFourByte ||
              config == mcSharedMemBankSizeEightByte)
      << config;
}

INSTANTIATE_TEST_SUITE_P(Values, SharedMemConfig,
                         testing::Values(mcSharedMemBankSizeDefault,
                                         mcSharedMemBankSizeFourByte,
                                         mcSharedMemBankSizeEightByte));

}  // namespace
