// Copyright mxcts authors.
//
// The default device profile (device_config.h) as an mcDeviceProp_t: one
// assignment per field, every value from the named constants, so that the
// properties and the attributes (device.cc) cannot disagree.
//
// Tested by device_test.cc.

#include "reference/runtime/devices/device_config.h"

#include <cstring>

namespace mxcts::runtime::config {

mcDeviceProp_t DefaultDeviceProperties(int system_index) {
  mcDeviceProp_t p;
  std::memset(&p, 0, sizeof(p));
  static_assert(sizeof(kDeviceName) <= sizeof(p.name), "name fits");
  std::memcpy(p.name, kDeviceName, sizeof(kDeviceName));
  p.totalGlobalMem = kTotalGlobalMem;
  p.sharedMemPerBlock = kSharedMemPerBlock;
  p.regsPerBlock = kRegsPerBlock;
  p.warpSize = kWaveSize;
  p.memPitch = kMemPitch;
  p.maxThreadsPerBlock = kMaxThreadsPerBlock;
  p.maxThreadsDim[0] = kMaxBlockDimX;
  p.maxThreadsDim[1] = kMaxBlockDimY;
  p.maxThreadsDim[2] = kMaxBlockDimZ;
  p.maxGridSize[0] = kMaxGridDimX;
  p.maxGridSize[1] = kMaxGridDimY;
  p.maxGridSize[2] = kMaxGridDimZ;
  p.clockRate = kClockRateKhz;
  p.totalConstMem = kTotalConstMem;
  p.major = kComputeMajor;
  p.minor = kComputeMinor;
  p.textureAlignment = kTextureAlignment;
  p.deviceOverlap = kDeviceOverlap;
  p.multiProcessorCount = kMultiProcessorCount;
  p.kernelExecTimeoutEnabled = kKernelExecTimeoutEnabled;
  p.integrated = kIntegrated;
  p.canMapHostMemory = kCanMapHostMemory;
  p.computeMode = kComputeMode;
  p.concurrentKernels = kConcurrentKernels;
  p.ECCEnabled = kEccEnabled;
  p.pciBusID = kPciBusIdBase + system_index;
  p.pciDeviceID = kPciDeviceId;
  p.pciDomainID = kPciDomainId;
  p.asyncEngineCount = kAsyncEngineCount;
  p.unifiedAddressing = kUnifiedAddressing;
  p.memoryClockRate = kMemoryClockRateKhz;
  p.memoryBusWidth = kMemoryBusWidthBits;
  p.l2CacheSize = kL2CacheSize;
  p.maxThreadsPerMultiProcessor = kMaxThreadsPerMultiProcessor;
  p.sharedMemPerMultiprocessor = kSharedMemPerMultiprocessor;
  p.regsPerMultiprocessor = kRegsPerMultiprocessor;
  p.managedMemory = kManagedMemory;
  p.isMultiGpuBoard = kIsMultiGpuBoard;
  // Each simulated device is its own board. [api.device.props.pci-location]
  p.multiGpuBoardGroupID = system_index;
  p.pageableMemoryAccess = kPageableMemoryAccess;
  p.concurrentManagedAccess = kConcurrentManagedAccess;
  p.cooperativeLaunch = kCooperativeLaunch;
  p.cooperativeMultiDeviceLaunch = kCooperativeMultiDeviceLaunch;
  p.memoryPoolsSupported = kMemoryPoolsSupported;
  p.waveSize = kWaveSize;
  p.uuid = DeviceUuid(system_index);
  p.sharedMemPerBlockOptin = kSharedMemPerBlockOptin;
  p.reservedSharedMemPerBlock = kReservedSharedMemPerBlock;
  p.maxBlocksPerMultiProcessor = kMaxBlocksPerMultiProcessor;
  p.globalL1CacheSupported = kGlobalL1CacheSupported;
  p.localL1CacheSupported = kLocalL1CacheSupported;
  p.hostNativeAtomicSupported = kHostNativeAtomicSupported;
  p.hostRegisterSupported = kHostRegisterSupported;
  p.persistingL2CacheMaxSize = kPersistingL2CacheMaxSize;
  p.accessPolicyMaxWindowSize = kAccessPolicyMaxWindowSize;
  // luid and luidDeviceNodeMask stay zero: not a Windows device.
  p.texturePitchAlignment = kTexturePitchAlignment;
  p.maxTexture1D = kMaxTexture1D;
  p.maxTexture1DMipmap = kMaxTexture1DMipmap;
  p.maxTexture1DLinear = kMaxTexture1DLinear;
  p.maxTexture2D[0] = kMaxTexture2DWidth;
  p.maxTexture2D[1] = kMaxTexture2DHeight;
  p.maxTexture2DMipmap[0] = kMaxTexture2DMipmap;
  p.maxTexture2DMipmap[1] = kMaxTexture2DMipmap;
  p.maxTexture2DLinear[0] = kMaxTexture2DLinearWidth;
  p.maxTexture2DLinear[1] = kMaxTexture2DLinearHeight;
  p.maxTexture2DLinear[2] = kMaxTexture2DLinearPitch;
  p.maxTexture2DGather[0] = kMaxTexture2DGather;
  p.maxTexture2DGather[1] = kMaxTexture2DGather;
  for (int i = 0; i < 3; ++i) p.maxTexture3D[i] = kMaxTexture3D;
  p.maxTexture3DAlt[0] = kMaxTexture3DAltWidth;
  p.maxTexture3DAlt[1] = kMaxTexture3DAltHeight;
  p.maxTexture3DAlt[2] = kMaxTexture3DAltDepth;
  p.maxTextureCubemap = kMaxTextureCubemap;
  p.maxTexture1DLayered[0] = kMaxTexture1DLayeredWidth;
  p.maxTexture1DLayered[1] = kMaxTextureLayers;
  p.maxTexture2DLayered[0] = kMaxTexture2DLayered;
  p.maxTexture2DLayered[1] = kMaxTexture2DLayered;
  p.maxTexture2DLayered[2] = kMaxTextureLayers;
  p.maxTextureCubemapLayered[0] = kMaxTextureCubemap;
  p.maxTextureCubemapLayered[1] = kMaxTextureCubemapLayers;
  p.maxSurface1D = kMaxSurface1D;
  p.maxSurface2D[0] = kMaxSurface2DWidth;
  p.maxSurface2D[1] = kMaxSurface2DHeight;
  for (int i = 0; i < 3; ++i) p.maxSurface3D[i] = kMaxSurface3D;
  p.maxSurface1DLayered[0] = kMaxSurfaceLayeredWidth;
  p.maxSurface1DLayered[1] = kMaxSurfaceLayers;
  p.maxSurface2DLayered[0] = kMaxSurfaceLayeredWidth;
  p.maxSurface2DLayered[1] = kMaxSurfaceLayeredWidth;
  p.maxSurface2DLayered[2] = kMaxSurfaceLayers;
  p.maxSurfaceCubemap = kMaxSurfaceCubemap;
  p.maxSurfaceCubemapLayered[0] = kMaxSurfaceCubemap;
  p.maxSurfaceCubemapLayered[1] = kMaxSurfaceCubemapLayers;
  p.surfaceAlignment = kSurfaceAlignment;
  p.tccDriver = kTccDriver;
  p.streamPrioritiesSupported = kStreamPrioritiesSupported;
  p.singleToDoublePrecisionPerfRatio = kSingleToDoublePrecisionPerfRatio;
  p.computePreemptionSupported = kComputePreemptionSupported;
  p.canUseHostPointerForRegisteredMem = kCanUseHostPointerForRegisteredMem;
  p.pageableMemoryAccessUsesHostPageTables =
      kPageableMemoryAccessUsesHostPageTables;
  p.directManagedMemAccessFromHost = kDirectManagedMemAccessFromHost;
  p.sparseMcArraySupported = kSparseMcArraySupported;
  p.hostRegisterReadOnlySupported = kHostRegisterReadOnlySupported;
  p.timelineSemaphoreInteropSupported = kTimelineSemaphoreInteropSupported;
  p.gpuDirectRDMASupported = kGpuDirectRdmaSupported;
  p.gpuDirectRDMAFlushWritesOptions = kGpuDirectRdmaFlushWritesOptions;
  p.gpuDirectRDMAWritesOrdering = kGpuDirectRdmaWritesOrdering;
  p.memoryPoolSupportedHandleTypes = kMemoryPoolSupportedHandleTypes;
  p.deferredMappingMcArraySupported = kDeferredMappingMcArraySupported;
  p.ipcEventSupported = kIpcEventSupported;
  p.clusterLaunch = kClusterLaunch;
  p.unifiedFunctionPointers = kUnifiedFunctionPointers;
  p.deviceNumaConfig = kDeviceNumaConfig;
  p.deviceNumaId = kDeviceNumaId;
  p.mpsEnabled = kMpsEnabled;
  p.hostNumaId = kHostNumaId;
  p.gpuPciDeviceID = kGpuPciDeviceId;
  p.gpuPciSubsystemID = kGpuPciSubsystemId;
  p.hostNumaMultinodeIpcSupported = kHostNumaMultinodeIpcSupported;
  return p;
}

mcUuid_t DeviceUuid(int system_index) {
  mcUuid_t uuid;
  static_assert(sizeof(uuid.bytes) == sizeof(kUuidTemplate), "16 bytes");
  std::memcpy(uuid.bytes, kUuidTemplate, sizeof(uuid.bytes));
  // [api.device.uuid.distinct-per-device]
  uuid.bytes[14] = static_cast<char>((system_index >> 8) & 0xff);
  uuid.bytes[15] = static_cast<char>(system_index & 0xff);
  return uuid;
}

}  // namespace mxcts::runtime::config
