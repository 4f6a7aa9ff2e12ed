// Copyright mxcts authors.
//
// Interprocess memory and events (docs/spec/api-ipc.md) over CUDA's
// cudaIpc* calls. An mcIpcMemHandle_t and an mcIpcEventHandle_t are CUDA's
// 64 bytes as they are. The adapter checks what MXMACA defines before CUDA
// sees it (ipc.h): which memory exports, own handles, open counts, closes
// of what is not open; and it gives every refusal of a handle CUDA makes
// MXMACA's code.

#include "backends/cuda/runtime/ipc.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "backends/cuda/include/mc_runtime_api.h"
#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/driver_api.h"
#include "backends/cuda/runtime/environment.h"
#include "backends/cuda/runtime/handles.h"
#include "backends/cuda/runtime/pools.h"

static_assert(sizeof(mcIpcMemHandle_t) == sizeof(cudaIpcMemHandle_t),
              "an MXMACA memory handle holds CUDA's");
static_assert(sizeof(mcIpcEventHandle_t) == sizeof(cudaIpcEventHandle_t),
              "an MXMACA event handle holds CUDA's");
static_assert(mcIpcMemLazyEnablePeerAccess == cudaIpcMemLazyEnablePeerAccess,
              "the open flag has CUDA's value");

namespace mxcts::cuda_backend {
namespace {

struct Mapping {
  std::string handle;  // the bytes it was opened from
  int opens = 0;
  int device = 0;  // current when it was opened
  size_t size = 0;
};

struct State {
  std::mutex mutex;
  std::map<uintptr_t, Mapping> mappings;  // by the address returned
  std::map<std::string, uintptr_t> by_handle;
  // The handles this process exported.
  std::set<std::string> exported_memory;
  std::set<std::string> exported_events;
  // The live events of this process whose handles were exported, and those
  // it opened from other processes' handles (ipc.h).
  std::set<mcEvent_t> exported_live_events;
};

State& Ipc() {
  static State* state = new State();
  return *state;
}

template <class Handle>
std::string Bytes(const Handle& handle) {
  return std::string(reinterpret_cast<const char*>(&handle), sizeof handle);
}

// Call locked: the mapping that contains `ptr`, or end().
std::map<uintptr_t, Mapping>::iterator MappingOf(State& s, const void* ptr) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  auto it = s.mappings.upper_bound(address);
  if (it == s.mappings.begin()) return s.mappings.end();
  --it;
  const size_t size = it->second.size == 0 ? 1 : it->second.size;
  return address - it->first < size ? it : s.mappings.end();
}

// The start of the mcMalloc allocation that contains `ptr`, or null when
// `ptr` lies in none [api.ipc.get-mem-handle.other-memory]: host, managed
// and stream-ordered memory, device variables and mappings of other
// processes are not exported.
void* MallocBase(void* ptr) {
  if (ptr == nullptr || InStreamOrderedAllocation(ptr) || InIpcMapping(ptr)) {
    return nullptr;
  }
  cudaPointerAttributes attributes;
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  if (attributes.type != cudaMemoryTypeDevice) return nullptr;
  const CUdeviceptr address =
      static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
  CUdeviceptr base = 0;
  size_t size = 0;
  if (CallDriver<decltype(&cuMemGetAddressRange)>(
          "cuMemGetAddressRange", &base, &size, address) != CUDA_SUCCESS) {
    return nullptr;
  }
  // Memory CUDA cannot share with cudaIpcGetMemHandle is none of
  // mcMalloc's (a device variable's module memory, for one).
  int capable = 1;
  if (CallDriver<decltype(&cuPointerGetAttribute)>(
          "cuPointerGetAttribute", &capable,
          CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE,
          address) == CUDA_SUCCESS &&
      capable == 0) {
    return nullptr;
  }
  return reinterpret_cast<void*>(static_cast<uintptr_t>(base));
}

}  // namespace

bool InIpcMapping(const void* ptr) {
  State& s = Ipc();
  std::lock_guard<std::mutex> lock(s.mutex);
  return MappingOf(s, ptr) != s.mappings.end();
}

bool ForgetExportedEvent(mcEvent_t event) {
  State& s = Ipc();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.exported_live_events.erase(event) == 1;
}

void ForgetDeviceMappings(int device) {
  State& s = Ipc();
  std::lock_guard<std::mutex> lock(s.mutex);
  // The reset destroyed the device's events; one that another device
  // exported merely goes through the quarantine when destroyed.
  s.exported_live_events.clear();
  for (auto it = s.mappings.begin(); it != s.mappings.end();) {
    if (it->second.device == device) {
      s.by_handle.erase(it->second.handle);
      it = s.mappings.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace mxcts::cuda_backend

using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::FromCuda;
using mxcts::cuda_backend::Ipc;
using mxcts::cuda_backend::State;
using mxcts::cuda_backend::ToCuda;

extern "C" {

// --- Interprocess memory. ---

mcError_t mcIpcGetMemHandle(mcIpcMemHandle_t* handle, void* devPtr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // [api.ipc.get-mem-handle.null-handle]
  if (handle == nullptr) return Fail(mcErrorInvalidValue);
  // The handle is of the whole allocation
  // [api.ipc.get-mem-handle.whole-allocation]: CUDA is given its start.
  void* base = mxcts::cuda_backend::MallocBase(devPtr);
  if (base == nullptr) return Fail(mcErrorInvalidValue);
  cudaIpcMemHandle_t cuda;
  if (cudaIpcGetMemHandle(&cuda, base) != cudaSuccess) {
    cudaGetLastError();
    return Fail(mcErrorInvalidValue);
  }
  std::memcpy(handle, &cuda, sizeof cuda);
  State& s = Ipc();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.exported_memory.insert(mxcts::cuda_backend::Bytes(cuda));
  return mcSuccess;
}

mcError_t mcIpcOpenMemHandle(void** devPtr, mcIpcMemHandle_t handle,
                             unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // [api.ipc.open-mem-handle.null-pointer]
  // [api.ipc.open-mem-handle.invalid-flags]
  if (devPtr == nullptr ||
      (flags != 0 && flags != mcIpcMemLazyEnablePeerAccess)) {
    return Fail(mcErrorInvalidValue);
  }
  const std::string bytes = mxcts::cuda_backend::Bytes(handle);
  State& s = Ipc();
  std::lock_guard<std::mutex> lock(s.mutex);
  // [api.ipc.open-mem-handle.same-process]
  if (s.exported_memory.count(bytes) == 1) {
    return Fail(mcErrorDeviceUninitialized);
  }
  // [api.ipc.open-mem-handle.open-twice]
  auto open = s.by_handle.find(bytes);
  if (open != s.by_handle.end()) {
    ++s.mappings[open->second].opens;
    *devPtr = reinterpret_cast<void*>(open->second);
    return mcSuccess;
  }
  int device = 0;
  const mcError_t error = Check(cudaGetDevice(&device));
  if (error != mcSuccess) return error;
  cudaIpcMemHandle_t cuda;
  std::memcpy(&cuda, &handle, sizeof cuda);
  void* p = nullptr;
  // CUDA 13 opens only with cudaIpcMemLazyEnablePeerAccess (its
  // documentation: the flag must be given); without it MXMACA merely does
  // not promise peer access, which the flag grants only lazily, when used.
  const cudaError_t opened =
      cudaIpcOpenMemHandle(&p, cuda, cudaIpcMemLazyEnablePeerAccess);
  if (opened != cudaSuccess) {
    cudaGetLastError();
    // Whatever else CUDA objects to, no live allocation stands behind the
    // handle [api.ipc.open-mem-handle.invalid-handle].
    return Fail(opened == cudaErrorDeviceUninitialized
                    ? mcErrorDeviceUninitialized
                    : mcErrorInvalidValue);
  }
  CUdeviceptr base = 0;
  size_t size = 0;
  if (mxcts::cuda_backend::CallDriver<decltype(&cuMemGetAddressRange)>(
          "cuMemGetAddressRange", &base, &size,
          static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p))) !=
      CUDA_SUCCESS) {
    size = 1;
  }
  const uintptr_t address = reinterpret_cast<uintptr_t>(p);
  s.mappings[address] = mxcts::cuda_backend::Mapping{bytes, 1, device, size};
  s.by_handle[bytes] = address;
  *devPtr = p;
  return mcSuccess;
}

mcError_t mcIpcCloseMemHandle(void* devPtr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  State& s = Ipc();
  std::lock_guard<std::mutex> lock(s.mutex);
  // Only an address an open returned [api.ipc.close-mem-handle.not-opened].
  auto it = s.mappings.find(reinterpret_cast<uintptr_t>(devPtr));
  if (devPtr == nullptr || it == s.mappings.end()) {
    return Fail(mcErrorInvalidValue);
  }
  if (--it->second.opens > 0) return mcSuccess;
  s.by_handle.erase(it->second.handle);
  s.mappings.erase(it);
  return Check(cudaIpcCloseMemHandle(devPtr));
}

// --- Interprocess events. ---

mcError_t mcIpcGetEventHandle(mcIpcEventHandle_t* handle, mcEvent_t event) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // [api.ipc.event.get-handle-null-handle]
  if (handle == nullptr) return Fail(mcErrorInvalidValue);
  // [api.ipc.event.get-handle-invalid-event]
  MXCTS_CHECK_EVENT(event);
  cudaIpcEventHandle_t cuda;
  // CUDA refuses an event created without mcEventInterprocess
  // [api.ipc.event.get-handle-not-interprocess].
  if (cudaIpcGetEventHandle(&cuda, ToCuda(event)) != cudaSuccess) {
    cudaGetLastError();
    return Fail(mcErrorInvalidResourceHandle);
  }
  std::memcpy(handle, &cuda, sizeof cuda);
  State& s = Ipc();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.exported_events.insert(mxcts::cuda_backend::Bytes(cuda));
  s.exported_live_events.insert(event);
  return mcSuccess;
}

mcError_t mcIpcOpenEventHandle(mcEvent_t* event, mcIpcEventHandle_t handle) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // [api.ipc.event.open-null-pointer]
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  {
    State& s = Ipc();
    std::lock_guard<std::mutex> lock(s.mutex);
    // [api.ipc.event.open-same-process]
    if (s.exported_events.count(mxcts::cuda_backend::Bytes(handle)) == 1) {
      return Fail(mcErrorDeviceUninitialized);
    }
  }
  int device = 0;
  const mcError_t error = Check(cudaGetDevice(&device));
  if (error != mcSuccess) return error;
  cudaIpcEventHandle_t cuda;
  std::memcpy(&cuda, &handle, sizeof cuda);
  cudaEvent_t opened = nullptr;
  const cudaError_t result = cudaIpcOpenEventHandle(&opened, cuda);
  if (result != cudaSuccess) {
    cudaGetLastError();
    // [api.ipc.event.open-handle]
    return Fail(result == cudaErrorDeviceUninitialized
                    ? mcErrorDeviceUninitialized
                    : mcErrorInvalidValue);
  }
  // The opened event is an event of this process like any other
  // (handles.h), destroyed with mcEventDestroy.
  mxcts::cuda_backend::AddEvent(FromCuda(opened), device);
  {
    State& s = Ipc();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.exported_live_events.insert(FromCuda(opened));
  }
  *event = FromCuda(opened);
  return mcSuccess;
}

}  // extern "C"
