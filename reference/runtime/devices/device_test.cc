// Copyright mxcts authors.
//
// Tests of Device: the C500 profile, attributes agreeing with properties,
// and the sticky error.

#include "reference/runtime/devices/device.h"

#include <gtest/gtest.h>

#include <cstring>

#include "reference/runtime/devices/device_config.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

TEST(DeviceProperties, AreTheC500Profile) {
  Device device(0, 0);
  const mcDeviceProp_t& p = device.properties();
  EXPECT_STREQ(p.name, "MetaX C500");
  EXPECT_EQ(p.warpSize, 64);
  EXPECT_EQ(p.waveSize, 64);
  EXPECT_EQ(p.major, 10);
  EXPECT_EQ(p.minor, 0);
  EXPECT_EQ(p.multiProcessorCount, 104);
  EXPECT_EQ(p.maxThreadsPerBlock, 1024);
  EXPECT_EQ(p.maxThreadsDim[2], 1024);
  EXPECT_EQ(p.maxGridSize[1], 2147483647);
  EXPECT_EQ(p.sharedMemPerBlock, 65536u);
  EXPECT_EQ(p.regsPerBlock, 131072);
  EXPECT_EQ(p.l2CacheSize, 8388608);
  EXPECT_EQ(p.totalConstMem, 2147483647u);
  EXPECT_EQ(p.memPitch, 1073741823u);
  EXPECT_EQ(p.unifiedAddressing, 1);
}

TEST(DeviceProperties, PciBusIdsDifferBetweenDevices) {
  Device first(0, 0), second(1, 1);
  EXPECT_LT(first.properties().pciBusID, second.properties().pciBusID);
  EXPECT_EQ(first.properties().pciDomainID, second.properties().pciDomainID);
}

struct AttributeCase {
  mcDeviceAttribute_t attribute;
  int (*property)(const mcDeviceProp_t&);
};

class DeviceAttribute : public testing::TestWithParam<AttributeCase> {};

TEST_P(DeviceAttribute, EqualsItsProperty) {
  // [api.device.props.agree-with-attributes]
  Device device(0, 1);
  absl::StatusOr<int> value = device.Attribute(GetParam().attribute);
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(*value, GetParam().property(device.properties()));
}

#define MC_ATTRIBUTE_CASE(attr, expr)                       \
  AttributeCase {                                           \
    attr, [](const mcDeviceProp_t& p) { return int(expr); } \
  }

INSTANTIATE_TEST_SUITE_P(
    Listed, DeviceAttribute,
    testing::Values(
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxThreadsPerBlock,
                          p.maxThreadsPerBlock),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxBlockDimX, p.maxThreadsDim[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxBlockDimY, p.maxThreadsDim[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxBlockDimZ, p.maxThreadsDim[2]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxGridDimX, p.maxGridSize[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxGridDimY, p.maxGridSize[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxGridDimZ, p.maxGridSize[2]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSharedMemoryPerBlock,
                          p.sharedMemPerBlock),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeTotalConstantMemory,
                          p.totalConstMem),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeWarpSize, p.warpSize),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMultiProcessorCount,
                          p.multiProcessorCount),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeComputeMode, p.computeMode),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeComputeCapabilityMajor, p.major),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeComputeCapabilityMinor, p.minor),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeL2CacheSize, p.l2CacheSize),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxThreadsPerMultiProcessor,
                          p.maxThreadsPerMultiProcessor),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeManagedMemory, p.managedMemory),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeConcurrentManagedAccess,
                          p.concurrentManagedAccess),
        MC_ATTRIBUTE_CASE(mcDeviceAttributePageableMemoryAccess,
                          p.pageableMemoryAccess),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeCooperativeLaunch,
                          p.cooperativeLaunch),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeCooperativeMultiDeviceLaunch,
                          p.cooperativeMultiDeviceLaunch),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMemoryPoolsSupported,
                          p.memoryPoolsSupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeUnifiedAddressing,
                          p.unifiedAddressing),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeAsyncEngineCount,
                          p.asyncEngineCount),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSharedMemoryPerMultiprocessor,
                          p.sharedMemPerMultiprocessor),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxRegistersPerMultiprocessor,
                          p.regsPerMultiprocessor),
        MC_ATTRIBUTE_CASE(mcDeviceAttributePciBusId, p.pciBusID),
        MC_ATTRIBUTE_CASE(mcDeviceAttributePciDomainId, p.pciDomainID),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxPitch, p.memPitch),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxRegistersPerBlock,
                          p.regsPerBlock),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeClockRate, p.clockRate),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeTextureAlignment,
                          p.textureAlignment),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeGpuOverlap, p.deviceOverlap),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeKernelExecTimeout,
                          p.kernelExecTimeoutEnabled),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeIntegrated, p.integrated),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeCanMapHostMemory,
                          p.canMapHostMemory),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeConcurrentKernels,
                          p.concurrentKernels),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeEccEnabled, p.ECCEnabled),
        MC_ATTRIBUTE_CASE(mcDeviceAttributePciDeviceId, p.pciDeviceID),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMemoryClockRate, p.memoryClockRate),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMemoryBusWidth, p.memoryBusWidth),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeIsMultiGpuBoard, p.isMultiGpuBoard),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMultiGpuBoardGroupID,
                          p.multiGpuBoardGroupID),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeGlobalL1CacheSupported,
                          p.globalL1CacheSupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeLocalL1CacheSupported,
                          p.localL1CacheSupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeHostNativeAtomicSupported,
                          p.hostNativeAtomicSupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSharedMemoryPerBlockOptin,
                          p.sharedMemPerBlockOptin),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeHostRegisterSupported,
                          p.hostRegisterSupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxBlocksPerMultiprocessor,
                          p.maxBlocksPerMultiProcessor),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxPersistingL2CacheSize,
                          p.persistingL2CacheMaxSize),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxAccessPolicyWindowSize,
                          p.accessPolicyMaxWindowSize),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeReservedSharedMemoryPerBlock,
                          p.reservedSharedMemPerBlock),
        // [api.device.attribute.texture-and-surface-limits]
        // [api.device.attribute.platform-and-capability-flags]
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture1DWidth, p.maxTexture1D),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture1DMipmappedWidth,
                          p.maxTexture1DMipmap),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture1DLinearWidth,
                          p.maxTexture1DLinear),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DWidth,
                          p.maxTexture2D[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DHeight,
                          p.maxTexture2D[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DMipmappedWidth,
                          p.maxTexture2DMipmap[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DMipmappedHeight,
                          p.maxTexture2DMipmap[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DLinearWidth,
                          p.maxTexture2DLinear[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DLinearHeight,
                          p.maxTexture2DLinear[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DLinearPitch,
                          p.maxTexture2DLinear[2]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DGatherWidth,
                          p.maxTexture2DGather[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DGatherHeight,
                          p.maxTexture2DGather[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture3DWidth,
                          p.maxTexture3D[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture3DHeight,
                          p.maxTexture3D[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture3DDepth,
                          p.maxTexture3D[2]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture3DWidthAlt,
                          p.maxTexture3DAlt[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture3DHeightAlt,
                          p.maxTexture3DAlt[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture3DDepthAlt,
                          p.maxTexture3DAlt[2]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTextureCubemapWidth,
                          p.maxTextureCubemap),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture1DLayeredWidth,
                          p.maxTexture1DLayered[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture1DLayeredLayers,
                          p.maxTexture1DLayered[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DLayeredWidth,
                          p.maxTexture2DLayered[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DLayeredHeight,
                          p.maxTexture2DLayered[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTexture2DLayeredLayers,
                          p.maxTexture2DLayered[2]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTextureCubemapLayeredWidth,
                          p.maxTextureCubemapLayered[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxTextureCubemapLayeredLayers,
                          p.maxTextureCubemapLayered[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface1DWidth, p.maxSurface1D),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface2DWidth,
                          p.maxSurface2D[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface2DHeight,
                          p.maxSurface2D[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface3DWidth,
                          p.maxSurface3D[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface3DHeight,
                          p.maxSurface3D[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface3DDepth,
                          p.maxSurface3D[2]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface1DLayeredWidth,
                          p.maxSurface1DLayered[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface1DLayeredLayers,
                          p.maxSurface1DLayered[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface2DLayeredWidth,
                          p.maxSurface2DLayered[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface2DLayeredHeight,
                          p.maxSurface2DLayered[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurface2DLayeredLayers,
                          p.maxSurface2DLayered[2]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurfaceCubemapWidth,
                          p.maxSurfaceCubemap),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurfaceCubemapLayeredWidth,
                          p.maxSurfaceCubemapLayered[0]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMaxSurfaceCubemapLayeredLayers,
                          p.maxSurfaceCubemapLayered[1]),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeTexturePitchAlignment,
                          p.texturePitchAlignment),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeSurfaceAlignment,
                          p.surfaceAlignment),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeTccDriver, p.tccDriver),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeStreamPrioritiesSupported,
                          p.streamPrioritiesSupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeSingleToDoublePrecisionPerfRatio,
                          p.singleToDoublePrecisionPerfRatio),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeComputePreemptionSupported,
                          p.computePreemptionSupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeCanUseHostPointerForRegisteredMem,
                          p.canUseHostPointerForRegisteredMem),
        MC_ATTRIBUTE_CASE(
            mcDeviceAttributePageableMemoryAccessUsesHostPageTables,
            p.pageableMemoryAccessUsesHostPageTables),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeDirectManagedMemAccessFromHost,
                          p.directManagedMemAccessFromHost),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeSparseMcArraySupported,
                          p.sparseMcArraySupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeHostRegisterReadOnlySupported,
                          p.hostRegisterReadOnlySupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeTimelineSemaphoreInteropSupported,
                          p.timelineSemaphoreInteropSupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeGPUDirectRDMASupported,
                          p.gpuDirectRDMASupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeGPUDirectRDMAFlushWritesOptions,
                          p.gpuDirectRDMAFlushWritesOptions),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeGPUDirectRDMAWritesOrdering,
                          p.gpuDirectRDMAWritesOrdering),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMemoryPoolSupportedHandleTypes,
                          p.memoryPoolSupportedHandleTypes),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeClusterLaunch, p.clusterLaunch),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeDeferredMappingMcArraySupported,
                          p.deferredMappingMcArraySupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeIpcEventSupport,
                          p.ipcEventSupported),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeNumaConfig, p.deviceNumaConfig),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeNumaId, p.deviceNumaId),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeMpsEnabled, p.mpsEnabled),
        MC_ATTRIBUTE_CASE(mcDeviceAttributeHostNumaId, p.hostNumaId)));

// Every enumerator of mcDeviceAttribute_t is listed above: the values
// between the first and the last that Attribute accepts are exactly the
// listed ones.
TEST(DeviceAttributeValues, EveryEnumeratorIsListed) {
  Device device(0, 0);
  int accepted = 0;
  for (int attribute = 0; attribute <= 200; ++attribute) {
    if (device.Attribute(attribute).ok()) ++accepted;
  }
  EXPECT_EQ(accepted, 115);
}

TEST(DeviceAttributeValues, UnknownAttributeIsInvalidValue) {
  // [api.device.attribute.invalid-attribute-is-invalid-value]
  Device device(0, 0);
  absl::StatusOr<int> value = device.Attribute(0);
  ASSERT_FALSE(value.ok());
  EXPECT_EQ(ToMcError(value.status()), mcErrorInvalidValue);
  EXPECT_FALSE(device.Attribute(1000).ok());
  EXPECT_TRUE(device.Attribute(mcDeviceAttributeWarpSize).ok());  // control
}

TEST(DeviceAttributeValues, FeatureFlagsAreZeroOrOne) {
  Device device(0, 0);
  for (mcDeviceAttribute_t flag :
       {mcDeviceAttributeManagedMemory,
        mcDeviceAttributeConcurrentManagedAccess,
        mcDeviceAttributePageableMemoryAccess,
        mcDeviceAttributeCooperativeLaunch,
        mcDeviceAttributeCooperativeMultiDeviceLaunch,
        mcDeviceAttributeMemoryPoolsSupported,
        mcDeviceAttributeUnifiedAddressing}) {
    int value = *device.Attribute(flag);
    EXPECT_TRUE(value == 0 || value == 1) << flag;
  }
}

TEST(DeviceProperties, NewFieldsAreTheReferenceChoices) {
  Device device(0, 0);
  const mcDeviceProp_t& p = device.properties();
  EXPECT_EQ(p.sharedMemPerBlockOptin, p.sharedMemPerBlock);
  EXPECT_EQ(p.reservedSharedMemPerBlock, 0u);
  EXPECT_EQ(p.maxBlocksPerMultiProcessor, config::kMaxBlocksPerMultiProcessor);
  EXPECT_EQ(p.persistingL2CacheMaxSize, 0);
  EXPECT_EQ(p.hostRegisterSupported, 1);
}

TEST(DeviceProperties, TextureAndSurfaceLimitsAreTheProfiles) {
  // [api.device.props.texture-and-surface-limits]
  Device device(0, 0);
  const mcDeviceProp_t& p = device.properties();
  EXPECT_EQ(p.maxTexture1D, 131072);
  EXPECT_EQ(p.maxTexture2D[0], 131072);
  EXPECT_EQ(p.maxTexture2D[1], 65536);
  EXPECT_EQ(p.maxTexture2DLinear[2], 2097120);
  EXPECT_EQ(p.maxTexture3DAlt[2], 32768);
  EXPECT_EQ(p.maxTextureCubemapLayered[1], 2046);
  EXPECT_EQ(p.maxSurface2DLayered[2], 2048);
  EXPECT_EQ(p.texturePitchAlignment, 32u);
  EXPECT_EQ(p.surfaceAlignment, 512u);
}

TEST(DeviceProperties, PlatformFieldsAreTheReferenceChoices) {
  // [api.device.props.platform-and-capability-flags]
  Device device(1, 1);
  const mcDeviceProp_t& p = device.properties();
  for (char byte : p.luid) EXPECT_EQ(byte, 0);
  EXPECT_EQ(p.luidDeviceNodeMask, 0u);
  EXPECT_EQ(p.streamPrioritiesSupported, 1);
  EXPECT_EQ(p.canUseHostPointerForRegisteredMem, 1);
  EXPECT_EQ(p.directManagedMemAccessFromHost, 1);
  EXPECT_EQ(p.computePreemptionSupported, 0);
  EXPECT_EQ(p.ipcEventSupported, 1);
  EXPECT_EQ(p.deviceNumaConfig, 0);
  EXPECT_EQ(p.deviceNumaId, -1);
  EXPECT_EQ(p.hostNumaId, 0);
  EXPECT_EQ(p.gpuPciDeviceID & 0xffffu, config::kGpuPciVendorId);
}

TEST(DeviceIdentity, UuidsDifferAndPciBusIdIsFormatted) {
  Device first(0, 0), second(1, 1);
  EXPECT_NE(std::memcmp(first.properties().uuid.bytes,
                        second.properties().uuid.bytes, 16),
            0);
  EXPECT_EQ(std::memcmp(first.properties().uuid.bytes,
                        config::DeviceUuid(0).bytes, 16),
            0);
  EXPECT_EQ(first.PciBusId(), "0000:1b:00.0");
  EXPECT_EQ(second.PciBusId(), "0000:1c:00.0");
}

TEST(DeviceSettings, ResetSettingsRestoresDefaults) {
  Device device(0, 0);
  EXPECT_EQ(device.cache_config(), mcFuncCachePreferNone);
  EXPECT_EQ(device.flags(), static_cast<unsigned>(mcDeviceScheduleAuto));
  device.set_cache_config(mcFuncCachePreferShared);
  device.set_flags(mcDeviceScheduleYield | mcDeviceMapHost);
  ASSERT_TRUE(device.limits().Set(mcLimitDevRuntimeSyncDepth, 5).ok());
  EXPECT_EQ(device.cache_config(), mcFuncCachePreferShared);
  device.ResetSettings();
  EXPECT_EQ(device.cache_config(), mcFuncCachePreferNone);
  EXPECT_EQ(device.flags(), static_cast<unsigned>(mcDeviceScheduleAuto));
  EXPECT_EQ(device.limits().Get(mcLimitDevRuntimeSyncDepth).value(), 2u);
}

TEST(StickyError, FirstFaultIsKeptUntilCleared) {
  Device device(0, 0);
  EXPECT_TRUE(device.CheckUsable().ok());
  device.RecordFault(mcErrorAssert);
  device.RecordFault(mcErrorIllegalAddress);
  EXPECT_EQ(ToMcError(device.CheckUsable()), mcErrorAssert);
  device.ClearFault();
  EXPECT_TRUE(device.CheckUsable().ok());
}

}  // namespace
}  // namespace mxcts::runtime
