// Copyright mxcts authors.
//
// Mappings of other processes' allocations (memory_imports.h). Open takes,
// in order: the exporter's file (the last check of the handle), a range of
// the device's addresses, the shared mapping, the allocation table entry,
// then peer access; each step undoes the ones before when it fails, so a
// failing call leaves nothing behind. The file descriptor is closed once
// the file is mapped: the mapping keeps the file alive, whatever the
// exporter does.
//
// Locks: this table's lock, then the memory manager's (Reserve/Release of
// ranges) and the peer table's; never the other way round.
//
// Tested by memory_imports_test.cc and conformance/api/ipc.

#include "reference/runtime/ipc/memory_imports.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/ipc/memory_exports.h"
#include "reference/runtime/ipc/remote_file.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/peer/peer_access.h"

namespace mxcts::runtime {
namespace {

// This process's ordinal of the device with system index `system_index`.
absl::StatusOr<int> OrdinalOf(int system_index) {
  DeviceTable& devices = DeviceTable::Get();
  for (int ordinal = 0; ordinal < devices.device_count(); ++ordinal) {
    absl::StatusOr<Device*> device = devices.DeviceAt(ordinal);
    if (device.ok() && (*device)->system_index() == system_index) {
      return ordinal;
    }
  }
  return McStatus(mcErrorInvalidDevice,
                  absl::StrFormat("mcIpcOpenMemHandle: the allocation's device "
                                  "(system device %d) is not visible here",
                                  system_index));
}

}  // namespace

MemoryImports& MemoryImports::Get() {
  static MemoryImports* imports = new MemoryImports;
  return *imports;
}

absl::StatusOr<void*> MemoryImports::Open(const MemHandleFields& fields,
                                          int current_device, unsigned flags) {
  absl::MutexLock lock(&mu_);
  const Key key{fields.pid, fields.start_time, fields.generation};
  MX_ASSIGN_OR_RETURN(int device, OrdinalOf(fields.device));
  const bool lazy_peer =
      (flags & mcIpcMemLazyEnablePeerAccess) != 0 && current_device != device &&
      !PeerAccessTable::Get().IsEnabled(current_device, device);
  auto open = by_key_.find(key);
  if (open != by_key_.end()) {
    // [api.ipc.open-mem-handle.open-twice]: the same address, counted.
    if (lazy_peer) {
      MX_RETURN_IF_ERROR(PeerAccessTable::Get().Enable(current_device, device));
    }
    ++by_address_[open->second].opens;
    return reinterpret_cast<void*>(open->second);
  }
  // [api.ipc.open-mem-handle.invalid-handle]: the exporter freed it, or
  // exited.
  MX_ASSIGN_OR_RETURN(
      int fd, OpenRemoteMemoryFile(
                  fields.pid, fields.start_time, fields.fd,
                  MemoryExports::FileName(fields.pid, fields.generation)));
  struct stat status;
  if (fstat(fd, &status) != 0 ||
      static_cast<uint64_t>(status.st_size) != fields.file_size) {
    close(fd);
    return McStatus(mcErrorInvalidValue,
                    "mcIpcOpenMemHandle: the exported file does not match the "
                    "handle");
  }
  MemoryManager& memory = MemoryManager::Get();
  absl::StatusOr<void*> range =
      memory.ReserveMappingRange(device, fields.file_size);
  if (!range.ok()) {
    close(fd);
    return range.status();
  }
  void* mapped = mmap(*range, fields.file_size, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_FIXED, fd, 0);
  close(fd);
  if (mapped == MAP_FAILED) {
    memory.ReleaseMappingRange(device, *range, fields.file_size);
    return McStatus(mcErrorMemoryAllocation,
                    "mcIpcOpenMemHandle: cannot map the exported memory");
  }
  Allocation allocation;
  allocation.base = reinterpret_cast<uintptr_t>(*range) + fields.offset;
  allocation.size = fields.size;
  // [api.ipc.open-mem-handle.pointer-attributes]
  allocation.kind = MemoryKind::kDevice;
  allocation.device = device;
  allocation.origin = DeviceOrigin::kIpcMapping;
  allocation.owner = next_id_;
  absl::Status registered = memory.RegisterAllocation(allocation);
  if (registered.ok() && lazy_peer) {
    // [api.ipc.open-mem-handle.lazy-enable-peer-access]
    registered = PeerAccessTable::Get().Enable(current_device, device);
    if (!registered.ok()) {
      memory.UnregisterRange(reinterpret_cast<void*>(allocation.base));
    }
  }
  if (!registered.ok()) {
    memory.ReleaseMappingRange(device, *range, fields.file_size);
    return registered;
  }
  ++next_id_;
  Mapping mapping;
  mapping.key = key;
  mapping.device = device;
  mapping.range = reinterpret_cast<uintptr_t>(*range);
  mapping.range_size = fields.file_size;
  mapping.opens = 1;
  by_address_[allocation.base] = mapping;
  by_key_[key] = allocation.base;
  return reinterpret_cast<void*>(allocation.base);
}

bool MemoryImports::IsOpen(const void* address) const {
  absl::MutexLock lock(&mu_);
  return by_address_.count(reinterpret_cast<uintptr_t>(address)) != 0;
}

absl::Status MemoryImports::Close(const void* address) {
  absl::MutexLock lock(&mu_);
  auto it = by_address_.find(reinterpret_cast<uintptr_t>(address));
  if (it == by_address_.end()) {
    // [api.ipc.close-mem-handle.not-opened]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("mcIpcCloseMemHandle: %p is not an open "
                                    "mapping of mcIpcOpenMemHandle",
                                    address));
  }
  if (--it->second.opens > 0) return absl::OkStatus();
  // [api.ipc.close-mem-handle.unmaps]
  MemoryManager::Get().UnregisterRange(reinterpret_cast<void*>(it->first));
  Unmap(it->second);
  by_key_.erase(it->second.key);
  by_address_.erase(it);
  return absl::OkStatus();
}

void MemoryImports::ReleaseDevice(int device) {
  absl::MutexLock lock(&mu_);
  for (auto it = by_address_.begin(); it != by_address_.end();) {
    if (it->second.device != device) {
      ++it;
      continue;
    }
    MemoryManager::Get().UnregisterRange(reinterpret_cast<void*>(it->first));
    Unmap(it->second);
    by_key_.erase(it->second.key);
    it = by_address_.erase(it);
  }
}

size_t MemoryImports::size() const {
  absl::MutexLock lock(&mu_);
  return by_address_.size();
}

void MemoryImports::Unmap(const Mapping& mapping) {
  // The arena maps fresh pages over the range (address_arena.cc).
  MemoryManager::Get().ReleaseMappingRange(
      mapping.device, reinterpret_cast<void*>(mapping.range),
      mapping.range_size);
}

}  // namespace mxcts::runtime
