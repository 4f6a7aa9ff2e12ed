// Copyright mxcts authors.
//
// Conformance: mcDeviceGetAttribute agrees with mcGetDeviceProperties for
// every attribute of mcDeviceAttribute_t, on every visible device
// (docs/spec/api-device.md, "Device attributes"). One test per attribute
// and device ordinal, grouped by the clause that names the attribute;
// flags are 0 or 1 and the features they claim work.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

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
TEST_P(WarpSizeAttribute, EqualsPropertyAndIs64) {
  MX_SPEC("api.device.attribute.warp-size",
          "api.device.props.agree-with-attributes");
  ExpectEqualsProperty();
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
