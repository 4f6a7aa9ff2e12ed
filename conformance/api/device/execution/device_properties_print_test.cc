// Copyright mxcts authors.
//
// Conformance: a program that prints every field of mcDeviceProp_t, as
// device query tools do, compiles and prints the device's values
// (docs/spec/api-device.md, api.device.props.every-cuda-field). Every field
// of CUDA's cudaDeviceProp is named here once; a field the header lacks is
// a compile error. The lines are written to the test's output and to a
// buffer, and a line per kind of field is checked against
// mcDeviceGetAttribute.

#include <mc_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

// Writes "field: value" for every field of `p` to `out`; returns the number
// of lines written.
int PrintProperties(FILE* out, const mcDeviceProp_t& p) {
  int lines = 0;
#define MX_PRINT(format, field, ...)                           \
  do {                                                         \
    std::fprintf(out, "%s: " format "\n", field, __VA_ARGS__); \
    ++lines;                                                   \
  } while (0)
#define MX_INT(f) MX_PRINT("%d", #f, p.f)
#define MX_UINT(f) MX_PRINT("%u", #f, p.f)
#define MX_SIZE(f) MX_PRINT("%zu", #f, p.f)
#define MX_INT2(f) MX_PRINT("%d %d", #f, p.f[0], p.f[1])
#define MX_INT3(f) MX_PRINT("%d %d %d", #f, p.f[0], p.f[1], p.f[2])
  MX_PRINT("%s", "name", p.name);
  char uuid[33];
  for (int i = 0; i < 16; ++i) {
    std::snprintf(uuid + 2 * i, 3, "%02x",
                  static_cast<unsigned char>(p.uuid.bytes[i]));
  }
  MX_PRINT("%s", "uuid", uuid);
  MX_PRINT("%02x%02x%02x%02x%02x%02x%02x%02x", "luid",
           static_cast<unsigned char>(p.luid[0]),
           static_cast<unsigned char>(p.luid[1]),
           static_cast<unsigned char>(p.luid[2]),
           static_cast<unsigned char>(p.luid[3]),
           static_cast<unsigned char>(p.luid[4]),
           static_cast<unsigned char>(p.luid[5]),
           static_cast<unsigned char>(p.luid[6]),
           static_cast<unsigned char>(p.luid[7]));
  MX_UINT(luidDeviceNodeMask);
  MX_SIZE(totalGlobalMem);
  MX_SIZE(sharedMemPerBlock);
  MX_INT(regsPerBlock);
  MX_INT(warpSize);
  MX_INT(waveSize);
  MX_SIZE(memPitch);
  MX_INT(maxThreadsPerBlock);
  MX_INT3(maxThreadsDim);
  MX_INT3(maxGridSize);
  MX_INT(clockRate);
  MX_SIZE(totalConstMem);
  MX_INT(major);
  MX_INT(minor);
  MX_SIZE(textureAlignment);
  MX_SIZE(texturePitchAlignment);
  MX_INT(deviceOverlap);
  MX_INT(multiProcessorCount);
  MX_INT(kernelExecTimeoutEnabled);
  MX_INT(integrated);
  MX_INT(canMapHostMemory);
  MX_INT(computeMode);
  MX_INT(maxTexture1D);
  MX_INT(maxTexture1DMipmap);
  MX_INT(maxTexture1DLinear);
  MX_INT2(maxTexture2D);
  MX_INT2(maxTexture2DMipmap);
  MX_INT3(maxTexture2DLinear);
  MX_INT2(maxTexture2DGather);
  MX_INT3(maxTexture3D);
  MX_INT3(maxTexture3DAlt);
  MX_INT(maxTextureCubemap);
  MX_INT2(maxTexture1DLayered);
  MX_INT3(maxTexture2DLayered);
  MX_INT2(maxTextureCubemapLayered);
  MX_INT(maxSurface1D);
  MX_INT2(maxSurface2D);
  MX_INT3(maxSurface3D);
  MX_INT2(maxSurface1DLayered);
  MX_INT3(maxSurface2DLayered);
  MX_INT(maxSurfaceCubemap);
  MX_INT2(maxSurfaceCubemapLayered);
  MX_SIZE(surfaceAlignment);
  MX_INT(concurrentKernels);
  MX_INT(ECCEnabled);
  MX_INT(pciBusID);
  MX_INT(pciDeviceID);
  MX_INT(pciDomainID);
  MX_INT(tccDriver);
  MX_INT(asyncEngineCount);
  MX_INT(unifiedAddressing);
  MX_INT(memoryClockRate);
  MX_INT(memoryBusWidth);
  MX_INT(l2CacheSize);
  MX_INT(persistingL2CacheMaxSize);
  MX_INT(maxThreadsPerMultiProcessor);
  MX_INT(streamPrioritiesSupported);
  MX_INT(globalL1CacheSupported);
  MX_INT(localL1CacheSupported);
  MX_SIZE(sharedMemPerMultiprocessor);
  MX_INT(regsPerMultiprocessor);
  MX_INT(managedMemory);
  MX_INT(isMultiGpuBoard);
  MX_INT(multiGpuBoardGroupID);
  MX_INT(hostNativeAtomicSupported);
  MX_INT(singleToDoublePrecisionPerfRatio);
  MX_INT(pageableMemoryAccess);
  MX_INT(concurrentManagedAccess);
  MX_INT(computePreemptionSupported);
  MX_INT(canUseHostPointerForRegisteredMem);
  MX_INT(cooperativeLaunch);
  MX_INT(cooperativeMultiDeviceLaunch);
  MX_SIZE(sharedMemPerBlockOptin);
  MX_INT(pageableMemoryAccessUsesHostPageTables);
  MX_INT(directManagedMemAccessFromHost);
  MX_INT(maxBlocksPerMultiProcessor);
  MX_INT(accessPolicyMaxWindowSize);
  MX_SIZE(reservedSharedMemPerBlock);
  MX_INT(hostRegisterSupported);
  MX_INT(sparseMcArraySupported);
  MX_INT(hostRegisterReadOnlySupported);
  MX_INT(timelineSemaphoreInteropSupported);
  MX_INT(memoryPoolsSupported);
  MX_INT(gpuDirectRDMASupported);
  MX_UINT(gpuDirectRDMAFlushWritesOptions);
  MX_INT(gpuDirectRDMAWritesOrdering);
  MX_UINT(memoryPoolSupportedHandleTypes);
  MX_INT(deferredMappingMcArraySupported);
  MX_INT(ipcEventSupported);
  MX_INT(clusterLaunch);
  MX_INT(unifiedFunctionPointers);
  MX_INT(deviceNumaConfig);
  MX_INT(deviceNumaId);
  MX_INT(mpsEnabled);
  MX_INT(hostNumaId);
  MX_UINT(gpuPciDeviceID);
  MX_UINT(gpuPciSubsystemID);
  MX_INT(hostNumaMultinodeIpcSupported);
#undef MX_INT3
#undef MX_INT2
#undef MX_SIZE
#undef MX_UINT
#undef MX_INT
#undef MX_PRINT
  return lines;
}

// Every field of cudaDeviceProp (CUDA 12 and 13, reserved padding left
// out), and MXMACA's waveSize.
constexpr int kFields = 101;

// The value printed on the line of `field` in `text` ("" if none).
std::string PrintedValue(const std::string& text, const std::string& field) {
  const std::string key = "\n" + field + ": ";
  const size_t at = ("\n" + text).find(key);
  if (at == std::string::npos) return "";
  const size_t start = at + key.size() - 1;  // in `text`
  return text.substr(start, text.find('\n', start) - start);
}

class PrintEveryField : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
  }
  int device() const { return GetParam(); }
  std::string Attribute(mcDeviceAttribute_t attribute) {
    int value = -1;
    EXPECT_EQ(mcDeviceGetAttribute(&value, attribute, device()), mcSuccess);
    return std::to_string(value);
  }
};

TEST_P(PrintEveryField, PrintsTheDevicesValues) {
  MX_SPEC("api.device.props.every-cuda-field",
          "api.device.props.agree-with-attributes");
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, device()), mcSuccess);
  // As a device query tool would: on standard output.
  EXPECT_EQ(PrintProperties(stdout, prop), kFields);
  char* buffer = nullptr;
  size_t size = 0;
  FILE* memory = open_memstream(&buffer, &size);
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(PrintProperties(memory, prop), kFields);
  std::fclose(memory);
  const std::string text(buffer, size);
  std::free(buffer);
  EXPECT_EQ(PrintedValue(text, "warpSize"), std::to_string(prop.warpSize));
  EXPECT_EQ(PrintedValue(text, "maxTexture1D"),
            Attribute(mcDeviceAttributeMaxTexture1DWidth));
  EXPECT_EQ(PrintedValue(text, "maxSurface2D"),
            Attribute(mcDeviceAttributeMaxSurface2DWidth) + " " +
                Attribute(mcDeviceAttributeMaxSurface2DHeight));
  EXPECT_EQ(PrintedValue(text, "surfaceAlignment"),
            Attribute(mcDeviceAttributeSurfaceAlignment));
  EXPECT_EQ(PrintedValue(text, "hostNumaId"),
            Attribute(mcDeviceAttributeHostNumaId));
  EXPECT_EQ(PrintedValue(text, "no such field"), "");  // control
}

INSTANTIATE_TEST_SUITE_P(Ordinals, PrintEveryField, testing::Range(0, 2),
                         [](const testing::TestParamInfo<int>& info) {
                           return "Device" + std::to_string(info.param);
                         });

}  // namespace
