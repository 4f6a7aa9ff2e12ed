// Copyright mxcts authors.
//
// Interprocess memory and events as the adapter keeps them (ipc.cc). The
// adapter records the handles this process exported, so that opening one
// of its own is mcErrorDeviceUninitialized
// [api.ipc.open-mem-handle.same-process], and the mappings it opened with
// their open counts [api.ipc.open-mem-handle.open-twice]: a second open of
// a handle returns the same address without asking CUDA, and only the last
// close unmaps.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_IPC_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_IPC_H_

#include "backends/cuda/include/mc_runtime_api.h"

namespace mxcts::cuda_backend {

// True if `ptr` lies in a mapping mcIpcOpenMemHandle returned and that is
// still open: mcFree refuses it [api.ipc.close-mem-handle.mcfree-rejected].
bool InIpcMapping(const void* ptr);

// True (and forgotten) if `event` is a live event of this process whose
// interprocess handle mcIpcGetEventHandle gave: mcEventDestroy then
// destroys it at once rather than after the quarantine of handles.h, so
// that another process can no longer open its handle.
bool ForgetExportedEvent(mcEvent_t event);

// mcDeviceReset unmapped every mapping opened while `device` was current.
void ForgetDeviceMappings(int device);

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_IPC_H_
