// Copyright mxcts authors.
//
// Conformance: mcDeviceGetAttribute agrees with mcGetDeviceProperties for
// every attribute of mcDeviceAttribute_t, on every visible device
// (docs/spec/api-device.md, "Device attributes"). One test per attribute
// and device ordinal, grouped by the clause that names the attribute;
// flags are 0 or 1 and the features they claim work.

#include <mc_runtime.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::ClaimedCount;

constexpr int kOrdinals = 2;

// One attribute and the property it must equal.
struct Attribute {
  const char* name;
  mcDeviceAttribute_t attribute;
  long long (*property)(const mcDeviceProp_t&);
};

#define MX_ATTRIBUTE(attr, expr)                                             \
  Attribute {                                                                \
#attr, mcDeviceAttribute##attr,                                          \
        [](const mcDeviceProp_t& p) { return static_cast<long long>(expr); } \
  }

using Case = std::tuple<Attribute, int>;

class AttributeTest : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device() + 1);
  }
  const Attribute& attribute() const { return std::get<0>(GetParam()); }
  int device() const { return std::get<1>(GetParam()); }

  // The attribute equals its property and is stored by a successful call.
  void ExpectEqualsProperty() {
    mcDeviceProp_t prop;
    ASSERT_EQ(mcGetDeviceProperties(&prop, device()), mcSuccess);
    int value = -12345;
    ASSERT_EQ(mcDeviceGetAttribute(&value, attribute().attribute, device()),
              mcSuccess);
    EXPECT_EQ(value, attribute().property(prop)) << attribute().name;
  }

  // The attribute's value.
  int Value() const {
    int value = -1;
    EXPECT_EQ(mcDeviceGetAttribute(&value, attribute().attribute, device()),
              mcSuccess);
    return value;
  }
};

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string(std::get<0>(info.param).name) + "_Device" +
         std::to_string(std::get<1>(info.param));
}

#define MX_ATTRIBUTE_SUITE(suite, ...)                                     \
  INSTANTIATE_TEST_SUITE_P(Attributes, suite,                              \
                           testing::Combine(testing::Values(__VA_ARGS__),  \
                                            testing::Range(0, kOrdinals)), \
                           CaseName)

class LaunchShapeAttribute : public AttributeTest {};
TEST_P(LaunchShapeAttribute, EqualsProperty) {
  MX_SPEC("api.device.attribute.launch-shape",
          "api.device.attribute.returns-value",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
}
MX_ATTRIBUTE_SUITE(LaunchShapeAttribute,
                   MX_ATTRIBUTE(MaxThreadsPerBlock, p.maxThreadsPerBlock),
                   MX_ATTRIBUTE(MaxBlockDimX, p.maxThreadsDim[0]),
                   MX_ATTRIBUTE(MaxBlockDimY, p.maxThreadsDim[1]),
                   MX_ATTRIBUTE(MaxBlockDimZ, p.maxThreadsDim[2]),
                   MX_ATTRIBUTE(MaxGridDimX, p.maxGridSize[0]),
                   MX_ATTRIBUTE(MaxGridDimY, p.maxGridSize[1]),
                   MX_ATTRIBUTE(MaxGridDimZ, p.maxGridSize[2]));

class MemorySizeAttribute : public AttributeTest {};
TEST_P(MemorySizeAttribute, EqualsProperty) {
  MX_SPEC("api.device.attribute.memory-sizes",
          "api.device.attribute.returns-value",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
}
MX_ATTRIBUTE_SUITE(MemorySizeAttribute,
                   MX_ATTRIBUTE(MaxSharedMemoryPerBlock, p.sharedMemPerBlock),
                   MX_ATTRIBUTE(TotalConstantMemory, p.totalConstMem),
                   MX_ATTRIBUTE(L2CacheSize, p.l2CacheSize),
                   MX_ATTRIBUTE(MaxSharedMemoryPerMultiprocessor,
                                p.sharedMemPerMultiprocessor),
                   MX_ATTRIBUTE(MaxRegistersPerMultiprocessor,
                                p.regsPerMultiprocessor));

class WarpSizeAttribute : public AttributeTest {};
TEST_P(WarpSizeAttribute, EqualsPropertyAndTheClaimedWaveSize) {
  MX_SPEC("api.device.attribute.warp-size",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
  std::string why;
  const std::optional<int64_t> claimed = ClaimedCount("wave_size", &why);
  ASSERT_TRUE(claimed.has_value()) << why;
  EXPECT_EQ(Value(), *claimed);
}

// MXMACA's wave is 64 lanes; a backend whose hardware has narrower waves
// says so in its manifest (wave_size), and this test is unsupported there.
TEST_P(WarpSizeAttribute, Is64) {
  MX_SPEC("api.device.attribute.warp-size");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);
  EXPECT_EQ(Value(), 64);
}
MX_ATTRIBUTE_SUITE(WarpSizeAttribute, MX_ATTRIBUTE(WarpSize, p.warpSize));

class MultiprocessorAttribute : public AttributeTest {};
TEST_P(MultiprocessorAttribute, EqualsProperty) {
  MX_SPEC("api.device.attribute.multiprocessors",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
}
MX_ATTRIBUTE_SUITE(MultiprocessorAttribute,
                   MX_ATTRIBUTE(MultiProcessorCount, p.multiProcessorCount),
                   MX_ATTRIBUTE(MaxThreadsPerMultiProcessor,
                                p.maxThreadsPerMultiProcessor));

class CapabilityAttribute : public AttributeTest {};
TEST_P(CapabilityAttribute, EqualsProperty) {
  MX_SPEC("api.device.attribute.compute-capability-and-mode",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
}
MX_ATTRIBUTE_SUITE(CapabilityAttribute,
                   MX_ATTRIBUTE(ComputeCapabilityMajor, p.major),
                   MX_ATTRIBUTE(ComputeCapabilityMinor, p.minor),
                   MX_ATTRIBUTE(ComputeMode, p.computeMode));

class FeatureFlagAttribute : public AttributeTest {};
TEST_P(FeatureFlagAttribute, EqualsPropertyAndIsZeroOrOne) {
  MX_SPEC("api.device.attribute.feature-flags",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
  const int value = Value();
  EXPECT_TRUE(value == 0 || value == 1) << value;
}
MX_ATTRIBUTE_SUITE(
    FeatureFlagAttribute, MX_ATTRIBUTE(ManagedMemory, p.managedMemory),
    MX_ATTRIBUTE(ConcurrentManagedAccess, p.concurrentManagedAccess),
    MX_ATTRIBUTE(PageableMemoryAccess, p.pageableMemoryAccess),
    MX_ATTRIBUTE(CooperativeLaunch, p.cooperativeLaunch),
    MX_ATTRIBUTE(CooperativeMultiDeviceLaunch, p.cooperativeMultiDeviceLaunch),
    MX_ATTRIBUTE(MemoryPoolsSupported, p.memoryPoolsSupported),
    MX_ATTRIBUTE(UnifiedAddressing, p.unifiedAddressing));

class AsyncEngineAttribute : public AttributeTest {};
TEST_P(AsyncEngineAttribute, EqualsPropertyAndIsNotNegative) {
  MX_SPEC("api.device.attribute.async-engine-count",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
  EXPECT_GE(Value(), 0);
}
MX_ATTRIBUTE_SUITE(AsyncEngineAttribute,
                   MX_ATTRIBUTE(AsyncEngineCount, p.asyncEngineCount));

class OccupancyLimitAttribute : public AttributeTest {};
TEST_P(OccupancyLimitAttribute, EqualsProperty) {
  MX_SPEC("api.device.attribute.occupancy-limits",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
}
MX_ATTRIBUTE_SUITE(
    OccupancyLimitAttribute,
    MX_ATTRIBUTE(MaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor),
    MX_ATTRIBUTE(MaxSharedMemoryPerBlockOptin, p.sharedMemPerBlockOptin),
    MX_ATTRIBUTE(ReservedSharedMemoryPerBlock, p.reservedSharedMemPerBlock),
    MX_ATTRIBUTE(MaxRegistersPerBlock, p.regsPerBlock));

class CounterpartAttribute : public AttributeTest {};
TEST_P(CounterpartAttribute, EqualsProperty) {
  MX_SPEC("api.device.attribute.property-counterparts",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
}
MX_ATTRIBUTE_SUITE(
    CounterpartAttribute, MX_ATTRIBUTE(MaxPitch, p.memPitch),
    MX_ATTRIBUTE(TextureAlignment, p.textureAlignment),
    MX_ATTRIBUTE(ClockRate, p.clockRate),
    MX_ATTRIBUTE(MemoryClockRate, p.memoryClockRate),
    MX_ATTRIBUTE(MemoryBusWidth, p.memoryBusWidth),
    MX_ATTRIBUTE(GpuOverlap, p.deviceOverlap),
    MX_ATTRIBUTE(KernelExecTimeout, p.kernelExecTimeoutEnabled),
    MX_ATTRIBUTE(Integrated, p.integrated),
    MX_ATTRIBUTE(CanMapHostMemory, p.canMapHostMemory),
    MX_ATTRIBUTE(ConcurrentKernels, p.concurrentKernels),
    MX_ATTRIBUTE(EccEnabled, p.ECCEnabled), MX_ATTRIBUTE(PciBusId, p.pciBusID),
    MX_ATTRIBUTE(PciDeviceId, p.pciDeviceID),
    MX_ATTRIBUTE(PciDomainId, p.pciDomainID),
    MX_ATTRIBUTE(IsMultiGpuBoard, p.isMultiGpuBoard),
    MX_ATTRIBUTE(MultiGpuBoardGroupID, p.multiGpuBoardGroupID),
    MX_ATTRIBUTE(GlobalL1CacheSupported, p.globalL1CacheSupported),
    MX_ATTRIBUTE(LocalL1CacheSupported, p.localL1CacheSupported),
    MX_ATTRIBUTE(HostNativeAtomicSupported, p.hostNativeAtomicSupported),
    MX_ATTRIBUTE(HostRegisterSupported, p.hostRegisterSupported),
    MX_ATTRIBUTE(MaxPersistingL2CacheSize, p.persistingL2CacheMaxSize),
    MX_ATTRIBUTE(MaxAccessPolicyWindowSize, p.accessPolicyMaxWindowSize));

class TextureAndSurfaceAttribute : public AttributeTest {};
TEST_P(TextureAndSurfaceAttribute, EqualsPropertyAndIsPositive) {
  MX_SPEC("api.device.attribute.texture-and-surface-limits",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
  EXPECT_GT(Value(), 0);
}
MX_ATTRIBUTE_SUITE(
    TextureAndSurfaceAttribute, MX_ATTRIBUTE(MaxTexture1DWidth, p.maxTexture1D),
    MX_ATTRIBUTE(MaxTexture1DMipmappedWidth, p.maxTexture1DMipmap),
    MX_ATTRIBUTE(MaxTexture1DLinearWidth, p.maxTexture1DLinear),
    MX_ATTRIBUTE(MaxTexture2DWidth, p.maxTexture2D[0]),
    MX_ATTRIBUTE(MaxTexture2DHeight, p.maxTexture2D[1]),
    MX_ATTRIBUTE(MaxTexture2DMipmappedWidth, p.maxTexture2DMipmap[0]),
    MX_ATTRIBUTE(MaxTexture2DMipmappedHeight, p.maxTexture2DMipmap[1]),
    MX_ATTRIBUTE(MaxTexture2DLinearWidth, p.maxTexture2DLinear[0]),
    MX_ATTRIBUTE(MaxTexture2DLinearHeight, p.maxTexture2DLinear[1]),
    MX_ATTRIBUTE(MaxTexture2DLinearPitch, p.maxTexture2DLinear[2]),
    MX_ATTRIBUTE(MaxTexture2DGatherWidth, p.maxTexture2DGather[0]),
    MX_ATTRIBUTE(MaxTexture2DGatherHeight, p.maxTexture2DGather[1]),
    MX_ATTRIBUTE(MaxTexture3DWidth, p.maxTexture3D[0]),
    MX_ATTRIBUTE(MaxTexture3DHeight, p.maxTexture3D[1]),
    MX_ATTRIBUTE(MaxTexture3DDepth, p.maxTexture3D[2]),
    MX_ATTRIBUTE(MaxTexture3DWidthAlt, p.maxTexture3DAlt[0]),
    MX_ATTRIBUTE(MaxTexture3DHeightAlt, p.maxTexture3DAlt[1]),
    MX_ATTRIBUTE(MaxTexture3DDepthAlt, p.maxTexture3DAlt[2]),
    MX_ATTRIBUTE(MaxTextureCubemapWidth, p.maxTextureCubemap),
    MX_ATTRIBUTE(MaxTexture1DLayeredWidth, p.maxTexture1DLayered[0]),
    MX_ATTRIBUTE(MaxTexture1DLayeredLayers, p.maxTexture1DLayered[1]),
    MX_ATTRIBUTE(MaxTexture2DLayeredWidth, p.maxTexture2DLayered[0]),
    MX_ATTRIBUTE(MaxTexture2DLayeredHeight, p.maxTexture2DLayered[1]),
    MX_ATTRIBUTE(MaxTexture2DLayeredLayers, p.maxTexture2DLayered[2]),
    MX_ATTRIBUTE(MaxTextureCubemapLayeredWidth, p.maxTextureCubemapLayered[0]),
    MX_ATTRIBUTE(MaxTextureCubemapLayeredLayers, p.maxTextureCubemapLayered[1]),
    MX_ATTRIBUTE(MaxSurface1DWidth, p.maxSurface1D),
    MX_ATTRIBUTE(MaxSurface2DWidth, p.maxSurface2D[0]),
    MX_ATTRIBUTE(MaxSurface2DHeight, p.maxSurface2D[1]),
    MX_ATTRIBUTE(MaxSurface3DWidth, p.maxSurface3D[0]),
    MX_ATTRIBUTE(MaxSurface3DHeight, p.maxSurface3D[1]),
    MX_ATTRIBUTE(MaxSurface3DDepth, p.maxSurface3D[2]),
    MX_ATTRIBUTE(MaxSurface1DLayeredWidth, p.maxSurface1DLayered[0]),
    MX_ATTRIBUTE(MaxSurface1DLayeredLayers, p.maxSurface1DLayered[1]),
    MX_ATTRIBUTE(MaxSurface2DLayeredWidth, p.maxSurface2DLayered[0]),
    MX_ATTRIBUTE(MaxSurface2DLayeredHeight, p.maxSurface2DLayered[1]),
    MX_ATTRIBUTE(MaxSurface2DLayeredLayers, p.maxSurface2DLayered[2]),
    MX_ATTRIBUTE(MaxSurfaceCubemapWidth, p.maxSurfaceCubemap),
    MX_ATTRIBUTE(MaxSurfaceCubemapLayeredWidth, p.maxSurfaceCubemapLayered[0]),
    MX_ATTRIBUTE(MaxSurfaceCubemapLayeredLayers, p.maxSurfaceCubemapLayered[1]),
    MX_ATTRIBUTE(TexturePitchAlignment, p.texturePitchAlignment),
    MX_ATTRIBUTE(SurfaceAlignment, p.surfaceAlignment));

class PlatformAttribute : public AttributeTest {};
TEST_P(PlatformAttribute, EqualsProperty) {
  MX_SPEC("api.device.attribute.platform-and-capability-flags",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
}
MX_ATTRIBUTE_SUITE(
    PlatformAttribute, MX_ATTRIBUTE(TccDriver, p.tccDriver),
    MX_ATTRIBUTE(StreamPrioritiesSupported, p.streamPrioritiesSupported),
    MX_ATTRIBUTE(SingleToDoublePrecisionPerfRatio,
                 p.singleToDoublePrecisionPerfRatio),
    MX_ATTRIBUTE(ComputePreemptionSupported, p.computePreemptionSupported),
    MX_ATTRIBUTE(CanUseHostPointerForRegisteredMem,
                 p.canUseHostPointerForRegisteredMem),
    MX_ATTRIBUTE(PageableMemoryAccessUsesHostPageTables,
                 p.pageableMemoryAccessUsesHostPageTables),
    MX_ATTRIBUTE(DirectManagedMemAccessFromHost,
                 p.directManagedMemAccessFromHost),
    MX_ATTRIBUTE(SparseMcArraySupported, p.sparseMcArraySupported),
    MX_ATTRIBUTE(HostRegisterReadOnlySupported,
                 p.hostRegisterReadOnlySupported),
    MX_ATTRIBUTE(TimelineSemaphoreInteropSupported,
                 p.timelineSemaphoreInteropSupported),
    MX_ATTRIBUTE(GPUDirectRDMASupported, p.gpuDirectRDMASupported),
    MX_ATTRIBUTE(GPUDirectRDMAFlushWritesOptions,
                 p.gpuDirectRDMAFlushWritesOptions),
    MX_ATTRIBUTE(GPUDirectRDMAWritesOrdering, p.gpuDirectRDMAWritesOrdering),
    MX_ATTRIBUTE(MemoryPoolSupportedHandleTypes,
                 p.memoryPoolSupportedHandleTypes),
    MX_ATTRIBUTE(ClusterLaunch, p.clusterLaunch),
    MX_ATTRIBUTE(DeferredMappingMcArraySupported,
                 p.deferredMappingMcArraySupported),
    MX_ATTRIBUTE(IpcEventSupport, p.ipcEventSupported),
    MX_ATTRIBUTE(NumaConfig, p.deviceNumaConfig),
    MX_ATTRIBUTE(NumaId, p.deviceNumaId),
    MX_ATTRIBUTE(MpsEnabled, p.mpsEnabled),
    MX_ATTRIBUTE(HostNumaId, p.hostNumaId));

// The enumerators have CUDA's cudaDeviceAttr values, so that a program
// translated name for name asks for the same attribute.
TEST(AttributeEnumerators, HaveCudasValues) {
  MX_SPEC("api.device.attribute.texture-and-surface-limits",
          "api.device.attribute.platform-and-capability-flags");
  EXPECT_EQ(mcDeviceAttributeMaxTexture1DWidth, 21);
  EXPECT_EQ(mcDeviceAttributeSurfaceAlignment, 30);
  EXPECT_EQ(mcDeviceAttributeTccDriver, 35);
  EXPECT_EQ(mcDeviceAttributeTexturePitchAlignment, 51);
  EXPECT_EQ(mcDeviceAttributeMaxSurfaceCubemapLayeredLayers, 68);
  EXPECT_EQ(mcDeviceAttributeMaxTexture1DMipmappedWidth, 77);
  EXPECT_EQ(mcDeviceAttributeStreamPrioritiesSupported, 78);
  EXPECT_EQ(mcDeviceAttributeCanUseHostPointerForRegisteredMem, 91);
  EXPECT_EQ(mcDeviceAttributeDirectManagedMemAccessFromHost, 101);
  EXPECT_EQ(mcDeviceAttributeMemoryPoolSupportedHandleTypes, 119);
  EXPECT_EQ(mcDeviceAttributeIpcEventSupport, 125);
  EXPECT_EQ(mcDeviceAttributeHostNumaId, 134);
}

class AttributeRelations : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
  }
  int Get(mcDeviceAttribute_t attribute) {
    int value = -1;
    EXPECT_EQ(mcDeviceGetAttribute(&value, attribute, GetParam()), mcSuccess);
    return value;
  }
};

TEST_P(AttributeRelations, PerBlockSharedMemoryFitsTheMultiprocessor) {
  MX_SPEC("api.device.attribute.memory-sizes");
  EXPECT_GT(Get(mcDeviceAttributeMaxSharedMemoryPerBlock), 0);
  EXPECT_LE(Get(mcDeviceAttributeMaxSharedMemoryPerBlock),
            Get(mcDeviceAttributeMaxSharedMemoryPerMultiprocessor));
  EXPECT_GT(Get(mcDeviceAttributeMaxRegistersPerMultiprocessor), 0);
}

TEST_P(AttributeRelations, ManagedMemoryWorksWhenClaimed) {
  MX_SPEC("api.device.attribute.feature-flags");
  if (Get(mcDeviceAttributeManagedMemory) == 0) {
    GTEST_SKIP() << "unsupported: managed memory on this device";
  }
  ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
  int* managed = nullptr;
  ASSERT_EQ(mcMallocManaged(&managed, sizeof(int)), mcSuccess);
  *managed = 7;  // the host can use it
  EXPECT_EQ(*managed, 7);
  EXPECT_EQ(mcFree(managed), mcSuccess);
  mcSetDevice(0);
}

TEST_P(AttributeRelations, UnifiedAddressingMeansDefaultCopiesWork) {
  MX_SPEC("api.device.attribute.feature-flags");
  if (Get(mcDeviceAttributeUnifiedAddressing) == 0) {
    GTEST_SKIP() << "unsupported: unified addressing on this device";
  }
  ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
  int* device_memory = nullptr;
  ASSERT_EQ(mcMalloc(&device_memory, sizeof(int)), mcSuccess);
  int in = 42, out = 0;
  EXPECT_EQ(mcMemcpy(device_memory, &in, sizeof(int), mcMemcpyDefault),
            mcSuccess);
  EXPECT_EQ(mcMemcpy(&out, device_memory, sizeof(int), mcMemcpyDefault),
            mcSuccess);
  EXPECT_EQ(out, 42);
  mcFree(device_memory);
  mcSetDevice(0);
}

INSTANTIATE_TEST_SUITE_P(Ordinals, AttributeRelations,
                         testing::Range(0, kOrdinals),
                         [](const testing::TestParamInfo<int>& info) {
                           return "Device" + std::to_string(info.param);
                         });

}  // namespace
