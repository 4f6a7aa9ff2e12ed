// Copyright mxcts authors.
//
// reference/runtime/pools/memory_pool.h: one memory pool: the blocks of
// device memory it holds, which of them back live stream-ordered
// allocations, where each free one was freed, and the pool's attributes
// and access.
//
// A block is whole pages of its device's address range
// (MemoryManager::ReserveBlock), reserved for the pool until released. An
// allocation takes a whole block: a free block of the same page count, or
// up to twice it, if the reuse rules permit, else a new one. A block freed
// by mcFreeAsync remembers the timeline point after the free; it may back a
// new allocation in stream S when [api.pool.reuse.never-races-prior-user]:
//
//   - S is the freeing stream (queue order) [api.pool.reuse.same-stream];
//   - S is ordered after the free through events or the legacy stream, and
//     mcMemPoolReuseFollowEventDependencies is on
//     [api.pool.reuse.follow-event-dependencies];
//   - the free has been reached, and mcMemPoolReuseAllowOpportunistic is
//     on [api.pool.reuse.opportunistic];
//   - mcMemPoolReuseAllowInternalDependencies is on: the allocation then
//     waits for the free [api.pool.reuse.internal-dependencies].
//
// Candidates are tried most recently freed first; one that needs no added
// dependency wins over one that does. So the choice depends only on the
// program's calls and the timeline mode, never on timing.
//
// In checked mode (MXCTS_MEMCHECK=1) a block's pages are accessible only
// between the point its allocation is reached and the point its free is
// reached, so device work that uses the memory outside its stream-ordered
// lifetime faults [api.pool.free-async.use-after-free-undefined].
//
// Every method runs with the runtime's execution lock held (the timeline
// decides reuse), and takes the pool table's mutex where it changes state
// the table's other users read.

#ifndef MXCTS_REFERENCE_RUNTIME_POOLS_MEMORY_POOL_H_
#define MXCTS_REFERENCE_RUNTIME_POOLS_MEMORY_POOL_H_

#include <stddef.h>
#include <stdint.h>

#include <map>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "reference/runtime/timeline/timeline.h"

// The object behind an mcMemPool_t (declared, opaque, in the public header).
// Pools are never deleted: a destroyed pool stays, marked dead, so a stale
// handle is recognized.
struct MCmemPoolHandle_st {
  // Where a block of a pool is.
  struct Block {
    size_t size = 0;       // bytes reserved: whole pages
    size_t requested = 0;  // the live allocation's size; 0 when free
    bool in_use = false;
    mxcts::runtime::Point freed_at;  // the point after its free
    uint64_t free_order = 0;         // larger: freed later
    // Exportable and imported pools: the block is this range of the
    // pool's memory file (pool_sharing.h).
    bool file_backed = false;
    uint64_t file_offset = 0;
  };

  int device = 0;
  mcMemPoolProps props{};
  bool is_default = false;
  bool imported = false;  // mcMemPoolImportFromShareableHandle
  bool live = true;
  uint64_t id = 0;  // the Allocation::owner of its allocations

  // Attributes. [api.pool.attribute.set-then-get]
  uint64_t release_threshold = 0;  // [api.pool.release-threshold.default-zero]
  bool follow_event_dependencies = true;
  bool allow_opportunistic = true;
  bool allow_internal_dependencies = true;
  uint64_t reserved_bytes = 0;
  uint64_t used_bytes = 0;
  uint64_t reserved_high = 0;
  uint64_t used_high = 0;

  // Access of other devices (the pool's own device always has read and
  // write access). [api.pool.access.get-reports-flags]
  std::map<int, mcMemAccessFlags> access;

  std::map<uintptr_t, Block> blocks;  // by base address
  uint64_t next_free_order = 1;

  // Exportable and imported pools (pool_sharing.h): the memory file, its
  // length, and the identity its first page holds.
  int shared_fd = -1;
  uint64_t shared_size = 0;
  uint64_t exporter_pid = 0;
  uint64_t exporter_pool_id = 0;
};

namespace mxcts::runtime {

using MemoryPool = MCmemPoolHandle_st;

// What Allocate chose: the block's address and a point the allocation must
// wait for (set when it reuses memory through an internal dependency).
struct PoolPlacement {
  uintptr_t base = 0;
  std::optional<Point> wait_for;
  bool reused = false;
};

// Picks a block of `pool` for `size` (> 0) bytes for a command about to be
// enqueued into `queue`, reserving a new block (of the device's `capacity`
// bytes) if no free one may be reused; marks it in use and updates the
// counters. mcErrorMemoryAllocation if the device has no room.
absl::StatusOr<PoolPlacement> AllocateFromPool(MemoryPool& pool, size_t size,
                                               const Queue* queue,
                                               size_t capacity);

// Marks the block at `base` (in use) free at `freed_at`.
void FreeToPool(MemoryPool& pool, uintptr_t base, Point freed_at);

// Releases free blocks whose free has been reached, most recently freed
// last, while the pool would keep at least `keep` bytes reserved; nothing
// for a live exportable pool. Returns the bytes released.
size_t ReleaseFreeBlocks(MemoryPool& pool, uint64_t keep);

// Releases every block of `pool`, in use or not (device reset).
void ReleaseAllBlocks(MemoryPool& pool);

// The bytes of whole pages that hold `size` bytes.
size_t BlockBytesFor(size_t size);

// Bit d set when device d may read and write the pool's memory, and
// when it may read it (for Allocation::pool_access and checked mode).
uint64_t ReadWriteAccessMask(const MemoryPool& pool);
uint64_t ReadAccessMask(const MemoryPool& pool);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_POOLS_MEMORY_POOL_H_
