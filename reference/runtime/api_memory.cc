// Copyright mxcts authors.
//
// The memory entry points [api.memory]: allocation, release, copies and
// sets. Each checks its own arguments first, then that the device it works
// on is usable, then hands the work to the memory manager under the
// execution lock. Synchronous copies are synchronization points (pending
// device printf output is written); with eager execution every copy and set
// has completed when its call returns, which satisfies each of the
// host-synchronization rules of [api.sync.host].
//
// Tested by api_memory_test.cc.

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api_entry.h"
#include "reference/runtime/memory_manager.h"
#include "reference/runtime/runtime.h"
#include "reference/runtime/status_macros.h"

using mxcts::runtime::Device;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemoryKind;
using mxcts::runtime::MemoryManager;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;

namespace {

constexpr unsigned kMallocHostFlags =
    mcMallocHostPortable | mcMallocHostMapped | mcMallocHostWriteCombined;

absl::Status NullOutput(const char* api) {
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("%s: the output pointer is null", api));
}

// A synchronous copy on the current device.
absl::Status CopyNow(void* dst, const void* src, size_t count, int kind,
                     const char* api) {
  Runtime& runtime = Runtime::Get();
  MX_RETURN_IF_ERROR(runtime.CurrentDeviceForWork().status());
  absl::MutexLock lock(&runtime.execution_mutex());
  MX_RETURN_IF_ERROR(MemoryManager::Get().Copy(dst, src, count, kind, api));
  // [api.sync.host.memcpy-device-to-host-completes]
  Runtime::SynchronizationPoint();
  return absl::OkStatus();
}

// A driver-style copy: `device_side` must be device or managed memory.
// [api.memory.memcpy-driver.invalid-device-pointer]
absl::Status CheckDriverPointer(const void* device_side, size_t count,
                                const char* api) {
  if (count == 0) return absl::OkStatus();
  MX_ASSIGN_OR_RETURN(std::optional<mxcts::runtime::Allocation> allocation,
                      MemoryManager::Get().CheckRange(device_side, count,
                                                      "device pointer", api));
  if (!allocation.has_value() || allocation->kind == MemoryKind::kHost) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: %p is not device or managed memory",
                                    api, device_side));
  }
  return absl::OkStatus();
}

}  // namespace

extern "C" {

mcError_t mcMalloc(void** ptr, size_t size) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.malloc.null-pointer-to-pointer]
    if (ptr == nullptr) return NullOutput("mcMalloc");
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
    if (size == 0) {  // [api.memory.malloc.size-zero]
      *ptr = nullptr;
      return absl::OkStatus();
    }
    // [api.memory.malloc.allocates-on-current-device]
    MX_ASSIGN_OR_RETURN(*ptr, MemoryManager::Get().AllocateDevice(
                                  device->ordinal(), size,
                                  device->properties().totalGlobalMem));
    return absl::OkStatus();
  });
}

mcError_t mcFree(void* ptr) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_RETURN_IF_ERROR(runtime.CurrentDeviceForWork().status());
    if (ptr == nullptr)
      return absl::OkStatus();  // [api.memory.free.null-is-noop]
    // [api.sync.host.free-synchronizes]
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.memory.free.non-device-pointer] [api.memory.free.interior-pointer]
    // [api.memory.free.double-free] [api.memory.managed.released-by-mcfree]
    return MemoryManager::Get().Free(
        ptr, {MemoryKind::kDevice, MemoryKind::kManaged}, "mcFree");
  });
}

mcError_t mcMallocManaged(void** ptr, size_t size, unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.managed.null-pointer-to-pointer]
    if (ptr == nullptr) return NullOutput("mcMallocManaged");
    if (size == 0) {  // [api.memory.managed.size-zero]
      return McStatus(mcErrorInvalidValue, "mcMallocManaged: size is 0");
    }
    if (flags != mcMemAttachGlobal && flags != mcMemAttachHost) {
      // [api.memory.managed.invalid-flags]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcMallocManaged: flags %#x are neither "
                                      "mcMemAttachGlobal nor mcMemAttachHost",
                                      flags));
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
    if (device->properties().managedMemory == 0) {
      // [api.memory.managed.not-supported]
      return McStatus(mcErrorNotSupported,
                      "mcMallocManaged: the device has no managed memory");
    }
    MX_ASSIGN_OR_RETURN(*ptr, MemoryManager::Get().AllocateManaged(
                                  device->ordinal(), size, flags,
                                  device->properties().totalGlobalMem));
    return absl::OkStatus();
  });
}

mcError_t mcMallocHost(void** ptr, size_t size, unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.malloc-host.null-pointer-to-pointer]
    if (ptr == nullptr) return NullOutput("mcMallocHost");
    if ((flags & ~kMallocHostFlags) != 0) {
      // [api.memory.malloc-host.invalid-flags]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcMallocHost: unknown flags %#x",
                                      flags & ~kMallocHostFlags));
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
    if (size == 0) {  // [api.memory.malloc-host.size-zero]: NULL, success
      *ptr = nullptr;
      return absl::OkStatus();
    }
    // [api.memory.malloc-host.allocates-page-locked]
    MX_ASSIGN_OR_RETURN(*ptr, MemoryManager::Get().AllocateHost(
                                  device->ordinal(), size, flags));
    return absl::OkStatus();
  });
}

mcError_t mcFreeHost(void* ptr) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_RETURN_IF_ERROR(runtime.CurrentDeviceForWork().status());
    if (ptr == nullptr)
      return absl::OkStatus();  // [api.memory.free-host.null-is-noop]
    // [api.memory.free-host.implicit-synchronization]
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.memory.free-host.not-host-allocation]
    return MemoryManager::Get().Free(ptr, {MemoryKind::kHost}, "mcFreeHost");
  });
}

mcError_t mcMemcpy(void* dst, const void* src, size_t count,
                   mcMemcpyKind kind) {
  return RunApi([&]() -> absl::Status {
    return CopyNow(dst, src, count, static_cast<int>(kind), "mcMemcpy");
  });
}

mcError_t mcMemcpyAsync(void* dst, const void* src, size_t count,
                        mcMemcpyKind kind, mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.memcpy-async.invalid-stream]
    // [api.memory.memcpy-async.any-device-stream]
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    // [api.memory.memcpy-async.argument-errors]
    return MemoryManager::Get().Copy(dst, src, count, static_cast<int>(kind),
                                     "mcMemcpyAsync");
  });
}

mcError_t mcMemset(void* ptr, int value, size_t count) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_RETURN_IF_ERROR(runtime.CurrentDeviceForWork().status());
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.memory.memset.sets-bytes] [api.memory.memset.not-device-memory]
    // [api.memory.memset.past-end-of-allocation]
    return MemoryManager::Get().Set(ptr, value, count, "mcMemset");
  });
}

mcError_t mcMemsetAsync(void* ptr, int value, size_t count, mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.memset-async.invalid-stream]
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    return MemoryManager::Get().Set(ptr, value, count, "mcMemsetAsync");
  });
}

mcError_t mcMemcpyHtoD(mcDeviceptr_t dst, const void* src, size_t byteCount) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.memcpy-htod.copies]
    MX_RETURN_IF_ERROR(CheckDriverPointer(dst, byteCount, "mcMemcpyHtoD"));
    return CopyNow(dst, src, byteCount, mcMemcpyHostToDevice, "mcMemcpyHtoD");
  });
}

mcError_t mcMemcpyDtoH(void* dst, mcDeviceptr_t src, size_t byteCount) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.memcpy-dtoh.copies]
    MX_RETURN_IF_ERROR(CheckDriverPointer(src, byteCount, "mcMemcpyDtoH"));
    return CopyNow(dst, src, byteCount, mcMemcpyDeviceToHost, "mcMemcpyDtoH");
  });
}

}  // extern "C"
