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
#include "reference/runtime/devices/device_profile.h"
#include "reference/runtime/errors/error_mapping.h"

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

void Device::RecordFault(mcError_t fault) {
  mcError_t expected = mcSuccess;
  sticky_error_.compare_exchange_strong(expected, fault);
}

absl::Status Device::CheckUsable() const {
  mcError_t sticky = sticky_error_.load();
  if (sticky == mcSuccess) return absl::OkStatus();
  // [api.error.sticky.later-calls-fail]
  return McStatus(
      sticky,
      absl::StrCat("device ", ordinal_, " is unusable after a kernel fault (",
                   ErrorName(sticky), "); mcDeviceReset recovers it"));
}

}  // namespace mxcts::runtime
