// Copyright mxcts authors.
//
// Devices (docs/spec/api-device.md) over the CUDA runtime: counting and
// selecting devices, properties and attributes, limits, versions,
// configuration. mcDeviceProp_t is filled field by field from CUDA's
// cudaDeviceProp, and from device attributes for the fields CUDA 13 no
// longer has in it; waveSize is the device's warp size (32).

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>

#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/environment.h"
#include "backends/cuda/runtime/fixed_attributes.h"
#include "backends/cuda/runtime/handles.h"
#include "backends/cuda/runtime/ipc.h"
#include "backends/cuda/runtime/modules.h"
#include "backends/cuda/runtime/pools.h"

namespace mxcts::cuda_backend {
namespace {

template <class To, class From>
void CopyField(To& to, const From& from) {
  to = static_cast<To>(from);
}

template <class To, size_t N, class From, size_t M>
void CopyField(To (&to)[N], const From (&from)[M]) {
  for (size_t i = 0; i < std::min(N, M); ++i) to[i] = static_cast<To>(from[i]);
}

// An attribute CUDA reports, 0 where it reports none.
int Attribute(cudaDeviceAttr attribute, int device) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attribute, device) != cudaSuccess) {
    cudaGetLastError();  // a missing attribute is no error of the caller's
    value = 0;
  }
  return value;
}

// MXMACA's limits: mcLimitStackSize (0) to mcLimitPersistingL2CacheSize (6).
// CUDA 13 knows more values, which MXMACA calls unsupported.
bool IsLimit(mcLimit_t limit) {
  return limit >= mcLimitStackSize && limit <= mcLimitPersistingL2CacheSize;
}

// mcLimitDevRuntimeSyncDepth of each device. CUDA 13's device runtime has
// no device-side synchronization and so no such limit, and rejects it; the
// adapter keeps the value MXMACA programs set and read (it bounds nothing,
// since no kernel synchronizes on its children here). 2 is MXMACA's and
// CUDA's former default.
size_t& SyncDepth(int device) {
  static size_t depths[64];
  static bool initialized = [] {
    for (size_t& depth : depths) depth = 2;
    return true;
  }();
  (void)initialized;
  return depths[device >= 0 && device < 64 ? device : 0];
}

// `error`, or mcErrorNoDevice where the call failed because no device is
// visible: MXMACA says so for every call that needs a device
// [api.env.visible-devices.none-visible], where CUDA may name the ordinal
// or the bus id it could not find.
mcError_t NoDeviceOr(mcError_t error) {
  if (error == mcSuccess || error == mcErrorNoDevice) return error;
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaErrorNoDevice) {
    cudaGetLastError();
    return Fail(mcErrorNoDevice);
  }
  return error;
}

}  // namespace
}  // namespace mxcts::cuda_backend

using mxcts::cuda_backend::Attribute;
using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::CopyField;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::SameValue;

extern "C" {

mcError_t mcGetDeviceCount(int* count) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (count == nullptr) return Fail(mcErrorInvalidValue);
  const mcError_t error = Check(cudaGetDeviceCount(count));
  // With no device visible MXMACA stores 0 [api.env.visible-devices.none-
  // visible].
  if (error != mcSuccess) *count = 0;
  return error;
}

mcError_t mcSetDevice(int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mxcts::cuda_backend::NoDeviceOr(Check(cudaSetDevice(device)));
}

mcError_t mcGetDevice(int* device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (device == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaGetDevice(device));
}

mcError_t mcGetDeviceProperties(mcDeviceProp_t* prop, int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (prop == nullptr) return Fail(mcErrorInvalidValue);
  cudaDeviceProp c;
  const mcError_t error = Check(cudaGetDeviceProperties(&c, device));
  if (error != mcSuccess) return error;
  std::memset(prop, 0, sizeof(*prop));
#define MXCTS_SAME_FIELD(field) CopyField(prop->field, c.field)
  MXCTS_SAME_FIELD(name);
  MXCTS_SAME_FIELD(totalGlobalMem);
  MXCTS_SAME_FIELD(sharedMemPerBlock);
  MXCTS_SAME_FIELD(regsPerBlock);
  MXCTS_SAME_FIELD(warpSize);
  MXCTS_SAME_FIELD(memPitch);
  MXCTS_SAME_FIELD(maxThreadsPerBlock);
  MXCTS_SAME_FIELD(maxThreadsDim);
  MXCTS_SAME_FIELD(maxGridSize);
  MXCTS_SAME_FIELD(totalConstMem);
  MXCTS_SAME_FIELD(major);
  MXCTS_SAME_FIELD(minor);
  MXCTS_SAME_FIELD(textureAlignment);
  MXCTS_SAME_FIELD(multiProcessorCount);
  MXCTS_SAME_FIELD(integrated);
  MXCTS_SAME_FIELD(canMapHostMemory);
  MXCTS_SAME_FIELD(concurrentKernels);
  MXCTS_SAME_FIELD(ECCEnabled);
  MXCTS_SAME_FIELD(pciBusID);
  MXCTS_SAME_FIELD(pciDeviceID);
  MXCTS_SAME_FIELD(pciDomainID);
  MXCTS_SAME_FIELD(asyncEngineCount);
  MXCTS_SAME_FIELD(unifiedAddressing);
  MXCTS_SAME_FIELD(memoryBusWidth);
  MXCTS_SAME_FIELD(l2CacheSize);
  MXCTS_SAME_FIELD(maxThreadsPerMultiProcessor);
  MXCTS_SAME_FIELD(sharedMemPerMultiprocessor);
  MXCTS_SAME_FIELD(regsPerMultiprocessor);
  MXCTS_SAME_FIELD(managedMemory);
  MXCTS_SAME_FIELD(isMultiGpuBoard);
  MXCTS_SAME_FIELD(multiGpuBoardGroupID);
  MXCTS_SAME_FIELD(pageableMemoryAccess);
  MXCTS_SAME_FIELD(concurrentManagedAccess);
  MXCTS_SAME_FIELD(cooperativeLaunch);
  MXCTS_SAME_FIELD(memoryPoolsSupported);
  MXCTS_SAME_FIELD(sharedMemPerBlockOptin);
  MXCTS_SAME_FIELD(reservedSharedMemPerBlock);
  MXCTS_SAME_FIELD(maxBlocksPerMultiProcessor);
  MXCTS_SAME_FIELD(globalL1CacheSupported);
  MXCTS_SAME_FIELD(localL1CacheSupported);
  MXCTS_SAME_FIELD(hostNativeAtomicSupported);
  MXCTS_SAME_FIELD(hostRegisterSupported);
  MXCTS_SAME_FIELD(persistingL2CacheMaxSize);
  MXCTS_SAME_FIELD(accessPolicyMaxWindowSize);
  MXCTS_SAME_FIELD(luid);
  MXCTS_SAME_FIELD(luidDeviceNodeMask);
  MXCTS_SAME_FIELD(texturePitchAlignment);
  MXCTS_SAME_FIELD(maxTexture1D);
  MXCTS_SAME_FIELD(maxTexture1DMipmap);
  MXCTS_SAME_FIELD(maxTexture2D);
  MXCTS_SAME_FIELD(maxTexture2DMipmap);
  MXCTS_SAME_FIELD(maxTexture2DLinear);
  MXCTS_SAME_FIELD(maxTexture2DGather);
  MXCTS_SAME_FIELD(maxTexture3D);
  MXCTS_SAME_FIELD(maxTexture3DAlt);
  MXCTS_SAME_FIELD(maxTextureCubemap);
  MXCTS_SAME_FIELD(maxTexture1DLayered);
  MXCTS_SAME_FIELD(maxTexture2DLayered);
  MXCTS_SAME_FIELD(maxTextureCubemapLayered);
  MXCTS_SAME_FIELD(maxSurface1D);
  MXCTS_SAME_FIELD(maxSurface2D);
  MXCTS_SAME_FIELD(maxSurface3D);
  MXCTS_SAME_FIELD(maxSurface1DLayered);
  MXCTS_SAME_FIELD(maxSurface2DLayered);
  MXCTS_SAME_FIELD(maxSurfaceCubemap);
  MXCTS_SAME_FIELD(maxSurfaceCubemapLayered);
  MXCTS_SAME_FIELD(surfaceAlignment);
  MXCTS_SAME_FIELD(tccDriver);
  MXCTS_SAME_FIELD(streamPrioritiesSupported);
  MXCTS_SAME_FIELD(computePreemptionSupported);
  MXCTS_SAME_FIELD(canUseHostPointerForRegisteredMem);
  MXCTS_SAME_FIELD(pageableMemoryAccessUsesHostPageTables);
  MXCTS_SAME_FIELD(directManagedMemAccessFromHost);
  MXCTS_SAME_FIELD(hostRegisterReadOnlySupported);
  MXCTS_SAME_FIELD(timelineSemaphoreInteropSupported);
  MXCTS_SAME_FIELD(gpuDirectRDMASupported);
  MXCTS_SAME_FIELD(gpuDirectRDMAFlushWritesOptions);
  MXCTS_SAME_FIELD(gpuDirectRDMAWritesOrdering);
  MXCTS_SAME_FIELD(memoryPoolSupportedHandleTypes);
  MXCTS_SAME_FIELD(ipcEventSupported);
  MXCTS_SAME_FIELD(clusterLaunch);
  MXCTS_SAME_FIELD(unifiedFunctionPointers);
  MXCTS_SAME_FIELD(deviceNumaConfig);
  MXCTS_SAME_FIELD(deviceNumaId);
  MXCTS_SAME_FIELD(mpsEnabled);
  MXCTS_SAME_FIELD(hostNumaId);
  MXCTS_SAME_FIELD(gpuPciDeviceID);
  MXCTS_SAME_FIELD(gpuPciSubsystemID);
  MXCTS_SAME_FIELD(hostNumaMultinodeIpcSupported);
#undef MXCTS_SAME_FIELD
  static_assert(sizeof(prop->uuid) == sizeof(c.uuid), "16-byte UUIDs");
  std::memcpy(&prop->uuid, &c.uuid, sizeof(prop->uuid));
  // Fields CUDA 13 reports through attributes only.
  prop->clockRate = Attribute(cudaDevAttrClockRate, device);
  prop->memoryClockRate = Attribute(cudaDevAttrMemoryClockRate, device);
  prop->kernelExecTimeoutEnabled =
      Attribute(cudaDevAttrKernelExecTimeout, device);
  prop->computeMode = Attribute(cudaDevAttrComputeMode, device);
  prop->deviceOverlap = c.asyncEngineCount > 0 ? 1 : 0;
  prop->maxTexture1DLinear =
      Attribute(cudaDevAttrMaxTexture1DLinearWidth, device);
  prop->singleToDoublePrecisionPerfRatio =
      Attribute(cudaDevAttrSingleToDoublePrecisionPerfRatio, device);
  prop->sparseMcArraySupported =
      Attribute(cudaDevAttrSparseCudaArraySupported, device);
  prop->deferredMappingMcArraySupported =
      Attribute(cudaDevAttrDeferredMappingCudaArraySupported, device);
  // CUDA 13 dropped multi-device cooperative launches.
  prop->cooperativeMultiDeviceLaunch = 0;
  prop->waveSize = c.warpSize;
  return mcSuccess;
}

mcError_t mcDeviceGetAttribute(int* value, mcDeviceAttribute_t attr,
                               int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  // The values are CUDA's (mc_runtime_types.h); 96, multi-device
  // cooperative launch, is reserved in CUDA 13, which has no such launch.
  if (attr == mcDeviceAttributeCooperativeMultiDeviceLaunch) {
    int count = 0;
    const mcError_t error = Check(cudaGetDeviceCount(&count));
    if (error != mcSuccess) return error;
    if (device < 0 || device >= count) return Fail(mcErrorInvalidDevice);
    *value = 0;
    return mcSuccess;
  }
  return Check(
      cudaDeviceGetAttribute(value, SameValue<cudaDeviceAttr>(attr), device));
}

mcError_t mcDeviceSynchronize(void) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Check(cudaDeviceSynchronize());
}

mcError_t mcDeviceReset(void) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  int device = 0;
  const mcError_t error = Check(cudaGetDevice(&device));
  if (error != mcSuccess) return error;
  // The reset destroys the device's streams and events, and restores its
  // limits [api.device.reset.restores-defaults], the adapter's too.
  mxcts::cuda_backend::ForgetDevice(device);
  mxcts::cuda_backend::ForgetDevicePools(device);
  mxcts::cuda_backend::ForgetDeviceMappings(device);
  mxcts::cuda_backend::ForgetDeviceModules(device);
  mxcts::cuda_backend::ForgetKernelAttributes();
  mxcts::cuda_backend::SyncDepth(device) = 2;
  mxcts::cuda_backend::ClearStickyFault();
  return Check(cudaDeviceReset());
}

mcError_t mcDeviceSetLimit(mcLimit_t limit, size_t value) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (!mxcts::cuda_backend::IsLimit(limit)) {
    return Fail(mcErrorUnsupportedLimit);
  }
  if (limit == mcLimitDevRuntimeSyncDepth) {
    int device = 0;
    const mcError_t error = Check(cudaGetDevice(&device));
    if (error != mcSuccess) return error;
    mxcts::cuda_backend::SyncDepth(device) = value;
    return mcSuccess;
  }
  // A FIFO or heap larger than the device's memory cannot be provided
  // [api.device.limit.unattainable-value-is-memory-allocation]; CUDA takes
  // SIZE_MAX for either and wraps it to 0.
  size_t free_bytes = 0;
  if (limit == mcLimitPrintfFifoSize || limit == mcLimitMallocHeapSize) {
    size_t total_bytes = 0;
    const mcError_t error = Check(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (error != mcSuccess) return error;
    if (value > total_bytes) return Fail(mcErrorMemoryAllocation);
  }
  const cudaError_t error =
      cudaDeviceSetLimit(SameValue<cudaLimit>(limit), value);
  if (error == cudaErrorInvalidValue &&
      (limit == mcLimitPrintfFifoSize || limit == mcLimitMallocHeapSize) &&
      value <= free_bytes) {
    // A FIFO or heap the free memory holds: CUDA refuses it because a
    // kernel has used printf or the heap since the last reset, which
    // MXMACA calls an invalid value too
    // [lang.printf.fifo.resize-after-use-is-invalid-value]
    // [lang.malloc.heap.resize-after-use-is-invalid-value].
    return Check(error);
  }
  // CUDA calls a stack, FIFO or heap it cannot provide an invalid value;
  // MXMACA an allocation that cannot be made
  // [api.device.limit.unattainable-value-is-memory-allocation].
  if (error == cudaErrorInvalidValue &&
      (limit == mcLimitStackSize || limit == mcLimitPrintfFifoSize ||
       limit == mcLimitMallocHeapSize)) {
    cudaGetLastError();
    return Fail(mcErrorMemoryAllocation);
  }
  return Check(error);
}

mcError_t mcDeviceGetLimit(size_t* value, mcLimit_t limit) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (!mxcts::cuda_backend::IsLimit(limit)) {
    return Fail(mcErrorUnsupportedLimit);
  }
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  if (limit == mcLimitDevRuntimeSyncDepth) {
    int device = 0;
    const mcError_t error = Check(cudaGetDevice(&device));
    if (error == mcSuccess) *value = mxcts::cuda_backend::SyncDepth(device);
    return error;
  }
  return Check(cudaDeviceGetLimit(value, SameValue<cudaLimit>(limit)));
}

mcError_t mcRuntimeGetVersion(int* version) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (version == nullptr) return Fail(mcErrorInvalidValue);
  *version = MACART_VERSION;
  return mcSuccess;
}

mcError_t mcDriverGetVersion(int* version) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (version == nullptr) return Fail(mcErrorInvalidValue);
  // The driver is as recent as the runtime the program was built against.
  *version = MACART_VERSION;
  return mcSuccess;
}

mcError_t mcInit(unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (flags != 0) return Fail(mcErrorInvalidValue);
  return Check(cudaFree(nullptr));
}

mcError_t mcDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (pciBusId == nullptr || len <= 0) return Fail(mcErrorInvalidValue);
  // MXMACA truncates the identifier to the buffer
  // [api.device.pci.get-bus-id-format]; CUDA refuses a short buffer.
  char full[64] = {};
  const mcError_t error =
      Check(cudaDeviceGetPCIBusId(full, sizeof(full), device));
  if (error != mcSuccess) return error;
  const size_t kept = std::min(std::strlen(full), static_cast<size_t>(len - 1));
  std::memcpy(pciBusId, full, kept);
  pciBusId[kept] = '\0';
  return mcSuccess;
}

mcError_t mcDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (device == nullptr || pciBusId == nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  return mxcts::cuda_backend::NoDeviceOr(
      Check(cudaDeviceGetByPCIBusId(device, pciBusId)));
}

mcError_t mcDeviceGetUuid(mcUuid_t* uuid, int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (uuid == nullptr) return Fail(mcErrorInvalidValue);
  cudaDeviceProp c;
  const mcError_t error = Check(cudaGetDeviceProperties(&c, device));
  if (error == mcSuccess) std::memcpy(uuid, &c.uuid, sizeof(*uuid));
  return error;
}

mcError_t mcDeviceSetCacheConfig(mcFuncCache_t cacheConfig) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Check(cudaDeviceSetCacheConfig(SameValue<cudaFuncCache>(cacheConfig)));
}

mcError_t mcDeviceGetCacheConfig(mcFuncCache_t* cacheConfig) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (cacheConfig == nullptr) return Fail(mcErrorInvalidValue);
  cudaFuncCache value;
  const mcError_t error = Check(cudaDeviceGetCacheConfig(&value));
  if (error == mcSuccess) *cacheConfig = SameValue<mcFuncCache_t>(value);
  return error;
}

// CUDA 13 has no bank-size configuration: the banks are four bytes wide
// and stay so, which MXMACA allows [api.device.shared-mem-config].
mcError_t mcDeviceSetSharedMemConfig(mcSharedMemConfig config) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (config < mcSharedMemBankSizeDefault ||
      config > mcSharedMemBankSizeEightByte) {
    return Fail(mcErrorInvalidValue);
  }
  return mcSuccess;
}

mcError_t mcDeviceGetSharedMemConfig(mcSharedMemConfig* config) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (config == nullptr) return Fail(mcErrorInvalidValue);
  *config = mcSharedMemBankSizeFourByte;
  return mcSuccess;
}

mcError_t mcChooseDevice(int* device, const mcDeviceProp_t* prop) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (device == nullptr || prop == nullptr) return Fail(mcErrorInvalidValue);
  int count = 0;
  const mcError_t error = Check(cudaGetDeviceCount(&count));
  if (error != mcSuccess) return error;
  // The device closest in compute capability to the one asked for.
  int best = 0;
  long best_distance = -1;
  for (int i = 0; i < count; ++i) {
    int major = Attribute(cudaDevAttrComputeCapabilityMajor, i);
    int minor = Attribute(cudaDevAttrComputeCapabilityMinor, i);
    long distance =
        labs((major * 10L + minor) - (prop->major * 10L + prop->minor));
    if (best_distance < 0 || distance < best_distance) {
      best = i;
      best_distance = distance;
    }
  }
  *device = best;
  return mcSuccess;
}

mcError_t mcSetDeviceFlags(unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // At most one scheduling flag, and no bits MXMACA does not define
  // [api.device.flags.invalid-flags-is-invalid-value].
  const unsigned schedule = flags & mcDeviceScheduleMask;
  if ((flags & ~(mcDeviceScheduleMask | mcDeviceMapHost |
                 mcDeviceLmemResizeToMax)) != 0 ||
      (schedule & (schedule - 1)) != 0) {
    return Fail(mcErrorInvalidValue);
  }
  return Check(cudaSetDeviceFlags(flags));
}

mcError_t mcGetDeviceFlags(unsigned int* flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (flags == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaGetDeviceFlags(flags));
}

mcError_t mcCtxResetPersistingL2Cache(void) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Check(cudaCtxResetPersistingL2Cache());
}

mcError_t mcProfilerStart(void) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mcSuccess;
}

mcError_t mcProfilerStop(void) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mcSuccess;
}

}  // extern "C"
