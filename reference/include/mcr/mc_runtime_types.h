// Copyright mxcts authors.
//
// mcr/mc_runtime_types.h: the types and constants of the MXMACA runtime API.
//
// The error enumeration `mcError_t` (numbers as the real runtime's: CUDA's
// for 0-999, MXMACA's own from 1003), the opaque handle types, the built-in
// vector types `uint3` and `dim3` used by launches and built-in variables,
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
  mcErrorInvalidGraphicsContext = 219,
  mcErrorJitCompilerNotFound = 221,
  mcErrorJitCompilationDisabled = 223,
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
  mcErrorUnknown = 999,
  mcErrorModuleNotFound = 1004,
  mcErrorRecompile = 1009,
  mcErrorNoBitcodeForGPU = 1012,
  mcErrorApiFailureBase = 10000,
  mcErrorKernelExecTimeout = 10032,
};
typedef enum _mcError_t mcError_t;

// Opaque handles. 0, NULL and nullptr name the default stream.
typedef struct MCstream_st* mcStream_t;
typedef struct MCevent_st* mcEvent_t;

// Three unsigned components; the type of threadIdx and blockIdx.
// [lang.builtin.threadidx.type]
struct uint3 {
  unsigned int x, y, z;
};
typedef struct uint3 uint3;

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
// cudaDeviceAttr values of the same attributes.
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
  mcDeviceAttributeMultiProcessorCount = 16,
  mcDeviceAttributeKernelExecTimeout = 17,
  mcDeviceAttributeIntegrated = 18,
  mcDeviceAttributeCanMapHostMemory = 19,
  mcDeviceAttributeComputeMode = 20,
  mcDeviceAttributeConcurrentKernels = 31,
  mcDeviceAttributeEccEnabled = 32,
  mcDeviceAttributePciBusId = 33,
  mcDeviceAttributePciDeviceId = 34,
  mcDeviceAttributeMemoryClockRate = 36,
  mcDeviceAttributeMemoryBusWidth = 37,
  mcDeviceAttributeL2CacheSize = 38,
  mcDeviceAttributeMaxThreadsPerMultiProcessor = 39,
  mcDeviceAttributeAsyncEngineCount = 40,
  mcDeviceAttributeUnifiedAddressing = 41,
  mcDeviceAttributePciDomainId = 50,
  mcDeviceAttributeComputeCapabilityMajor = 75,
  mcDeviceAttributeComputeCapabilityMinor = 76,
  mcDeviceAttributeMaxSharedMemoryPerMultiprocessor = 81,
  mcDeviceAttributeMaxRegistersPerMultiprocessor = 82,
  mcDeviceAttributeManagedMemory = 83,
  mcDeviceAttributeIsMultiGpuBoard = 84,
  mcDeviceAttributeMultiGpuBoardGroupID = 85,
  mcDeviceAttributePageableMemoryAccess = 88,
  mcDeviceAttributeConcurrentManagedAccess = 89,
  mcDeviceAttributeCooperativeLaunch = 95,
  mcDeviceAttributeCooperativeMultiDeviceLaunch = 96,
  mcDeviceAttributeMemoryPoolsSupported = 115,
};
typedef enum mcDeviceAttribute mcDeviceAttribute_t;

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

// Flags of mcStreamCreateWithFlags. [api.stream.create-with-flags.flag-values]
#define mcStreamDefault 0x00
#define mcStreamNonBlocking 0x01

// Handles that name a default stream in every call that takes a stream:
// the legacy default stream and the calling thread's per-thread default
// stream of the current device. [api.stream.special.handles-distinct]
#define mcStreamLegacy ((mcStream_t)0x1)
#define mcStreamPerThread ((mcStream_t)0x2)

// Flags of mcMallocHost (CUDA's cudaHostAlloc flags).
// [api.memory.malloc-host.flags-combinable]
#define mcMallocHostDefault 0x00
#define mcMallocHostPortable 0x01
#define mcMallocHostMapped 0x02
#define mcMallocHostWriteCombined 0x04

// Flags of mcMallocManaged. [api.memory.managed.invalid-flags]
#define mcMemAttachGlobal 0x01
#define mcMemAttachHost 0x02

#endif  // MCR_MC_RUNTIME_TYPES_H_
