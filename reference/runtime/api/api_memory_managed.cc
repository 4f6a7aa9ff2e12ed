// Copyright mxcts authors.
//
// The entry points of managed memory [api.memory.managed]
// [api.memory.prefetch] [api.memory.advise]: allocation, prefetching,
// advice (each in the device-ordinal form and the mcMemLocation form) and
// the query of what was advised.
//
// Managed memory is one range reached at the same address by the host and
// every device, so a migration has nothing to move: mcMemPrefetchAsync
// queues an empty piece of work in its stream (ordered like any other,
// [api.memory.prefetch.stream-ordered]) and records the destination;
// mcMemAdvise records the advice (memory_advice.h) for
// mcMemRangeGetAttribute. Neither changes a value
// [api.memory.advise.does-not-change-values].
//
// Tested by api_memory_test.cc.

#include <cstring>
#include <vector>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/devices/device_config.h"
#include "reference/runtime/environment/memory_tracing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/device_work.h"

using mxcts::runtime::AdviceState;
using mxcts::runtime::Allocation;
using mxcts::runtime::Device;
using mxcts::runtime::HostWait;
using mxcts::runtime::ManagedAdvice;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemoryKind;
using mxcts::runtime::MemoryManager;
using mxcts::runtime::RangeAdvice;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;

namespace {

// The managed allocation that holds all of [ptr, ptr + count), count > 0.
absl::StatusOr<Allocation> ManagedRange(const void* ptr, size_t count,
                                        const char* api) {
  std::optional<Allocation> allocation = MemoryManager::Get().Find(ptr);
  const uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  const bool managed = allocation.has_value() &&
                       (allocation->kind == MemoryKind::kManaged ||
                        allocation->kind == MemoryKind::kManagedVariable);
  if (count == 0 || !managed || count > allocation->end() - start) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%s: %u bytes at %p are not inside one managed "
                        "allocation",
                        api, count, ptr));
  }
  return *allocation;
}

// Checks that `location` is a device ordinal or mcCpuDeviceId.
absl::Status CheckLocation(int location, const char* api) {
  if (location == mcCpuDeviceId) return absl::OkStatus();
  absl::StatusOr<Device*> device = Runtime::Get().DeviceAt(location);
  if (!device.ok()) {
    return McStatus(mcErrorInvalidDevice,
                    absl::StrFormat("%s: %d is neither a device nor "
                                    "mcCpuDeviceId",
                                    api, location));
  }
  if ((*device)->properties().concurrentManagedAccess == 0) {
    return McStatus(mcErrorInvalidDevice,
                    absl::StrFormat("%s: device %d has no concurrent managed "
                                    "access",
                                    api, location));
  }
  return absl::OkStatus();
}

// Whether `advice` is about a location, so that its device argument counts.
bool AdviceNamesLocation(int advice) {
  return advice == mcMemAdviseSetPreferredLocation ||
         advice == mcMemAdviseSetAccessedBy ||
         advice == mcMemAdviseUnsetAccessedBy;
}

bool IsAdvice(int advice) {
  return (advice >= mcMemAdviseSetReadMostly &&
          advice <= mcMemAdviseUnsetAccessedBy) ||
         advice == mcMemAdviseSetCoarseGrain ||
         advice == mcMemAdviseUnsetCoarseGrain;
}

// The location `location` names, as the ordinal forms take it: a device
// ordinal, or mcCpuDeviceId for the host. The reference's host is one NUMA
// node (config::kHostNumaId). A device ordinal is checked later, as the
// ordinal forms check theirs.
// [api.memory.location.invalid-location-is-invalid-value]
absl::StatusOr<int> LocationOrdinal(const mcMemLocation& location,
                                    const char* api) {
  switch (location.type) {
    case mcMemLocationTypeDevice:
      if (location.id < 0) {  // mcCpuDeviceId is no device
        return McStatus(
            mcErrorInvalidDevice,
            absl::StrFormat("%s: %d is not a device", api, location.id));
      }
      return location.id;
    case mcMemLocationTypeHost:
    case mcMemLocationTypeHostNumaCurrent:
      return mcCpuDeviceId;
    case mcMemLocationTypeHostNuma:
      if (location.id == mxcts::runtime::config::kHostNumaId) {
        return mcCpuDeviceId;
      }
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("%s: the host has no NUMA node %d (only %d)", api,
                          location.id, mxcts::runtime::config::kHostNumaId));
    case mcMemLocationTypeInvalid:
      break;
  }
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("%s: %d is not a location type that names "
                                  "a device or the host",
                                  api, static_cast<int>(location.type)));
}

// mcMemPrefetchAsync of [devPtr, devPtr + count) towards `dstDevice`, a
// device ordinal or mcCpuDeviceId.
absl::Status Prefetch(const void* devPtr, size_t count, int dstDevice,
                      mcStream_t stream, const char* api) {
  // [api.memory.prefetch.not-managed]
  MX_ASSIGN_OR_RETURN(Allocation allocation, ManagedRange(devPtr, count, api));
  // [api.memory.prefetch.invalid-device]
  MX_RETURN_IF_ERROR(CheckLocation(dstDevice, api));
  // [api.memory.prefetch.invalid-stream]
  MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
  // [api.memory.range-attribute.last-prefetch-location]
  MemoryManager::Get().advice().Apply(
      allocation.base, allocation.size, reinterpret_cast<uintptr_t>(devPtr),
      count, [&](AdviceState& state) { state.last_prefetch = dstDevice; });
  // [api.memory.prefetch.migrates-without-changing-values]
  // [api.memory.prefetch.stream-ordered]
  return SubmitWork(
      stream, absl::StrFormat("%s of %u bytes to %d", api, count, dstDevice),
      [] { return mcSuccess; }, HostWait::kNone);
}

// mcMemAdvise of [devPtr, devPtr + count) about `device`, a device ordinal
// or mcCpuDeviceId where the advice names a location.
absl::Status Advise(const void* devPtr, size_t count, mcMemoryAdvise advice,
                    int device, const char* api) {
  const int a = static_cast<int>(advice);
  if (!IsAdvice(a)) {  // [api.memory.advise.invalid-advice]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: %d is not an mcMemoryAdvise", api, a));
  }
  // [api.memory.advise.not-managed]
  MX_ASSIGN_OR_RETURN(Allocation allocation, ManagedRange(devPtr, count, api));
  if (AdviceNamesLocation(a)) {  // [api.memory.advise.invalid-device]
    MX_RETURN_IF_ERROR(CheckLocation(device, api));
  }
  // [api.memory.advise.advice-values]
  // [api.memory.advise.preferred-location-queryable]
  // [api.memory.advise.read-mostly-queryable]
  const uint64_t bit = ManagedAdvice::LocationBit(device);
  MemoryManager::Get().advice().Apply(
      allocation.base, allocation.size, reinterpret_cast<uintptr_t>(devPtr),
      count, [&](AdviceState& state) {
        switch (a) {
          case mcMemAdviseSetReadMostly:
            state.read_mostly = true;
            break;
          case mcMemAdviseUnsetReadMostly:
            state.read_mostly = false;
            break;
          case mcMemAdviseSetPreferredLocation:
            state.preferred_location = device;
            break;
          case mcMemAdviseUnsetPreferredLocation:
            state.preferred_location = mcInvalidDeviceId;
            break;
          case mcMemAdviseSetAccessedBy:
            state.accessed_by |= bit;
            break;
          case mcMemAdviseUnsetAccessedBy:
            state.accessed_by &= ~bit;
            break;
          default:  // coarse grain: a coherence hint, nothing to record
            break;
        }
      });
  return absl::OkStatus();
}

}  // namespace

extern "C" {

mcError_t mcMallocManaged(void** ptr, size_t size, unsigned int flags) {
  const mcError_t result = RunApi([&]() -> absl::Status {
    if (ptr == nullptr) {  // [api.memory.managed.null-pointer-to-pointer]
      return McStatus(mcErrorInvalidValue, "mcMallocManaged: ptr is null");
    }
    // [api.graph.capture.unsafe-call-in-global-mode]
    MX_RETURN_IF_ERROR(
        mxcts::runtime::CheckUnsafeDuringCapture("mcMallocManaged"));
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
    // [api.memory.managed.allocates] [api.memory.managed.out-of-memory]
    // [api.memory.managed.attach-global] [api.memory.managed.attach-host]
    MX_ASSIGN_OR_RETURN(*ptr, MemoryManager::Get().AllocateManaged(
                                  device->ordinal(), size, flags,
                                  device->properties().totalGlobalMem));
    return absl::OkStatus();
  });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall(
      "mcMallocManaged", result,
      result == mcSuccess && ptr != nullptr ? *ptr : nullptr, size,
      __builtin_return_address(0));
  return result;
}

mcError_t mcMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice,
                             mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    return Prefetch(devPtr, count, dstDevice, stream, "mcMemPrefetchAsync");
  });
}

mcError_t mcMemPrefetchAsync_v2(const void* devPtr, size_t count,
                                mcMemLocation location, unsigned int flags,
                                mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    constexpr char kApi[] = "mcMemPrefetchAsync";
    if (flags != 0) {  // [api.memory.prefetch.location-flags-must-be-zero]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%s: flags %#x are not 0", kApi, flags));
    }
    // [api.memory.prefetch.location-form]
    MX_ASSIGN_OR_RETURN(int destination, LocationOrdinal(location, kApi));
    return Prefetch(devPtr, count, destination, stream, kApi);
  });
}

mcError_t mcMemAdvise(const void* devPtr, size_t count, mcMemoryAdvise advice,
                      int device) {
  return RunApi([&]() -> absl::Status {
    return Advise(devPtr, count, advice, device, "mcMemAdvise");
  });
}

mcError_t mcMemAdvise_v2(const void* devPtr, size_t count,
                         mcMemoryAdvise advice, mcMemLocation location) {
  return RunApi([&]() -> absl::Status {
    constexpr char kApi[] = "mcMemAdvise";
    // [api.memory.advise.location-form] The other advice ignores the
    // location, as the ordinal form ignores its device.
    int device = mcInvalidDeviceId;
    if (AdviceNamesLocation(static_cast<int>(advice))) {
      MX_ASSIGN_OR_RETURN(device, LocationOrdinal(location, kApi));
    }
    return Advise(devPtr, count, advice, device, kApi);
  });
}

mcError_t mcMemRangeGetAttribute(void* data, size_t dataSize,
                                 mcMemRangeAttribute attribute,
                                 const void* devPtr, size_t count) {
  return RunApi([&]() -> absl::Status {
    const int a = static_cast<int>(attribute);
    // [api.memory.range-attribute.invalid-arguments]
    if (a < mcMemRangeAttributeReadMostly ||
        a > mcMemRangeAttributeLastPrefetchLocation) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcMemRangeGetAttribute: %d is not an "
                                      "mcMemRangeAttribute",
                                      a));
    }
    const bool list = a == mcMemRangeAttributeAccessedBy;
    const bool size_ok = list ? dataSize > 0 && dataSize % sizeof(int) == 0
                              : dataSize == sizeof(int);
    if (data == nullptr || !size_ok) {
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("mcMemRangeGetAttribute: %s",
                          data == nullptr ? "data is null" : "wrong dataSize"));
    }
    MX_ASSIGN_OR_RETURN(Allocation allocation,
                        ManagedRange(devPtr, count, "mcMemRangeGetAttribute"));
    RangeAdvice advice = MemoryManager::Get().advice().Query(
        allocation.base, allocation.size, reinterpret_cast<uintptr_t>(devPtr),
        count);
    // [api.memory.range-attribute.values]
    std::vector<int> values;
    switch (a) {
      case mcMemRangeAttributeReadMostly:
        values.push_back(advice.read_mostly ? 1 : 0);
        break;
      case mcMemRangeAttributePreferredLocation:
        values.push_back(advice.preferred_location);
        break;
      case mcMemRangeAttributeLastPrefetchLocation:
        values.push_back(advice.last_prefetch);
        break;
      default:  // accessed by: the locations, then mcInvalidDeviceId
        values = advice.accessed_by;
        values.resize(dataSize / sizeof(int), mcInvalidDeviceId);
        break;
    }
    std::memcpy(data, values.data(), values.size() * sizeof(int));
    return absl::OkStatus();
  });
}

}  // extern "C"
