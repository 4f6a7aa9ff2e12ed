// Copyright mxcts authors.
//
// Finding driver API functions through the runtime (driver_api.h).

#include "backends/cuda/runtime/driver_api.h"

#include <cuda_runtime_api.h>

namespace mxcts::cuda_backend {

void* DriverFunction(const char* name) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found;
  // Version 12000: the signatures the adapter calls them with.
  if (cudaGetDriverEntryPointByVersion(
          name, &function, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return function;
}

}  // namespace mxcts::cuda_backend
