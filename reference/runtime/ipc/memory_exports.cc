// Copyright mxcts authors.
//
// Exports (memory_exports.h). Moving the pages:
//
//   1. memfd_create("mxcts-ipc-mem-<pid>-<generation>"), sized to the
//      allocation's whole pages (in checked mode an allocation need not
//      start at a page: the file then starts at its first page, and the
//      handle records the offset);
//   2. copy the pages' current contents into the file;
//   3. mmap the file MAP_SHARED | MAP_FIXED over the same pages, which
//      replaces them in one step.
//
// Nothing else changes: the allocation table entry, the guard pages and the
// protection the arena gave stay. Releasing is the arena's: its release
// maps anonymous pages over the range (address_arena.cc), which ends the
// shared mapping; the release observer closes the file first, so the
// handle stops opening before the address can be reused.
//
// Locks: Released runs under the memory manager's lock and takes this
// table's; Export takes this table's and calls only the manager's lock-free
// lookups (MemoryManager::Find), so the order is always manager, then
// exports.
//
// Tested by memory_exports_test.cc.

#include "reference/runtime/ipc/memory_exports.h"

#include <sys/mman.h>
#include <unistd.h>

#include <mutex>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/ipc/remote_file.h"
#include "reference/runtime/memory/address_arena.h"
#include "reference/runtime/memory/memory_manager.h"

namespace mxcts::runtime {
namespace {

// Writes [pages, pages + size) into `fd` from its start.
bool CopyInto(int fd, const char* pages, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t written =
        pwrite(fd, pages + done, size - done, static_cast<off_t>(done));
    if (written <= 0) return false;
    done += static_cast<size_t>(written);
  }
  return true;
}

}  // namespace

MemoryExports& MemoryExports::Get() {
  static MemoryExports* exports = new MemoryExports;
  return *exports;
}

std::string MemoryExports::FileName(int pid, uint64_t generation) {
  return absl::StrCat("mxcts-ipc-mem-", pid, "-", generation);
}

absl::StatusOr<MemHandleFields> MemoryExports::Export(const void* address) {
  static std::once_flag observing;
  std::call_once(observing, [] {
    MemoryManager::Get().SetReleaseObserver(
        [](const Allocation& allocation) { Get().Released(allocation); });
  });
  absl::MutexLock lock(&mu_);
  std::optional<Allocation> found = MemoryManager::Get().Find(address);
  if (!found.has_value() || found->kind != MemoryKind::kDevice ||
      found->origin != DeviceOrigin::kMalloc) {
    // [api.ipc.get-mem-handle.other-memory]
    std::string what =
        !found.has_value() ? "is in no live allocation"
        : found->kind != MemoryKind::kDevice
            ? absl::StrCat("is ", MemoryKindName(found->kind))
        : found->origin == DeviceOrigin::kStreamOrdered
            ? "is a stream-ordered allocation (share it through its pool)"
        : found->origin == DeviceOrigin::kGraph
            ? "is a graph's allocation"
            : "is another process's memory (an IPC mapping)";
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("mcIpcGetMemHandle: %p %s; only mcMalloc "
                                    "memory can be exported",
                                    address, what));
  }
  // [api.ipc.get-mem-handle.whole-allocation]
  auto existing = exports_.find(found->base);
  if (existing != exports_.end()) return existing->second.fields;

  const size_t page = AddressArena::PageSize();
  const uintptr_t pages = found->base / page * page;
  const uintptr_t end = (found->end() + page - 1) / page * page;
  MX_ASSIGN_OR_RETURN(Device * device,
                      DeviceTable::Get().DeviceAt(found->device));
  MemHandleFields fields;
  fields.pid = getpid();
  fields.start_time = ThisProcessStartTime();
  fields.generation = next_generation_;
  fields.size = found->size;
  fields.file_size = end - pages;
  fields.offset = static_cast<uint32_t>(found->base - pages);
  fields.device = device->system_index();
  const std::string name = FileName(fields.pid, fields.generation);
  fields.fd = memfd_create(name.c_str(), MFD_CLOEXEC);
  auto refuse = [&](const char* what) {
    if (fields.fd >= 0) close(fields.fd);
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrFormat("mcIpcGetMemHandle: %s for %u bytes", what,
                                    fields.size));
  };
  if (fields.fd < 0 ||
      ftruncate(fields.fd, static_cast<off_t>(fields.file_size)) != 0) {
    return refuse("cannot create a shared memory file");
  }
  void* base = reinterpret_cast<void*>(pages);
  if (!CopyInto(fields.fd, static_cast<const char*>(base), fields.file_size)) {
    return refuse("cannot copy the allocation into its shared memory file");
  }
  if (mmap(base, fields.file_size, PROT_READ | PROT_WRITE,
           MAP_SHARED | MAP_FIXED, fields.fd, 0) == MAP_FAILED) {
    return refuse("cannot map the shared memory file");
  }
  ++next_generation_;
  exports_[found->base] = Exported{fields, pages};
  return fields;
}

bool MemoryExports::IsExported(const void* base) const {
  absl::MutexLock lock(&mu_);
  return exports_.count(reinterpret_cast<uintptr_t>(base)) != 0;
}

void MemoryExports::Released(const Allocation& allocation) {
  absl::MutexLock lock(&mu_);
  auto it = exports_.find(allocation.base);
  if (it == exports_.end()) return;
  // [api.ipc.open-mem-handle.freed-allocation]: the handle no longer opens
  // (the reference's choice).
  close(it->second.fields.fd);
  exports_.erase(it);
}

}  // namespace mxcts::runtime
