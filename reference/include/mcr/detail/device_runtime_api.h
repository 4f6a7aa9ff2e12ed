// Copyright mxcts authors.
//
// mcr/detail/device_runtime_api.h: the device runtime's own functions, which
// device code calls to launch kernels without `<<<...>>>` and to tell global
// memory from shared and private memory (docs/spec/api-dynamic-parallelism.md).
// Included by mc_runtime.h.
//
// The rest of the device runtime has the host API's spellings: device code
// calls mcDeviceSynchronize, mcGetLastError, mcPeekAtLastError,
// mcGetErrorString, mcGetErrorName, mcMalloc, mcFree, mcMemcpyAsync,
// mcMemcpy2DAsync, mcMemsetAsync, mcMemset2DAsync, mcDeviceGetLimit,
// mcGetDevice and mcDeviceGetAttribute as declared for the host; in a
// device image they resolve to the device runtime [api.devrt.api.subset-of-
// host-api].
//
//   __global__ void Parent(int* out) {
//     void* buffer = mcGetParameterBufferV2((void*)Child, dim3(1), dim3(64),
//     0); *static_cast<int**>(buffer) = out; mcLaunchDeviceV2(buffer, 0);
//     mcDeviceSynchronize();
//   }
//
// These functions exist in device code only; host code that calls them does
// not link.

#ifndef MCR_DETAIL_DEVICE_RUNTIME_API_H_
#define MCR_DETAIL_DEVICE_RUNTIME_API_H_

#include <stddef.h>

#include "mcr/mc_runtime_types.h"

extern "C" {

// A parameter buffer of `size` bytes aligned to `alignment` (a power of two
// up to 4096; 0 counts as 1), for one mcLaunchDevice. The arguments go in
// declaration order, each at its own alignment as members of a structure
// [api.devrt.launch.parameter-buffer-layout]. Returns null when `size`
// exceeds 4096 bytes or the alignment is invalid. The buffer belongs to the
// launch it is passed to; one never launched lives until the top-level grid
// ends. [api.devrt.launch.parameter-buffer-api]
void* mcGetParameterBuffer(size_t alignment, size_t size);

// A parameter buffer laid out for `func` (a kernel's address in device
// code) and recording the configuration, for mcLaunchDeviceV2. Returns null
// when `func` is no kernel of the calling program's device code.
void* mcGetParameterBufferV2(void* func, dim3 gridDimension,
                             dim3 blockDimension, unsigned int sharedMemSize);

// Launches `func` with the arguments in `parameterBuffer` (from
// mcGetParameterBuffer) as `func<<<gridDimension, blockDimension,
// sharedMemSize, stream>>>` would. Returns the launch's error, which also
// becomes the calling thread's last error: mcErrorInvalidDeviceFunction for
// a `func` that is no kernel, mcErrorInvalidValue for a null or foreign
// buffer, else as a `<<<...>>>` launch in device code.
mcError_t mcLaunchDevice(void* func, void* parameterBuffer, dim3 gridDimension,
                         dim3 blockDimension, unsigned int sharedMemSize,
                         mcStream_t stream);

// Launches with the kernel and configuration recorded by
// mcGetParameterBufferV2; mcErrorInvalidValue for any other buffer.
mcError_t mcLaunchDeviceV2(void* parameterBuffer, mcStream_t stream);

// Nonzero when `ptr` points to global memory (device allocations, device
// heap, __device__ variables, mapped host memory), zero when it points to
// the calling block's shared memory or a device thread's private memory.
// [api.devrt.memory.isglobal-intrinsic]
unsigned int __isGlobal(const void* ptr);

}  // extern "C"

#endif  // MCR_DETAIL_DEVICE_RUNTIME_API_H_
