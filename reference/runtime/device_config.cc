// Copyright mxcts authors.
//
// The default device profile (device_config.h) as an mcDeviceProp_t: one
// assignment per field, every value from the named constants, so that the
// properties and the attributes (device.cc) cannot disagree.
//
// Tested by device_test.cc.

#include "reference/runtime/device_config.h"

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
  return p;
}

}  // namespace mxcts::runtime::config
