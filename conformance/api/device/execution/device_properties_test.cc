// Copyright mxcts authors.
//
// Conformance: what mcGetDeviceProperties reports, on every visible device
// (docs/spec/api-device.md, "Device properties"): every field filled, the
// 64-thread wave, sizes, limits a launch honours, identity (PCI location,
// UUID), and flags that are 0 or 1. Each test runs once per device ordinal
// the backend has (ordinals it lacks are skipped as unsupported).

#include <mc_runtime.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

constexpr int kOrdinals = 2;

__global__ void Touch(int* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = 1;
}

class DeviceProperties : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
    ASSERT_EQ(mcGetDeviceProperties(&prop_, GetParam()), mcSuccess);
  }
  void TearDown() override {
    mcSetDevice(0);
    mcGetLastError();
  }
  int device() const { return GetParam(); }
  mcDeviceProp_t prop_;
};

// A byte pattern no field of a filled structure holds in all its bytes.
constexpr unsigned char kFill = 0xA5;

bool StillFill(const void* field, size_t size) {
  const unsigned char* bytes = static_cast<const unsigned char*>(field);
  for (size_t i = 0; i < size; ++i) {
    if (bytes[i] != kFill) return false;
  }
  return true;
}

TEST_P(DeviceProperties, FillsEveryField) {
  MX_SPEC("api.device.props.fills-structure",
          "api.device.props.every-cuda-field");
  mcDeviceProp_t prop;
  std::memset(&prop, kFill, sizeof(prop));
  ASSERT_EQ(mcGetDeviceProperties(&prop, device()), mcSuccess);
#define MX_EXPECT_FILLED(field) \
  EXPECT_FALSE(StillFill(&prop.field, sizeof(prop.field))) << #field
  MX_EXPECT_FILLED(name);
  MX_EXPECT_FILLED(totalGlobalMem);
  MX_EXPECT_FILLED(sharedMemPerBlock);
  MX_EXPECT_FILLED(regsPerBlock);
  MX_EXPECT_FILLED(warpSize);
  MX_EXPECT_FILLED(memPitch);
  MX_EXPECT_FILLED(maxThreadsPerBlock);
  MX_EXPECT_FILLED(maxThreadsDim);
  MX_EXPECT_FILLED(maxGridSize);
  MX_EXPECT_FILLED(clockRate);
  MX_EXPECT_FILLED(totalConstMem);
  MX_EXPECT_FILLED(major);
  MX_EXPECT_FILLED(minor);
  MX_EXPECT_FILLED(textureAlignment);
  MX_EXPECT_FILLED(deviceOverlap);
  MX_EXPECT_FILLED(multiProcessorCount);
  MX_EXPECT_FILLED(kernelExecTimeoutEnabled);
  MX_EXPECT_FILLED(integrated);
  MX_EXPECT_FILLED(canMapHostMemory);
  MX_EXPECT_FILLED(computeMode);
  MX_EXPECT_FILLED(concurrentKernels);
  MX_EXPECT_FILLED(ECCEnabled);
  MX_EXPECT_FILLED(pciBusID);
  MX_EXPECT_FILLED(pciDeviceID);
  MX_EXPECT_FILLED(pciDomainID);
  MX_EXPECT_FILLED(asyncEngineCount);
  MX_EXPECT_FILLED(unifiedAddressing);
  MX_EXPECT_FILLED(memoryClockRate);
  MX_EXPECT_FILLED(memoryBusWidth);
  MX_EXPECT_FILLED(l2CacheSize);
  MX_EXPECT_FILLED(maxThreadsPerMultiProcessor);
  MX_EXPECT_FILLED(sharedMemPerMultiprocessor);
  MX_EXPECT_FILLED(regsPerMultiprocessor);
  MX_EXPECT_FILLED(managedMemory);
  MX_EXPECT_FILLED(isMultiGpuBoard);
  MX_EXPECT_FILLED(multiGpuBoardGroupID);
  MX_EXPECT_FILLED(pageableMemoryAccess);
  MX_EXPECT_FILLED(concurrentManagedAccess);
  MX_EXPECT_FILLED(cooperativeLaunch);
  MX_EXPECT_FILLED(cooperativeMultiDeviceLaunch);
  MX_EXPECT_FILLED(memoryPoolsSupported);
  MX_EXPECT_FILLED(waveSize);
  MX_EXPECT_FILLED(uuid);
  MX_EXPECT_FILLED(sharedMemPerBlockOptin);
  MX_EXPECT_FILLED(reservedSharedMemPerBlock);
  MX_EXPECT_FILLED(maxBlocksPerMultiProcessor);
  MX_EXPECT_FILLED(globalL1CacheSupported);
  MX_EXPECT_FILLED(localL1CacheSupported);
  MX_EXPECT_FILLED(hostNativeAtomicSupported);
  MX_EXPECT_FILLED(hostRegisterSupported);
  MX_EXPECT_FILLED(persistingL2CacheMaxSize);
  MX_EXPECT_FILLED(accessPolicyMaxWindowSize);
  // The rest of CUDA's structure. [api.device.props.every-cuda-field]
  MX_EXPECT_FILLED(luid);
  MX_EXPECT_FILLED(luidDeviceNodeMask);
  MX_EXPECT_FILLED(texturePitchAlignment);
  MX_EXPECT_FILLED(maxTexture1D);
  MX_EXPECT_FILLED(maxTexture1DMipmap);
  MX_EXPECT_FILLED(maxTexture1DLinear);
  MX_EXPECT_FILLED(maxTexture2D);
  MX_EXPECT_FILLED(maxTexture2DMipmap);
  MX_EXPECT_FILLED(maxTexture2DLinear);
  MX_EXPECT_FILLED(maxTexture2DGather);
  MX_EXPECT_FILLED(maxTexture3D);
  MX_EXPECT_FILLED(maxTexture3DAlt);
  MX_EXPECT_FILLED(maxTextureCubemap);
  MX_EXPECT_FILLED(maxTexture1DLayered);
  MX_EXPECT_FILLED(maxTexture2DLayered);
  MX_EXPECT_FILLED(maxTextureCubemapLayered);
  MX_EXPECT_FILLED(maxSurface1D);
  MX_EXPECT_FILLED(maxSurface2D);
  MX_EXPECT_FILLED(maxSurface3D);
  MX_EXPECT_FILLED(maxSurface1DLayered);
  MX_EXPECT_FILLED(maxSurface2DLayered);
  MX_EXPECT_FILLED(maxSurfaceCubemap);
  MX_EXPECT_FILLED(maxSurfaceCubemapLayered);
  MX_EXPECT_FILLED(surfaceAlignment);
  MX_EXPECT_FILLED(tccDriver);
  MX_EXPECT_FILLED(streamPrioritiesSupported);
  MX_EXPECT_FILLED(singleToDoublePrecisionPerfRatio);
  MX_EXPECT_FILLED(computePreemptionSupported);
  MX_EXPECT_FILLED(canUseHostPointerForRegisteredMem);
  MX_EXPECT_FILLED(pageableMemoryAccessUsesHostPageTables);
  MX_EXPECT_FILLED(directManagedMemAccessFromHost);
  MX_EXPECT_FILLED(sparseMcArraySupported);
  MX_EXPECT_FILLED(hostRegisterReadOnlySupported);
  MX_EXPECT_FILLED(timelineSemaphoreInteropSupported);
  MX_EXPECT_FILLED(gpuDirectRDMASupported);
  MX_EXPECT_FILLED(gpuDirectRDMAFlushWritesOptions);
  MX_EXPECT_FILLED(gpuDirectRDMAWritesOrdering);
  MX_EXPECT_FILLED(memoryPoolSupportedHandleTypes);
  MX_EXPECT_FILLED(deferredMappingMcArraySupported);
  MX_EXPECT_FILLED(ipcEventSupported);
  MX_EXPECT_FILLED(clusterLaunch);
  MX_EXPECT_FILLED(unifiedFunctionPointers);
  MX_EXPECT_FILLED(deviceNumaConfig);
  MX_EXPECT_FILLED(deviceNumaId);
  MX_EXPECT_FILLED(mpsEnabled);
  MX_EXPECT_FILLED(hostNumaId);
  MX_EXPECT_FILLED(gpuPciDeviceID);
  MX_EXPECT_FILLED(gpuPciSubsystemID);
  MX_EXPECT_FILLED(hostNumaMultinodeIpcSupported);
#undef MX_EXPECT_FILLED
}

TEST_P(DeviceProperties, SameAnswerEveryTime) {
  MX_SPEC("api.device.props.fills-structure");
  mcDeviceProp_t again;
  ASSERT_EQ(mcGetDeviceProperties(&again, device()), mcSuccess);
  EXPECT_EQ(std::memcmp(prop_.name, again.name, sizeof(again.name)), 0);
  EXPECT_EQ(prop_.totalGlobalMem, again.totalGlobalMem);
  EXPECT_EQ(prop_.pciBusID, again.pciBusID);
  EXPECT_EQ(std::memcmp(prop_.uuid.bytes, again.uuid.bytes, 16), 0);
}

TEST_P(DeviceProperties, WarpSizeAndWaveSizeAre64) {
  MX_SPEC("api.device.props.wave-size-is-64");
  // A backend whose hardware has narrower waves says so in its manifest.
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);
  EXPECT_EQ(prop_.warpSize, 64);
  EXPECT_EQ(prop_.waveSize, 64);
}

TEST_P(DeviceProperties, NameIsNonEmptyAndTerminated) {
  MX_SPEC("api.device.props.name");
  EXPECT_NE(prop_.name[0], '\0');
  EXPECT_LT(strnlen(prop_.name, sizeof(prop_.name)), sizeof(prop_.name));
}

TEST_P(DeviceProperties, MemorySizesArePositive) {
  MX_SPEC("api.device.props.memory-sizes");
  EXPECT_GT(prop_.totalGlobalMem, 0u);
  EXPECT_GT(prop_.sharedMemPerBlock, 0u);
  EXPECT_GT(prop_.totalConstMem, 0u);
  EXPECT_GT(prop_.l2CacheSize, 0);
  EXPECT_GT(prop_.memPitch, 0u);
  EXPECT_GT(prop_.textureAlignment, 0u);
  EXPECT_LE(prop_.sharedMemPerBlock, prop_.totalGlobalMem);
}

TEST_P(DeviceProperties, ExecutionLimitsArePositiveAndConsistent) {
  MX_SPEC("api.device.props.execution-limits");
  EXPECT_GT(prop_.maxThreadsPerBlock, 0);
  EXPECT_GT(prop_.regsPerBlock, 0);
  EXPECT_GT(prop_.multiProcessorCount, 0);
  EXPECT_GE(prop_.maxThreadsPerMultiProcessor, prop_.maxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    EXPECT_GT(prop_.maxThreadsDim[i], 0) << i;
    EXPECT_LE(prop_.maxThreadsDim[i], prop_.maxThreadsPerBlock) << i;
    EXPECT_GT(prop_.maxGridSize[i], 0) << i;
  }
}

TEST_P(DeviceProperties, LaunchWithinTheLimitsRuns) {
  MX_SPEC("api.device.props.execution-limits");
  ASSERT_EQ(mcSetDevice(device()), mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  *out = 0;
  Touch<<<1, prop_.maxThreadsPerBlock>>>(out);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, 1);
  *out = 0;
  Touch<<<dim3(1, 2, 1), dim3(1, 1, prop_.maxThreadsDim[2])>>>(out);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, 1);
  mcFree(out);
}

TEST_P(DeviceProperties, LaunchBeyondTheLimitsIsRejected) {
  MX_SPEC("api.device.props.execution-limits");
  ASSERT_EQ(mcSetDevice(device()), mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  *out = 0;
  Touch<<<1, prop_.maxThreadsPerBlock + 1>>>(out);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  if (prop_.maxThreadsDim[2] < prop_.maxThreadsPerBlock) {
    Touch<<<1, dim3(1, 1, prop_.maxThreadsDim[2] + 1)>>>(out);
    EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  }
  if (prop_.maxGridSize[1] < INT_MAX) {
    Touch<<<dim3(1, static_cast<unsigned>(prop_.maxGridSize[1]) + 1), 1>>>(out);
    EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  }
  Touch<<<1, 1, prop_.sharedMemPerBlock + 1>>>(out);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, 0);  // none of them ran
  mcFree(out);
}

TEST_P(DeviceProperties, ComputeCapabilityIsPositive) {
  MX_SPEC("api.device.props.compute-capability");
  EXPECT_GT(prop_.major, 0);
  EXPECT_GE(prop_.minor, 0);
}

TEST_P(DeviceProperties, ClocksAndBusArePositive) {
  MX_SPEC("api.device.props.clocks-and-bus");
  EXPECT_GT(prop_.clockRate, 0);
  EXPECT_GT(prop_.memoryClockRate, 0);
  EXPECT_GT(prop_.memoryBusWidth, 0);
}

TEST_P(DeviceProperties, CapabilityFlagsAreZeroOrOne) {
  MX_SPEC("api.device.props.capability-flags");
  for (int flag :
       {prop_.deviceOverlap, prop_.kernelExecTimeoutEnabled, prop_.integrated,
        prop_.canMapHostMemory, prop_.concurrentKernels, prop_.ECCEnabled,
        prop_.unifiedAddressing, prop_.isMultiGpuBoard}) {
    EXPECT_TRUE(flag == 0 || flag == 1) << flag;
  }
}

TEST_P(DeviceProperties, CanMapHostMemoryMeansMappedAllocationWorks) {
  MX_SPEC("api.device.props.capability-flags");
  if (prop_.canMapHostMemory == 0) GTEST_SKIP() << "unsupported: no mapping";
  ASSERT_EQ(mcSetDevice(device()), mcSuccess);
  void* host = nullptr;
  ASSERT_EQ(mcMallocHost(&host, 4096, mcMallocHostMapped), mcSuccess);
  EXPECT_NE(host, nullptr);
  EXPECT_EQ(mcFreeHost(host), mcSuccess);
}

TEST_P(DeviceProperties, PciLocationAgreesWithTheBusIdString) {
  MX_SPEC("api.device.props.pci-location", "api.device.pci.get-bus-id-format");
  char id[64];
  ASSERT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), device()), mcSuccess);
  char expected[64];
  std::snprintf(expected, sizeof(expected), "%04x:%02x:%02x.",
                prop_.pciDomainID, prop_.pciBusID, prop_.pciDeviceID);
  EXPECT_EQ(std::string(id).substr(0, 11), expected) << id;
  EXPECT_EQ(std::strlen(id), 12u) << id;
}

TEST_P(DeviceProperties, ComputeModeIsAComputeMode) {
  MX_SPEC("api.device.props.compute-mode-field");
  EXPECT_TRUE(prop_.computeMode == mcComputeModeDefault ||
              prop_.computeMode == mcComputeModeExclusive ||
              prop_.computeMode == mcComputeModeProhibited ||
              prop_.computeMode == mcComputeModeExclusiveProcess)
      << prop_.computeMode;
}

TEST_P(DeviceProperties, OccupancyLimitsAreConsistent) {
  MX_SPEC("api.device.props.occupancy-limits");
  EXPECT_GT(prop_.maxBlocksPerMultiProcessor, 0);
  EXPECT_GE(prop_.sharedMemPerBlockOptin, prop_.sharedMemPerBlock);
  EXPECT_LE(prop_.sharedMemPerBlockOptin, prop_.sharedMemPerMultiprocessor);
  EXPECT_LE(prop_.reservedSharedMemPerBlock, prop_.sharedMemPerMultiprocessor);
}

TEST_P(DeviceProperties, CacheAndHostFlagsAreZeroOrOne) {
  MX_SPEC("api.device.props.cache-and-host-flags");
  for (int flag :
       {prop_.globalL1CacheSupported, prop_.localL1CacheSupported,
        prop_.hostNativeAtomicSupported, prop_.hostRegisterSupported}) {
    EXPECT_TRUE(flag == 0 || flag == 1) << flag;
  }
  EXPECT_GE(prop_.persistingL2CacheMaxSize, 0);
}

TEST_P(DeviceProperties, HostRegisterWorksWhenClaimed) {
  MX_SPEC("api.device.props.cache-and-host-flags");
  if (prop_.hostRegisterSupported == 0) {
    GTEST_SKIP() << "unsupported: mcHostRegister";
  }
  ASSERT_EQ(mcSetDevice(device()), mcSuccess);
  std::vector<char> buffer(8192);
  ASSERT_EQ(mcHostRegister(buffer.data(), buffer.size(), 0), mcSuccess);
  EXPECT_EQ(mcHostUnregister(buffer.data()), mcSuccess);
}

bool IsPowerOfTwo(size_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

TEST_P(DeviceProperties, TextureAndSurfaceLimitsAreConsistent) {
  MX_SPEC("api.device.props.texture-and-surface-limits");
  const mcDeviceProp_t& p = prop_;
  const std::vector<int> limits = {p.maxTexture1D,
                                   p.maxTexture1DMipmap,
                                   p.maxTexture1DLinear,
                                   p.maxTexture2D[0],
                                   p.maxTexture2D[1],
                                   p.maxTexture2DMipmap[0],
                                   p.maxTexture2DMipmap[1],
                                   p.maxTexture2DLinear[0],
                                   p.maxTexture2DLinear[1],
                                   p.maxTexture2DLinear[2],
                                   p.maxTexture2DGather[0],
                                   p.maxTexture2DGather[1],
                                   p.maxTexture3D[0],
                                   p.maxTexture3D[1],
                                   p.maxTexture3D[2],
                                   p.maxTexture3DAlt[0],
                                   p.maxTexture3DAlt[1],
                                   p.maxTexture3DAlt[2],
                                   p.maxTextureCubemap,
                                   p.maxTexture1DLayered[0],
                                   p.maxTexture1DLayered[1],
                                   p.maxTexture2DLayered[0],
                                   p.maxTexture2DLayered[1],
                                   p.maxTexture2DLayered[2],
                                   p.maxTextureCubemapLayered[0],
                                   p.maxTextureCubemapLayered[1],
                                   p.maxSurface1D,
                                   p.maxSurface2D[0],
                                   p.maxSurface2D[1],
                                   p.maxSurface3D[0],
                                   p.maxSurface3D[1],
                                   p.maxSurface3D[2],
                                   p.maxSurface1DLayered[0],
                                   p.maxSurface1DLayered[1],
                                   p.maxSurface2DLayered[0],
                                   p.maxSurface2DLayered[1],
                                   p.maxSurface2DLayered[2],
                                   p.maxSurfaceCubemap,
                                   p.maxSurfaceCubemapLayered[0],
                                   p.maxSurfaceCubemapLayered[1]};
  for (size_t i = 0; i < limits.size(); ++i) {
    EXPECT_GT(limits[i], 0) << "limit " << i;
  }
  EXPECT_LE(p.maxTexture1DMipmap, p.maxTexture1D);
  EXPECT_LE(p.maxTexture2DMipmap[0], p.maxTexture2D[0]);
  EXPECT_LE(p.maxTexture2DMipmap[1], p.maxTexture2D[1]);
  EXPECT_LE(p.maxTexture2DGather[0], p.maxTexture2D[0]);
  EXPECT_LE(p.maxTexture2DGather[1], p.maxTexture2D[1]);
  EXPECT_LE(p.maxTexture2DLinear[0], p.maxTexture2D[0]);
  EXPECT_LE(p.maxTexture2DLinear[1], p.maxTexture2D[1]);
  EXPECT_LE(p.maxTexture1DLayered[0], p.maxTexture1D);
  EXPECT_LE(p.maxTexture2DLayered[0], p.maxTexture2D[0]);
  EXPECT_LE(p.maxTexture2DLayered[1], p.maxTexture2D[1]);
  EXPECT_EQ(p.maxTextureCubemapLayered[1] % 6, 0);
  EXPECT_EQ(p.maxSurfaceCubemapLayered[1] % 6, 0);
  EXPECT_TRUE(IsPowerOfTwo(p.texturePitchAlignment)) << p.texturePitchAlignment;
  EXPECT_TRUE(IsPowerOfTwo(p.surfaceAlignment)) << p.surfaceAlignment;
}

TEST_P(DeviceProperties, PlatformAndCapabilityFlagsAreZeroOrOne) {
  MX_SPEC("api.device.props.platform-and-capability-flags");
  const mcDeviceProp_t& p = prop_;
  for (int flag :
       {p.tccDriver, p.streamPrioritiesSupported, p.computePreemptionSupported,
        p.canUseHostPointerForRegisteredMem,
        p.pageableMemoryAccessUsesHostPageTables,
        p.directManagedMemAccessFromHost, p.sparseMcArraySupported,
        p.hostRegisterReadOnlySupported, p.timelineSemaphoreInteropSupported,
        p.gpuDirectRDMASupported, p.deferredMappingMcArraySupported,
        p.ipcEventSupported, p.clusterLaunch, p.unifiedFunctionPointers,
        p.mpsEnabled, p.hostNumaMultinodeIpcSupported}) {
    EXPECT_TRUE(flag == 0 || flag == 1) << flag;
  }
  EXPECT_GT(p.singleToDoublePrecisionPerfRatio, 0);
  if (p.pageableMemoryAccess == 0) {
    EXPECT_EQ(p.pageableMemoryAccessUsesHostPageTables, 0);
  }
  if (p.deviceNumaConfig == 0) {
    EXPECT_EQ(p.deviceNumaId, -1);
  }
  EXPECT_EQ(p.gpuPciDeviceID & 0xffffu, p.gpuPciSubsystemID & 0xffffu)
      << "one vendor makes the board";
}

TEST_P(DeviceProperties, StreamPrioritiesSupportedMeansARange) {
  MX_SPEC("api.device.props.platform-and-capability-flags",
          "api.stream.priority-range.reports-least-and-greatest");
  ASSERT_EQ(mcSetDevice(device()), mcSuccess);
  int least = 0, greatest = 0;
  ASSERT_EQ(mcDeviceGetStreamPriorityRange(&least, &greatest), mcSuccess);
  EXPECT_EQ(prop_.streamPrioritiesSupported, least != greatest ? 1 : 0)
      << least << " " << greatest;
}

TEST_P(DeviceProperties, RegisteredHostPointerWorksInAKernelWhenClaimed) {
  MX_SPEC("api.device.props.platform-and-capability-flags");
  if (prop_.canUseHostPointerForRegisteredMem == 0) {
    GTEST_SKIP() << "unsupported: registered memory at its host address";
  }
  ASSERT_EQ(mcSetDevice(device()), mcSuccess);
  std::vector<int> buffer(4096 / sizeof(int), 0);
  ASSERT_EQ(mcHostRegister(buffer.data(), 4096, mcHostRegisterMapped),
            mcSuccess);
  Touch<<<1, 1>>>(buffer.data());  // the host address itself
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(buffer[0], 1);
  EXPECT_EQ(mcHostUnregister(buffer.data()), mcSuccess);
}

TEST_P(DeviceProperties, UuidIsTheOneMcDeviceGetUuidReports) {
  MX_SPEC("api.device.uuid.returns-device-uuid");
  mcUuid_t uuid;
  std::memset(&uuid, 0, sizeof(uuid));
  ASSERT_EQ(mcDeviceGetUuid(&uuid, device()), mcSuccess);
  EXPECT_EQ(std::memcmp(uuid.bytes, prop_.uuid.bytes, 16), 0);
}

TEST_P(DeviceProperties, ValuesSurviveReset) {
  MX_SPEC("api.device.uuid.distinct-per-device",
          "api.device.count.stable-for-process");
  ASSERT_EQ(mcSetDevice(device()), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  mcDeviceProp_t after;
  ASSERT_EQ(mcGetDeviceProperties(&after, device()), mcSuccess);
  EXPECT_EQ(std::memcmp(prop_.uuid.bytes, after.uuid.bytes, 16), 0);
  EXPECT_EQ(prop_.pciBusID, after.pciBusID);
  EXPECT_STREQ(prop_.name, after.name);
}

INSTANTIATE_TEST_SUITE_P(Ordinals, DeviceProperties,
                         testing::Range(0, kOrdinals),
                         [](const testing::TestParamInfo<int>& info) {
                           return "Device" + std::to_string(info.param);
                         });

TEST(DeviceIdentity, UuidsAndPciLocationsDifferBetweenDevices) {
  MX_SPEC("api.device.uuid.distinct-per-device",
          "api.device.props.pci-location");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  std::vector<mcDeviceProp_t> props(count);
  for (int i = 0; i < count; ++i) {
    ASSERT_EQ(mcGetDeviceProperties(&props[i], i), mcSuccess);
  }
  for (int i = 0; i < count; ++i) {
    for (int j = i + 1; j < count; ++j) {
      EXPECT_NE(std::memcmp(props[i].uuid.bytes, props[j].uuid.bytes, 16), 0)
          << i << " " << j;
      EXPECT_FALSE(props[i].pciDomainID == props[j].pciDomainID &&
                   props[i].pciBusID == props[j].pciBusID &&
                   props[i].pciDeviceID == props[j].pciDeviceID)
          << i << " " << j;
    }
  }
}

}  // namespace
