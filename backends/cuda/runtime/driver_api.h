// Copyright mxcts authors.
//
// The few CUDA driver API functions the adapter needs (the MXMACA runtime
// API has calls CUDA's runtime API lacks: mcMemGetAddressRange,
// mcMemsetD16/D32, mcPointerSetAttribute). They are looked up once through
// cudaGetDriverEntryPointByVersion, so programs need not link libcuda.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_DRIVER_API_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_DRIVER_API_H_

#include <cuda.h>

namespace mxcts::cuda_backend {

// The driver's function `name` (e.g. "cuMemsetD32"), or null when the
// driver has none.
void* DriverFunction(const char* name);

// Calls the driver function `name` of type F with `args`; a missing
// function is CUDA_ERROR_NOT_SUPPORTED.
template <class F, class... Args>
CUresult CallDriver(const char* name, Args... args) {
  void* function = DriverFunction(name);
  if (function == nullptr) return CUDA_ERROR_NOT_SUPPORTED;
  return reinterpret_cast<F>(function)(args...);
}

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_DRIVER_API_H_
