// Copyright mxcts authors.
//
// reference/runtime/memory/allocation_table.h: every live range of memory the
// runtime knows about, with its kind and device.
//
// The table is what lets every pointer argument be checked: a pointer is
// inside a live allocation of a known kind and device, or it is not known
// (pageable host memory, or garbage). Ranges never overlap
// [api.memory.uva.single-address-space].
//
//   AllocationTable table;
//   table.Insert({base, 1000, MemoryKind::kDevice, /*device=*/0, 0});
//   std::optional<Allocation> a = table.Find(base + 10);   // the allocation
//   table.Erase(base);

#ifndef MXCTS_REFERENCE_RUNTIME_MEMORY_ALLOCATION_TABLE_H_
#define MXCTS_REFERENCE_RUNTIME_MEMORY_ALLOCATION_TABLE_H_

#include <stddef.h>
#include <stdint.h>

#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace mxcts::runtime {

enum class MemoryKind {
  kDevice,           // mcMalloc, mcMallocPitch, mcMalloc3D
  kHost,             // mcMallocHost, mcHostAlloc (page-locked host memory)
  kManaged,          // mcMallocManaged
  kDeviceVariable,   // a __device__ or __constant__ variable's instance
  kManagedVariable,  // a __managed__ variable
  kRegisteredHost,   // pageable host memory pinned by mcHostRegister
};

// A name for diagnostics: "device memory", "page-locked host memory", ...
const char* MemoryKindName(MemoryKind kind);

// Where a range of device memory (MemoryKind::kDevice) came from; it
// decides how the range is freed and which devices may reach it.
enum class DeviceOrigin {
  kMalloc,         // mcMalloc, mcMallocPitch, mcMalloc3D
  kStreamOrdered,  // mcMallocAsync, mcMallocFromPoolAsync (pools/)
  kIpcMapping,     // another process's memory mapped here (ipc/)
  kGraph,          // a graph's memory allocation node (graphs/)
};

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;  // bytes requested; > 0
  MemoryKind kind = MemoryKind::kDevice;
  int device = -1;     // the device it belongs to; -1 for none
  unsigned flags = 0;  // mcMallocHost, mcHostRegister or mcMallocManaged flags
  // Set by mcPointerSetAttribute(mcPointerAttributeSyncMemops): synchronous
  // copies and sets on the allocation complete before their call returns.
  bool sync_memops = false;
  DeviceOrigin origin = DeviceOrigin::kMalloc;
  // Stream-ordered allocations: bit d set when device d may access the
  // memory (its pool's access; peer access does not apply)
  // [api.pool.access.independent-of-peer-access].
  uint64_t pool_access = 0;
  // Bit d set when device d may at least read it (mcMemAccessFlagsProtRead).
  uint64_t pool_read_access = 0;
  // False while the pages are kept inaccessible because the allocation's
  // stream has not reached it yet (checked mode, stream-ordered only).
  bool pages_ready = true;
  // An id the owner of a stream-ordered allocation or an IPC mapping
  // gives it (its pool, its mapping); 0 for other memory.
  uint64_t owner = 0;

  uintptr_t end() const { return base + size; }
  bool Contains(uintptr_t address) const {
    return address >= base && address < end();
  }
};

class AllocationTable {
 public:
  // Adds `allocation`; an internal error if it overlaps a live range.
  absl::Status Insert(const Allocation& allocation);
  // The live allocation containing `address`, if any.
  std::optional<Allocation> Find(const void* address) const;
  // The live allocation of lowest address that overlaps [begin, begin +
  // size), if any (size > 0).
  std::optional<Allocation> FindOverlap(uintptr_t begin, size_t size) const;
  // Applies `change` to the allocation that starts exactly at `base`; its
  // base and size must stay as they are. False if there is none.
  bool Update(const void* base, const std::function<void(Allocation&)>& change);
  // Removes and returns the allocation that starts exactly at `base`.
  std::optional<Allocation> Erase(const void* base);
  // Removes and returns every allocation for which `predicate` holds.
  std::vector<Allocation> EraseIf(
      const std::function<bool(const Allocation&)>& predicate);
  // The total size of the live allocations for which `predicate` holds.
  size_t TotalSize(
      const std::function<bool(const Allocation&)>& predicate) const;

 private:
  mutable absl::Mutex mu_;
  std::map<uintptr_t, Allocation> by_base_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MEMORY_ALLOCATION_TABLE_H_
