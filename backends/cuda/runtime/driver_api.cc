// Copyright mxcts authors.
//
// Finding driver API functions through the runtime (driver_api.h).

#include "backends/cuda/runtime/driver_api.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <mutex>
#include <unordered_map>

namespace mxcts::cuda_backend {

namespace {

// The driver's functions found so far, by the address of the name the
// caller passed (a string literal at each call site): the query is a
// search by name in the driver, several times the cost of the cheapest
// calls the adapter makes through it. A function the driver lacks is kept
// as null.
struct FoundFunctions {
  std::mutex mutex;
  std::unordered_map<const char*, void*> by_name;
};

FoundFunctions& Found() {
  static FoundFunctions* found = new FoundFunctions();
  return *found;
}

void* QueryDriver(const char* name) {
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

}  // namespace

void* DriverFunction(const char* name) {
  FoundFunctions& found = Found();
  {
    std::lock_guard<std::mutex> lock(found.mutex);
    auto it = found.by_name.find(name);
    if (it != found.by_name.end()) return it->second;
  }
  void* function = QueryDriver(name);
  std::lock_guard<std::mutex> lock(found.mutex);
  found.by_name[name] = function;
  return function;
}

}  // namespace mxcts::cuda_backend
