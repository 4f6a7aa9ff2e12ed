// Copyright mxcts authors.
//
// The error table. One row per mcError_t enumerator, in numeric order: the
// canonical absl code the runtime uses for it internally, whether it is
// sticky, whether it is the code a payload-less status of that canonical
// code maps to, its spelling and its description. Every other function in
// this file is a lookup in the table, so adding an enumerator means adding
// one row (error_mapping_test.cc checks the rows against the header).
//
// The payload that carries the exact code is the decimal number under the
// type URL kPayloadUrl.
//
// Tested by error_mapping_test.cc.

#include "reference/runtime/errors/error_mapping.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace mxcts::runtime {
namespace {

using Code = absl::StatusCode;

constexpr char kPayloadUrl[] = "type.mxcts.dev/mcError_t";

struct ErrorRow {
  mcError_t error;
  Code code;
  bool sticky;            // [api.error.sticky.fault-codes]
  bool default_for_code;  // the code a plain status of `code` maps to
  const char* name;
  const char* description;
};

#define MC_ROW(e, code, sticky, dflt, text) \
  { e, code, sticky, dflt, #e, text }

constexpr ErrorRow kErrorTable[] = {
    MC_ROW(mcSuccess, Code::kOk, false, true, "no error"),
    MC_ROW(mcErrorInvalidValue, Code::kInvalidArgument, false, true,
           "an argument is outside its range of accepted values"),
    MC_ROW(mcErrorMemoryAllocation, Code::kResourceExhausted, false, true,
           "the memory requested could not be allocated"),
    MC_ROW(mcErrorInitializationError, Code::kInternal, false, false,
           "the runtime could not be initialized"),
    MC_ROW(mcErrorDeinitialized, Code::kFailedPrecondition, false, false,
           "the runtime is shutting down"),
    MC_ROW(mcErrorProfilerDisabled, Code::kFailedPrecondition, false, false,
           "profiling is disabled for this process"),
    MC_ROW(mcErrorProfilerNotInitialized, Code::kFailedPrecondition, false,
           false, "the profiler was not initialized"),
    MC_ROW(mcErrorProfilerAlreadyStarted, Code::kFailedPrecondition, false,
           false, "the profiler is already running"),
    MC_ROW(mcErrorProfilerAlreadyStopped, Code::kFailedPrecondition, false,
           false, "the profiler is already stopped"),
    MC_ROW(mcErrorInvalidConfiguration, Code::kInvalidArgument, false, false,
           "the launch configuration exceeds what the device supports"),
    MC_ROW(mcErrorInvalidPitchValue, Code::kInvalidArgument, false, false,
           "a pitch is smaller than the width or larger than the maximum"),
    MC_ROW(mcErrorInvalidSymbol, Code::kNotFound, false, false,
           "the symbol is not a device variable"),
    MC_ROW(mcErrorInvalidHostPointer, Code::kInvalidArgument, false, false,
           "the pointer is not a valid host pointer"),
    MC_ROW(mcErrorInvalidDevicePointer, Code::kInvalidArgument, false, false,
           "the pointer is not a valid device pointer"),
    MC_ROW(mcErrorInvalidTexture, Code::kInvalidArgument, false, false,
           "the texture is not valid"),
    MC_ROW(mcErrorInvalidTextureBinding, Code::kInvalidArgument, false, false,
           "the texture binding is not valid"),
    MC_ROW(mcErrorInvalidChannelDescriptor, Code::kInvalidArgument, false,
           false, "the channel descriptor is not valid"),
    MC_ROW(mcErrorInvalidMemcpyDirection, Code::kInvalidArgument, false, false,
           "the copy kind is not a valid direction"),
    MC_ROW(mcErrorAddressOfConstant, Code::kInvalidArgument, false, false,
           "the address of constant memory cannot be taken this way"),
    MC_ROW(mcErrorTextureFetchFailed, Code::kInternal, false, false,
           "a texture fetch failed"),
    MC_ROW(mcErrorTextureNotBound, Code::kFailedPrecondition, false, false,
           "the texture is not bound"),
    MC_ROW(mcErrorSynchronizationError, Code::kInternal, false, false,
           "a synchronization operation failed"),
    MC_ROW(mcErrorInvalidFilterSetting, Code::kInvalidArgument, false, false,
           "the texture filter mode is not valid"),
    MC_ROW(mcErrorInvalidNormSetting, Code::kInvalidArgument, false, false,
           "the texture read mode is not valid"),
    MC_ROW(mcErrorMixedDeviceExecution, Code::kFailedPrecondition, false, false,
           "host and device execution were mixed"),
    MC_ROW(mcErrorNotYetImplemented, Code::kUnimplemented, false, false,
           "the function is not yet implemented"),
    MC_ROW(mcErrorMemoryValueTooLarge, Code::kOutOfRange, false, false,
           "a value exceeds the range of the memory it is stored in"),
    MC_ROW(mcErrorStubLibrary, Code::kFailedPrecondition, false, false,
           "a stub library was loaded instead of the real one"),
    MC_ROW(mcErrorInsufficientDriver, Code::kFailedPrecondition, false, false,
           "the installed driver is older than the runtime"),
    MC_ROW(mcErrorCallRequiresNewerDriver, Code::kFailedPrecondition, false,
           false, "the call needs a newer driver"),
    MC_ROW(mcErrorInvalidSurface, Code::kInvalidArgument, false, false,
           "the surface is not valid"),
    MC_ROW(mcErrorDuplicateVariableName, Code::kAlreadyExists, false, false,
           "two device variables share one name"),
    MC_ROW(mcErrorDuplicateTextureName, Code::kAlreadyExists, false, false,
           "two textures share one name"),
    MC_ROW(mcErrorDuplicateSurfaceName, Code::kAlreadyExists, false, false,
           "two surfaces share one name"),
    MC_ROW(mcErrorDevicesUnavailable, Code::kUnavailable, false, false,
           "every device is busy or unavailable"),
    MC_ROW(mcErrorIncompatibleDriverContext, Code::kFailedPrecondition, false,
           false, "the current context does not suit the runtime"),
    MC_ROW(mcErrorMissingConfiguration, Code::kFailedPrecondition, false, false,
           "a kernel was called without a launch configuration"),
    MC_ROW(mcErrorPriorLaunchFailure, Code::kFailedPrecondition, false, false,
           "an earlier launch failed"),
    MC_ROW(mcErrorLaunchMaxDepthExceeded, Code::kResourceExhausted, false,
           false, "device-side launches are nested too deeply"),
    MC_ROW(mcErrorLaunchFileScopedTex, Code::kUnimplemented, false, false,
           "device-side launches cannot use file-scoped textures"),
    MC_ROW(mcErrorLaunchFileScopedSurf, Code::kUnimplemented, false, false,
           "device-side launches cannot use file-scoped surfaces"),
    MC_ROW(mcErrorSyncDepthExceeded, Code::kResourceExhausted, false, false,
           "device-side synchronization is nested too deeply"),
    MC_ROW(mcErrorLaunchPendingCountExceeded, Code::kResourceExhausted, false,
           false, "too many device-side launches are pending"),
    MC_ROW(mcErrorInvalidDeviceFunction, Code::kNotFound, false, false,
           "the function is not a kernel of this program"),
    MC_ROW(mcErrorNoDevice, Code::kNotFound, false, false,
           "no device is visible"),
    MC_ROW(mcErrorInvalidDevice, Code::kInvalidArgument, false, false,
           "the device ordinal does not name a visible device"),
    MC_ROW(mcErrorDeviceNotLicensed, Code::kPermissionDenied, false, false,
           "the device is not licensed for this use"),
    MC_ROW(mcErrorSoftwareValidityNotEstablished, Code::kPermissionDenied,
           false, false, "the software's validity could not be established"),
    MC_ROW(mcErrorStartupFailure, Code::kInternal, false, false,
           "the runtime failed to start"),
    MC_ROW(mcErrorInvalidKernelImage, Code::kDataLoss, false, true,
           "the device image is not valid"),
    MC_ROW(mcErrorDeviceUninitialized, Code::kFailedPrecondition, false, false,
           "the device has no context"),
    MC_ROW(mcErrorContextAlreadyCurrent, Code::kFailedPrecondition, false,
           false, "the context is already current to the thread"),
    MC_ROW(mcErrorMapBufferObjectFailed, Code::kInternal, false, false,
           "a buffer object could not be mapped"),
    MC_ROW(mcErrorUnmapBufferObjectFailed, Code::kInternal, false, false,
           "a buffer object could not be unmapped"),
    MC_ROW(mcErrorArrayIsMapped, Code::kFailedPrecondition, false, false,
           "the array is mapped"),
    MC_ROW(mcErrorAlreadyMapped, Code::kAlreadyExists, false, false,
           "the resource is already mapped"),
    MC_ROW(mcErrorNoKernelImageForDevice, Code::kNotFound, false, false,
           "the program has no device code for this device"),
    MC_ROW(mcErrorAlreadyAcquired, Code::kAlreadyExists, false, false,
           "the resource is already acquired"),
    MC_ROW(mcErrorNotMapped, Code::kFailedPrecondition, false, false,
           "the resource is not mapped"),
    MC_ROW(mcErrorNotMappedAsArray, Code::kFailedPrecondition, false, false,
           "the resource is not mapped as an array"),
    MC_ROW(mcErrorNotMappedAsPointer, Code::kFailedPrecondition, false, false,
           "the resource is not mapped as a pointer"),
    MC_ROW(mcErrorECCUncorrectable, Code::kDataLoss, true, false,
           "an uncorrectable memory error was detected"),
    MC_ROW(mcErrorUnsupportedLimit, Code::kInvalidArgument, false, false,
           "the limit is not supported by the device"),
    MC_ROW(mcErrorDeviceAlreadyInUse, Code::kUnavailable, false, false,
           "the device is already in use by another thread"),
    MC_ROW(mcErrorPeerAccessUnsupported, Code::kUnimplemented, false, false,
           "the devices cannot access each other's memory"),
    MC_ROW(mcErrorInvalidKernelFile, Code::kInvalidArgument, false, false,
           "the device code file is not valid"),
    MC_ROW(mcErrorInvalidGraphicsContext, Code::kInvalidArgument, false, false,
           "the graphics context is not valid"),
    MC_ROW(mcErrorMxlinkUncorrectable, Code::kDataLoss, false, false,
           "an uncorrectable error was detected on a MetaXLink connection"),
    MC_ROW(mcErrorJitCompilerNotFound, Code::kNotFound, false, false,
           "the run-time compiler was not found"),
    MC_ROW(mcErrorUnsupportedKernelVersion, Code::kFailedPrecondition, false,
           false, "the device code was made by an unsupported tool version"),
    MC_ROW(mcErrorJitCompilationDisabled, Code::kFailedPrecondition, false,
           false, "run-time compilation is disabled"),
    MC_ROW(mcErrorUnsupportedExecAffinity, Code::kUnimplemented, false, false,
           "the execution affinity type is not supported"),
    MC_ROW(mcErrorInvalidSource, Code::kInvalidArgument, false, false,
           "the device source is not valid"),
    MC_ROW(mcErrorFileNotFound, Code::kNotFound, false, true,
           "the file was not found"),
    MC_ROW(mcErrorSharedObjectSymbolNotFound, Code::kNotFound, false, false,
           "a symbol of a shared object was not found"),
    MC_ROW(mcErrorSharedObjectInitFailed, Code::kInternal, false, false,
           "a shared object failed to initialize"),
    MC_ROW(mcErrorOperatingSystem, Code::kInternal, false, true,
           "an operating system call failed"),
    MC_ROW(mcErrorInvalidResourceHandle, Code::kNotFound, false, false,
           "the handle does not name a live stream, event or other resource"),
    MC_ROW(mcErrorIllegalState, Code::kFailedPrecondition, false, true,
           "the operation is not valid in the resource's current state"),
    MC_ROW(mcErrorSymbolNotFound, Code::kNotFound, false, false,
           "the named symbol was not found"),
    MC_ROW(mcErrorNotReady, Code::kUnavailable, false, true,
           "the work has not completed yet"),
    MC_ROW(mcErrorIllegalAddress, Code::kAborted, true, false,
           "a kernel accessed an illegal memory address"),
    MC_ROW(mcErrorLaunchOutOfResources, Code::kResourceExhausted, false, false,
           "the launch needs more resources than the device has"),
    MC_ROW(mcErrorLaunchTimeout, Code::kDeadlineExceeded, true, false,
           "a kernel ran longer than the device allows"),
    MC_ROW(mcErrorLaunchIncompatibleTexturing, Code::kInvalidArgument, false,
           false, "the launch uses an incompatible texturing mode"),
    MC_ROW(mcErrorPeerAccessAlreadyEnabled, Code::kAlreadyExists, false, false,
           "peer access is already enabled"),
    MC_ROW(mcErrorPeerAccessNotEnabled, Code::kFailedPrecondition, false, false,
           "peer access is not enabled"),
    MC_ROW(mcErrorSetOnActiveProcess, Code::kFailedPrecondition, false, false,
           "the setting cannot change once the device is active"),
    MC_ROW(mcErrorContextIsDestroyed, Code::kFailedPrecondition, false, false,
           "the context has been destroyed"),
    MC_ROW(mcErrorAssert, Code::kAborted, true, false,
           "a device assertion failed"),
    MC_ROW(mcErrorTooManyPeers, Code::kResourceExhausted, false, false,
           "too many peers have access to the device"),
    MC_ROW(mcErrorHostMemoryAlreadyRegistered, Code::kAlreadyExists, false,
           false, "the host memory is already registered"),
    MC_ROW(mcErrorHostMemoryNotRegistered, Code::kFailedPrecondition, false,
           false, "the host memory is not registered"),
    MC_ROW(mcErrorHardwareStackError, Code::kAborted, true, false,
           "a kernel overflowed or corrupted its stack"),
    MC_ROW(mcErrorIllegalInstruction, Code::kAborted, true, false,
           "a kernel executed an illegal instruction"),
    MC_ROW(mcErrorMisalignedAddress, Code::kAborted, true, false,
           "a kernel accessed a misaligned address"),
    MC_ROW(mcErrorInvalidAddressSpace, Code::kAborted, true, false,
           "a kernel used an address in the wrong address space"),
    MC_ROW(mcErrorInvalidPc, Code::kAborted, true, false,
           "a kernel jumped to an invalid program counter"),
    MC_ROW(mcErrorLaunchFailure, Code::kAborted, true, false,
           "a kernel failed (trap or barrier misuse)"),
    MC_ROW(mcErrorCooperativeLaunchTooLarge, Code::kResourceExhausted, false,
           false, "the cooperative grid does not fit on the device at once"),
    MC_ROW(mcErrorNotPermitted, Code::kPermissionDenied, false, true,
           "the operation is not permitted"),
    MC_ROW(mcErrorNotSupported, Code::kUnimplemented, false, true,
           "the operation is not supported on this device"),
    MC_ROW(mcErrorSystemNotReady, Code::kUnavailable, false, false,
           "the system is not ready"),
    MC_ROW(mcErrorSystemDriverMismatch, Code::kFailedPrecondition, false, false,
           "the driver and the kernel module versions differ"),
    MC_ROW(mcErrorCompatNotSupportedOnDevice, Code::kUnimplemented, false,
           false, "compatibility mode is not supported on this device"),
    MC_ROW(mcErrorMpsConnectionFailed, Code::kUnavailable, false, false,
           "the connection to the multi-process service failed"),
    MC_ROW(mcErrorMpsRpcFailure, Code::kUnavailable, false, false,
           "a call to the multi-process service failed"),
    MC_ROW(mcErrorMpsServerNotReady, Code::kUnavailable, false, false,
           "the multi-process service server is not ready"),
    MC_ROW(mcErrorMpsMaxClientsReached, Code::kResourceExhausted, false, false,
           "the multi-process service has its maximum number of clients"),
    MC_ROW(mcErrorMpsMaxConnectionsReached, Code::kResourceExhausted, false,
           false, "the multi-process service has its maximum of connections"),
    MC_ROW(mcErrorStreamCaptureUnsupported, Code::kFailedPrecondition, false,
           false, "the operation is not allowed while a stream is captured"),
    MC_ROW(mcErrorStreamCaptureInvalidated, Code::kFailedPrecondition, false,
           false, "the stream capture was invalidated by an earlier error"),
    MC_ROW(mcErrorStreamCaptureMerge, Code::kFailedPrecondition, false, false,
           "two independent captures would merge"),
    MC_ROW(mcErrorStreamCaptureUnmatched, Code::kFailedPrecondition, false,
           false, "the capture was not started in this stream"),
    MC_ROW(mcErrorStreamCaptureUnjoined, Code::kFailedPrecondition, false,
           false, "a forked capture was not joined back"),
    MC_ROW(mcErrorStreamCaptureIsolation, Code::kFailedPrecondition, false,
           false, "the capture would cross a capture boundary"),
    MC_ROW(mcErrorStreamCaptureImplicit, Code::kFailedPrecondition, false,
           false, "the capture would depend on the legacy default stream"),
    MC_ROW(mcErrorCapturedEvent, Code::kFailedPrecondition, false, false,
           "the event was recorded in a captured stream"),
    MC_ROW(mcErrorStreamCaptureWrongThread, Code::kFailedPrecondition, false,
           false, "the capture was ended from another thread"),
    MC_ROW(mcErrorTimeout, Code::kDeadlineExceeded, false, true,
           "the wait timed out"),
    MC_ROW(mcErrorGraphExecUpdateFailure, Code::kFailedPrecondition, false,
           false, "the executable graph could not be updated in place"),
    MC_ROW(mcErrorExternalDevice, Code::kInternal, false, false,
           "an asynchronous error was reported by an external device"),
    MC_ROW(mcErrorGraphExecUpdateCommandDisMatch, Code::kFailedPrecondition,
           false, false,
           "the executable graph's commands do not match the graph's"),
    MC_ROW(mcErrorGraphExecUpdateNodeTypeChanged, Code::kFailedPrecondition,
           false, false, "a node of the graph changed its type"),
    MC_ROW(mcErrorUnknown, Code::kUnknown, false, true,
           "an unknown error occurred"),
    MC_ROW(mcErrorDuplicateLoadModule, Code::kAlreadyExists, false, false,
           "the module is already loaded"),
    MC_ROW(mcErrorModuleNotFound, Code::kNotFound, false, false,
           "the module was not found"),
    MC_ROW(mcErrorDuplicateDevice, Code::kAlreadyExists, false, false,
           "the device is listed twice"),
    MC_ROW(mcErrorDumpBCfile, Code::kInternal, false, false,
           "the device bitcode file could not be written"),
    MC_ROW(mcErrorRecompile, Code::kFailedPrecondition, false, false,
           "the code must be recompiled for this device"),
    MC_ROW(mcErrorApplyRelocation, Code::kInternal, false, false,
           "a relocation of the device code could not be applied"),
    MC_ROW(mcErrorFileSaveFailed, Code::kInternal, false, false,
           "a file could not be saved"),
    MC_ROW(mcErrorNoBitcodeForGPU, Code::kNotFound, false, false,
           "the module has no code for this device"),
    MC_ROW(mcErrorInvalidKernel, Code::kInvalidArgument, false, false,
           "the kernel is not valid"),
    MC_ROW(mcErrorDeviceNotFound, Code::kNotFound, false, false,
           "the device was not found"),
    MC_ROW(mcErrorGetDeviceImageBase, Code::kInternal, false, false,
           "the base address of the device image could not be found"),
    MC_ROW(mcErrorApiFailureBase, Code::kInternal, false, false,
           "an internal runtime call failed"),
    MC_ROW(mcErrorDockerDriverUnload, Code::kUnavailable, false, false,
           "the driver of the container was unloaded"),
    MC_ROW(mcErrorDriverWarmReset, Code::kUnavailable, false, false,
           "the driver is being reset"),
    MC_ROW(mcErrorDriverMismatch, Code::kFailedPrecondition, false, false,
           "the user-mode driver does not match the kernel-mode driver"),
    MC_ROW(mcErrorInvalidParameter, Code::kInvalidArgument, false, false,
           "the driver found a parameter not valid"),
    MC_ROW(mcErrorInvalidHandle, Code::kInvalidArgument, false, false,
           "the driver found a handle not valid"),
    MC_ROW(mcErrorInvalidUnit, Code::kInvalidArgument, false, false,
           "the driver found a node or unit not valid"),
    MC_ROW(mcErrorNoMemory, Code::kResourceExhausted, false, false,
           "the driver has no memory left"),
    MC_ROW(mcErrorBufferTooSmall, Code::kOutOfRange, false, false,
           "a buffer the request needs is too small"),
    MC_ROW(mcErrorNotAddNbg, Code::kFailedPrecondition, false, false,
           "the network binary graph file was not added"),
    MC_ROW(mcErrorNotImplemented, Code::kUnimplemented, false, false,
           "the driver does not implement the request for these parameters"),
    MC_ROW(mcErrorUnavailable, Code::kUnavailable, false, false,
           "the driver function is not available now"),
    MC_ROW(mcErrorOutOfResources, Code::kResourceExhausted, false, false,
           "the request exceeds the resources available now"),
    MC_ROW(mcErrorKernelIoChannelNotOpened, Code::kFailedPrecondition, false,
           false, "the channel to the kernel-mode driver is not open"),
    MC_ROW(mcErrorKernelCommunication, Code::kInternal, false, false,
           "communication with the kernel-mode driver failed"),
    MC_ROW(mcErrorKernelAlreadyOpened, Code::kAlreadyExists, false, false,
           "the channel to the kernel-mode driver is already open"),
    MC_ROW(mcErrormacaMMUUnvailable, Code::kUnavailable, false, false,
           "address translation services are not available"),
    MC_ROW(mcErrorWaitFailure, Code::kInternal, false, false, "a wait failed"),
    MC_ROW(mcErrorWaitTimeout, Code::kDeadlineExceeded, false, false,
           "a wait timed out in the driver"),
    MC_ROW(mcErrorInternal, Code::kInternal, false, false,
           "an internal driver error occurred"),
    MC_ROW(mcErrorCommitFailure, Code::kInternal, false, false,
           "a command could not be committed"),
    MC_ROW(mcErrorMemoryAlreadyRegistered, Code::kAlreadyExists, false, false,
           "the memory buffer is already registered"),
    MC_ROW(mcErrorMemoryNotRegistered, Code::kFailedPrecondition, false, false,
           "the memory buffer is not registered"),
    MC_ROW(mcErrorMemoryAlignment, Code::kInvalidArgument, false, false,
           "a memory argument is not aligned"),
    MC_ROW(mcErrorInitialized, Code::kFailedPrecondition, false, false,
           "the device is already initialized"),
    MC_ROW(mcErrorInvalidContext, Code::kInvalidArgument, false, false,
           "the context is not valid"),
    MC_ROW(mcErrorContextAlreadyInUse, Code::kUnavailable, false, false,
           "the context is already in use"),
    MC_ROW(mcErrorNotFound, Code::kNotFound, false, false,
           "the driver did not find what was named"),
    MC_ROW(mcErrorContextIsDestroy, Code::kFailedPrecondition, false, false,
           "the driver context has been destroyed"),
    MC_ROW(mcErrorNeedMoreInput, Code::kOutOfRange, false, false,
           "more input is needed to go on"),
    MC_ROW(mcErrorDriverFunctionLevelReset, Code::kUnavailable, false, false,
           "the device went through a function-level reset"),
    MC_ROW(mcErrorBusy, Code::kUnavailable, false, false, "the queue is busy"),
    MC_ROW(mcErrorKernelExecTimeout, Code::kDeadlineExceeded, true, false,
           "a kernel exceeded the execution time limit"),
};

#undef MC_ROW

const ErrorRow* FindRow(mcError_t error) {
  for (const ErrorRow& row : kErrorTable) {
    if (row.error == error) return &row;
  }
  return nullptr;
}

const ErrorRow* FindRowByCode(int code) {
  for (const ErrorRow& row : kErrorTable) {
    if (static_cast<int>(row.error) == code) return &row;
  }
  return nullptr;
}

const ErrorRow* DefaultRowFor(Code code) {
  for (const ErrorRow& row : kErrorTable) {
    if (row.code == code && row.default_for_code) return &row;
  }
  return nullptr;
}

}  // namespace

absl::Status McStatus(mcError_t error, absl::string_view message) {
  const ErrorRow* row = FindRow(error);
  Code code = row != nullptr ? row->code : Code::kUnknown;
  if (code == Code::kOk) code = Code::kInternal;  // mcSuccess is no error
  absl::Status status(code, message);
  status.SetPayload(kPayloadUrl,
                    absl::Cord(absl::StrCat(static_cast<int>(error))));
  return status;
}

mcError_t ToMcError(const absl::Status& status) {
  if (status.ok()) return mcSuccess;
  if (absl::optional<absl::Cord> payload = status.GetPayload(kPayloadUrl)) {
    int value = 0;
    if (absl::SimpleAtoi(std::string(*payload), &value) && value != 0) {
      return static_cast<mcError_t>(value);
    }
  }
  const ErrorRow* row = DefaultRowFor(status.code());
  return row != nullptr ? row->error : mcErrorUnknown;
}

const char* ErrorName(mcError_t error) {
  const ErrorRow* row = FindRow(error);
  return row != nullptr ? row->name : kUnrecognizedErrorText;
}

const char* ErrorDescription(mcError_t error) {
  const ErrorRow* row = FindRow(error);
  return row != nullptr ? row->description : kUnrecognizedErrorText;
}

const char* ErrorNameOfCode(int code) {
  const ErrorRow* row = FindRowByCode(code);
  return row != nullptr ? row->name : kUnrecognizedErrorText;
}

const char* ErrorDescriptionOfCode(int code) {
  const ErrorRow* row = FindRowByCode(code);
  return row != nullptr ? row->description : kUnrecognizedErrorText;
}

bool IsStickyError(mcError_t error) {
  const ErrorRow* row = FindRow(error);
  return row != nullptr && row->sticky;
}

bool IsKnownError(mcError_t error) { return FindRow(error) != nullptr; }

absl::StatusCode CanonicalCode(mcError_t error) {
  const ErrorRow* row = FindRow(error);
  return row != nullptr ? row->code : Code::kUnknown;
}

std::vector<mcError_t> AllErrors() {
  std::vector<mcError_t> errors;
  for (const ErrorRow& row : kErrorTable) errors.push_back(row.error);
  return errors;
}

}  // namespace mxcts::runtime
