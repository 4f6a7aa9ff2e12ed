// Copyright mxcts authors.
//
// Device and kernel attributes that do not change between calls, read from
// CUDA once and kept, so that the checks the adapter makes on every launch
// and stream-ordered allocation ([lang.launch.limit.*],
// [api.pool.malloc-async.unsupported-device]) cost a load instead of a
// CUDA query each: a launch checked eight device attributes and the
// kernel's attributes, a cooperative launch round trip 10% more than
// CUDA's own on an H100.
//
// A device attribute is one of the hardware's limits or support flags,
// fixed while the process runs. A kernel's attributes change with
// mcFuncSetAttribute and mcFuncSetCacheConfig and at mcDeviceReset, which
// forget what was kept (ForgetKernelAttributes).

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_FIXED_ATTRIBUTES_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_FIXED_ATTRIBUTES_H_

#include <cuda_runtime_api.h>

namespace mxcts::cuda_backend {

// Sets *value to the attribute of `device`; false (CUDA's error taken) if
// CUDA cannot say. Only for attributes fixed by the device: the launch
// limits (grid and block dimensions, threads per block) and support flags.
bool FixedDeviceAttribute(cudaDeviceAttr attribute, int device, int* value);

// Sets *attributes to CUDA's attributes of the kernel `func` on the current
// device; false (CUDA's error taken) if CUDA cannot say, for a pointer that
// is no kernel.
bool KernelAttributes(const void* func, cudaFuncAttributes* attributes);

// Forgets every kernel's kept attributes: the program changed one, or the
// device was reset.
void ForgetKernelAttributes();

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_FIXED_ATTRIBUTES_H_
