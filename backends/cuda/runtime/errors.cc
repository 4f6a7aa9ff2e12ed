// Copyright mxcts authors.
//
// Errors: the mapping of CUDA's codes to MXMACA's, the last error, and the
// names and descriptions of codes (docs/spec/api-errors.md).
//
// mcError_t takes CUDA's numbers for 0-999 (shared/MXMACA-API.md), and for
// almost every CUDA code the MXMACA enumerator of the same number has the
// same name and meaning. The exceptions are spelled out in FromCuda: CUDA
// codes MXMACA names differently (PTX is MXMACA's kernel file, NVLink its
// MXLink), codes MXMACA lacks, and CUDA's 912 and 913, whose numbers MXMACA
// gives to graph update results.

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backends/cuda/runtime/adapter.h"

namespace mxcts::cuda_backend {
namespace {

struct NamedCode {
  int value;
  const char* name;
};

// Every mcError_t enumerator with its spelling, read from the MXMACA types
// header at build time (BUILD: mc_error_names).
constexpr NamedCode kNames[] = {
#include "backends/cuda/runtime/mc_error_names.inc"
};

const NamedCode* Find(int value) {
  for (const NamedCode& code : kNames) {
    if (code.value == value) return &code;
  }
  return nullptr;
}

thread_local mcError_t recorded_error = mcSuccess;

// The device fault that ended the process's work on the device, if any.
// MXMACA's mcGetLastError returns such a fault in every thread until
// mcDeviceReset [api.error.sticky.get-last-error-does-not-clear,
// api.error.sticky.later-calls-fail]; CUDA's returns it once.
std::atomic<int> sticky_fault{mcSuccess};

bool IsStickyFault(mcError_t error) {
  switch (error) {
    case mcErrorIllegalAddress:
    case mcErrorLaunchTimeout:
    case mcErrorAssert:
    case mcErrorHardwareStackError:
    case mcErrorIllegalInstruction:
    case mcErrorMisalignedAddress:
    case mcErrorInvalidAddressSpace:
    case mcErrorInvalidPc:
    case mcErrorLaunchFailure:
      return true;
    default:
      return false;
  }
}

// The diagnostic of a device fault [api.trap.diagnostic.printed-on-trap]:
// CUDA prints none, so the adapter prints one when it first sees the fault,
// before the call that observes it returns. CUDA does not tell which kernel,
// block or thread faulted, so the line names the kind of exception and says
// that the device's work has ended [api.trap.diagnostic.content]. It is an
// error-level message: MXLOG_LEVEL=off silences it.
void PrintFaultDiagnostic(mcError_t error) {
  const char* level = std::getenv("MXLOG_LEVEL");
  if (level != nullptr && std::strcmp(level, "off") == 0) return;
  cudaError_t cuda;
  const char* description =
      ToCuda(error, &cuda) ? cudaGetErrorString(cuda) : "device exception";
  std::fprintf(stderr,
               "mxmaca: error: device exception in a kernel: %s (%s); the "
               "device's work has stopped and runtime API calls on it fail "
               "until mcDeviceReset\n",
               description, mcGetErrorName(error));
  std::fflush(stderr);
}

// Notes `error` if it is a sticky fault and returns it; the first fault
// of the process is also reported on stderr.
mcError_t NoteFault(mcError_t error) {
  if (IsStickyFault(error)) {
    int none = mcSuccess;
    if (sticky_fault.compare_exchange_strong(none, error)) {
      PrintFaultDiagnostic(error);
    }
  }
  return error;
}

// The numbers MXMACA uses with a meaning of its own, though CUDA has a code
// of that number.
bool MeaningDiffersFromCuda(int value) { return value == 912 || value == 913; }

}  // namespace

mcError_t FromCuda(cudaError_t error) {
  switch (error) {
    case cudaErrorCudartUnloading:
      return mcErrorDeinitialized;
    case cudaErrorInvalidPtx:
      return mcErrorInvalidKernelFile;
    case cudaErrorUnsupportedPtxVersion:
      return mcErrorUnsupportedKernelVersion;
    case cudaErrorNvlinkUncorrectable:
      return mcErrorMxlinkUncorrectable;
    case cudaErrorUnsupportedDevSideSync:
    case cudaErrorCdpNotSupported:
    case cudaErrorCdpVersionMismatch:
    case cudaErrorLossyQuery:
      return mcErrorNotSupported;
    case cudaErrorContained:
    case cudaErrorTensorMemoryLeak:
    case cudaErrorMpsClientTerminated:
      return mcErrorLaunchFailure;
    case cudaErrorInvalidClusterSize:
      return mcErrorInvalidConfiguration;
    case cudaErrorFunctionNotLoaded:
      return mcErrorInvalidDeviceFunction;
    case cudaErrorInvalidResourceType:
    case cudaErrorInvalidResourceConfiguration:
      return mcErrorInvalidValue;
    default:
      break;
  }
  // Every other CUDA code has an MXMACA enumerator of its number, name and
  // meaning (checked by cuda_error_mapping_test).
  const int value = static_cast<int>(error);
  if (Find(value) != nullptr && !MeaningDiffersFromCuda(value)) {
    return static_cast<mcError_t>(value);
  }
  return mcErrorUnknown;
}

bool ToCuda(mcError_t error, cudaError_t* cuda) {
  const int value = static_cast<int>(error);
  if (value >= 1000 || MeaningDiffersFromCuda(value)) return false;
  // The renamed codes keep CUDA's number, so a CUDA code of the same number
  // has the same meaning; cudaGetErrorName tells whether CUDA has one.
  const char* name = cudaGetErrorName(static_cast<cudaError_t>(value));
  if (name == nullptr || std::string(name).rfind("cuda", 0) != 0) return false;
  *cuda = static_cast<cudaError_t>(value);
  return true;
}

mcError_t Fail(mcError_t error) {
  if (error == mcSuccess) return error;
  // A failure CUDA recorded before this one (a triple-chevron launch's,
  // which passes by the adapter) is replaced by it
  // [api.error.last.recorded-on-failure]; so any error CUDA holds when
  // the program asks is newer than the adapter's.
  NoteFault(FromCuda(cudaGetLastError()));
  recorded_error = NoteFault(error);
  return error;
}

void ClearStickyFault() { sticky_fault = mcSuccess; }

mcError_t StickyFault() { return static_cast<mcError_t>(sticky_fault.load()); }

mcError_t TakeRecordedError(bool reset) {
  const mcError_t error = recorded_error;
  if (reset) recorded_error = mcSuccess;
  return error;
}

}  // namespace mxcts::cuda_backend

using mxcts::cuda_backend::FromCuda;
using mxcts::cuda_backend::TakeRecordedError;

extern "C" {

mcError_t mcGetLastError(void) {
  const mcError_t own = TakeRecordedError(/*reset=*/true);
  const mcError_t cuda =
      mxcts::cuda_backend::NoteFault(FromCuda(cudaGetLastError()));
  const mcError_t sticky = mxcts::cuda_backend::StickyFault();
  if (sticky != mcSuccess) return sticky;
  // An error CUDA holds is newer than the adapter's (Fail).
  return cuda != mcSuccess ? cuda : own;
}

mcError_t mcPeekAtLastError(void) {
  const mcError_t own = TakeRecordedError(/*reset=*/false);
  const mcError_t cuda =
      mxcts::cuda_backend::NoteFault(FromCuda(cudaPeekAtLastError()));
  const mcError_t sticky = mxcts::cuda_backend::StickyFault();
  if (sticky != mcSuccess) return sticky;
  return cuda != mcSuccess ? cuda : own;
}

const char* mcGetErrorName(mcError_t error) {
  const mxcts::cuda_backend::NamedCode* code =
      mxcts::cuda_backend::Find(static_cast<int>(error));
  return code != nullptr ? code->name : "unrecognized error code";
}

const char* mcGetErrorString(mcError_t error) {
  const int value = static_cast<int>(error);
  if (mxcts::cuda_backend::Find(value) == nullptr) {
    return "unrecognized error code";
  }
  if (error == mcSuccess) return "no error";
  cudaError_t cuda;
  if (mxcts::cuda_backend::ToCuda(error, &cuda)) {
    const char* text = cudaGetErrorString(cuda);
    if (text != nullptr &&
        std::string(text).find("unrecognized") == std::string::npos) {
      return text;
    }
  }
  // MXMACA's own codes: a description from the code's name, built once.
  static const std::vector<std::string>* const own = [] {
    auto* texts = new std::vector<std::string>();
    for (const mxcts::cuda_backend::NamedCode& code :
         mxcts::cuda_backend::kNames) {
      texts->push_back(std::string("MXMACA runtime error (") + code.name + ")");
    }
    return texts;
  }();
  for (size_t i = 0; i < own->size(); ++i) {
    if (mxcts::cuda_backend::kNames[i].value == value) return (*own)[i].c_str();
  }
  return "unrecognized error code";
}

}  // extern "C"
