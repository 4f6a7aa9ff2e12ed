// Copyright mxcts authors.
//
// The stream-ordered allocation and memory pool entry points
// (mcr/detail/runtime_api_pool.h): argument checks, then the pools package
// (reference/runtime/pools) under the execution lock, since which memory
// may be reused depends on the timeline.
//
// Tested by the conformance tests of docs/spec/api-memory-pools.md
// (conformance/api/memory_pools) and by the pools package's own tests.

#include <cstring>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/environment/memory_tracing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/graphs/graph_memory.h"
#include "reference/runtime/peer/peer_access.h"
#include "reference/runtime/pools/pool_sharing.h"
#include "reference/runtime/pools/pool_table.h"
#include "reference/runtime/pools/stream_ordered_allocation.h"
#include "reference/runtime/process/runtime.h"

using mxcts::runtime::Allocation;
using mxcts::runtime::Device;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemoryPool;
using mxcts::runtime::PoolTable;
using mxcts::runtime::ResolvedStream;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;

namespace {

// mcErrorNotSupported unless `device` supports memory pools: for
// stream-ordered allocation in its streams or from its pools, and for its
// pools. [api.pool.malloc-async.unsupported-device]
absl::Status CheckPoolsSupported(const Device& device, const char* api) {
  if (device.properties().memoryPoolsSupported == 0) {
    return McStatus(mcErrorNotSupported,
                    absl::StrFormat("%s: device %d has no memory pools", api,
                                    device.ordinal()));
  }
  return absl::OkStatus();
}

// A valid device ordinal from an mcMemLocation of a pool call;
// mcErrorInvalidValue otherwise.
absl::StatusOr<Device*> LocatedDevice(const mcMemLocation& location,
                                      const char* api) {
  if (location.type != mcMemLocationTypeDevice) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: location type %d is not "
                                    "mcMemLocationTypeDevice",
                                    api, static_cast<int>(location.type)));
  }
  absl::StatusOr<Device*> device = Runtime::Get().DeviceAt(location.id);
  if (!device.ok()) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: location id %d is not a device", api,
                                    location.id));
  }
  return device;
}

// Allocates `size` bytes from `pool` (or, if null, the current pool of the
// stream's device) in `stream`: mcMallocAsync and mcMallocFromPoolAsync.
absl::Status AllocateAsync(void** ptr, size_t size, mcMemPool_t pool_handle,
                           bool from_pool, mcStream_t stream, const char* api) {
  // [api.pool.malloc-async.null-pointer-is-invalid-value]
  if (ptr == nullptr) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: ptr is null", api));
  }
  // [api.pool.malloc-async.invalid-stream]
  MX_ASSIGN_OR_RETURN(Device * stream_device,
                      mxcts::runtime::StreamDeviceForWork(stream));
  Runtime& runtime = Runtime::Get();
  if (size > 0) {
    // [api.graph.capture.records-instead-of-executing]: in a capture, a
    // memory allocation node, whose address the call returns.
    MX_ASSIGN_OR_RETURN(
        bool captured,
        mxcts::runtime::CaptureIfCapturing(
            stream, [&]() -> absl::StatusOr<mxcts::runtime::NodeParams> {
              int device = stream_device->ordinal();
              if (from_pool) {
                MX_ASSIGN_OR_RETURN(MemoryPool * pool,
                                    PoolTable::Get().Find(pool_handle, api));
                device = pool->device;
              }
              mcMemAllocNodeParams params{};
              params.poolProps.allocType = mcMemAllocationTypePinned;
              params.poolProps.location.type = mcMemLocationTypeDevice;
              params.poolProps.location.id = device;
              params.bytesize = size;
              MX_ASSIGN_OR_RETURN(
                  mxcts::runtime::NodeParams node,
                  mxcts::runtime::NodeParams::MemAlloc(&params));
              *ptr = params.dptr;
              return node;
            }));
    if (captured) return absl::OkStatus();
  }
  // Work outside a capture that would depend on one is refused.
  MX_RETURN_IF_ERROR(mxcts::runtime::CheckUncapturedStreamWork(stream));
  absl::MutexLock lock(&runtime.execution_mutex());
  PoolTable& pools = PoolTable::Get();
  MemoryPool* pool = nullptr;
  if (from_pool) {
    // [api.pool.malloc-from-pool.invalid-pool]
    MX_ASSIGN_OR_RETURN(pool, pools.Find(pool_handle, api));
    if (pool->imported) {
      // [api.pool.ipc.no-allocation-from-imported-pool]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%s: pool %p was imported from another "
                                      "process",
                                      api, static_cast<void*>(pool_handle)));
    }
  }
  MX_RETURN_IF_ERROR(CheckPoolsSupported(*stream_device, api));
  MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                      mxcts::runtime::ResolveStreamLocked(stream));
  // [api.pool.malloc-async.device-from-stream]
  // [api.pool.malloc-from-pool.uses-given-pool]
  if (pool == nullptr) pool = pools.CurrentPool(resolved.device);
  MX_ASSIGN_OR_RETURN(Device * pool_device, runtime.DeviceAt(pool->device));
  MX_RETURN_IF_ERROR(CheckPoolsSupported(*pool_device, api));
  if (size == 0) {
    *ptr = nullptr;
    return absl::OkStatus();
  }
  // [api.pool.malloc-async.pointer-known-at-once]
  // [api.pool.malloc-async.out-of-memory]
  MX_ASSIGN_OR_RETURN(void* address,
                      mxcts::runtime::AllocateInStream(
                          *pool, size, resolved.queue,
                          pool_device->properties().totalGlobalMem));
  *ptr = address;
  return absl::OkStatus();
}

// mcErrorInvalidValue (naming `api`) if `out` is null.
absl::Status CheckOutput(const void* out, const char* api, const char* what) {
  if (out == nullptr) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: %s is null", api, what));
  }
  return absl::OkStatus();
}

// The attributes that take an int 0 or 1.
bool IsReuseAttribute(mcMemPoolAttr attr) {
  return attr == mcMemPoolReuseFollowEventDependencies ||
         attr == mcMemPoolReuseAllowOpportunistic ||
         attr == mcMemPoolReuseAllowInternalDependencies;
}

bool* ReuseFlag(MemoryPool& pool, mcMemPoolAttr attr) {
  switch (attr) {
    case mcMemPoolReuseFollowEventDependencies:
      return &pool.follow_event_dependencies;
    case mcMemPoolReuseAllowOpportunistic:
      return &pool.allow_opportunistic;
    case mcMemPoolReuseAllowInternalDependencies:
      return &pool.allow_internal_dependencies;
    default:
      return nullptr;
  }
}

absl::Status UnknownAttribute(const char* api, mcMemPoolAttr attr) {
  // [api.pool.attribute.bad-arguments-are-invalid-value]
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("%s: %d is not a pool attribute", api,
                                  static_cast<int>(attr)));
}

// Whether `flags` is an mcMemAccessFlags value.
bool IsAccessFlags(mcMemAccessFlags flags) {
  return flags == mcMemAccessFlagsProtNone ||
         flags == mcMemAccessFlagsProtRead ||
         flags == mcMemAccessFlagsProtReadWrite;
}

}  // namespace

extern "C" {

mcError_t mcMallocAsync(void** ptr, size_t size, mcStream_t stream) {
  const mcError_t result = RunApi([&]() -> absl::Status {
    return AllocateAsync(ptr, size, nullptr, /*from_pool=*/false, stream,
                         "mcMallocAsync");
  });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall(
      "mcMallocAsync", result,
      result == mcSuccess && ptr != nullptr ? *ptr : nullptr, size,
      __builtin_return_address(0));
  return result;
}

mcError_t mcMallocFromPoolAsync(void** ptr, size_t size, mcMemPool_t pool,
                                mcStream_t stream) {
  const mcError_t result = RunApi([&]() -> absl::Status {
    return AllocateAsync(ptr, size, pool, /*from_pool=*/true, stream,
                         "mcMallocFromPoolAsync");
  });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall(
      "mcMallocFromPoolAsync", result,
      result == mcSuccess && ptr != nullptr ? *ptr : nullptr, size,
      __builtin_return_address(0));
  return result;
}

mcError_t mcFreeAsync(void* ptr, mcStream_t stream) {
  const mcError_t result = RunApi([&]() -> absl::Status {
    // [api.pool.free-async.foreign-pointer-is-invalid-value]
    if (ptr == nullptr) {
      return McStatus(mcErrorInvalidValue, "mcFreeAsync: ptr is null");
    }
    // [api.pool.malloc-async.invalid-stream]
    MX_ASSIGN_OR_RETURN(Device * device,
                        mxcts::runtime::StreamDeviceForWork(stream));
    MX_RETURN_IF_ERROR(CheckPoolsSupported(*device, "mcFreeAsync"));
    // [api.graph.capture.records-instead-of-executing]: in a capture, a
    // memory free node.
    MX_ASSIGN_OR_RETURN(bool captured,
                        mxcts::runtime::CaptureIfCapturing(stream, [&] {
                          return mxcts::runtime::NodeParams::MemFree(ptr);
                        }));
    if (captured) return absl::OkStatus();
    if (mxcts::runtime::GraphMemory::Get().Find(ptr) != nullptr) {
      // [api.graph.mem-alloc-node.unfreed-memory-persists]
      return mxcts::runtime::GraphMemory::Get().Free(ptr, "mcFreeAsync");
    }
    MX_RETURN_IF_ERROR(mxcts::runtime::CheckUncapturedStreamWork(stream));
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(Allocation allocation,
                        mxcts::runtime::FindStreamOrdered(ptr, "mcFreeAsync"));
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    // [api.pool.free-async.frees-in-stream-order]
    mxcts::runtime::FreeInStream(allocation, resolved.queue);
    return absl::OkStatus();
  });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall("mcFreeAsync", result, ptr, 0,
                                  __builtin_return_address(0));
  return result;
}

mcError_t mcDeviceGetDefaultMemPool(mcMemPool_t* pool, int device) {
  return RunApi([&]() -> absl::Status {
    // [api.pool.device-pool.null-output-is-invalid-value]
    MX_RETURN_IF_ERROR(CheckOutput(pool, "mcDeviceGetDefaultMemPool", "pool"));
    Runtime& runtime = Runtime::Get();
    // [api.pool.device-pool.invalid-device]
    MX_ASSIGN_OR_RETURN(Device * located, runtime.DeviceAt(device));
    MX_RETURN_IF_ERROR(
        CheckPoolsSupported(*located, "mcDeviceGetDefaultMemPool"));
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.pool.default.get-default-pool]
    *pool = PoolTable::Get().DefaultPool(device);
    return absl::OkStatus();
  });
}

mcError_t mcDeviceGetMemPool(mcMemPool_t* pool, int device) {
  return RunApi([&]() -> absl::Status {
    // [api.pool.device-pool.null-output-is-invalid-value]
    MX_RETURN_IF_ERROR(CheckOutput(pool, "mcDeviceGetMemPool", "pool"));
    Runtime& runtime = Runtime::Get();
    // [api.pool.device-pool.invalid-device]
    MX_ASSIGN_OR_RETURN(Device * located, runtime.DeviceAt(device));
    MX_RETURN_IF_ERROR(CheckPoolsSupported(*located, "mcDeviceGetMemPool"));
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.pool.default.is-initial-current-pool]
    *pool = PoolTable::Get().CurrentPool(device);
    return absl::OkStatus();
  });
}

mcError_t mcDeviceSetMemPool(int device, mcMemPool_t pool) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    // [api.pool.device-pool.invalid-device]
    MX_ASSIGN_OR_RETURN(Device * located, runtime.DeviceAt(device));
    MX_RETURN_IF_ERROR(CheckPoolsSupported(*located, "mcDeviceSetMemPool"));
    absl::MutexLock lock(&runtime.execution_mutex());
    PoolTable& pools = PoolTable::Get();
    // [api.pool.device-pool.null-output-is-invalid-value]
    MX_ASSIGN_OR_RETURN(MemoryPool * object,
                        pools.Find(pool, "mcDeviceSetMemPool"));
    if (object->imported) {
      // [api.pool.ipc.no-allocation-from-imported-pool]
      return McStatus(mcErrorInvalidValue,
                      "mcDeviceSetMemPool: an imported pool cannot be current");
    }
    if (object->device != device) {
      // [api.pool.current.pool-of-other-device-is-invalid-value]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcDeviceSetMemPool: the pool is on "
                                      "device %d, not %d",
                                      object->device, device));
    }
    // [api.pool.current.set-then-get]
    pools.SetCurrentPool(device, object);
    return absl::OkStatus();
  });
}

mcError_t mcDeviceGetDefaultMempool(mcMemPool_t* pool, int device) {
  return mcDeviceGetDefaultMemPool(pool, device);
}

mcError_t mcDeviceSetMempool(int device, mcMemPool_t pool) {
  return mcDeviceSetMemPool(device, pool);
}

mcError_t mcDeviceGetMempool(mcMemPool_t* pool, int device) {
  return mcDeviceGetMemPool(pool, device);
}

mcError_t mcMemPoolCreate(mcMemPool_t* pool, const mcMemPoolProps* props) {
  return RunApi([&]() -> absl::Status {
    // [api.pool.create.null-argument-is-invalid-value]
    MX_RETURN_IF_ERROR(CheckOutput(pool, "mcMemPoolCreate", "pool"));
    MX_RETURN_IF_ERROR(CheckOutput(props, "mcMemPoolCreate", "props"));
    // [api.pool.create.invalid-props-is-invalid-value]
    if (props->allocType != mcMemAllocationTypePinned) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcMemPoolCreate: allocType %d is not "
                                      "mcMemAllocationTypePinned",
                                      static_cast<int>(props->allocType)));
    }
    if (props->handleTypes != mcMemHandleTypeNone &&
        props->handleTypes != mcMemHandleTypePosixFileDescriptor) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcMemPoolCreate: handleTypes %#x is "
                                      "not a handle type of this platform",
                                      static_cast<int>(props->handleTypes)));
    }
    bool reserved_zero =
        props->win32SecurityAttributes == nullptr && props->usage == 0;
    for (unsigned char byte : props->reserved) reserved_zero &= byte == 0;
    if (!reserved_zero) {
      return McStatus(mcErrorInvalidValue,
                      "mcMemPoolCreate: win32SecurityAttributes, usage and "
                      "reserved must be zero");
    }
    // [api.pool.create.bad-location-id-is-invalid-value]
    MX_ASSIGN_OR_RETURN(Device * device,
                        LocatedDevice(props->location, "mcMemPoolCreate"));
    // [api.pool.malloc-async.unsupported-device]
    MX_RETURN_IF_ERROR(CheckPoolsSupported(*device, "mcMemPoolCreate"));
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    // [api.pool.create.explicit-pool]
    *pool = PoolTable::Get().Create(*props);
    return absl::OkStatus();
  });
}

mcError_t mcMemPoolDestroy(mcMemPool_t pool) {
  return RunApi([&]() -> absl::Status {
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    PoolTable& pools = PoolTable::Get();
    // [api.pool.destroy.invalid-pool-is-invalid-value]
    MX_ASSIGN_OR_RETURN(MemoryPool * object,
                        pools.Find(pool, "mcMemPoolDestroy"));
    if (object->is_default) {
      // [api.pool.destroy.default-pool-is-invalid-value]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcMemPoolDestroy: the default pool of "
                                      "device %d cannot be destroyed",
                                      object->device));
    }
    // [api.pool.destroy.deferred-release]
    pools.Destroy(object);
    return absl::OkStatus();
  });
}

mcError_t mcMemPoolTrimTo(mcMemPool_t pool, size_t minBytesToKeep) {
  return RunApi([&]() -> absl::Status {
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    // [api.pool.trim.invalid-pool-is-invalid-value]
    MX_ASSIGN_OR_RETURN(MemoryPool * object,
                        PoolTable::Get().Find(pool, "mcMemPoolTrimTo"));
    // [api.pool.trim.keeps-live-allocations] [api.pool.trim.reduces-reserved]
    if (!object->imported) {
      mxcts::runtime::ReleaseFreeBlocks(*object, minBytesToKeep);
    }
    return absl::OkStatus();
  });
}

mcError_t mcMemPoolSetAttribute(mcMemPool_t pool, mcMemPoolAttr attr,
                                void* value) {
  return RunApi([&]() -> absl::Status {
    constexpr const char* kApi = "mcMemPoolSetAttribute";
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    // [api.pool.attribute.bad-arguments-are-invalid-value]
    MX_ASSIGN_OR_RETURN(MemoryPool * object, PoolTable::Get().Find(pool, kApi));
    MX_RETURN_IF_ERROR(CheckOutput(value, kApi, "value"));
    if (IsReuseAttribute(attr)) {
      int flag = 0;
      std::memcpy(&flag, value, sizeof(flag));
      if (flag != 0 && flag != 1) {
        return McStatus(mcErrorInvalidValue,
                        absl::StrFormat("%s: a reuse policy is 0 or 1, not %d",
                                        kApi, flag));
      }
      // [api.pool.attribute.set-then-get]
      *ReuseFlag(*object, attr) = flag == 1;
      return absl::OkStatus();
    }
    unsigned long long number = 0;  // NOLINT(runtime/int): the API's type
    switch (attr) {
      case mcMemPoolAttrReleaseThreshold:
        std::memcpy(&number, value, sizeof(number));
        object->release_threshold = number;
        return absl::OkStatus();
      case mcMemPoolAttrReservedMemHigh:
      case mcMemPoolAttrUsedMemHigh:
        std::memcpy(&number, value, sizeof(number));
        if (number != 0) {
          // [api.pool.attribute.high-watermark-nonzero-is-invalid-value]
          return McStatus(mcErrorInvalidValue,
                          absl::StrFormat("%s: a high watermark is reset with "
                                          "0, not %u",
                                          kApi, number));
        }
        // [api.pool.attribute.high-watermarks]
        if (attr == mcMemPoolAttrReservedMemHigh) {
          object->reserved_high = object->reserved_bytes;
        } else {
          object->used_high = object->used_bytes;
        }
        return absl::OkStatus();
      case mcMemPoolAttrReservedMemCurrent:
      case mcMemPoolAttrUsedMemCurrent:
        // [api.pool.attribute.read-only-is-invalid-value]
        return McStatus(mcErrorInvalidValue,
                        absl::StrFormat("%s: attribute %d is read-only", kApi,
                                        static_cast<int>(attr)));
      default:
        return UnknownAttribute(kApi, attr);
    }
  });
}

mcError_t mcMemPoolGetAttribute(mcMemPool_t pool, mcMemPoolAttr attr,
                                void* value) {
  return RunApi([&]() -> absl::Status {
    constexpr const char* kApi = "mcMemPoolGetAttribute";
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    // [api.pool.attribute.bad-arguments-are-invalid-value]
    MX_ASSIGN_OR_RETURN(MemoryPool * object, PoolTable::Get().Find(pool, kApi));
    MX_RETURN_IF_ERROR(CheckOutput(value, kApi, "value"));
    if (IsReuseAttribute(attr)) {
      // [api.pool.attribute.reuse-defaults-enabled]
      int flag = *ReuseFlag(*object, attr) ? 1 : 0;
      std::memcpy(value, &flag, sizeof(flag));
      return absl::OkStatus();
    }
    unsigned long long number = 0;  // NOLINT(runtime/int): the API's type
    switch (attr) {
      case mcMemPoolAttrReleaseThreshold:
        number = object->release_threshold;
        break;
      // [api.pool.attribute.usage-counters]
      case mcMemPoolAttrReservedMemCurrent:
        number = object->reserved_bytes;
        break;
      case mcMemPoolAttrUsedMemCurrent:
        number = object->used_bytes;
        break;
      // [api.pool.attribute.high-watermarks]
      case mcMemPoolAttrReservedMemHigh:
        number = object->reserved_high;
        break;
      case mcMemPoolAttrUsedMemHigh:
        number = object->used_high;
        break;
      default:
        return UnknownAttribute(kApi, attr);
    }
    std::memcpy(value, &number, sizeof(number));
    return absl::OkStatus();
  });
}

mcError_t mcMemPoolSetAccess(mcMemPool_t pool, const mcMemAccessDesc* descList,
                             size_t count) {
  return RunApi([&]() -> absl::Status {
    constexpr const char* kApi = "mcMemPoolSetAccess";
    Runtime& runtime = Runtime::Get();
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.pool.access.bad-arguments-are-invalid-value]
    MX_ASSIGN_OR_RETURN(MemoryPool * object, PoolTable::Get().Find(pool, kApi));
    if (descList == nullptr && count > 0) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%s: descList is null", kApi));
    }
    // Every entry is checked before any applies.
    for (size_t i = 0; i < count; ++i) {
      const mcMemAccessDesc& desc = descList[i];
      MX_ASSIGN_OR_RETURN(Device * device, LocatedDevice(desc.location, kApi));
      if (!IsAccessFlags(desc.flags)) {
        return McStatus(mcErrorInvalidValue,
                        absl::StrFormat("%s: %d is not an access flags value",
                                        kApi, static_cast<int>(desc.flags)));
      }
      if (device->ordinal() == object->device) {
        if (desc.flags != mcMemAccessFlagsProtReadWrite) {
          // [api.pool.access.revoke-resident-is-invalid-value]
          return McStatus(mcErrorInvalidValue,
                          absl::StrFormat("%s: the pool's own device %d keeps "
                                          "read and write access",
                                          kApi, object->device));
        }
        continue;
      }
      if (desc.flags != mcMemAccessFlagsProtNone &&
          !mxcts::runtime::PeerAccessTable::Get().CanAccess(device->ordinal(),
                                                            object->device)) {
        // [api.pool.access.non-peer-device-is-invalid-device]
        return McStatus(
            mcErrorInvalidDevice,
            absl::StrFormat("%s: device %d cannot access device "
                            "%d as a peer",
                            kApi, device->ordinal(), object->device));
      }
    }
    // [api.pool.access.set-grants-peer]
    for (size_t i = 0; i < count; ++i) {
      const mcMemAccessDesc& desc = descList[i];
      if (desc.location.id == object->device) continue;
      object->access[desc.location.id] = desc.flags;
    }
    // [api.pool.access.applies-to-all-allocations]
    mxcts::runtime::ApplyPoolAccess(*object);
    return absl::OkStatus();
  });
}

mcError_t mcMemPoolGetAccess(mcMemAccessFlags* flags, mcMemPool_t pool,
                             mcMemLocation* location) {
  return RunApi([&]() -> absl::Status {
    constexpr const char* kApi = "mcMemPoolGetAccess";
    // [api.pool.access.bad-arguments-are-invalid-value]
    MX_RETURN_IF_ERROR(CheckOutput(flags, kApi, "flags"));
    MX_RETURN_IF_ERROR(CheckOutput(location, kApi, "location"));
    Runtime& runtime = Runtime::Get();
    absl::MutexLock lock(&runtime.execution_mutex());
    MX_ASSIGN_OR_RETURN(MemoryPool * object, PoolTable::Get().Find(pool, kApi));
    MX_ASSIGN_OR_RETURN(Device * device, LocatedDevice(*location, kApi));
    // [api.pool.access.get-reports-flags]
    // [api.pool.access.resident-device-always]
    if (device->ordinal() == object->device) {
      *flags = mcMemAccessFlagsProtReadWrite;
      return absl::OkStatus();
    }
    auto found = object->access.find(device->ordinal());
    *flags = found == object->access.end() ? mcMemAccessFlagsProtNone
                                           : found->second;
    return absl::OkStatus();
  });
}

}  // extern "C"

extern "C" {

mcError_t mcMemPoolExportToShareableHandle(void* shareableHandle,
                                           mcMemPool_t pool,
                                           mcMemAllocationHandleType handleType,
                                           unsigned long long flags) {
  return RunApi([&]() -> absl::Status {
    constexpr const char* kApi = "mcMemPoolExportToShareableHandle";
    MX_RETURN_IF_ERROR(CheckOutput(shareableHandle, kApi, "shareableHandle"));
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(MemoryPool * object, PoolTable::Get().Find(pool, kApi));
    if (flags != 0) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%s: flags %#x are not 0", kApi, flags));
    }
    // [api.pool.ipc.default-pool-not-exportable]
    // [api.pool.ipc.export-needs-handle-type]
    if (handleType != mcMemHandleTypePosixFileDescriptor ||
        !mxcts::runtime::IsExportablePool(*object)) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%s: the pool was not created "
                                      "exportable as handle type %#x",
                                      kApi, static_cast<int>(handleType)));
    }
    // [api.pool.ipc.export-import-round-trip]
    MX_ASSIGN_OR_RETURN(int fd, mxcts::runtime::ExportPoolFile(*object));
    std::memcpy(shareableHandle, &fd, sizeof(fd));
    return absl::OkStatus();
  });
}

mcError_t mcMemPoolImportFromShareableHandle(
    mcMemPool_t* pool, void* shareableHandle,
    mcMemAllocationHandleType handleType, unsigned long long flags) {
  return RunApi([&]() -> absl::Status {
    constexpr const char* kApi = "mcMemPoolImportFromShareableHandle";
    MX_RETURN_IF_ERROR(CheckOutput(pool, kApi, "pool"));
    if (handleType != mcMemHandleTypePosixFileDescriptor || flags != 0) {
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("%s: handle type %#x with flags %#x; "
                          "only mcMemHandleTypePosixFileDescriptor "
                          "with 0 exists here",
                          kApi, static_cast<int>(handleType), flags));
    }
    // The descriptor travels as the pointer's value.
    const int fd =
        static_cast<int>(reinterpret_cast<intptr_t>(shareableHandle));
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    // [api.pool.ipc.export-import-round-trip]
    // [api.pool.ipc.imported-pool-resident-access-only]
    MX_ASSIGN_OR_RETURN(*pool, mxcts::runtime::ImportPoolFile(fd));
    return absl::OkStatus();
  });
}

mcError_t mcMemPoolExportPointer(mcMemPoolPtrExportData* exportData,
                                 void* ptr) {
  return RunApi([&]() -> absl::Status {
    // [api.pool.ipc.export-pointer-foreign-is-invalid-value]
    MX_RETURN_IF_ERROR(
        CheckOutput(exportData, "mcMemPoolExportPointer", "exportData"));
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    // [api.pool.ipc.export-pointer]
    return mxcts::runtime::ExportAllocation(ptr, exportData);
  });
}

mcError_t mcMemPoolImportPointer(void** ptr, mcMemPool_t pool,
                                 mcMemPoolPtrExportData* exportData) {
  return RunApi([&]() -> absl::Status {
    constexpr const char* kApi = "mcMemPoolImportPointer";
    MX_RETURN_IF_ERROR(CheckOutput(ptr, kApi, "ptr"));
    MX_RETURN_IF_ERROR(CheckOutput(exportData, kApi, "exportData"));
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(MemoryPool * object, PoolTable::Get().Find(pool, kApi));
    if (!object->imported) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%s: the pool was not imported", kApi));
    }
    // [api.pool.ipc.export-pointer] [api.pool.ipc.import-pointer-does-not-wait]
    MX_ASSIGN_OR_RETURN(*ptr,
                        mxcts::runtime::ImportAllocation(*object, *exportData));
    return absl::OkStatus();
  });
}

}  // extern "C"
