// Copyright mxcts authors.
//
// mcr/mc_runtime_types.h: the basic types of the MXMACA runtime API.
//
// The error enumeration `mcError_t` (numbers as the real runtime's: CUDA's
// for 0-999, MXMACA's own from 1003), the opaque handle types, and the
// built-in vector types `uint3` and `dim3` used by launches and built-in
// variables. Included by mc_runtime_api.h; programs include mc_runtime.h.
//
//   dim3 grid(ceil(n / 256.0));   // converts from double, y = z = 1
//   mcError_t err = mcGetLastError();
//   if (err != mcSuccess) printf("%s\n", mcGetErrorString(err));

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
  mcErrorKernelExecTimeout = 10032,};
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
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                 unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};
typedef struct dim3 dim3;

#endif  // MCR_MC_RUNTIME_TYPES_H_
