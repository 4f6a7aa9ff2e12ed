// Copyright mxcts authors.
//
// Finding driver API functions through the runtime (driver_api.h).

#include "backends/cuda/runtime/driver_api.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

namespace mxcts::cuda_backend {

void* DriverFunction(const char* name) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found;
  // The version of the cuda.h the adapter is built with: the signatures it
  // calls them with (decltype of cuda.h's declarations), and the version
  // that finds the functions CUDA added after 12.0 (cuFuncGetParamInfo,
  // cuFuncLoad and cuModuleEnumerateFunctions came with 12.4; asked for by
  // version 12000 the driver reports them too new and the adapter's checks
  // that need them were skipped).
  if (cudaGetDriverEntryPointByVersion(name, &function, CUDA_VERSION,
                                       cudaEnableDefault,
                                       &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return function;
}

}  // namespace mxcts::cuda_backend
