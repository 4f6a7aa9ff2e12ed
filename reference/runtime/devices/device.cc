// Copyright mxcts authors.
//
// Device attributes are read from the device's properties, so each
// attribute agrees with its property by construction
// [api.device.props.agree-with-attributes]; every attribute of
// mcDeviceAttribute_t has a property field. The properties are the
// configured profile of the device's system index (device_profile.h).
//
// Tested by device_test.cc.

#include "reference/runtime/devices/device.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/logging/log.h"
#include "reference/runtime/devices/compute_mode.h"
#include "reference/runtime/devices/device_profile.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"

namespace mxcts::runtime {

Device::Device(int ordinal, int system_index)
    : ordinal_(ordinal),
      system_index_(system_index),
      properties_(SystemDeviceProperties(system_index)) {}

absl::StatusOr<int> Device::Attribute(int attribute) const {
  const mcDeviceProp_t& p = properties_;
  switch (attribute) {
    // [api.device.attribute.launch-shape]
    case mcDeviceAttributeMaxThreadsPerBlock:
      return p.maxThreadsPerBlock;
    case mcDeviceAttributeMaxBlockDimX:
      return p.maxThreadsDim[0];
    case mcDeviceAttributeMaxBlockDimY:
      return p.maxThreadsDim[1];
    case mcDeviceAttributeMaxBlockDimZ:
      return p.maxThreadsDim[2];
    case mcDeviceAttributeMaxGridDimX:
      return p.maxGridSize[0];
    case mcDeviceAttributeMaxGridDimY:
      return p.maxGridSize[1];
    case mcDeviceAttributeMaxGridDimZ:
      return p.maxGridSize[2];
    // [api.device.attribute.memory-sizes]
    case mcDeviceAttributeMaxSharedMemoryPerBlock:
      return static_cast<int>(p.sharedMemPerBlock);
    case mcDeviceAttributeTotalConstantMemory:
      return static_cast<int>(p.totalConstMem);
    case mcDeviceAttributeL2CacheSize:
      return p.l2CacheSize;
    case mcDeviceAttributeMaxSharedMemoryPerMultiprocessor:
      return static_cast<int>(p.sharedMemPerMultiprocessor);
    case mcDeviceAttributeMaxRegistersPerMultiprocessor:
      return p.regsPerMultiprocessor;
    // [api.device.attribute.warp-size]
    case mcDeviceAttributeWarpSize:
      return p.warpSize;
    // [api.device.attribute.multiprocessors]
    case mcDeviceAttributeMultiProcessorCount:
      return p.multiProcessorCount;
    case mcDeviceAttributeMaxThreadsPerMultiProcessor:
      return p.maxThreadsPerMultiProcessor;
    // [api.device.attribute.compute-capability-and-mode]
    case mcDeviceAttributeComputeCapabilityMajor:
      return p.major;
    case mcDeviceAttributeComputeCapabilityMinor:
      return p.minor;
    case mcDeviceAttributeComputeMode:
      return p.computeMode;
    // [api.device.attribute.occupancy-limits]
    case mcDeviceAttributeMaxBlocksPerMultiprocessor:
      return p.maxBlocksPerMultiProcessor;
    case mcDeviceAttributeMaxSharedMemoryPerBlockOptin:
      return static_cast<int>(p.sharedMemPerBlockOptin);
    case mcDeviceAttributeReservedSharedMemoryPerBlock:
      return static_cast<int>(p.reservedSharedMemPerBlock);
    case mcDeviceAttributeMaxRegistersPerBlock:
      return p.regsPerBlock;
    // [api.device.attribute.property-counterparts]
    case mcDeviceAttributeMaxPitch:
      return static_cast<int>(p.memPitch);
    case mcDeviceAttributeTextureAlignment:
      return static_cast<int>(p.textureAlignment);
    case mcDeviceAttributeClockRate:
      return p.clockRate;
    case mcDeviceAttributeMemoryClockRate:
      return p.memoryClockRate;
    case mcDeviceAttributeMemoryBusWidth:
      return p.memoryBusWidth;
    case mcDeviceAttributeGpuOverlap:
      return p.deviceOverlap;
    case mcDeviceAttributeKernelExecTimeout:
      return p.kernelExecTimeoutEnabled;
    case mcDeviceAttributeIntegrated:
      return p.integrated;
    case mcDeviceAttributeCanMapHostMemory:
      return p.canMapHostMemory;
    case mcDeviceAttributeConcurrentKernels:
      return p.concurrentKernels;
    case mcDeviceAttributeEccEnabled:
      return p.ECCEnabled;
    case mcDeviceAttributePciBusId:
      return p.pciBusID;
    case mcDeviceAttributePciDeviceId:
      return p.pciDeviceID;
    case mcDeviceAttributePciDomainId:
      return p.pciDomainID;
    case mcDeviceAttributeIsMultiGpuBoard:
      return p.isMultiGpuBoard;
    case mcDeviceAttributeMultiGpuBoardGroupID:
      return p.multiGpuBoardGroupID;
    case mcDeviceAttributeGlobalL1CacheSupported:
      return p.globalL1CacheSupported;
    case mcDeviceAttributeLocalL1CacheSupported:
      return p.localL1CacheSupported;
    case mcDeviceAttributeHostNativeAtomicSupported:
      return p.hostNativeAtomicSupported;
    case mcDeviceAttributeHostRegisterSupported:
      return p.hostRegisterSupported;
    case mcDeviceAttributeMaxPersistingL2CacheSize:
      return p.persistingL2CacheMaxSize;
    case mcDeviceAttributeMaxAccessPolicyWindowSize:
      return p.accessPolicyMaxWindowSize;
    // [api.device.attribute.async-engine-count]
    case mcDeviceAttributeAsyncEngineCount:
      return p.asyncEngineCount;
    // [api.device.attribute.feature-flags]
    case mcDeviceAttributeUnifiedAddressing:
      return p.unifiedAddressing;
    case mcDeviceAttributeManagedMemory:
      return p.managedMemory;
    case mcDeviceAttributeConcurrentManagedAccess:
      return p.concurrentManagedAccess;
    case mcDeviceAttributePageableMemoryAccess:
      return p.pageableMemoryAccess;
    case mcDeviceAttributeCooperativeLaunch:
      return p.cooperativeLaunch;
    case mcDeviceAttributeCooperativeMultiDeviceLaunch:
      return p.cooperativeMultiDeviceLaunch;
    case mcDeviceAttributeMemoryPoolsSupported:
      return p.memoryPoolsSupported;
    // [api.device.attribute.texture-and-surface-limits]
    case mcDeviceAttributeMaxTexture1DWidth:
      return p.maxTexture1D;
    case mcDeviceAttributeMaxTexture1DMipmappedWidth:
      return p.maxTexture1DMipmap;
    case mcDeviceAttributeMaxTexture1DLinearWidth:
      return p.maxTexture1DLinear;
    case mcDeviceAttributeMaxTexture2DWidth:
      return p.maxTexture2D[0];
    case mcDeviceAttributeMaxTexture2DHeight:
      return p.maxTexture2D[1];
    case mcDeviceAttributeMaxTexture2DMipmappedWidth:
      return p.maxTexture2DMipmap[0];
    case mcDeviceAttributeMaxTexture2DMipmappedHeight:
      return p.maxTexture2DMipmap[1];
    case mcDeviceAttributeMaxTexture2DLinearWidth:
      return p.maxTexture2DLinear[0];
    case mcDeviceAttributeMaxTexture2DLinearHeight:
      return p.maxTexture2DLinear[1];
    case mcDeviceAttributeMaxTexture2DLinearPitch:
      return p.maxTexture2DLinear[2];
    case mcDeviceAttributeMaxTexture2DGatherWidth:
      return p.maxTexture2DGather[0];
    case mcDeviceAttributeMaxTexture2DGatherHeight:
      return p.maxTexture2DGather[1];
    case mcDeviceAttributeMaxTexture3DWidth:
      return p.maxTexture3D[0];
    case mcDeviceAttributeMaxTexture3DHeight:
      return p.maxTexture3D[1];
    case mcDeviceAttributeMaxTexture3DDepth:
      return p.maxTexture3D[2];
    case mcDeviceAttributeMaxTexture3DWidthAlt:
      return p.maxTexture3DAlt[0];
    case mcDeviceAttributeMaxTexture3DHeightAlt:
      return p.maxTexture3DAlt[1];
    case mcDeviceAttributeMaxTexture3DDepthAlt:
      return p.maxTexture3DAlt[2];
    case mcDeviceAttributeMaxTextureCubemapWidth:
      return p.maxTextureCubemap;
    case mcDeviceAttributeMaxTexture1DLayeredWidth:
      return p.maxTexture1DLayered[0];
    case mcDeviceAttributeMaxTexture1DLayeredLayers:
      return p.maxTexture1DLayered[1];
    case mcDeviceAttributeMaxTexture2DLayeredWidth:
      return p.maxTexture2DLayered[0];
    case mcDeviceAttributeMaxTexture2DLayeredHeight:
      return p.maxTexture2DLayered[1];
    case mcDeviceAttributeMaxTexture2DLayeredLayers:
      return p.maxTexture2DLayered[2];
    case mcDeviceAttributeMaxTextureCubemapLayeredWidth:
      return p.maxTextureCubemapLayered[0];
    case mcDeviceAttributeMaxTextureCubemapLayeredLayers:
      return p.maxTextureCubemapLayered[1];
    case mcDeviceAttributeMaxSurface1DWidth:
      return p.maxSurface1D;
    case mcDeviceAttributeMaxSurface2DWidth:
      return p.maxSurface2D[0];
    case mcDeviceAttributeMaxSurface2DHeight:
      return p.maxSurface2D[1];
    case mcDeviceAttributeMaxSurface3DWidth:
      return p.maxSurface3D[0];
    case mcDeviceAttributeMaxSurface3DHeight:
      return p.maxSurface3D[1];
    case mcDeviceAttributeMaxSurface3DDepth:
      return p.maxSurface3D[2];
    case mcDeviceAttributeMaxSurface1DLayeredWidth:
      return p.maxSurface1DLayered[0];
    case mcDeviceAttributeMaxSurface1DLayeredLayers:
      return p.maxSurface1DLayered[1];
    case mcDeviceAttributeMaxSurface2DLayeredWidth:
      return p.maxSurface2DLayered[0];
    case mcDeviceAttributeMaxSurface2DLayeredHeight:
      return p.maxSurface2DLayered[1];
    case mcDeviceAttributeMaxSurface2DLayeredLayers:
      return p.maxSurface2DLayered[2];
    case mcDeviceAttributeMaxSurfaceCubemapWidth:
      return p.maxSurfaceCubemap;
    case mcDeviceAttributeMaxSurfaceCubemapLayeredWidth:
      return p.maxSurfaceCubemapLayered[0];
    case mcDeviceAttributeMaxSurfaceCubemapLayeredLayers:
      return p.maxSurfaceCubemapLayered[1];
    case mcDeviceAttributeTexturePitchAlignment:
      return static_cast<int>(p.texturePitchAlignment);
    case mcDeviceAttributeSurfaceAlignment:
      return static_cast<int>(p.surfaceAlignment);
    // [api.device.attribute.platform-and-capability-flags]
    case mcDeviceAttributeTccDriver:
      return p.tccDriver;
    case mcDeviceAttributeStreamPrioritiesSupported:
      return p.streamPrioritiesSupported;
    case mcDeviceAttributeSingleToDoublePrecisionPerfRatio:
      return p.singleToDoublePrecisionPerfRatio;
    case mcDeviceAttributeComputePreemptionSupported:
      return p.computePreemptionSupported;
    case mcDeviceAttributeCanUseHostPointerForRegisteredMem:
      return p.canUseHostPointerForRegisteredMem;
    case mcDeviceAttributePageableMemoryAccessUsesHostPageTables:
      return p.pageableMemoryAccessUsesHostPageTables;
    case mcDeviceAttributeDirectManagedMemAccessFromHost:
      return p.directManagedMemAccessFromHost;
    case mcDeviceAttributeSparseMcArraySupported:
      return p.sparseMcArraySupported;
    case mcDeviceAttributeHostRegisterReadOnlySupported:
      return p.hostRegisterReadOnlySupported;
    case mcDeviceAttributeTimelineSemaphoreInteropSupported:
      return p.timelineSemaphoreInteropSupported;
    case mcDeviceAttributeGPUDirectRDMASupported:
      return p.gpuDirectRDMASupported;
    case mcDeviceAttributeGPUDirectRDMAFlushWritesOptions:
      return static_cast<int>(p.gpuDirectRDMAFlushWritesOptions);
    case mcDeviceAttributeGPUDirectRDMAWritesOrdering:
      return p.gpuDirectRDMAWritesOrdering;
    case mcDeviceAttributeMemoryPoolSupportedHandleTypes:
      return static_cast<int>(p.memoryPoolSupportedHandleTypes);
    case mcDeviceAttributeClusterLaunch:
      return p.clusterLaunch;
    case mcDeviceAttributeDeferredMappingMcArraySupported:
      return p.deferredMappingMcArraySupported;
    case mcDeviceAttributeIpcEventSupport:
      return p.ipcEventSupported;
    case mcDeviceAttributeNumaConfig:
      return p.deviceNumaConfig;
    case mcDeviceAttributeNumaId:
      return p.deviceNumaId;
    case mcDeviceAttributeMpsEnabled:
      return p.mpsEnabled;
    case mcDeviceAttributeHostNumaId:
      return p.hostNumaId;
  }
  return McStatus(mcErrorInvalidValue,
                  absl::StrCat("mcDeviceGetAttribute: ", attribute,
                               " is not an mcDeviceAttribute_t"));
}

std::string Device::PciBusId() const {
  return absl::StrFormat("%04x:%02x:%02x.0", properties_.pciDomainID,
                         properties_.pciBusID, properties_.pciDeviceID);
}

void Device::ResetSettings() {
  limits_.ResetToDefaults();
  cache_config_.store(mcFuncCachePreferNone);
  flags_.store(mcDeviceScheduleAuto);
}

namespace {

// What the runtime guide's trap message calls the exception behind `fault`.
const char* ExceptionName(mcError_t fault) {
  switch (fault) {
    case mcErrorIllegalAddress:
      return "Memory violation exception";
    case mcErrorAssert:
      return "Device assert exception";
    case mcErrorLaunchTimeout:
      return "Kernel timeout exception";
    case mcErrorIllegalInstruction:
      return "Illegal instruction exception";
    case mcErrorMisalignedAddress:
      return "Misaligned address exception";
    default:
      return "Kernel exception";
  }
}

}  // namespace

void Device::RecordFault(mcError_t fault) {
  mcError_t expected = mcSuccess;
  if (sticky_error_.compare_exchange_strong(expected, fault)) {
    // [api.log.output.trap-logged-as-error], in the words of the runtime
    // guide's example: the exception, and that the API is now disabled.
    MCR_LOGE(
        "%s happened in a kernel on device %d (%s); mcruntime api "
        "calls on the device will be disabled until mcDeviceReset",
        ExceptionName(fault), ordinal_, ErrorName(fault));
  }
}

absl::Status Device::CheckUsable() const {
  // [api.device.compute-mode.prohibited-is-devices-unavailable]
  // [api.device.compute-mode.exclusive-process]
  MX_RETURN_IF_ERROR(ClaimContext(properties_, ordinal_));
  mcError_t sticky = sticky_error_.load();
  if (sticky == mcSuccess) return absl::OkStatus();
  // [api.error.sticky.later-calls-fail]
  return McStatus(
      sticky,
      absl::StrCat("device ", ordinal_, " is unusable after a kernel fault (",
                   ErrorName(sticky), "); mcDeviceReset recovers it"));
}

}  // namespace mxcts::runtime
