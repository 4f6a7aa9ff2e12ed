// Copyright mxcts authors.
//
// Longer than the project's 600-line guide: it mirrors the vendor's one
// types header, which programs and the other headers expect in one piece.
//
// mcr/mc_runtime_types.h: the types and constants of the MXMACA runtime API.
//
// The error enumeration `mcError_t` (numbers as the real runtime's: CUDA's
// for 0-999, MXMACA's own from 1003), the opaque handle types, `dim3` (grid
// and block extents), the built-in vector types (mcr/detail/vector_types.h),
// the device properties and attributes, copy kinds, limits and the flag
// constants of the allocation and stream calls. Included by
// mc_runtime_api.h; programs include mc_runtime.h. Valid C and C++.
//
//   dim3 grid(ceil(n / 256.0));   // converts from double, y = z = 1
//   mcError_t err = mcGetLastError();
//   if (err != mcSuccess) printf("%s\n", mcGetErrorString(err));
//   mcDeviceProp_t prop;
//   mcGetDeviceProperties(&prop, 0);   // prop.waveSize == 64

#ifndef MCR_MC_RUNTIME_TYPES_H_
#define MCR_MC_RUNTIME_TYPES_H_

#include <stddef.h>

// The built-in vector types, uint3 (the type of threadIdx and blockIdx)
// among them.
#include "mcr/detail/vector_types.h"

// The result of every runtime call. [api.error.codes]
enum _mcError_t {
  mcSuccess = 0,
  mcErrorInvalidValue = 1,
  mcErrorMemoryAllocation = 2,
  mcErrorInitializationError = 3,
  mcErrorDeinitialized = 4,
  mcErrorProfilerDisabled = 5,
  mcErrorProfilerNotInitialized = 6,
  mcErrorProfilerAlreadyStarted = 7,
  mcErrorProfilerAlreadyStopped = 8,
  mcErrorInvalidConfiguration = 9,
  mcErrorInvalidPitchValue = 12,
  mcErrorInvalidSymbol = 13,
  mcErrorInvalidHostPointer = 16,
  mcErrorInvalidDevicePointer = 17,
  mcErrorInvalidTexture = 18,
  mcErrorInvalidTextureBinding = 19,
  mcErrorInvalidChannelDescriptor = 20,
  mcErrorInvalidMemcpyDirection = 21,
  mcErrorAddressOfConstant = 22,
  mcErrorTextureFetchFailed = 23,
  mcErrorTextureNotBound = 24,
  mcErrorSynchronizationError = 25,
  mcErrorInvalidFilterSetting = 26,
  mcErrorInvalidNormSetting = 27,
  mcErrorMixedDeviceExecution = 28,
  mcErrorNotYetImplemented = 31,
  mcErrorMemoryValueTooLarge = 32,
  mcErrorStubLibrary = 34,
  mcErrorInsufficientDriver = 35,
  mcErrorCallRequiresNewerDriver = 36,
  mcErrorInvalidSurface = 37,
  mcErrorDuplicateVariableName = 43,
  mcErrorDuplicateTextureName = 44,
  mcErrorDuplicateSurfaceName = 45,
  mcErrorDevicesUnavailable = 46,
  mcErrorIncompatibleDriverContext = 49,
  mcErrorMissingConfiguration = 52,
  mcErrorPriorLaunchFailure = 53,
  mcErrorLaunchMaxDepthExceeded = 65,
  mcErrorLaunchFileScopedTex = 66,
  mcErrorLaunchFileScopedSurf = 67,
  mcErrorSyncDepthExceeded = 68,
  mcErrorLaunchPendingCountExceeded = 69,
  mcErrorInvalidDeviceFunction = 98,
  mcErrorNoDevice = 100,
  mcErrorInvalidDevice = 101,
  mcErrorDeviceNotLicensed = 102,
  mcErrorSoftwareValidityNotEstablished = 103,
  mcErrorStartupFailure = 127,
  mcErrorInvalidKernelImage = 200,
  mcErrorDeviceUninitialized = 201,
  mcErrorContextAlreadyCurrent = 202,
  mcErrorMapBufferObjectFailed = 205,
  mcErrorUnmapBufferObjectFailed = 206,
  mcErrorArrayIsMapped = 207,
  mcErrorAlreadyMapped = 208,
  mcErrorNoKernelImageForDevice = 209,
  mcErrorAlreadyAcquired = 210,
  mcErrorNotMapped = 211,
  mcErrorNotMappedAsArray = 212,
  mcErrorNotMappedAsPointer = 213,
  mcErrorECCUncorrectable = 214,
  mcErrorUnsupportedLimit = 215,
  mcErrorDeviceAlreadyInUse = 216,
  mcErrorPeerAccessUnsupported = 217,
  mcErrorInvalidKernelFile = 218,
  mcErrorInvalidGraphicsContext = 219,
  mcErrorMxlinkUncorrectable = 220,
  mcErrorJitCompilerNotFound = 221,
  mcErrorUnsupportedKernelVersion = 222,
  mcErrorJitCompilationDisabled = 223,
  mcErrorUnsupportedExecAffinity = 224,
  mcErrorInvalidSource = 300,
  mcErrorFileNotFound = 301,
  mcErrorSharedObjectSymbolNotFound = 302,
  mcErrorSharedObjectInitFailed = 303,
  mcErrorOperatingSystem = 304,
  mcErrorInvalidResourceHandle = 400,
  mcErrorIllegalState = 401,
  mcErrorSymbolNotFound = 500,
  mcErrorNotReady = 600,
  mcErrorIllegalAddress = 700,
  mcErrorLaunchOutOfResources = 701,
  mcErrorLaunchTimeout = 702,
  mcErrorLaunchIncompatibleTexturing = 703,
  mcErrorPeerAccessAlreadyEnabled = 704,
  mcErrorPeerAccessNotEnabled = 705,
  mcErrorSetOnActiveProcess = 708,
  mcErrorContextIsDestroyed = 709,
  mcErrorAssert = 710,
  mcErrorTooManyPeers = 711,
  mcErrorHostMemoryAlreadyRegistered = 712,
  mcErrorHostMemoryNotRegistered = 713,
  mcErrorHardwareStackError = 714,
  mcErrorIllegalInstruction = 715,
  mcErrorMisalignedAddress = 716,
  mcErrorInvalidAddressSpace = 717,
  mcErrorInvalidPc = 718,
  mcErrorLaunchFailure = 719,
  mcErrorCooperativeLaunchTooLarge = 720,
  mcErrorNotPermitted = 800,
  mcErrorNotSupported = 801,
  mcErrorSystemNotReady = 802,
  mcErrorSystemDriverMismatch = 803,
  mcErrorCompatNotSupportedOnDevice = 804,
  mcErrorMpsConnectionFailed = 805,
  mcErrorMpsRpcFailure = 806,
  mcErrorMpsServerNotReady = 807,
  mcErrorMpsMaxClientsReached = 808,
  mcErrorMpsMaxConnectionsReached = 809,
  mcErrorStreamCaptureUnsupported = 900,
  mcErrorStreamCaptureInvalidated = 901,
  mcErrorStreamCaptureMerge = 902,
  mcErrorStreamCaptureUnmatched = 903,
  mcErrorStreamCaptureUnjoined = 904,
  mcErrorStreamCaptureIsolation = 905,
  mcErrorStreamCaptureImplicit = 906,
  mcErrorCapturedEvent = 907,
  mcErrorStreamCaptureWrongThread = 908,
  mcErrorTimeout = 909,
  mcErrorGraphExecUpdateFailure = 910,
  mcErrorExternalDevice = 911,
  mcErrorGraphExecUpdateCommandDisMatch = 912,
  mcErrorGraphExecUpdateNodeTypeChanged = 913,
  mcErrorUnknown = 999,
  // MXMACA's own codes. [api.error.type.maca-extension-values]
  mcErrorDuplicateLoadModule = 1003,
  mcErrorModuleNotFound = 1004,
  mcErrorDuplicateDevice = 1005,
  mcErrorDumpBCfile = 1008,
  mcErrorRecompile = 1009,
  mcErrorApplyRelocation = 1010,
  mcErrorFileSaveFailed = 1011,
  mcErrorNoBitcodeForGPU = 1012,
  mcErrorInvalidKernel = 2000,
  mcErrorDeviceNotFound = 2001,
  mcErrorGetDeviceImageBase = 2002,
  mcErrorApiFailureBase = 10000,
  mcErrorDockerDriverUnload = 10001,
  mcErrorDriverWarmReset = 10002,
  mcErrorDriverMismatch = 10003,
  mcErrorInvalidParameter = 10004,
  mcErrorInvalidHandle = 10005,
  mcErrorInvalidUnit = 10006,
  mcErrorNoMemory = 10007,
  mcErrorBufferTooSmall = 10008,
  mcErrorNotAddNbg = 10009,
  mcErrorNotImplemented = 10010,
  mcErrorUnavailable = 10011,
  mcErrorOutOfResources = 10012,
  mcErrorKernelIoChannelNotOpened = 10013,
  mcErrorKernelCommunication = 10014,
  mcErrorKernelAlreadyOpened = 10015,
  mcErrormacaMMUUnvailable = 10016,  // sic: the vendor's spelling
  mcErrorWaitFailure = 10017,
  mcErrorWaitTimeout = 10018,
  mcErrorInternal = 10019,
  mcErrorCommitFailure = 10020,
  mcErrorMemoryAlreadyRegistered = 10021,
  mcErrorMemoryNotRegistered = 10022,
  mcErrorMemoryAlignment = 10023,
  mcErrorInitialized = 10024,
  mcErrorInvalidContext = 10025,
  mcErrorContextAlreadyInUse = 10026,
  mcErrorNotFound = 10027,
  mcErrorContextIsDestroy = 10028,
  mcErrorNeedMoreInput = 10029,
  mcErrorDriverFunctionLevelReset = 10030,
  mcErrorBusy = 10031,
  mcErrorKernelExecTimeout = 10032,
};
typedef enum _mcError_t mcError_t;

// Opaque handles. 0, NULL and nullptr name the default stream.
typedef struct MCstream_st* mcStream_t;
typedef struct MCevent_st* mcEvent_t;

// Grid and block extents: unspecified components are 1. Converts implicitly
// from integers and from floating values (truncated to unsigned int).
// [lang.launch.operand.integer-converts-to-one-dimension]
struct dim3 {
  unsigned int x, y, z;
#ifdef __cplusplus
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};
typedef struct dim3 dim3;

// A device address in the driver-style calls (mcMemcpyHtoD, ...). A plain
// pointer, so `mcMalloc(&dptr, n)`, `mcFree(dptr)` and
// `reinterpret_cast<int*>(dptr)` all work. [api.memory.malloc.deviceptr-form]
typedef void* mcDeviceptr_t;

// The direction of a copy. [api.memory.memcpy.kind-enumerator-values]
enum mcMemcpyKind {
  mcMemcpyHostToHost = 0,
  mcMemcpyHostToDevice = 1,
  mcMemcpyDeviceToHost = 2,
  mcMemcpyDeviceToDevice = 3,
  mcMemcpyDefault = 4,  // inferred from the addresses (unified addressing)
};
typedef enum mcMemcpyKind mcMemcpyKind;

// Compute modes, with CUDA's values. [api.device.props.compute-mode-field]
enum mcComputeMode {
  mcComputeModeDefault = 0,
  mcComputeModeExclusive = 1,
  mcComputeModeProhibited = 2,
  mcComputeModeExclusiveProcess = 3,
};
typedef enum mcComputeMode mcComputeMode;

// Per-device limits (mcDeviceSetLimit / mcDeviceGetLimit), CUDA's values.
enum mcLimit {
  mcLimitStackSize = 0,
  mcLimitPrintfFifoSize = 1,
  mcLimitMallocHeapSize = 2,
  mcLimitDevRuntimeSyncDepth = 3,
  mcLimitDevRuntimePendingLaunchCount = 4,
  mcLimitMaxL2FetchGranularity = 5,
  mcLimitPersistingL2CacheSize = 6,
};
typedef enum mcLimit mcLimit_t;

// Device attributes for mcDeviceGetAttribute. The values are CUDA's
// cudaDeviceAttr values of the same attributes; each attribute is the
// mcDeviceProp_t field of the same meaning.
// [api.device.props.agree-with-attributes]
enum mcDeviceAttribute {
  mcDeviceAttributeMaxThreadsPerBlock = 1,
  mcDeviceAttributeMaxBlockDimX = 2,
  mcDeviceAttributeMaxBlockDimY = 3,
  mcDeviceAttributeMaxBlockDimZ = 4,
  mcDeviceAttributeMaxGridDimX = 5,
  mcDeviceAttributeMaxGridDimY = 6,
  mcDeviceAttributeMaxGridDimZ = 7,
  mcDeviceAttributeMaxSharedMemoryPerBlock = 8,
  mcDeviceAttributeTotalConstantMemory = 9,
  mcDeviceAttributeWarpSize = 10,
  mcDeviceAttributeMaxPitch = 11,
  mcDeviceAttributeMaxRegistersPerBlock = 12,
  mcDeviceAttributeClockRate = 13,
  mcDeviceAttributeTextureAlignment = 14,
  mcDeviceAttributeGpuOverlap = 15,
  mcDeviceAttributeMultiProcessorCount = 16,
  mcDeviceAttributeKernelExecTimeout = 17,
  mcDeviceAttributeIntegrated = 18,
  mcDeviceAttributeCanMapHostMemory = 19,
  mcDeviceAttributeComputeMode = 20,
  mcDeviceAttributeMaxTexture1DWidth = 21,
  mcDeviceAttributeMaxTexture2DWidth = 22,
  mcDeviceAttributeMaxTexture2DHeight = 23,
  mcDeviceAttributeMaxTexture3DWidth = 24,
  mcDeviceAttributeMaxTexture3DHeight = 25,
  mcDeviceAttributeMaxTexture3DDepth = 26,
  mcDeviceAttributeMaxTexture2DLayeredWidth = 27,
  mcDeviceAttributeMaxTexture2DLayeredHeight = 28,
  mcDeviceAttributeMaxTexture2DLayeredLayers = 29,
  mcDeviceAttributeSurfaceAlignment = 30,
  mcDeviceAttributeConcurrentKernels = 31,
  mcDeviceAttributeEccEnabled = 32,
  mcDeviceAttributePciBusId = 33,
  mcDeviceAttributePciDeviceId = 34,
  mcDeviceAttributeTccDriver = 35,
  mcDeviceAttributeMemoryClockRate = 36,
  mcDeviceAttributeMemoryBusWidth = 37,
  mcDeviceAttributeL2CacheSize = 38,
  mcDeviceAttributeMaxThreadsPerMultiProcessor = 39,
  mcDeviceAttributeAsyncEngineCount = 40,
  mcDeviceAttributeUnifiedAddressing = 41,
  mcDeviceAttributeMaxTexture1DLayeredWidth = 42,
  mcDeviceAttributeMaxTexture1DLayeredLayers = 43,
  mcDeviceAttributeMaxTexture2DGatherWidth = 45,
  mcDeviceAttributeMaxTexture2DGatherHeight = 46,
  mcDeviceAttributeMaxTexture3DWidthAlt = 47,
  mcDeviceAttributeMaxTexture3DHeightAlt = 48,
  mcDeviceAttributeMaxTexture3DDepthAlt = 49,
  mcDeviceAttributePciDomainId = 50,
  mcDeviceAttributeTexturePitchAlignment = 51,
  mcDeviceAttributeMaxTextureCubemapWidth = 52,
  mcDeviceAttributeMaxTextureCubemapLayeredWidth = 53,
  mcDeviceAttributeMaxTextureCubemapLayeredLayers = 54,
  mcDeviceAttributeMaxSurface1DWidth = 55,
  mcDeviceAttributeMaxSurface2DWidth = 56,
  mcDeviceAttributeMaxSurface2DHeight = 57,
  mcDeviceAttributeMaxSurface3DWidth = 58,
  mcDeviceAttributeMaxSurface3DHeight = 59,
  mcDeviceAttributeMaxSurface3DDepth = 60,
  mcDeviceAttributeMaxSurface1DLayeredWidth = 61,
  mcDeviceAttributeMaxSurface1DLayeredLayers = 62,
  mcDeviceAttributeMaxSurface2DLayeredWidth = 63,
  mcDeviceAttributeMaxSurface2DLayeredHeight = 64,
  mcDeviceAttributeMaxSurface2DLayeredLayers = 65,
  mcDeviceAttributeMaxSurfaceCubemapWidth = 66,
  mcDeviceAttributeMaxSurfaceCubemapLayeredWidth = 67,
  mcDeviceAttributeMaxSurfaceCubemapLayeredLayers = 68,
  mcDeviceAttributeMaxTexture1DLinearWidth = 69,
  mcDeviceAttributeMaxTexture2DLinearWidth = 70,
  mcDeviceAttributeMaxTexture2DLinearHeight = 71,
  mcDeviceAttributeMaxTexture2DLinearPitch = 72,
  mcDeviceAttributeMaxTexture2DMipmappedWidth = 73,
  mcDeviceAttributeMaxTexture2DMipmappedHeight = 74,
  mcDeviceAttributeComputeCapabilityMajor = 75,
  mcDeviceAttributeComputeCapabilityMinor = 76,
  mcDeviceAttributeMaxTexture1DMipmappedWidth = 77,
  mcDeviceAttributeStreamPrioritiesSupported = 78,
  mcDeviceAttributeGlobalL1CacheSupported = 79,
  mcDeviceAttributeLocalL1CacheSupported = 80,
  mcDeviceAttributeMaxSharedMemoryPerMultiprocessor = 81,
  mcDeviceAttributeMaxRegistersPerMultiprocessor = 82,
  mcDeviceAttributeManagedMemory = 83,
  mcDeviceAttributeIsMultiGpuBoard = 84,
  mcDeviceAttributeMultiGpuBoardGroupID = 85,
  mcDeviceAttributeHostNativeAtomicSupported = 86,
  mcDeviceAttributeSingleToDoublePrecisionPerfRatio = 87,
  mcDeviceAttributePageableMemoryAccess = 88,
  mcDeviceAttributeConcurrentManagedAccess = 89,
  mcDeviceAttributeComputePreemptionSupported = 90,
  mcDeviceAttributeCanUseHostPointerForRegisteredMem = 91,
  mcDeviceAttributeCooperativeLaunch = 95,
  mcDeviceAttributeCooperativeMultiDeviceLaunch = 96,
  mcDeviceAttributeMaxSharedMemoryPerBlockOptin = 97,
  mcDeviceAttributeHostRegisterSupported = 99,
  mcDeviceAttributePageableMemoryAccessUsesHostPageTables = 100,
  mcDeviceAttributeDirectManagedMemAccessFromHost = 101,
  mcDeviceAttributeMaxBlocksPerMultiprocessor = 106,
  mcDeviceAttributeMaxPersistingL2CacheSize = 108,
  mcDeviceAttributeMaxAccessPolicyWindowSize = 109,
  mcDeviceAttributeReservedSharedMemoryPerBlock = 111,
  mcDeviceAttributeSparseMcArraySupported = 112,
  mcDeviceAttributeHostRegisterReadOnlySupported = 113,
  mcDeviceAttributeTimelineSemaphoreInteropSupported = 114,
  mcDeviceAttributeMemoryPoolsSupported = 115,
  mcDeviceAttributeGPUDirectRDMASupported = 116,
  mcDeviceAttributeGPUDirectRDMAFlushWritesOptions = 117,
  mcDeviceAttributeGPUDirectRDMAWritesOrdering = 118,
  mcDeviceAttributeMemoryPoolSupportedHandleTypes = 119,
  mcDeviceAttributeClusterLaunch = 120,
  mcDeviceAttributeDeferredMappingMcArraySupported = 121,
  mcDeviceAttributeIpcEventSupport = 125,
  mcDeviceAttributeNumaConfig = 130,
  mcDeviceAttributeNumaId = 131,
  mcDeviceAttributeMpsEnabled = 133,
  mcDeviceAttributeHostNumaId = 134,
};
typedef enum mcDeviceAttribute mcDeviceAttribute_t;

// A device's UUID: 16 bytes, in text "GPU-" and the bytes in hexadecimal,
// grouped 8-4-4-4-12 (MACA_VISIBLE_DEVICES accepts that text).
// [api.device.uuid.returns-device-uuid]
struct mcUuid_st {
  char bytes[16];
};
typedef struct mcUuid_st mcUuid_t;

// Attributes of the link between two devices (mcDeviceGetP2PAttribute),
// CUDA's cudaDeviceP2PAttr values. [api.peer.p2p-attribute.values]
enum mcDeviceP2PAttr {
  mcDevP2PAttrPerformanceRank = 1,         // relative speed, 0 the fastest
  mcDevP2PAttrAccessSupported = 2,         // peer access can be enabled
  mcDevP2PAttrNativeAtomicSupported = 3,   // atomics over the link are atomic
  mcDevP2PAttrMcArrayAccessSupported = 4,  // arrays reachable over the link
};
typedef enum mcDeviceP2PAttr mcDeviceP2PAttr;

// The properties of one device (mcGetDeviceProperties). Sizes in bytes,
// clocks in kilohertz, widths in bits; flags are 0 or 1. `warpSize` and
// `waveSize` are both the wave width, 64. [api.device.props.fills-structure]
struct mcDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  int memoryPoolsSupported;
  int waveSize;
  mcUuid_t uuid;
  size_t sharedMemPerBlockOptin;
  size_t reservedSharedMemPerBlock;
  int maxBlocksPerMultiProcessor;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  int hostNativeAtomicSupported;
  int hostRegisterSupported;
  int persistingL2CacheMaxSize;
  int accessPolicyMaxWindowSize;  // bytes a stream's access policy window may
                                  // span

  // The rest of CUDA's cudaDeviceProp (CUDA 12 and 13), so that a program
  // that reads or prints any field compiles. The reference's values are
  // documented in reference/runtime/devices/device_config.h.
  // [api.device.props.every-cuda-field]

  // Windows identity: zero bytes and mask on other systems.
  char luid[8];
  unsigned int luidDeviceNodeMask;

  // Texture and surface limits (widths, heights, depths and layer counts
  // in texels or elements; alignments in bytes). The reference creates no
  // textures or surfaces: these describe the device profile.
  // [api.device.props.texture-and-surface-limits]
  size_t texturePitchAlignment;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];  // width, height, pitch in bytes
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];  // width, layers
  int maxTexture2DLayered[3];  // width, height, layers
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;

  // Platform and finer capabilities (flags 0 or 1).
  // [api.device.props.platform-and-capability-flags]
  int tccDriver;
  int streamPrioritiesSupported;
  int singleToDoublePrecisionPerfRatio;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int sparseMcArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;  // a bit mask
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;  // a bit mask
  int deferredMappingMcArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;  // 0: the device is not a NUMA node
  int deviceNumaId;      // -1 when it is not
  int mpsEnabled;
  int hostNumaId;                  // the host NUMA node nearest the device
  unsigned int gpuPciDeviceID;     // PCI device id << 16 | vendor id
  unsigned int gpuPciSubsystemID;  // subsystem id << 16 | subsystem vendor
  int hostNumaMultinodeIpcSupported;
};
typedef struct mcDeviceProp mcDeviceProp_t;

// The attributes of one kernel (mcFuncGetAttributes), CUDA's fields.
struct mcFuncAttributes {
  size_t sharedSizeBytes;  // static shared memory per block
  size_t constSizeBytes;
  size_t localSizeBytes;  // local memory per thread
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};
typedef struct mcFuncAttributes mcFuncAttributes;

// --- Kernel and device configuration (api_device.cc, api_function.cc). ---

// Preferred split of on-chip memory between L1 and shared memory
// (mcFuncSetCacheConfig, mcDeviceSetCacheConfig), CUDA's values; a hint.
// [api.device.func.set-cache-config]
enum mcFuncCache {
  mcFuncCachePreferNone = 0,
  mcFuncCachePreferShared = 1,
  mcFuncCachePreferL1 = 2,
  mcFuncCachePreferEqual = 3,
};
typedef enum mcFuncCache mcFuncCache_t;

// Shared memory bank width (mcDeviceSetSharedMemConfig), CUDA's values.
// [api.device.shared-mem-config.fixed-four-byte-banks]
enum mcSharedMemConfig {
  mcSharedMemBankSizeDefault = 0,
  mcSharedMemBankSizeFourByte = 1,
  mcSharedMemBankSizeEightByte = 2,
};
typedef enum mcSharedMemConfig mcSharedMemConfig;

// Kernel attributes mcFuncSetAttribute sets, CUDA's values.
// [api.device.func.set-max-dynamic-shared] [api.device.func.set-carveout]
enum mcFuncAttribute {
  mcFuncAttributeMaxDynamicSharedMemorySize = 8,
  mcFuncAttributePreferredSharedMemoryCarveout = 9,
  mcFuncAttributeMax = 10,
};
typedef enum mcFuncAttribute mcFuncAttribute;

// Carveout values with names (percent of shared memory; -1 no preference).
enum mcSharedCarveout {
  mcSharedmemCarveoutDefault = -1,
  mcSharedmemCarveoutMaxL1 = 0,
  mcSharedmemCarveoutMaxShared = 100,
};

// Flags of the occupancy calculators ...WithFlags.
// [api.device.occupancy.flags]
#define mcOccupancyDefault 0x00
#define mcOccupancyDisableCachingOverride 0x01

// Flags of mcSetDeviceFlags: one scheduling policy, optionally MapHost and
// LmemResizeToMax. [api.device.flags.set-and-get]
#define mcDeviceScheduleAuto 0x00
#define mcDeviceScheduleSpin 0x01
#define mcDeviceScheduleYield 0x02
#define mcDeviceScheduleBlockingSync 0x04
#define mcDeviceBlockingSync 0x04
#define mcDeviceScheduleMask 0x07
#define mcDeviceMapHost 0x08
#define mcDeviceLmemResizeToMax 0x10
#define mcDeviceMask 0x1f

// Flags of mcStreamCreateWithFlags. [api.stream.create-with-flags.flag-values]
#define mcStreamDefault 0x00
#define mcStreamNonBlocking 0x01

// Handles that name a default stream in every call that takes a stream:
// the legacy default stream and the calling thread's per-thread default
// stream of the current device. [api.stream.special.handles-distinct]
#define mcStreamLegacy ((mcStream_t)0x1)
#define mcStreamPerThread ((mcStream_t)0x2)

// Stream callbacks and host functions. [api.callback.add.receives-arguments]
// [api.callback.host-func.runs-in-stream-order]
typedef void (*mcStreamCallback_t)(mcStream_t stream, mcError_t status,
                                   void* userData);
typedef void (*mcHostFn_t)(void* userData);

// Stream attributes (mcStreamSetAttribute). [api.stream.attribute]
enum mcAccessProperty {
  mcAccessPropertyNormal = 0,
  mcAccessPropertyStreaming = 1,
  mcAccessPropertyPersisting = 2,
};
typedef enum mcAccessProperty mcAccessProperty;

// A window of global memory whose accesses a kernel in the stream should
// treat as `hitProp` with probability `hitRatio`, else as `missProp`: a
// cache hint that never changes results.
// [api.stream.attribute.access-policy-is-hint]
struct mcAccessPolicyWindow {
  void* base_ptr;
  size_t num_bytes;
  float hitRatio;
  enum mcAccessProperty hitProp;
  enum mcAccessProperty missProp;
};
typedef struct mcAccessPolicyWindow mcAccessPolicyWindow;

// How a host thread waits for a stream's work: a hint.
enum mcSynchronizationPolicy {
  mcSyncPolicyAuto = 1,
  mcSyncPolicySpin = 2,
  mcSyncPolicyYield = 3,
  mcSyncPolicyBlockingSync = 4,
};
typedef enum mcSynchronizationPolicy mcSynchronizationPolicy;

enum mcStreamAttrID {
  mcStreamAttributeAccessPolicyWindow = 1,
  mcStreamAttributeSynchronizationPolicy = 3,
};
typedef enum mcStreamAttrID mcStreamAttrID;

union mcStreamAttrValue {
  struct mcAccessPolicyWindow accessPolicyWindow;
  enum mcSynchronizationPolicy syncPolicy;
};
typedef union mcStreamAttrValue mcStreamAttrValue;

// Flags of mcEventCreateWithFlags.
// [api.event.create-with-flags.flag-values]
#define mcEventDefault 0x00
#define mcEventBlockingSync 0x01
#define mcEventDisableTiming 0x02
#define mcEventInterprocess 0x04

// Flags of mcEventRecordWithFlags and mcStreamWaitEvent.
// [api.event.record-with-flags.default-flag]
// [api.stream.wait-event.default-flag-is-zero]
#define mcEventRecordDefault 0x00
#define mcEventRecordExternal 0x01
#define mcEventWaitDefault 0x00

// Flags of mcMallocHost (CUDA's cudaHostAlloc flags).
// [api.memory.malloc-host.flags-combinable]
#define mcMallocHostDefault 0x00
#define mcMallocHostPortable 0x01
#define mcMallocHostMapped 0x02
#define mcMallocHostWriteCombined 0x04

// Flags of mcMallocManaged. [api.memory.managed.invalid-flags]
#define mcMemAttachGlobal 0x01
#define mcMemAttachHost 0x02

// ==========================================================================
// Memory: host allocation and registration flags, pointer attributes,
// managed memory advice, pitched and 3D memory. [api.memory]
// ==========================================================================

// mcMemAttachSingle: a managed range attached to one stream
// (mcStreamAttachMemAsync); not a flag of mcMallocManaged.
#define mcMemAttachSingle 0x04

// Flags of mcHostAlloc: the mcMallocHost flags under CUDA's names.
// [api.memory.host-alloc.same-as-malloc-host]
#define mcHostAllocDefault 0x00
#define mcHostAllocPortable 0x01
#define mcHostAllocMapped 0x02
#define mcHostAllocWriteCombined 0x04

// Flags of mcHostRegister. [api.memory.host-register.flags]
#define mcHostRegisterDefault 0x00
#define mcHostRegisterPortable 0x01
#define mcHostRegisterMapped 0x02
#define mcHostRegisterIoMemory 0x04
#define mcHostRegisterReadOnly 0x08

// Locations of managed memory besides device ordinals: the host, and none.
// [api.memory.prefetch.migrates-without-changing-values]
#define mcCpuDeviceId ((int)-1)
#define mcInvalidDeviceId ((int)-2)

// What memory a pointer addresses (mcPointerGetAttributes).
// [api.memory.pointer-attributes.type-values]
enum mcMemoryType {
  mcMemoryTypeUnregistered = 0,
  mcMemoryTypeHost = 1,
  mcMemoryTypeDevice = 2,
  mcMemoryTypeManaged = 3,
  mcMemoryTypeArray = 4,
};
typedef enum mcMemoryType mcMemoryType;

// The attributes of a pointer. `type` and `memoryType` are two names of one
// field; `isManaged` is 1 for managed memory; `allocationFlags` holds the
// mcMallocHost or mcHostRegister flags of page-locked memory.
// [api.memory.pointer-attributes.device-memory]
struct mcPointerAttributes {
  union {
    enum mcMemoryType type;
    enum mcMemoryType memoryType;
  };
  int device;
  void* devicePointer;
  void* hostPointer;
  int isManaged;
  unsigned int allocationFlags;
};
typedef struct mcPointerAttributes mcPointerAttribute_t;

// Attributes mcPointerSetAttribute may set (CUDA's CUpointer_attribute
// values). [api.memory.pointer-set-attribute.sync-memops]
enum mcPointer_attribute {
  mcPointerAttributeContext = 1,
  mcPointerAttributeMemoryType = 2,
  mcPointerAttributeDevicePointer = 3,
  mcPointerAttributeHostPointer = 4,
  mcPointerAttributeSyncMemops = 6,
  mcPointerAttributeBufferId = 7,
  mcPointerAttributeIsManaged = 8,
  mcPointerAttributeDeviceOrdinal = 9,
};
typedef enum mcPointer_attribute mcPointer_attribute;

// Advice on managed memory (mcMemAdvise): CUDA's values, and MXMACA's
// coarse-grain coherence hints. [api.memory.advise.advice-values]
enum mcMemoryAdvise {
  mcMemAdviseSetReadMostly = 1,
  mcMemAdviseUnsetReadMostly = 2,
  mcMemAdviseSetPreferredLocation = 3,
  mcMemAdviseUnsetPreferredLocation = 4,
  mcMemAdviseSetAccessedBy = 5,
  mcMemAdviseUnsetAccessedBy = 6,
  mcMemAdviseSetCoarseGrain = 100,
  mcMemAdviseUnsetCoarseGrain = 101,
};
typedef enum mcMemoryAdvise mcMemoryAdvise;

// What mcMemRangeGetAttribute reports. [api.memory.range-attribute.values]
enum mcMemRangeAttribute {
  mcMemRangeAttributeReadMostly = 1,
  mcMemRangeAttributePreferredLocation = 2,
  mcMemRangeAttributeAccessedBy = 3,
  mcMemRangeAttributeLastPrefetchLocation = 4,
};
typedef enum mcMemRangeAttribute mcMemRangeAttribute;

// What kind of place an mcMemLocation names, CUDA's cudaMemLocationType
// values. [api.memory.location.types]
enum mcMemLocationType {
  mcMemLocationTypeInvalid = 0,
  mcMemLocationTypeDevice = 1,           // `id` is a device ordinal
  mcMemLocationTypeHost = 2,             // the host; `id` is ignored
  mcMemLocationTypeHostNuma = 3,         // `id` is a host NUMA node
  mcMemLocationTypeHostNumaCurrent = 4,  // the calling thread's NUMA node
};
typedef enum mcMemLocationType mcMemLocationType;

// A place memory can live: a device or the host (the location form of
// mcMemPrefetchAsync and mcMemAdvise; memory pools).
// [api.memory.location.types]
struct mcMemLocation {
  enum mcMemLocationType type;
  int id;
};
typedef struct mcMemLocation mcMemLocation;

// A pitched allocation: `pitch` bytes from a row to the next, rows of
// `xsize` bytes, `ysize` rows per slice. [api.memory.make-pitched-ptr.fields]
struct mcPitchedPtr {
  void* ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};
typedef struct mcPitchedPtr mcPitchedPtr;

// The extent of a box of linear memory: `width` in bytes, `height` rows,
// `depth` slices. [api.memory.make-extent.fields]
struct mcExtent {
  size_t width;
  size_t height;
  size_t depth;
};
typedef struct mcExtent mcExtent;

// A position in linear memory: `x` in bytes, `y` rows, `z` slices.
// [api.memory.make-pos.fields]
struct mcPos {
  size_t x;
  size_t y;
  size_t z;
};
typedef struct mcPos mcPos;

// A CUDA array: the runtime creates none, so no handle but NULL is valid.
typedef struct mcArray* mcArray_t;

// The parameters of mcMemcpy3D: for each side an array or a pitched
// pointer (exactly one of them; the reference has no arrays), and the
// position of the box in it. [api.memory.memcpy-3d.copies-box]
struct mcMemcpy3DParms {
  mcArray_t srcArray;
  struct mcPos srcPos;
  struct mcPitchedPtr srcPtr;
  mcArray_t dstArray;
  struct mcPos dstPos;
  struct mcPitchedPtr dstPtr;
  struct mcExtent extent;
  enum mcMemcpyKind kind;
};
typedef struct mcMemcpy3DParms mcMemcpy3DParms;

// Builders of the three structures, with their fields in order.
static inline struct mcPitchedPtr make_mcPitchedPtr(void* d, size_t p,
                                                    size_t xsz, size_t ysz) {
  struct mcPitchedPtr s;
  s.ptr = d;
  s.pitch = p;
  s.xsize = xsz;
  s.ysize = ysz;
  return s;
}

static inline struct mcExtent make_mcExtent(size_t w, size_t h, size_t d) {
  struct mcExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

static inline struct mcPos make_mcPos(size_t x, size_t y, size_t z) {
  struct mcPos p;
  p.x = x;
  p.y = y;
  p.z = z;
  return p;
}

// ==========================================================================
// Memory pools and interprocess sharing. [api.pool] [api.ipc]
// ==========================================================================

// A memory pool: the source of stream-ordered allocations on one device
// (mcMallocAsync, mcMallocFromPoolAsync). [api.pool.create.explicit-pool]
typedef struct MCmemPoolHandle_st* mcMemPool_t;

// What a pool allocates: CUDA's cudaMemAllocationType values; only pinned
// device memory exists. [api.pool.create.invalid-props-is-invalid-value]
enum mcMemAllocationType {
  mcMemAllocationTypeInvalid = 0x0,
  mcMemAllocationTypePinned = 0x1,
  mcMemAllocationTypeMax = 0x7FFFFFFF,
};
typedef enum mcMemAllocationType mcMemAllocationType;

// The operating-system handles a pool can be exported as, a bit set:
// CUDA's cudaMemAllocationHandleType values. On Linux only
// mcMemHandleTypePosixFileDescriptor (an `int` file descriptor) exists;
// the runtime guide also spells it mcDevAttrHandleTypePosixFileDescriptor.
// [api.pool.ipc.export-needs-handle-type]
enum mcMemAllocationHandleType {
  mcMemHandleTypeNone = 0x0,
  mcMemHandleTypePosixFileDescriptor = 0x1,
  mcMemHandleTypeWin32 = 0x2,
  mcMemHandleTypeWin32Kmt = 0x4,
  mcMemHandleTypeFabric = 0x8,
};
typedef enum mcMemAllocationHandleType mcMemAllocationHandleType;
#define mcDevAttrHandleTypePosixFileDescriptor \
  mcMemHandleTypePosixFileDescriptor

// What a new pool is: pinned memory on the device `location` names, the
// handle types it can be exported as, and at most `maxSize` bytes of
// reserved memory (0: as much as the device has). The other fields must
// be zero. [api.pool.create.explicit-pool] [api.pool.create.max-size]
struct mcMemPoolProps {
  enum mcMemAllocationType allocType;
  enum mcMemAllocationHandleType handleTypes;
  struct mcMemLocation location;
  void* win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
typedef struct mcMemPoolProps mcMemPoolProps;

// The attributes of a pool (mcMemPoolSetAttribute, mcMemPoolGetAttribute):
// CUDA's cudaMemPoolAttr values. The three reuse policies take an `int` 0
// or 1; the others a 64-bit unsigned value (`unsigned long long`).
// [api.pool.attribute.set-then-get]
enum mcMemPoolAttr {
  mcMemPoolReuseFollowEventDependencies = 0x1,
  mcMemPoolReuseAllowOpportunistic = 0x2,
  mcMemPoolReuseAllowInternalDependencies = 0x3,
  mcMemPoolAttrReleaseThreshold = 0x4,
  mcMemPoolAttrReservedMemCurrent = 0x5,
  mcMemPoolAttrReservedMemHigh = 0x6,
  mcMemPoolAttrUsedMemCurrent = 0x7,
  mcMemPoolAttrUsedMemHigh = 0x8,
};
typedef enum mcMemPoolAttr mcMemPoolAttr;

// Access of a device to a pool's memory: CUDA's cudaMemAccessFlags values.
// [api.pool.access.set-grants-peer]
enum mcMemAccessFlags {
  mcMemAccessFlagsProtNone = 0,
  mcMemAccessFlagsProtRead = 1,
  mcMemAccessFlagsProtReadWrite = 3,
};
typedef enum mcMemAccessFlags mcMemAccessFlags;

// One entry of mcMemPoolSetAccess: the device `location` names gets
// `flags`. [api.pool.access.set-grants-peer]
struct mcMemAccessDesc {
  struct mcMemLocation location;
  enum mcMemAccessFlags flags;
};
typedef struct mcMemAccessDesc mcMemAccessDesc;

// What mcMemPoolExportPointer writes and mcMemPoolImportPointer reads in
// another process: plain bytes. [api.pool.ipc.export-pointer]
struct mcMemPoolPtrExportData {
  unsigned char reserved[64];
};
typedef struct mcMemPoolPtrExportData mcMemPoolPtrExportData;

// The size in bytes of an interprocess memory or event handle.
// [api.ipc.handle.size]
#define MC_IPC_HANDLE_SIZE 64

// An exported mcMalloc allocation (mcIpcGetMemHandle) and an exported
// interprocess event (mcIpcGetEventHandle): plain bytes that any process of
// the host may copy and open. [api.ipc.handle.plain-data]
struct mcIpcMemHandle_st {
  char reserved[MC_IPC_HANDLE_SIZE];
};
typedef struct mcIpcMemHandle_st mcIpcMemHandle_t;
struct mcIpcEventHandle_st {
  char reserved[MC_IPC_HANDLE_SIZE];
};
typedef struct mcIpcEventHandle_st mcIpcEventHandle_t;

// The flag of mcIpcOpenMemHandle that enables peer access from the current
// device to the allocation's device as needed.
// [api.ipc.open-mem-handle.lazy-enable-peer-access]
#define mcIpcMemLazyEnablePeerAccess 0x01

// ==========================================================================
// Graphs and stream capture. [api.graph]
// ==========================================================================

// A graph: nodes (operations) and the dependencies between them.
// [api.graph.create.returns-empty-graph]
typedef struct MCgraph_st* mcGraph_t;
// One node of a graph. [api.graph.node.dependencies-become-edges]
typedef struct MCgraphNode_st* mcGraphNode_t;
// An executable graph, instantiated from a graph and launched into streams.
// [api.graph.instantiate.creates-exec]
typedef struct MCgraphExec_st* mcGraphExec_t;

// The kind of a node: CUDA's cudaGraphNodeType values.
// [api.graph.node-get-type.reports-kind]
enum mcGraphNodeType {
  mcGraphNodeTypeKernel = 0x00,
  mcGraphNodeTypeMemcpy = 0x01,
  mcGraphNodeTypeMemset = 0x02,
  mcGraphNodeTypeHost = 0x03,
  mcGraphNodeTypeGraph = 0x04,
  mcGraphNodeTypeEmpty = 0x05,
  mcGraphNodeTypeWaitEvent = 0x06,
  mcGraphNodeTypeEventRecord = 0x07,
  mcGraphNodeTypeExtSemaphoreSignal = 0x08,
  mcGraphNodeTypeExtSemaphoreWait = 0x09,
  mcGraphNodeTypeMemAlloc = 0x0a,
  mcGraphNodeTypeMemFree = 0x0b,
  mcGraphNodeTypeCount,
};
typedef enum mcGraphNodeType mcGraphNodeType;

// A kernel node: the kernel (its host stub, as `(void*)kernel`), the
// configuration, and its arguments, either as `kernelParams` (kernelParams[i]
// points at argument i) or packed in `extra` (MC_LAUNCH_PARAM_BUFFER_POINTER,
// buffer, MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END); exactly
// one of the two is non-null when the kernel takes arguments.
// [api.graph.kernel-node.runs-kernel]
// [api.graph.kernel-node.extra-argument-form]
struct mcKernelNodeParams {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};
typedef struct mcKernelNodeParams mcKernelNodeParams;

// The attributes of a launch, as kernel nodes take them
// (mcGraphKernelNodeSetAttribute); the values are CUDA's.
// [api.graph.kernel-node-attribute.set-then-get-round-trips]
enum mcLaunchAttributeID {
  mcLaunchAttributeIgnore = 0,
  mcLaunchAttributeAccessPolicyWindow = 1,
  // Nonzero: the kernel runs as mcLaunchCooperativeKernel launches it.
  mcLaunchAttributeCooperative = 2,
  mcLaunchAttributeSynchronizationPolicy = 3,
  mcLaunchAttributePriority = 8,
};
typedef enum mcLaunchAttributeID mcLaunchAttributeID;

union mcLaunchAttributeValue {
  char pad[64];
  struct mcAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  enum mcSynchronizationPolicy syncPolicy;
  int priority;
};
typedef union mcLaunchAttributeValue mcLaunchAttributeValue;

// A kernel node's attributes are launch attributes.
typedef enum mcLaunchAttributeID mcKernelNodeAttrID;
typedef union mcLaunchAttributeValue mcKernelNodeAttrValue;
#define mcKernelNodeAttributeAccessPolicyWindow \
  mcLaunchAttributeAccessPolicyWindow
#define mcKernelNodeAttributeCooperative mcLaunchAttributeCooperative
#define mcKernelNodeAttributePriority mcLaunchAttributePriority

// The markers of a kernel node's `extra` array.
#define MC_LAUNCH_PARAM_END ((void*)0x00)
#define MC_LAUNCH_PARAM_BUFFER_POINTER ((void*)0x01)
#define MC_LAUNCH_PARAM_BUFFER_SIZE ((void*)0x02)

// A memset node: `height` rows of `width` elements of `elementSize` bytes
// (1, 2 or 4) at `dst`, rows `pitch` bytes apart, each set to `value`.
// [api.graph.memset-node.sets]
struct mcMemsetParams {
  void* dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};
typedef struct mcMemsetParams mcMemsetParams;

// A host node: `fn(userData)` runs on a host thread when the node's turn
// comes. [api.graph.host-node.calls-function]
struct mcHostNodeParams {
  mcHostFn_t fn;
  void* userData;
};
typedef struct mcHostNodeParams mcHostNodeParams;

// A memory allocation node: `bytesize` bytes of device memory with the
// pool properties `poolProps` (pinned memory of one device) and the access
// `accessDescs` gives other devices. mcGraphAddMemAllocNode stores the
// address in `dptr`. [api.graph.mem-alloc-node.allocates]
struct mcMemAllocNodeParams {
  struct mcMemPoolProps poolProps;
  const struct mcMemAccessDesc* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr;
};
typedef struct mcMemAllocNodeParams mcMemAllocNodeParams;

// One launch of a multi-device launch: CUDA's cudaLaunchParams.
struct mcLaunchParams {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  void** args;
  size_t sharedMem;
  mcStream_t stream;
};
typedef struct mcLaunchParams mcLaunchParams;

// Flags of mcGraphInstantiateWithFlags. [api.graph.instantiate.with-flags]
enum mcGraphInstantiateFlags {
  mcGraphInstantiateFlagAutoFreeOnLaunch = 1,
  mcGraphInstantiateFlagUpload = 2,
  mcGraphInstantiateFlagDeviceLaunch = 4,
  mcGraphInstantiateFlagUseNodePriority = 8,
};
typedef enum mcGraphInstantiateFlags mcGraphInstantiateFlags;

// The outcome of mcGraphExecUpdate: CUDA's cudaGraphExecUpdateResult.
// [api.graph.exec-update.failure-result-codes]
enum mcGraphExecUpdateResult {
  mcGraphExecUpdateSuccess = 0x0,
  mcGraphExecUpdateError = 0x1,
  mcGraphExecUpdateErrorTopologyChanged = 0x2,
  mcGraphExecUpdateErrorNodeTypeChanged = 0x3,
  mcGraphExecUpdateErrorFunctionChanged = 0x4,
  mcGraphExecUpdateErrorParametersChanged = 0x5,
  mcGraphExecUpdateErrorNotSupported = 0x6,
  mcGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
  mcGraphExecUpdateErrorAttributesChanged = 0x8,
};
typedef enum mcGraphExecUpdateResult mcGraphExecUpdateResult;

// What mcGraphDebugDotPrint writes besides the topology and node kinds: a
// bit set. [api.graph.debug-dot.verbosity-flags]
enum mcGraphDebugDotFlags {
  mcGraphDebugDotFlagsVerbose = 1 << 0,
  mcGraphDebugDotFlagsKernelNodeParams = 1 << 2,
  mcGraphDebugDotFlagsMemcpyNodeParams = 1 << 3,
  mcGraphDebugDotFlagsMemsetNodeParams = 1 << 4,
  mcGraphDebugDotFlagsHostNodeParams = 1 << 5,
  mcGraphDebugDotFlagsEventNodeParams = 1 << 6,
  mcGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7,
  mcGraphDebugDotFlagsExtSemasWaitNodeParams = 1 << 8,
  mcGraphDebugDotFlagsKernelNodeAttributes = 1 << 9,
  mcGraphDebugDotFlagsHandles = 1 << 10,
  mcGraphDebugDotFlagsMemAllocNodeParams = 1 << 11,
  mcGraphDebugDotFlagsMemFreeNodeParams = 1 << 12,
};
typedef enum mcGraphDebugDotFlags mcGraphDebugDotFlags;

// Which calls a capture prohibits (mcStreamBeginCapture,
// mcThreadExchangeStreamCaptureMode). [api.graph.capture.modes]
enum mcStreamCaptureMode {
  mcStreamCaptureModeGlobal = 0,
  mcStreamCaptureModeThreadLocal = 1,
  mcStreamCaptureModeRelaxed = 2,
};
typedef enum mcStreamCaptureMode mcStreamCaptureMode;

// Whether a stream is capturing. [api.graph.capture.is-capturing-status]
enum mcStreamCaptureStatus {
  mcStreamCaptureStatusNone = 0,
  mcStreamCaptureStatusActive = 1,
  mcStreamCaptureStatusInvalidated = 2,
};
typedef enum mcStreamCaptureStatus mcStreamCaptureStatus;

// How mcStreamUpdateCaptureDependencies changes a stream's capture
// dependencies. [api.graph.capture.update-dependencies]
enum mcStreamUpdateCaptureDependenciesFlags {
  mcStreamAddCaptureDependencies = 0x0,
  mcStreamSetCaptureDependencies = 0x1,
};
typedef enum mcStreamUpdateCaptureDependenciesFlags
    mcStreamUpdateCaptureDependenciesFlags;

// --- Modules (runtime_api_module.h). ---

// A device image loaded at run time (mcModuleLoad*), and one of its kernels
// (mcModuleGetFunction). A function handle is also accepted wherever a
// kernel's host function address is (`(const void*)function`).
// [api.module.load-data.loads-image] [api.module.get-function.finds-kernel]
typedef struct MCmodule_st* mcModule_t;
typedef struct MCfunction_st* mcFunction_t;

// Options of mcModuleLoadDataEx, HIP's and CUDA's JIT options. The
// reference's images need no further compilation: it checks each option's
// value pointer, fills the log buffers it is given with empty logs, and
// ignores the rest. [api.module.load-data-ex.options]
enum mcJitOption {
  mcJitOptionMaxRegisters = 0,
  mcJitOptionThreadsPerBlock = 1,
  mcJitOptionWallTime = 2,
  mcJitOptionInfoLogBuffer = 3,
  mcJitOptionInfoLogBufferSizeBytes = 4,
  mcJitOptionErrorLogBuffer = 5,
  mcJitOptionErrorLogBufferSizeBytes = 6,
  mcJitOptionOptimizationLevel = 7,
  mcJitOptionTargetFromContext = 8,
  mcJitOptionTarget = 9,
  mcJitOptionFallbackStrategy = 10,
  mcJitOptionGenerateDebugInfo = 11,
  mcJitOptionLogVerbose = 12,
  mcJitOptionGenerateLineInfo = 13,
  mcJitOptionCacheMode = 14,
  mcJitOptionNumOptions = 15,
};
typedef enum mcJitOption mcJitOption;

// The attributes mcFuncGetAttribute reports of a module function, CUDA's
// CUfunction_attribute values. [api.module.function.get-attribute]
enum mcFunction_attribute {
  MC_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  MC_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  MC_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  MC_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  MC_FUNC_ATTRIBUTE_NUM_REGS = 4,
  MC_FUNC_ATTRIBUTE_PTX_VERSION = 5,
  MC_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
  MC_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
  MC_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  MC_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
  MC_FUNC_ATTRIBUTE_MAX = 10,
};
typedef enum mcFunction_attribute mcFunction_attribute;

// ==========================================================================
// End of the memory and graph types.
// ==========================================================================

#endif  // MCR_MC_RUNTIME_TYPES_H_
