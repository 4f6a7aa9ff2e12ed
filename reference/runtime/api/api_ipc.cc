// Copyright mxcts authors.
//
// [api.ipc]: mcIpcGetMemHandle, mcIpcOpenMemHandle, mcIpcCloseMemHandle,
// mcIpcGetEventHandle, mcIpcOpenEventHandle. Each checks its arguments in
// the order the header states, then delegates to ipc/: exports and
// mappings of memory (memory_exports.h, memory_imports.h) and event handles
// (event_sharing.h), with the handles' bytes in handle_codec.h.
//
// The reference supports IPC everywhere it runs (Linux, unified
// addressing) [api.ipc.support.requires-unified-addressing]. Exporting
// memory and opening handles hold the execution lock, so no device work
// runs while pages move or mappings appear; closing a mapping first waits
// for the queued work of every device, as mcFree does, since that work may
// use the mapping.
//
// Tested by the ipc package's tests and conformance/api/ipc.

#include <memory>
#include <optional>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/ipc/event_sharing.h"
#include "reference/runtime/ipc/handle_codec.h"
#include "reference/runtime/ipc/memory_exports.h"
#include "reference/runtime/ipc/memory_imports.h"
#include "reference/runtime/ipc/remote_file.h"
#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/device_work.h"
#include "reference/runtime/timeline/event.h"

using mxcts::runtime::Device;
using mxcts::runtime::EventTable;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemoryExports;
using mxcts::runtime::MemoryImports;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;

namespace {

absl::Status NullArgument(const char* api, const char* name) {
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("%s: %s is null", api, name));
}

// [api.ipc.open-mem-handle.same-process] [api.ipc.event.open-same-process]
absl::Status ExportedHere(const char* api) {
  return McStatus(mcErrorDeviceUninitialized,
                  absl::StrFormat("%s: the handle was exported by this "
                                  "process; open it in another one",
                                  api));
}

absl::Status NotAHandle(const char* api) {
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("%s: the bytes are not a handle any process "
                                  "exported",
                                  api));
}

}  // namespace

extern "C" {

mcError_t mcIpcGetMemHandle(mcIpcMemHandle_t* handle, void* devPtr) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_RETURN_IF_ERROR(runtime.CurrentDeviceForWork().status());
    if (handle == nullptr) {  // [api.ipc.get-mem-handle.null-handle]
      return NullArgument("mcIpcGetMemHandle", "handle");
    }
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.ipc.get-mem-handle.mcmalloc-memory]
    // [api.ipc.get-mem-handle.whole-allocation]
    // [api.ipc.get-mem-handle.other-memory]
    MX_ASSIGN_OR_RETURN(mxcts::runtime::MemHandleFields fields,
                        MemoryExports::Get().Export(devPtr));
    // [api.ipc.handle.plain-data]
    *handle = mxcts::runtime::EncodeMemHandle(fields);
    return absl::OkStatus();
  });
}

mcError_t mcIpcOpenMemHandle(void** devPtr, mcIpcMemHandle_t handle,
                             unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_ASSIGN_OR_RETURN(Device * current, runtime.CurrentDeviceForWork());
    if (devPtr == nullptr) {  // [api.ipc.open-mem-handle.null-pointer]
      return NullArgument("mcIpcOpenMemHandle", "devPtr");
    }
    if ((flags & ~unsigned{mcIpcMemLazyEnablePeerAccess}) != 0) {
      // [api.ipc.open-mem-handle.invalid-flags]
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("mcIpcOpenMemHandle: unknown flags %#x", flags));
    }
    // [api.ipc.open-mem-handle.invalid-handle]
    std::optional<mxcts::runtime::MemHandleFields> fields =
        mxcts::runtime::DecodeMemHandle(handle);
    if (!fields.has_value()) return NotAHandle("mcIpcOpenMemHandle");
    if (mxcts::runtime::IsThisProcess(fields->pid, fields->start_time)) {
      return ExportedHere("mcIpcOpenMemHandle");
    }
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.ipc.open-mem-handle.maps-in-other-process]
    MX_ASSIGN_OR_RETURN(
        *devPtr, MemoryImports::Get().Open(*fields, current->ordinal(), flags));
    return absl::OkStatus();
  });
}

mcError_t mcIpcCloseMemHandle(void* devPtr) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_RETURN_IF_ERROR(runtime.CurrentDeviceForWork().status());
    MemoryImports& imports = MemoryImports::Get();
    // Work queued before the close may still use the mapping: wait for it.
    // A pointer that is not an open mapping has nothing to wait for; Close
    // refuses it (memory_imports.cc checks
    // api.ipc.close-mem-handle.not-opened).
    if (imports.IsOpen(devPtr)) mxcts::runtime::RunAllPendingWork();
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.ipc.close-mem-handle.unmaps]
    return imports.Close(devPtr);
  });
}

mcError_t mcIpcGetEventHandle(mcIpcEventHandle_t* handle, mcEvent_t event) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_RETURN_IF_ERROR(runtime.CurrentDevice().status());
    if (handle == nullptr) {  // [api.ipc.event.get-handle-null-handle]
      return NullArgument("mcIpcGetEventHandle", "handle");
    }
    // [api.ipc.event.get-handle-invalid-event]
    MX_ASSIGN_OR_RETURN(MCevent_st * object, EventTable::Get().Find(event));
    if (object->shared == nullptr) {
      // [api.ipc.event.get-handle-not-interprocess]
      return McStatus(mcErrorInvalidResourceHandle,
                      "mcIpcGetEventHandle: the event was not created with "
                      "mcEventInterprocess");
    }
    MX_ASSIGN_OR_RETURN(Device * device, runtime.DeviceAt(object->device));
    // [api.ipc.event.get-handle]
    *handle = mxcts::runtime::EncodeEventHandle(
        mxcts::runtime::EventHandleOf(*object, device->system_index()));
    return absl::OkStatus();
  });
}

mcError_t mcIpcOpenEventHandle(mcEvent_t* event, mcIpcEventHandle_t handle) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_ASSIGN_OR_RETURN(Device * current, runtime.CurrentDeviceForWork());
    if (event == nullptr) {  // [api.ipc.event.open-null-pointer]
      return NullArgument("mcIpcOpenEventHandle", "event");
    }
    // [api.ipc.event.open-zero-handle]; a changed handle, or one whose
    // event is gone, is refused too [api.ipc.event.open-stale-handle].
    std::optional<mxcts::runtime::EventHandleFields> fields =
        mxcts::runtime::DecodeEventHandle(handle);
    if (!fields.has_value()) return NotAHandle("mcIpcOpenEventHandle");
    if (mxcts::runtime::IsThisProcess(fields->pid, fields->start_time)) {
      return ExportedHere("mcIpcOpenEventHandle");
    }
    // [api.ipc.event.open-handle]
    MX_ASSIGN_OR_RETURN(
        std::shared_ptr<mxcts::runtime::InterprocessEventState> shared,
        mxcts::runtime::OpenSharedEvent(*fields));
    MX_ASSIGN_OR_RETURN(*event,
                        EventTable::Get().Open(current->ordinal(), shared));
    return absl::OkStatus();
  });
}

}  // extern "C"
