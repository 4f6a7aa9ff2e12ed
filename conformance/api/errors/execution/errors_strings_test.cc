// Copyright mxcts authors.
//
// Conformance: the names and descriptions of error codes
// (docs/spec/api-errors.md, "The mcError_t type" and "Error strings").
//
// kCodes below is this test's own list of every mcError_t enumerator with
// its value and spelling, written from the spec (api.error.type.*), not
// from an implementation's table: each code gets its own test of its
// value, of mcGetErrorName and of mcGetErrorString. Values that are no
// enumerator get their own tests too: both functions must say the code is
// unrecognized and must not hand out another code's string.

#include <mc_runtime.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::ScopedEnvironment;

struct Code {
  mcError_t error;
  int value;
  const char* name;
};

// Every enumerator of mcError_t, in increasing order.
const Code kCodes[] = {
    {mcSuccess, 0, "mcSuccess"},
    {mcErrorInvalidValue, 1, "mcErrorInvalidValue"},
    {mcErrorMemoryAllocation, 2, "mcErrorMemoryAllocation"},
    {mcErrorInitializationError, 3, "mcErrorInitializationError"},
    {mcErrorDeinitialized, 4, "mcErrorDeinitialized"},
    {mcErrorProfilerDisabled, 5, "mcErrorProfilerDisabled"},
    {mcErrorProfilerNotInitialized, 6, "mcErrorProfilerNotInitialized"},
    {mcErrorProfilerAlreadyStarted, 7, "mcErrorProfilerAlreadyStarted"},
    {mcErrorProfilerAlreadyStopped, 8, "mcErrorProfilerAlreadyStopped"},
    {mcErrorInvalidConfiguration, 9, "mcErrorInvalidConfiguration"},
    {mcErrorInvalidPitchValue, 12, "mcErrorInvalidPitchValue"},
    {mcErrorInvalidSymbol, 13, "mcErrorInvalidSymbol"},
    {mcErrorInvalidHostPointer, 16, "mcErrorInvalidHostPointer"},
    {mcErrorInvalidDevicePointer, 17, "mcErrorInvalidDevicePointer"},
    {mcErrorInvalidTexture, 18, "mcErrorInvalidTexture"},
    {mcErrorInvalidTextureBinding, 19, "mcErrorInvalidTextureBinding"},
    {mcErrorInvalidChannelDescriptor, 20, "mcErrorInvalidChannelDescriptor"},
    {mcErrorInvalidMemcpyDirection, 21, "mcErrorInvalidMemcpyDirection"},
    {mcErrorAddressOfConstant, 22, "mcErrorAddressOfConstant"},
    {mcErrorTextureFetchFailed, 23, "mcErrorTextureFetchFailed"},
    {mcErrorTextureNotBound, 24, "mcErrorTextureNotBound"},
    {mcErrorSynchronizationError, 25, "mcErrorSynchronizationError"},
    {mcErrorInvalidFilterSetting, 26, "mcErrorInvalidFilterSetting"},
    {mcErrorInvalidNormSetting, 27, "mcErrorInvalidNormSetting"},
    {mcErrorMixedDeviceExecution, 28, "mcErrorMixedDeviceExecution"},
    {mcErrorNotYetImplemented, 31, "mcErrorNotYetImplemented"},
    {mcErrorMemoryValueTooLarge, 32, "mcErrorMemoryValueTooLarge"},
    {mcErrorStubLibrary, 34, "mcErrorStubLibrary"},
    {mcErrorInsufficientDriver, 35, "mcErrorInsufficientDriver"},
    {mcErrorCallRequiresNewerDriver, 36, "mcErrorCallRequiresNewerDriver"},
    {mcErrorInvalidSurface, 37, "mcErrorInvalidSurface"},
    {mcErrorDuplicateVariableName, 43, "mcErrorDuplicateVariableName"},
    {mcErrorDuplicateTextureName, 44, "mcErrorDuplicateTextureName"},
    {mcErrorDuplicateSurfaceName, 45, "mcErrorDuplicateSurfaceName"},
    {mcErrorDevicesUnavailable, 46, "mcErrorDevicesUnavailable"},
    {mcErrorIncompatibleDriverContext, 49, "mcErrorIncompatibleDriverContext"},
    {mcErrorMissingConfiguration, 52, "mcErrorMissingConfiguration"},
    {mcErrorPriorLaunchFailure, 53, "mcErrorPriorLaunchFailure"},
    {mcErrorLaunchMaxDepthExceeded, 65, "mcErrorLaunchMaxDepthExceeded"},
    {mcErrorLaunchFileScopedTex, 66, "mcErrorLaunchFileScopedTex"},
    {mcErrorLaunchFileScopedSurf, 67, "mcErrorLaunchFileScopedSurf"},
    {mcErrorSyncDepthExceeded, 68, "mcErrorSyncDepthExceeded"},
    {mcErrorLaunchPendingCountExceeded, 69,
     "mcErrorLaunchPendingCountExceeded"},
    {mcErrorInvalidDeviceFunction, 98, "mcErrorInvalidDeviceFunction"},
    {mcErrorNoDevice, 100, "mcErrorNoDevice"},
    {mcErrorInvalidDevice, 101, "mcErrorInvalidDevice"},
    {mcErrorDeviceNotLicensed, 102, "mcErrorDeviceNotLicensed"},
    {mcErrorSoftwareValidityNotEstablished, 103,
     "mcErrorSoftwareValidityNotEstablished"},
    {mcErrorStartupFailure, 127, "mcErrorStartupFailure"},
    {mcErrorInvalidKernelImage, 200, "mcErrorInvalidKernelImage"},
    {mcErrorDeviceUninitialized, 201, "mcErrorDeviceUninitialized"},
    {mcErrorContextAlreadyCurrent, 202, "mcErrorContextAlreadyCurrent"},
    {mcErrorMapBufferObjectFailed, 205, "mcErrorMapBufferObjectFailed"},
    {mcErrorUnmapBufferObjectFailed, 206, "mcErrorUnmapBufferObjectFailed"},
    {mcErrorArrayIsMapped, 207, "mcErrorArrayIsMapped"},
    {mcErrorAlreadyMapped, 208, "mcErrorAlreadyMapped"},
    {mcErrorNoKernelImageForDevice, 209, "mcErrorNoKernelImageForDevice"},
    {mcErrorAlreadyAcquired, 210, "mcErrorAlreadyAcquired"},
    {mcErrorNotMapped, 211, "mcErrorNotMapped"},
    {mcErrorNotMappedAsArray, 212, "mcErrorNotMappedAsArray"},
    {mcErrorNotMappedAsPointer, 213, "mcErrorNotMappedAsPointer"},
    {mcErrorECCUncorrectable, 214, "mcErrorECCUncorrectable"},
    {mcErrorUnsupportedLimit, 215, "mcErrorUnsupportedLimit"},
    {mcErrorDeviceAlreadyInUse, 216, "mcErrorDeviceAlreadyInUse"},
    {mcErrorPeerAccessUnsupported, 217, "mcErrorPeerAccessUnsupported"},
    {mcErrorInvalidKernelFile, 218, "mcErrorInvalidKernelFile"},
    {mcErrorInvalidGraphicsContext, 219, "mcErrorInvalidGraphicsContext"},
    {mcErrorMxlinkUncorrectable, 220, "mcErrorMxlinkUncorrectable"},
    {mcErrorJitCompilerNotFound, 221, "mcErrorJitCompilerNotFound"},
    {mcErrorUnsupportedKernelVersion, 222, "mcErrorUnsupportedKernelVersion"},
    {mcErrorJitCompilationDisabled, 223, "mcErrorJitCompilationDisabled"},
    {mcErrorUnsupportedExecAffinity, 224, "mcErrorUnsupportedExecAffinity"},
    {mcErrorInvalidSource, 300, "mcErrorInvalidSource"},
    {mcErrorFileNotFound, 301, "mcErrorFileNotFound"},
    {mcErrorSharedObjectSymbolNotFound, 302,
     "mcErrorSharedObjectSymbolNotFound"},
    {mcErrorSharedObjectInitFailed, 303, "mcErrorSharedObjectInitFailed"},
    {mcErrorOperatingSystem, 304, "mcErrorOperatingSystem"},
    {mcErrorInvalidResourceHandle, 400, "mcErrorInvalidResourceHandle"},
    {mcErrorIllegalState, 401, "mcErrorIllegalState"},
    {mcErrorSymbolNotFound, 500, "mcErrorSymbolNotFound"},
    {mcErrorNotReady, 600, "mcErrorNotReady"},
    {mcErrorIllegalAddress, 700, "mcErrorIllegalAddress"},
    {mcErrorLaunchOutOfResources, 701, "mcErrorLaunchOutOfResources"},
    {mcErrorLaunchTimeout, 702, "mcErrorLaunchTimeout"},
    {mcErrorLaunchIncompatibleTexturing, 703,
     "mcErrorLaunchIncompatibleTexturing"},
    {mcErrorPeerAccessAlreadyEnabled, 704, "mcErrorPeerAccessAlreadyEnabled"},
    {mcErrorPeerAccessNotEnabled, 705, "mcErrorPeerAccessNotEnabled"},
    {mcErrorSetOnActiveProcess, 708, "mcErrorSetOnActiveProcess"},
    {mcErrorContextIsDestroyed, 709, "mcErrorContextIsDestroyed"},
    {mcErrorAssert, 710, "mcErrorAssert"},
    {mcErrorTooManyPeers, 711, "mcErrorTooManyPeers"},
    {mcErrorHostMemoryAlreadyRegistered, 712,
     "mcErrorHostMemoryAlreadyRegistered"},
    {mcErrorHostMemoryNotRegistered, 713, "mcErrorHostMemoryNotRegistered"},
    {mcErrorHardwareStackError, 714, "mcErrorHardwareStackError"},
    {mcErrorIllegalInstruction, 715, "mcErrorIllegalInstruction"},
    {mcErrorMisalignedAddress, 716, "mcErrorMisalignedAddress"},
    {mcErrorInvalidAddressSpace, 717, "mcErrorInvalidAddressSpace"},
    {mcErrorInvalidPc, 718, "mcErrorInvalidPc"},
    {mcErrorLaunchFailure, 719, "mcErrorLaunchFailure"},
    {mcErrorCooperativeLaunchTooLarge, 720, "mcErrorCooperativeLaunchTooLarge"},
    {mcErrorNotPermitted, 800, "mcErrorNotPermitted"},
    {mcErrorNotSupported, 801, "mcErrorNotSupported"},
    {mcErrorSystemNotReady, 802, "mcErrorSystemNotReady"},
    {mcErrorSystemDriverMismatch, 803, "mcErrorSystemDriverMismatch"},
    {mcErrorCompatNotSupportedOnDevice, 804,
     "mcErrorCompatNotSupportedOnDevice"},
    {mcErrorMpsConnectionFailed, 805, "mcErrorMpsConnectionFailed"},
    {mcErrorMpsRpcFailure, 806, "mcErrorMpsRpcFailure"},
    {mcErrorMpsServerNotReady, 807, "mcErrorMpsServerNotReady"},
    {mcErrorMpsMaxClientsReached, 808, "mcErrorMpsMaxClientsReached"},
    {mcErrorMpsMaxConnectionsReached, 809, "mcErrorMpsMaxConnectionsReached"},
    {mcErrorStreamCaptureUnsupported, 900, "mcErrorStreamCaptureUnsupported"},
    {mcErrorStreamCaptureInvalidated, 901, "mcErrorStreamCaptureInvalidated"},
    {mcErrorStreamCaptureMerge, 902, "mcErrorStreamCaptureMerge"},
    {mcErrorStreamCaptureUnmatched, 903, "mcErrorStreamCaptureUnmatched"},
    {mcErrorStreamCaptureUnjoined, 904, "mcErrorStreamCaptureUnjoined"},
    {mcErrorStreamCaptureIsolation, 905, "mcErrorStreamCaptureIsolation"},
    {mcErrorStreamCaptureImplicit, 906, "mcErrorStreamCaptureImplicit"},
    {mcErrorCapturedEvent, 907, "mcErrorCapturedEvent"},
    {mcErrorStreamCaptureWrongThread, 908, "mcErrorStreamCaptureWrongThread"},
    {mcErrorTimeout, 909, "mcErrorTimeout"},
    {mcErrorGraphExecUpdateFailure, 910, "mcErrorGraphExecUpdateFailure"},
    {mcErrorExternalDevice, 911, "mcErrorExternalDevice"},
    {mcErrorGraphExecUpdateCommandDisMatch, 912,
     "mcErrorGraphExecUpdateCommandDisMatch"},
    {mcErrorGraphExecUpdateNodeTypeChanged, 913,
     "mcErrorGraphExecUpdateNodeTypeChanged"},
    {mcErrorUnknown, 999, "mcErrorUnknown"},
    {mcErrorDuplicateLoadModule, 1003, "mcErrorDuplicateLoadModule"},
    {mcErrorModuleNotFound, 1004, "mcErrorModuleNotFound"},
    {mcErrorDuplicateDevice, 1005, "mcErrorDuplicateDevice"},
    {mcErrorDumpBCfile, 1008, "mcErrorDumpBCfile"},
    {mcErrorRecompile, 1009, "mcErrorRecompile"},
    {mcErrorApplyRelocation, 1010, "mcErrorApplyRelocation"},
    {mcErrorFileSaveFailed, 1011, "mcErrorFileSaveFailed"},
    {mcErrorNoBitcodeForGPU, 1012, "mcErrorNoBitcodeForGPU"},
    {mcErrorInvalidKernel, 2000, "mcErrorInvalidKernel"},
    {mcErrorDeviceNotFound, 2001, "mcErrorDeviceNotFound"},
    {mcErrorGetDeviceImageBase, 2002, "mcErrorGetDeviceImageBase"},
    {mcErrorApiFailureBase, 10000, "mcErrorApiFailureBase"},
    {mcErrorDockerDriverUnload, 10001, "mcErrorDockerDriverUnload"},
    {mcErrorDriverWarmReset, 10002, "mcErrorDriverWarmReset"},
    {mcErrorDriverMismatch, 10003, "mcErrorDriverMismatch"},
    {mcErrorInvalidParameter, 10004, "mcErrorInvalidParameter"},
    {mcErrorInvalidHandle, 10005, "mcErrorInvalidHandle"},
    {mcErrorInvalidUnit, 10006, "mcErrorInvalidUnit"},
    {mcErrorNoMemory, 10007, "mcErrorNoMemory"},
    {mcErrorBufferTooSmall, 10008, "mcErrorBufferTooSmall"},
    {mcErrorNotAddNbg, 10009, "mcErrorNotAddNbg"},
    {mcErrorNotImplemented, 10010, "mcErrorNotImplemented"},
    {mcErrorUnavailable, 10011, "mcErrorUnavailable"},
    {mcErrorOutOfResources, 10012, "mcErrorOutOfResources"},
    {mcErrorKernelIoChannelNotOpened, 10013, "mcErrorKernelIoChannelNotOpened"},
    {mcErrorKernelCommunication, 10014, "mcErrorKernelCommunication"},
    {mcErrorKernelAlreadyOpened, 10015, "mcErrorKernelAlreadyOpened"},
    {mcErrormacaMMUUnvailable, 10016, "mcErrormacaMMUUnvailable"},
    {mcErrorWaitFailure, 10017, "mcErrorWaitFailure"},
    {mcErrorWaitTimeout, 10018, "mcErrorWaitTimeout"},
    {mcErrorInternal, 10019, "mcErrorInternal"},
    {mcErrorCommitFailure, 10020, "mcErrorCommitFailure"},
    {mcErrorMemoryAlreadyRegistered, 10021, "mcErrorMemoryAlreadyRegistered"},
    {mcErrorMemoryNotRegistered, 10022, "mcErrorMemoryNotRegistered"},
    {mcErrorMemoryAlignment, 10023, "mcErrorMemoryAlignment"},
    {mcErrorInitialized, 10024, "mcErrorInitialized"},
    {mcErrorInvalidContext, 10025, "mcErrorInvalidContext"},
    {mcErrorContextAlreadyInUse, 10026, "mcErrorContextAlreadyInUse"},
    {mcErrorNotFound, 10027, "mcErrorNotFound"},
    {mcErrorContextIsDestroy, 10028, "mcErrorContextIsDestroy"},
    {mcErrorNeedMoreInput, 10029, "mcErrorNeedMoreInput"},
    {mcErrorDriverFunctionLevelReset, 10030, "mcErrorDriverFunctionLevelReset"},
    {mcErrorBusy, 10031, "mcErrorBusy"},
    {mcErrorKernelExecTimeout, 10032, "mcErrorKernelExecTimeout"},
};

std::string CodeName(const testing::TestParamInfo<Code>& info) {
  return info.param.name;
}

bool IsPrintableText(const char* text) {
  for (const char* c = text; *c != '\0'; ++c) {
    if (!std::isprint(static_cast<unsigned char>(*c))) return false;
  }
  return true;
}

bool Contains(const char* text, const char* part) {
  return std::strstr(text, part) != nullptr;
}

class EveryCode : public testing::TestWithParam<Code> {};

TEST_P(EveryCode, HasItsSpecifiedValue) {
  MX_SPEC("api.error.type.success-is-zero", "api.error.type.general-values",
          "api.error.type.device-and-image-values",
          "api.error.type.execution-values",
          "api.error.type.permission-capture-values",
          "api.error.type.other-cuda-values",
          "api.error.type.maca-extension-values");
  EXPECT_EQ(static_cast<int>(GetParam().error), GetParam().value);
  // Only mcSuccess tests false in `if (err)`.
  EXPECT_EQ(GetParam().error == mcSuccess, GetParam().value == 0);
}

TEST_P(EveryCode, NameIsTheEnumeratorSpelling) {
  MX_SPEC("api.error.string.name-is-enumerator-spelling");
  const char* name = mcGetErrorName(GetParam().error);
  ASSERT_NE(name, nullptr);
  EXPECT_STREQ(name, GetParam().name);
}

TEST_P(EveryCode, StringIsANonEmptyDescription) {
  MX_SPEC("api.error.string.description-for-every-code");
  const char* description = mcGetErrorString(GetParam().error);
  ASSERT_NE(description, nullptr);
  EXPECT_GT(std::strlen(description), 0u);
  EXPECT_TRUE(IsPrintableText(description)) << description;
  // A description, not the spelling again, and not the text of an
  // unrecognized code.
  EXPECT_STRNE(description, GetParam().name);
  EXPECT_FALSE(Contains(description, "unrecognized")) << description;
}

INSTANTIATE_TEST_SUITE_P(AllEnumerators, EveryCode, testing::ValuesIn(kCodes),
                         CodeName);

TEST(ErrorCodes, ListIsSortedAndDistinct) {
  MX_SPEC("api.error.type.enum-tag");
  // The list itself: increasing values, distinct names (so that a typing
  // slip in it cannot hide a wrong value). The tag names the same type.
  enum _mcError_t tagged = mcErrorInvalidValue;
  mcError_t plain = tagged;
  EXPECT_EQ(plain, mcErrorInvalidValue);
  std::set<std::string> names;
  int previous = -1;
  for (const Code& code : kCodes) {
    EXPECT_GT(code.value, previous) << code.name;
    previous = code.value;
    EXPECT_TRUE(names.insert(code.name).second) << code.name;
  }
  EXPECT_EQ(names.size(), sizeof(kCodes) / sizeof(kCodes[0]));
}

TEST(ErrorStrings, NamesOfDistinctCodesDiffer) {
  MX_SPEC("api.error.string.name-is-enumerator-spelling");
  std::set<std::string> names;
  for (const Code& code : kCodes) {
    EXPECT_TRUE(names.insert(mcGetErrorName(code.error)).second) << code.name;
  }
}

// --- Values that are no enumerator. ---

// Gaps between enumerators and values past the last, all inside the range
// an mcError_t can hold.
const int kUnrecognizedValues[] = {
    10,   11,   14,   15,   29,   30,   33,   38,    42,    47,   48,
    50,   51,   54,   64,   70,   97,   99,   104,   126,   128,  199,
    203,  204,  225,  299,  305,  399,  402,  499,   501,   599,  601,
    699,  706,  707,  721,  799,  810,  899,  914,   998,   1000, 1001,
    1002, 1006, 1007, 1013, 1999, 2003, 9999, 10033, 12345, 16383};

std::string ValueName(const testing::TestParamInfo<int>& info) {
  return "Value" + std::to_string(info.param);
}

// Whether `text` is the name or description of some enumerator.
bool IsSomeCodesString(const char* text) {
  for (const Code& code : kCodes) {
    if (std::strcmp(text, mcGetErrorName(code.error)) == 0 ||
        std::strcmp(text, mcGetErrorString(code.error)) == 0) {
      return true;
    }
  }
  return false;
}

class UnrecognizedCode : public testing::TestWithParam<int> {
 protected:
  mcError_t Error() const { return static_cast<mcError_t>(GetParam()); }
};

TEST_P(UnrecognizedCode, NameSaysSo) {
  MX_SPEC("api.error.string.unrecognized-code");
  const char* name = mcGetErrorName(Error());
  ASSERT_NE(name, nullptr);
  EXPECT_TRUE(Contains(name, "unrecognized")) << name;
  EXPECT_FALSE(IsSomeCodesString(name)) << name;
}

TEST_P(UnrecognizedCode, StringSaysSo) {
  MX_SPEC("api.error.string.unrecognized-code");
  const char* description = mcGetErrorString(Error());
  ASSERT_NE(description, nullptr);
  EXPECT_TRUE(Contains(description, "unrecognized")) << description;
  EXPECT_FALSE(IsSomeCodesString(description)) << description;
}

INSTANTIATE_TEST_SUITE_P(GapsAndBeyond, UnrecognizedCode,
                         testing::ValuesIn(kUnrecognizedValues), ValueName);

TEST(UnrecognizedCodeControl, NeighboursOfTheGapsAreRecognized) {
  MX_SPEC("api.error.string.unrecognized-code");
  // The values just beside some gaps are real codes: their strings do not
  // say "unrecognized".
  for (mcError_t error :
       {mcErrorInvalidConfiguration, mcErrorInvalidPitchValue, mcErrorUnknown,
        mcErrorDuplicateLoadModule, mcErrorKernelExecTimeout}) {
    EXPECT_FALSE(Contains(mcGetErrorName(error), "unrecognized"));
    EXPECT_FALSE(Contains(mcGetErrorString(error), "unrecognized"));
  }
}

// --- Lifetime and effects. ---

TEST(ErrorStrings, StayValidAndUnchanged) {
  MX_SPEC("api.error.string.static-lifetime");
  const char* name = mcGetErrorName(mcErrorInvalidDevice);
  const char* description = mcGetErrorString(mcErrorInvalidDevice);
  const std::string name_copy = name;
  const std::string description_copy = description;
  // Asking for every other string, and making calls that fail, changes
  // neither the pointers' contents nor what later calls return.
  for (const Code& code : kCodes) {
    mcGetErrorName(code.error);
    mcGetErrorString(code.error);
  }
  mcGetErrorString(static_cast<mcError_t>(12345));
  EXPECT_EQ(mcSetDevice(-1), mcErrorInvalidDevice);
  mcGetLastError();
  EXPECT_EQ(name_copy, name);
  EXPECT_EQ(description_copy, description);
  EXPECT_STREQ(mcGetErrorName(mcErrorInvalidDevice), name);
  EXPECT_STREQ(mcGetErrorString(mcErrorInvalidDevice), description);
}

TEST(ErrorStrings, LeaveTheLastErrorAlone) {
  MX_SPEC("api.error.string.no-state-effect");
  mcGetLastError();
  mcGetErrorName(static_cast<mcError_t>(12345));
  mcGetErrorString(static_cast<mcError_t>(12345));
  mcGetErrorString(mcErrorMemoryAllocation);
  EXPECT_EQ(mcPeekAtLastError(), mcSuccess);
  // Control: with an error recorded, they leave it in place.
  EXPECT_EQ(mcSetDevice(-1), mcErrorInvalidDevice);
  mcGetErrorName(mcErrorIllegalAddress);
  mcGetErrorString(static_cast<mcError_t>(777));
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
}

// In a fresh process: the strings are right before any other runtime call,
// and asking for them does not initialize the runtime, which reads
// MACA_VISIBLE_DEVICES only when it initializes.
std::string StringsBeforeInitialization() {
  if (std::strcmp(mcGetErrorName(mcErrorNoDevice), "mcErrorNoDevice") != 0) {
    return "wrong name before initialization";
  }
  const char* description = mcGetErrorString(mcErrorInvalidValue);
  if (description == nullptr || *description == '\0') {
    return "no description before initialization";
  }
  setenv("MACA_VISIBLE_DEVICES", "0", 1);
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return "mcGetDeviceCount failed";
  if (count != 1) {
    return "the runtime was initialized before MACA_VISIBLE_DEVICES was set "
           "(" +
           std::to_string(count) + " devices)";
  }
  return "";
}

// The control: a call that initializes the runtime fixes the device set
// before the variable changes.
std::string DeviceCountFixedAtInitialization() {
  int before = 0;
  if (mcGetDeviceCount(&before) != mcSuccess) return "mcGetDeviceCount failed";
  setenv("MACA_VISIBLE_DEVICES", "0", 1);
  int after = 0;
  if (mcGetDeviceCount(&after) != mcSuccess) return "mcGetDeviceCount failed";
  if (after != before) return "the device count changed after initialization";
  return "";
}

TEST(ErrorStrings, WorkBeforeAndWithoutInitialization) {
  MX_SPEC("api.error.string.no-state-effect");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(StringsBeforeInitialization());
  MX_EXPECT_IN_FRESH_PROCESS(DeviceCountFixedAtInitialization());
}

// A kernel that writes through a null pointer: an illegal address.
__global__ void WriteThroughNull(int* p) {
  if (threadIdx.x == 0) p[0] = 1;
}

std::string StringsAfterAStickyError() {
  WriteThroughNull<<<1, 1>>>(nullptr);
  if (mcDeviceSynchronize() != mcErrorIllegalAddress) {
    return "the kernel did not fault with mcErrorIllegalAddress";
  }
  if (std::strcmp(mcGetErrorName(mcErrorIllegalAddress),
                  "mcErrorIllegalAddress") != 0 ||
      std::strcmp(mcGetErrorName(mcSuccess), "mcSuccess") != 0) {
    return "wrong name after a sticky error";
  }
  const char* description = mcGetErrorString(mcErrorIllegalAddress);
  if (description == nullptr || *description == '\0') {
    return "no description after a sticky error";
  }
  // The sticky error itself is still in force: reading strings cleared
  // nothing.
  if (mcDeviceSynchronize() != mcErrorIllegalAddress) {
    return "the sticky error went away";
  }
  return "";
}

TEST(ErrorStrings, WorkAfterAStickyError) {
  MX_SPEC("api.error.string.no-state-effect",
          "api.error.sticky.later-calls-fail");
  MX_EXPECT_IN_FRESH_PROCESS(StringsAfterAStickyError());
}

}  // namespace
