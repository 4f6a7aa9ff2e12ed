// Copyright mxcts authors.
//
// The table of documented_errors.h. Each entry lists the codes the header
// comment of its function names (with those of the functions it says it
// behaves as, under `inherits`, and of the spec clauses that name it);
// documented_errors_test.cc checks exactly that, so an entry may not list a
// code the documentation does not.

#include "reference/runtime/fuzz/documented_errors.h"

namespace mxcts::fuzz {
namespace {

constexpr mcError_t kValue = mcErrorInvalidValue;
constexpr mcError_t kHandle = mcErrorInvalidResourceHandle;
constexpr mcError_t kDevice = mcErrorInvalidDevice;
constexpr mcError_t kAlloc = mcErrorMemoryAllocation;
constexpr mcError_t kDirection = mcErrorInvalidMemcpyDirection;
constexpr mcError_t kNotSupported = mcErrorNotSupported;
constexpr mcError_t kNotReady = mcErrorNotReady;

std::vector<DocumentedErrors> MakeTable() {
  return {
      // Devices.
      {"mcGetDeviceCount", {kValue, mcErrorNoDevice}, {}, {}},
      {"mcSetDevice", {kDevice, mcErrorNoDevice}, {}, {}},
      {"mcGetDevice", {kValue, mcErrorNoDevice}, {}, {}},
      {"mcGetDeviceProperties", {kValue, kDevice}, {}, {}},
      {"mcDeviceGetAttribute", {kValue, kDevice}, {}, {}},
      {"mcDeviceSynchronize", {}, {}, {}},
      {"mcDeviceReset", {}, {}, {}},
      {"mcDeviceGetLimit", {kValue, mcErrorUnsupportedLimit}, {}, {}},
      {"mcDeviceSetLimit",
       {mcErrorUnsupportedLimit, mcErrorNotPermitted, kValue, kAlloc},
       {},
       {}},
      {"mcDeviceGetStreamPriorityRange", {}, {}, {}},
      // Errors.
      {"mcGetLastError", {}, {}, {}},
      {"mcPeekAtLastError", {}, {}, {}},
      // Device memory.
      {"mcMalloc", {kValue, kAlloc}, {}, {}},
      {"mcFree", {kValue}, {}, {}},
      {"mcMallocPitch", {kValue, kAlloc}, {}, {}},
      {"mcMalloc3D", {kValue, kAlloc}, {}, {}},
      {"mcMemGetInfo", {kValue}, {}, {}},
      {"mcMallocHost", {kValue, kAlloc}, {}, {}},
      {"mcFreeHost", {kValue}, {}, {}},
      {"mcHostGetFlags", {kValue}, {}, {}},
      {"mcHostRegister",
       {kValue, mcErrorHostMemoryAlreadyRegistered, kNotSupported},
       {},
       {}},
      {"mcHostUnregister", {mcErrorHostMemoryNotRegistered}, {}, {}},
      {"mcHostGetDevicePointer", {kValue}, {}, {}},
      {"mcMallocManaged", {kValue, kAlloc}, {}, {}},
      {"mcMemPrefetchAsync", {kValue, kDevice, kHandle}, {}, {}},
      {"mcMemAdvise", {kValue, kDevice}, {}, {}},
      {"mcPointerGetAttributes", {kValue}, {}, {}},
      {"mcMemGetAddressRange", {kValue}, {}, {}},
      // Copies and sets.
      {"mcMemcpy", {kDirection, kValue}, {}, {}},
      {"mcMemcpyAsync", {kDirection, kValue, kHandle}, {"mcMemcpy"}, {}},
      {"mcMemcpy2D",
       {kDirection, kValue, mcErrorInvalidPitchValue},
       {"mcMemcpy"},
       {}},
      {"mcMemset", {kValue}, {}, {}},
      {"mcMemsetAsync", {kValue, kHandle}, {"mcMemset"}, {}},
      {"mcMemset2D", {kValue}, {"mcMemset"}, {}},
      {"mcMemsetD8", {kValue}, {"mcMemset"}, {}},
      {"mcMemsetD16", {kValue}, {"mcMemset"}, {}},
      {"mcMemsetD32", {kValue}, {"mcMemset"}, {}},
      // Streams.
      {"mcStreamCreate", {kValue}, {}, {}},
      {"mcStreamCreateWithFlags", {kValue}, {}, {}},
      {"mcStreamCreateWithPriority", {kValue}, {"mcStreamCreateWithFlags"}, {}},
      {"mcStreamDestroy", {kHandle}, {}, {}},
      {"mcStreamQuery", {kNotReady, kHandle}, {}, {}},
      {"mcStreamSynchronize", {kHandle}, {}, {}},
      {"mcStreamWaitEvent", {kHandle, kValue}, {}, {}},
      {"mcStreamGetFlags", {kValue, kHandle}, {}, {}},
      {"mcStreamGetPriority", {kValue, kHandle}, {}, {}},
      {"mcStreamGetDevice", {kValue, kHandle}, {}, {}},
      {"mcLaunchHostFunc", {kValue, kHandle}, {}, {}},
      {"mcStreamAddCallback", {kValue, kHandle}, {}, {}},
      // Events.
      {"mcEventCreate", {kValue}, {}, {}},
      {"mcEventCreateWithFlags", {kValue}, {}, {}},
      {"mcEventRecord", {kHandle}, {}, {}},
      {"mcEventQuery", {kNotReady, kHandle}, {}, {}},
      {"mcEventSynchronize", {kHandle}, {}, {}},
      {"mcEventElapsedTime", {kValue, kHandle, kNotReady}, {}, {}},
      {"mcEventDestroy", {kHandle}, {}, {}},
      // Stream-ordered allocation and pools.
      {"mcMallocAsync", {kValue, kHandle, kNotSupported, kAlloc}, {}, {}},
      {"mcMallocFromPoolAsync",
       {kValue, kHandle, kNotSupported, kAlloc},
       {"mcMallocAsync"},
       {}},
      {"mcFreeAsync", {kValue, kHandle, kNotSupported}, {}, {}},
      {"mcDeviceGetDefaultMemPool", {kValue, kDevice, kNotSupported}, {}, {}},
      {"mcDeviceGetMemPool",
       {kValue, kDevice, kNotSupported},
       {"mcDeviceGetDefaultMemPool"},
       {}},
      {"mcDeviceSetMemPool", {kDevice, kNotSupported, kValue}, {}, {}},
      {"mcMemPoolCreate", {kValue, kNotSupported}, {}, {}},
      {"mcMemPoolDestroy", {kValue}, {}, {}},
      {"mcMemPoolTrimTo", {kValue}, {}, {}},
      {"mcMemPoolSetAttribute", {kValue}, {}, {}},
      {"mcMemPoolGetAttribute", {kValue}, {}, {}},
      {"mcMemPoolExportToShareableHandle", {kValue}, {}, {}},
      // Interprocess memory and events.
      {"mcIpcGetMemHandle", {kValue}, {}, {}},
      {"mcIpcOpenMemHandle", {kValue, mcErrorDeviceUninitialized}, {}, {}},
      {"mcIpcCloseMemHandle", {kValue}, {}, {}},
      {"mcIpcGetEventHandle", {kValue, kHandle}, {}, {}},
      {"mcIpcOpenEventHandle", {kValue, mcErrorDeviceUninitialized}, {}, {}},
      // Graphs.
      {"mcGraphCreate", {kValue}, {}, {}},
      {"mcGraphDestroy", {kValue}, {}, {}},
      {"mcGraphClone", {kValue}, {}, {}},
      {"mcGraphAddEmptyNode", {kValue}, {}, {}},
      {"mcGraphAddHostNode", {kValue}, {}, {}},
      {"mcGraphAddMemsetNode", {kValue}, {}, {}},
      {"mcGraphAddMemcpyNode1D", {kValue, kDirection}, {"mcMemcpy"}, {}},
      {"mcGraphAddEventRecordNode", {kValue, kHandle}, {}, {}},
      {"mcGraphAddDependencies", {kValue}, {}, {}},
      {"mcGraphGetNodes", {kValue}, {}, {}},
      {"mcGraphInstantiate", {kValue}, {}, {}},
      {"mcGraphLaunch", {kValue, kHandle}, {}, {}},
      {"mcGraphExecDestroy", {kValue}, {}, {}},
  };
}

}  // namespace

const std::vector<DocumentedErrors>& DocumentedErrorTable() {
  static const std::vector<DocumentedErrors>* const table =
      new std::vector<DocumentedErrors>(MakeTable());
  return *table;
}

const DocumentedErrors* FindDocumented(const std::string& function) {
  for (const DocumentedErrors& entry : DocumentedErrorTable()) {
    if (function == entry.function) return &entry;
  }
  return nullptr;
}

bool IsDocumented(const std::string& function, mcError_t error) {
  if (error == mcSuccess) return true;
  const DocumentedErrors* entry = FindDocumented(function);
  if (entry == nullptr) return false;
  for (mcError_t documented : entry->errors) {
    if (documented == error) return true;
  }
  for (const auto& [implied, phrase] : entry->implied) {
    if (implied == error) return true;
  }
  return false;
}

}  // namespace mxcts::fuzz
