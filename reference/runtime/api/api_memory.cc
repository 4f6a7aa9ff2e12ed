// Copyright mxcts authors.
//
// The memory entry points for device memory and pointer queries
// [api.memory]: mcMalloc, mcFree, mcMemGetInfo, mcPointerGetAttributes,
// mcPointerSetAttribute, mcMemGetAddressRange. The other families are in
// api_memory_host.cc (page-locked memory), api_memory_managed.cc,
// api_memory_copy.cc, api_memory_set.cc and api_memory_2d3d.cc.
//
// Each entry point checks its arguments, then asks the memory manager.
// Allocation does no device work and queues nothing; release waits for the
// devices first (memory_release.h). Queries answer from the allocation
// table and never wait [api.memory.pointer-attributes.no-synchronization].
//
// Tested by api_memory_test.cc.

#include <cstring>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/environment/memory_tracing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/graphs/graph_memory.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/memory/memory_release.h"
#include "reference/runtime/pools/stream_ordered_allocation.h"
#include "reference/runtime/process/runtime.h"

using mxcts::runtime::Allocation;
using mxcts::runtime::Device;
using mxcts::runtime::DeviceOrigin;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemoryKind;
using mxcts::runtime::MemoryManager;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;

namespace {

// The attributes of `ptr` [api.memory.pointer-attributes]: every pointer
// field is `ptr` itself, since every kind of memory is reached at one
// address by host and devices [api.memory.uva.svm-host-and-device-access].
mcPointerAttribute_t AttributesOf(const void* ptr) {
  mcPointerAttribute_t attributes;
  std::memset(&attributes, 0, sizeof(attributes));
  void* address = const_cast<void*>(ptr);
  std::optional<Allocation> allocation = MemoryManager::Get().Find(ptr);
  if (!allocation.has_value()) {
    // [api.memory.pointer-attributes.unregistered]
    attributes.type = mcMemoryTypeUnregistered;
    attributes.device = mcInvalidDeviceId;
    attributes.hostPointer = address;
    return attributes;
  }
  attributes.device = allocation->device < 0 ? 0 : allocation->device;
  attributes.devicePointer = address;
  attributes.hostPointer = address;
  switch (allocation->kind) {
    case MemoryKind::kDevice:
    case MemoryKind::kDeviceVariable:
      // [api.memory.pointer-attributes.device-memory]
      // [api.memory.pointer-attributes.device-memory-host-pointer]
      attributes.type = mcMemoryTypeDevice;
      break;
    case MemoryKind::kHost:
    case MemoryKind::kRegisteredHost:
      // [api.memory.pointer-attributes.host-memory]
      attributes.type = mcMemoryTypeHost;
      attributes.allocationFlags = allocation->flags;
      break;
    case MemoryKind::kManaged:
    case MemoryKind::kManagedVariable:
      // [api.memory.pointer-attributes.managed-memory]
      attributes.type = mcMemoryTypeManaged;
      attributes.isManaged = 1;
      attributes.allocationFlags = allocation->flags;
      break;
  }
  return attributes;
}

}  // namespace

extern "C" {

mcError_t mcMalloc(void** ptr, size_t size) {
  const mcError_t result = RunApi([&]() -> absl::Status {
    if (ptr == nullptr) {  // [api.memory.malloc.null-pointer-to-pointer]
      return McStatus(mcErrorInvalidValue, "mcMalloc: ptr is null");
    }
    // [api.graph.capture.unsafe-call-in-global-mode]
    MX_RETURN_IF_ERROR(mxcts::runtime::CheckUnsafeDuringCapture("mcMalloc"));
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
    if (size == 0) {  // [api.memory.malloc.size-zero]
      *ptr = nullptr;
      return absl::OkStatus();
    }
    // [api.memory.malloc.allocates-on-current-device]
    // [api.memory.malloc.out-of-memory]
    MX_ASSIGN_OR_RETURN(*ptr, MemoryManager::Get().AllocateDevice(
                                  device->ordinal(), size,
                                  device->properties().totalGlobalMem));
    return absl::OkStatus();
  });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall(
      "mcMalloc", result,
      result == mcSuccess && ptr != nullptr ? *ptr : nullptr, size,
      __builtin_return_address(0));
  return result;
}

mcError_t mcFree(void* ptr) {
  const mcError_t result = RunApi([&]() -> absl::Status {
    // [api.graph.capture.unsafe-call-in-global-mode]
    MX_RETURN_IF_ERROR(mxcts::runtime::CheckUnsafeDuringCapture("mcFree"));
    MX_RETURN_IF_ERROR(Runtime::Get().CurrentDeviceForWork().status());
    if (ptr == nullptr)
      return absl::OkStatus();  // [api.memory.free.null-is-noop]
    MemoryManager& memory = MemoryManager::Get();
    // [api.memory.free.non-device-pointer] [api.memory.free.interior-pointer]
    // [api.memory.free.double-free] [api.memory.managed.released-by-mcfree]
    // [api.memory.free.any-current-device]
    MX_ASSIGN_OR_RETURN(
        Allocation allocation,
        memory.FindStart(ptr, {MemoryKind::kDevice, MemoryKind::kManaged},
                         "mcFree"));
    if (allocation.origin == DeviceOrigin::kIpcMapping) {
      // [api.ipc.close-mem-handle.mcfree-rejected]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcFree: %p was mapped by "
                                      "mcIpcOpenMemHandle; "
                                      "mcIpcCloseMemHandle releases it",
                                      ptr));
    }
    // [api.sync.host.free-synchronizes]
    MX_RETURN_IF_ERROR(mxcts::runtime::WaitBeforeRelease(allocation.device));
    if (allocation.origin == DeviceOrigin::kGraph) {
      // [api.graph.mem-alloc-node.unfreed-memory-persists]
      return mxcts::runtime::GraphMemory::Get().Free(ptr, "mcFree");
    }
    if (allocation.origin == DeviceOrigin::kStreamOrdered) {
      // [api.pool.free-async.mcfree-also-frees]
      absl::MutexLock lock(&Runtime::Get().execution_mutex());
      MX_ASSIGN_OR_RETURN(allocation,
                          mxcts::runtime::FindStreamOrdered(ptr, "mcFree"));
      mxcts::runtime::FreeAtOnce(allocation);
      return absl::OkStatus();
    }
    return memory.Free(ptr, {MemoryKind::kDevice, MemoryKind::kManaged},
                       "mcFree");
  });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall("mcFree", result, ptr, 0,
                                  __builtin_return_address(0));
  return result;
}

mcError_t mcMemGetInfo(size_t* free, size_t* total) {
  return RunApi([&]() -> absl::Status {
    if (free == nullptr || total == nullptr) {
      // [api.memory.get-info.null-arguments]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcMemGetInfo: %s is null",
                                      free == nullptr ? "free" : "total"));
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
    // [api.memory.get-info.total-is-device-memory]
    const size_t capacity = device->properties().totalGlobalMem;
    const size_t used =
        MemoryManager::Get().DeviceBytesInUse(device->ordinal());
    // [api.memory.get-info.free-not-above-total]
    // [api.memory.get-info.allocation-reduces-free]
    *total = capacity;
    *free = used < capacity ? capacity - used : 0;
    return absl::OkStatus();
  });
}

mcError_t mcPointerGetAttributes(mcPointerAttribute_t* attributes,
                                 const void* ptr) {
  return RunApi([&]() -> absl::Status {
    if (attributes == nullptr) {
      // [api.memory.pointer-attributes.null-attributes]
      return McStatus(mcErrorInvalidValue,
                      "mcPointerGetAttributes: attributes is null");
    }
    // [api.memory.pointer-attributes.interior-pointer]
    *attributes = AttributesOf(ptr);
    return absl::OkStatus();
  });
}

mcError_t mcPointerSetAttribute(const void* value,
                                mcPointer_attribute attribute,
                                mcDeviceptr_t ptr) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.pointer-set-attribute.invalid]
    if (value == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcPointerSetAttribute: value is null");
    }
    if (attribute != mcPointerAttributeSyncMemops) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcPointerSetAttribute: attribute %d "
                                      "cannot be set",
                                      static_cast<int>(attribute)));
    }
    MemoryManager& memory = MemoryManager::Get();
    std::optional<Allocation> allocation = memory.Find(ptr);
    if (!allocation.has_value() || allocation->kind != MemoryKind::kDevice) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcPointerSetAttribute: %p is not in a "
                                      "live device allocation",
                                      ptr));
    }
    unsigned int flag = 0;
    std::memcpy(&flag, value, sizeof(flag));
    // [api.memory.pointer-set-attribute.sync-memops]
    memory.UpdateAllocation(reinterpret_cast<void*>(allocation->base),
                            [&](Allocation& a) { a.sync_memops = flag != 0; });
    return absl::OkStatus();
  });
}

mcError_t mcMemGetAddressRange(mcDeviceptr_t* base, size_t* size,
                               mcDeviceptr_t ptr) {
  return RunApi([&]() -> absl::Status {
    std::optional<Allocation> allocation = MemoryManager::Get().Find(ptr);
    if (!allocation.has_value()) {
      // [api.memory.get-address-range.not-an-allocation]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcMemGetAddressRange: %p is in no live "
                                      "allocation",
                                      ptr));
    }
    // [api.memory.get-address-range.base-and-size]
    if (base != nullptr) *base = reinterpret_cast<void*>(allocation->base);
    if (size != nullptr) *size = allocation->size;
    return absl::OkStatus();
  });
}

}  // extern "C"
