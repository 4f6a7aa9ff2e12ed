// Copyright mxcts authors.
//
// The entry points of page-locked host memory [api.memory.malloc-host]
// [api.memory.host-register] [api.memory.host-get-device-pointer]:
// allocation (mcMallocHost and its CUDA name mcHostAlloc), release,
// registration of the program's own memory, and the device address of
// page-locked memory.
//
// Every device has unified addressing, so page-locked memory is mapped for
// every device at its host address whatever the flags: the Portable and
// Mapped flags are kept (mcHostGetFlags, pointer attributes) but change
// nothing, and mcHostGetDevicePointer answers the host address for any
// page-locked memory
// [api.memory.host-get-device-pointer.same-address-under-uva]. Release and
// unregistration wait for the devices first (memory_release.h), since kernels
// of any device may use the memory.
//
// Tested by api_memory_test.cc.

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/environment/memory_tracing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/memory/memory_release.h"
#include "reference/runtime/process/runtime.h"

using mxcts::runtime::Allocation;
using mxcts::runtime::Device;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemoryKind;
using mxcts::runtime::MemoryManager;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;

namespace {

constexpr unsigned kMallocHostFlags =
    mcMallocHostPortable | mcMallocHostMapped | mcMallocHostWriteCombined;
constexpr unsigned kHostRegisterFlags =
    mcHostRegisterPortable | mcHostRegisterMapped | mcHostRegisterIoMemory |
    mcHostRegisterReadOnly;

absl::Status AllocateHost(void** ptr, size_t size, unsigned flags,
                          const char* api) {
  // [api.memory.malloc-host.null-pointer-to-pointer]
  if (ptr == nullptr) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: ptr is null", api));
  }
  // [api.graph.capture.unsafe-call-in-global-mode]
  MX_RETURN_IF_ERROR(mxcts::runtime::CheckUnsafeDuringCapture(api));
  if ((flags & ~kMallocHostFlags) != 0) {
    // [api.memory.malloc-host.invalid-flags]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: unknown flags %#x", api,
                                    flags & ~kMallocHostFlags));
  }
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
  if (size == 0) {  // [api.memory.malloc-host.size-zero]: NULL, success
    *ptr = nullptr;
    return absl::OkStatus();
  }
  // [api.memory.malloc-host.allocates-page-locked]
  // [api.memory.malloc-host.flags-combinable]
  MX_ASSIGN_OR_RETURN(
      *ptr, MemoryManager::Get().AllocateHost(device->ordinal(), size, flags));
  return absl::OkStatus();
}

// The page-locked allocation or registration containing `ptr`.
std::optional<Allocation> PageLocked(const void* ptr) {
  std::optional<Allocation> allocation = MemoryManager::Get().Find(ptr);
  if (allocation.has_value() &&
      (allocation->kind == MemoryKind::kHost ||
       allocation->kind == MemoryKind::kRegisteredHost)) {
    return allocation;
  }
  return std::nullopt;
}

}  // namespace

extern "C" {

mcError_t mcMallocHost(void** ptr, size_t size, unsigned int flags) {
  const mcError_t result =
      RunApi([&] { return AllocateHost(ptr, size, flags, "mcMallocHost"); });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall(
      "mcMallocHost", result,
      result == mcSuccess && ptr != nullptr ? *ptr : nullptr, size,
      __builtin_return_address(0));
  return result;
}

mcError_t mcHostAlloc(void** ptr, size_t size, unsigned int flags) {
  // [api.memory.host-alloc.same-as-malloc-host]
  const mcError_t result =
      RunApi([&] { return AllocateHost(ptr, size, flags, "mcHostAlloc"); });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall(
      "mcHostAlloc", result,
      result == mcSuccess && ptr != nullptr ? *ptr : nullptr, size,
      __builtin_return_address(0));
  return result;
}

mcError_t mcFreeHost(void* ptr) {
  const mcError_t result = RunApi([&]() -> absl::Status {
    // [api.graph.capture.unsafe-call-in-global-mode]
    MX_RETURN_IF_ERROR(mxcts::runtime::CheckUnsafeDuringCapture("mcFreeHost"));
    MX_RETURN_IF_ERROR(Runtime::Get().CurrentDeviceForWork().status());
    // [api.memory.free-host.null-is-noop]
    if (ptr == nullptr) return absl::OkStatus();
    MemoryManager& memory = MemoryManager::Get();
    // [api.memory.free-host.not-host-allocation]
    MX_ASSIGN_OR_RETURN(
        Allocation allocation,
        memory.FindStart(ptr, {MemoryKind::kHost}, "mcFreeHost"));
    // [api.memory.free-host.implicit-synchronization]
    MX_RETURN_IF_ERROR(mxcts::runtime::WaitBeforeRelease(allocation.device));
    return memory.Free(ptr, {MemoryKind::kHost}, "mcFreeHost");
  });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall("mcFreeHost", result, ptr, 0,
                                  __builtin_return_address(0));
  return result;
}

mcError_t mcHostGetFlags(unsigned int* flags, void* ptr) {
  return RunApi([&]() -> absl::Status {
    if (flags == nullptr) {
      return McStatus(mcErrorInvalidValue, "mcHostGetFlags: flags is null");
    }
    std::optional<Allocation> allocation = MemoryManager::Get().Find(ptr);
    if (!allocation.has_value() || allocation->kind != MemoryKind::kHost) {
      // [api.memory.host-get-flags.not-host-allocation]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcHostGetFlags: %p is not in memory "
                                      "from mcMallocHost",
                                      ptr));
    }
    // [api.memory.host-get-flags.returns-allocation-flags]
    *flags = allocation->flags;
    return absl::OkStatus();
  });
}

mcError_t mcHostRegister(void* ptr, size_t size, unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    if (ptr == nullptr || size == 0) {
      // [api.memory.host-register.null-or-zero-size]
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("mcHostRegister: %s",
                          ptr == nullptr ? "ptr is null" : "size is 0"));
    }
    if ((flags & ~kHostRegisterFlags) != 0) {
      // [api.memory.host-register.invalid-flags]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcHostRegister: unknown flags %#x",
                                      flags & ~kHostRegisterFlags));
    }
    if ((flags & mcHostRegisterIoMemory) != 0) {
      // [api.memory.host-register.unsupported-flag]
      return McStatus(mcErrorNotSupported,
                      "mcHostRegister: the reference has no I/O memory to "
                      "register");
    }
    if (reinterpret_cast<uintptr_t>(ptr) + size <
        reinterpret_cast<uintptr_t>(ptr)) {
      return McStatus(mcErrorInvalidValue,
                      "mcHostRegister: the range wraps around");
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
    // [api.memory.host-register.pins-range]
    // [api.memory.host-register.already-registered]
    // [api.memory.host-register.device-memory]
    return MemoryManager::Get().RegisterHost(ptr, size, device->ordinal(),
                                             flags);
  });
}

mcError_t mcHostUnregister(void* ptr) {
  return RunApi([&]() -> absl::Status {
    MX_RETURN_IF_ERROR(Runtime::Get().CurrentDeviceForWork().status());
    MemoryManager& memory = MemoryManager::Get();
    std::optional<Allocation> allocation = memory.Find(ptr);
    if (ptr == nullptr || !allocation.has_value() ||
        allocation->kind != MemoryKind::kRegisteredHost ||
        allocation->base != reinterpret_cast<uintptr_t>(ptr)) {
      // [api.memory.host-unregister.not-registered]
      return McStatus(mcErrorHostMemoryNotRegistered,
                      absl::StrFormat("mcHostUnregister: %p is not the start "
                                      "of a registered range",
                                      ptr));
    }
    // [api.memory.host-unregister.waits-for-device-work]
    MX_RETURN_IF_ERROR(mxcts::runtime::WaitBeforeRelease(allocation->device));
    // [api.memory.host-unregister.unpins-range]
    return memory.UnregisterHost(ptr);
  });
}

mcError_t mcHostGetDevicePointer(void** pDevice, void* pHost,
                                 unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    if (flags != 0) {  // [api.memory.host-get-device-pointer.nonzero-flags]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcHostGetDevicePointer: flags %#x are "
                                      "not 0",
                                      flags));
    }
    if (pDevice == nullptr || !PageLocked(pHost).has_value()) {
      // [api.memory.host-get-device-pointer.not-mapped]
      return McStatus(
          mcErrorInvalidValue,
          pDevice == nullptr
              ? std::string("mcHostGetDevicePointer: pDevice is null")
              : absl::StrFormat("mcHostGetDevicePointer: %p is not "
                                "page-locked host memory",
                                pHost));
    }
    // [api.memory.host-get-device-pointer.mapped-memory]
    // [api.memory.host-get-device-pointer.interior-offset]
    // [api.memory.host-get-device-pointer.same-address-under-uva]
    *pDevice = pHost;
    return absl::OkStatus();
  });
}

}  // extern "C"
