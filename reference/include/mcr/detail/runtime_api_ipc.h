// Copyright mxcts authors.
//
// mcr/detail/runtime_api_ipc.h: the part of mc_runtime_api.h that declares
// interprocess sharing of mcMalloc memory and of events. Include
// mc_runtime_api.h (or mc_runtime.h), not this header: it relies on the
// definitions made there.
//
// A handle is 64 plain bytes [api.ipc.handle.plain-data]: the exporter
// fills it, sends the bytes to another process of the same host by any
// means (a pipe, a file, shared memory), and that process opens it. The
// memory is shared for real: a write by either process's device work is
// seen by the other once the two are ordered, typically by an interprocess
// event.
//
//   // exporter                          // importer
//   mcIpcMemHandle_t h;                  mcIpcMemHandle_t h = Receive();
//   mcIpcGetMemHandle(&h, d);            float* q = NULL;
//   Send(&h, sizeof h);                  mcIpcOpenMemHandle((void**)&q, h,
//                                            mcIpcMemLazyEnablePeerAccess);
//                                        ... use q ...
//                                        mcIpcCloseMemHandle(q);
//
// In the reference a handle names the exporting process and the memory
// file that backs the allocation; an importer maps that file, so its address
// of the allocation differs from the exporter's
// [api.ipc.open-mem-handle.address-may-differ].

#ifndef MCR_DETAIL_RUNTIME_API_IPC_H_
#define MCR_DETAIL_RUNTIME_API_IPC_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Interprocess memory [api.ipc.get-mem-handle] [api.ipc.open-mem-handle]
// [api.ipc.close-mem-handle]
// --------------------------------------------------------------------------

// Fills `*handle` with a handle for the whole mcMalloc allocation (also
// mcMallocPitch, mcMalloc3D) that contains `devPtr`. Errors:
// mcErrorInvalidValue if `handle` is null or `devPtr` lies in no live
// mcMalloc allocation. [api.ipc.get-mem-handle.mcmalloc-memory]
mcError_t mcIpcGetMemHandle(mcIpcMemHandle_t* handle, void* devPtr);

// Maps the allocation `handle` names, exported by another process, and
// stores this process's address of its first byte in `*devPtr`. `flags` is
// 0 or mcIpcMemLazyEnablePeerAccess. Opening a handle this process already
// has open returns the same address and counts the open; each open needs
// its own close. Errors: mcErrorInvalidValue for a null `devPtr`, other
// flags, or a handle whose allocation is not live;
// mcErrorDeviceUninitialized for a handle this process exported.
// [api.ipc.open-mem-handle.maps-in-other-process]
mcError_t mcIpcOpenMemHandle(void** devPtr, mcIpcMemHandle_t handle,
                             unsigned int flags);

// Closes one open of the mapping at `devPtr`; the last close removes it.
// The exporter's allocation is unaffected. Errors: mcErrorInvalidValue if
// `devPtr` is not an address mcIpcOpenMemHandle returned and still open.
// [api.ipc.close-mem-handle.unmaps]
mcError_t mcIpcCloseMemHandle(void* devPtr);

// --------------------------------------------------------------------------
// Interprocess events [api.ipc.event]
// --------------------------------------------------------------------------

// Fills `*handle` with a handle for `event`, created with
// mcEventInterprocess | mcEventDisableTiming. Errors: mcErrorInvalidValue
// if `handle` is null; mcErrorInvalidResourceHandle for an event that is
// not live or not interprocess. [api.ipc.event.get-handle]
mcError_t mcIpcGetEventHandle(mcIpcEventHandle_t* handle, mcEvent_t event);

// Creates in `*event` an event of the current device that refers to the
// event `handle` names: a record in either process is seen by queries,
// synchronizations and stream waits in both. It has no timing; destroy it
// with mcEventDestroy. Errors: mcErrorInvalidValue for a null `event` or a
// handle no live process exported; mcErrorDeviceUninitialized for a handle
// this process exported. [api.ipc.event.open-handle]
mcError_t mcIpcOpenEventHandle(mcEvent_t* event, mcIpcEventHandle_t handle);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_IPC_H_
