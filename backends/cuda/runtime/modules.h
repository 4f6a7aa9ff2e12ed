// Copyright mxcts authors.
//
// What other parts of the runtime ask of the loaded modules (modules.cc).
// A module function's handle is also a kernel wherever MXMACA takes a
// kernel's host function address [api.module.function.handle-is-a-kernel]:
// mcLaunchKernel, mcLaunchCooperativeKernel and mcFuncGetAttributes (CUDA's
// runtime takes no CUfunction there) hand such a handle here.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_MODULES_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_MODULES_H_

#include "backends/cuda/include/mc_runtime_api.h"

namespace mxcts::cuda_backend {

// True if `func` is the handle of a function of a loaded module.
bool IsModuleFunction(const void* func);

// Launches module function `func` as mcModuleLaunchKernel does, with its
// arguments in `args`; cooperatively if `cooperative`.
mcError_t LaunchModuleFunction(const void* func, dim3 grid, dim3 block,
                               void** args, size_t sharedMem, mcStream_t stream,
                               bool cooperative);

// The attributes of module function `func`, as mcFuncGetAttributes gives a
// kernel's.
mcError_t ModuleFunctionAttributes(const void* func, mcFuncAttributes* attr);

// mcDeviceReset unloaded every module of `device`: forgets them.
void ForgetDeviceModules(int device);

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_MODULES_H_
