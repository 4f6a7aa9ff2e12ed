// Copyright mxcts authors.
//
// The block choice of memory_pool.h. Blocks live in the pool's map by base
// address; a free block is found by scanning that map, which stays short:
// a pool holds a block per allocation that is live or cached, and a
// synchronization above the release threshold empties the cache.
//
// Tested by memory_pool_test.cc.

#include "reference/runtime/pools/memory_pool.h"

#include <algorithm>
#include <tuple>

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/address_arena.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/pools/pool_sharing.h"

namespace mxcts::runtime {
namespace {

// How a free block may be reused by an allocation in a given queue.
enum class Reuse {
  kNo,
  kNow,           // stream order, an event dependency, or a reached free
  kAfterTheFree,  // with an internal dependency on the free
};

Reuse HowReusable(const MemoryPool& pool, const MemoryPool::Block& block,
                  const Queue* queue) {
  const Timeline& timeline = Timeline::Get();
  const Point& freed = block.freed_at;
  // Freed outside stream order (mcFree, which waited for all work).
  if (freed.queue == nullptr) return Reuse::kNow;
  // [api.pool.reuse.same-stream]
  if (freed.queue == queue) return Reuse::kNow;
  // [api.pool.reuse.follow-event-dependencies]
  if (pool.follow_event_dependencies && timeline.OrderedAfter(queue, freed)) {
    return Reuse::kNow;
  }
  // [api.pool.reuse.opportunistic]
  if (pool.allow_opportunistic && timeline.Reached(freed)) return Reuse::kNow;
  // [api.pool.reuse.internal-dependencies]
  if (pool.allow_internal_dependencies) return Reuse::kAfterTheFree;
  // [api.pool.reuse.disabled-policies-respected]
  return Reuse::kNo;
}

// Gives the block at `base` back to the device's address range, as it was
// reserved: an imported allocation as a mapping of another process's
// memory, any other block as this device's memory.
void ReturnBlock(const MemoryPool& pool, uintptr_t base, size_t size) {
  MemoryManager& memory = MemoryManager::Get();
  if (pool.imported) {
    memory.ReleaseMappingRange(pool.device, reinterpret_cast<void*>(base),
                               size);
  } else {
    memory.ReleaseBlock(pool.device, reinterpret_cast<void*>(base), size);
  }
}

void CountUse(MemoryPool& pool) {
  pool.reserved_high = std::max(pool.reserved_high, pool.reserved_bytes);
  pool.used_high = std::max(pool.used_high, pool.used_bytes);
}

}  // namespace

size_t BlockBytesFor(size_t size) {
  const size_t page = AddressArena::PageSize();
  return (size + page - 1) / page * page;
}

absl::StatusOr<PoolPlacement> AllocateFromPool(MemoryPool& pool, size_t size,
                                               const Queue* queue,
                                               size_t capacity) {
  const size_t need = BlockBytesFor(size);
  // The most recently freed fitting block that may be reused now, else the
  // most recently freed one that may be reused after its free.
  using Candidate = std::tuple<uint64_t, uintptr_t>;  // free order, base
  std::optional<Candidate> now, later;
  for (const auto& [base, block] : pool.blocks) {
    if (block.in_use || block.size < need || block.size > 2 * need) continue;
    Candidate candidate{block.free_order, base};
    switch (HowReusable(pool, block, queue)) {
      case Reuse::kNow:
        if (!now.has_value() || candidate > *now) now = candidate;
        break;
      case Reuse::kAfterTheFree:
        if (!later.has_value() || candidate > *later) later = candidate;
        break;
      case Reuse::kNo:
        break;
    }
  }
  PoolPlacement placement;
  std::optional<Candidate> chosen = now.has_value() ? now : later;
  if (chosen.has_value()) {
    placement.base = std::get<1>(*chosen);
    placement.reused = true;
    MemoryPool::Block& block = pool.blocks[placement.base];
    if (!now.has_value()) placement.wait_for = block.freed_at;
    block.in_use = true;
    block.requested = size;
    pool.used_bytes += block.size;
  } else {
    // [api.pool.create.max-size]
    if (pool.props.maxSize != 0 &&
        pool.reserved_bytes + need > pool.props.maxSize) {
      return McStatus(mcErrorMemoryAllocation,
                      absl::StrFormat("memory pool: %u more bytes would pass "
                                      "the pool's maxSize of %u bytes",
                                      need, pool.props.maxSize));
    }
    MX_ASSIGN_OR_RETURN(void* base, MemoryManager::Get().ReserveBlock(
                                        pool.device, need, capacity));
    placement.base = reinterpret_cast<uintptr_t>(base);
    pool.blocks[placement.base] = MemoryPool::Block{};
    if (IsExportablePool(pool)) {
      absl::Status backed = BackBlockWithFile(pool, placement.base, need);
      if (!backed.ok()) {
        pool.blocks.erase(placement.base);
        MemoryManager::Get().ReleaseBlock(pool.device, base, need);
        return backed;
      }
    }
    MemoryPool::Block& block = pool.blocks[placement.base];
    block.size = need;
    block.requested = size;
    block.in_use = true;
    pool.reserved_bytes += need;
    pool.used_bytes += need;
    if (MemoryManager::Get().checked_mode()) {
      // Accessible once the allocation's stream reaches it.
      MemoryManager::SetPagesAccessible(base, need, false);
    }
  }
  CountUse(pool);
  return placement;
}

void FreeToPool(MemoryPool& pool, uintptr_t base, Point freed_at) {
  auto found = pool.blocks.find(base);
  if (found == pool.blocks.end() || !found->second.in_use) return;
  MemoryPool::Block& block = found->second;
  block.in_use = false;
  block.requested = 0;
  block.freed_at = freed_at;
  block.free_order = pool.next_free_order++;
  pool.used_bytes -= block.size;
}

size_t ReleaseFreeBlocks(MemoryPool& pool, uint64_t keep) {
  // [api.pool.ipc.trim-may-be-no-op]: a live exportable pool keeps its
  // memory; a destroyed one gives it back like any other once its
  // allocations are freed [api.pool.destroy.deferred-release] (found by
  // the API fuzzer: the memory stayed reserved for good).
  if (IsExportablePool(pool) && pool.live) return 0;
  const Timeline& timeline = Timeline::Get();
  // Oldest frees go first, so the blocks most likely to be reused stay.
  std::vector<std::pair<uint64_t, uintptr_t>> releasable;
  for (const auto& [base, block] : pool.blocks) {
    if (!block.in_use && timeline.Reached(block.freed_at)) {
      releasable.emplace_back(block.free_order, base);
    }
  }
  std::sort(releasable.begin(), releasable.end());
  size_t released = 0;
  for (const auto& [order, base] : releasable) {
    const size_t size = pool.blocks[base].size;
    if (pool.reserved_bytes < keep + size) continue;
    ReturnBlock(pool, base, size);
    pool.blocks.erase(base);
    pool.reserved_bytes -= size;
    released += size;
  }
  return released;
}

void ReleaseAllBlocks(MemoryPool& pool) {
  MemoryManager& memory = MemoryManager::Get();
  for (const auto& [base, block] : pool.blocks) {
    if (block.in_use) memory.UnregisterRange(reinterpret_cast<void*>(base));
    ReturnBlock(pool, base, block.size);
  }
  pool.blocks.clear();
  pool.reserved_bytes = 0;
  pool.used_bytes = 0;
}

uint64_t ReadWriteAccessMask(const MemoryPool& pool) {
  uint64_t mask = uint64_t{1} << pool.device;
  for (const auto& [device, flags] : pool.access) {
    if (flags == mcMemAccessFlagsProtReadWrite && device < 64) {
      mask |= uint64_t{1} << device;
    }
  }
  return mask;
}

uint64_t ReadAccessMask(const MemoryPool& pool) {
  uint64_t mask = uint64_t{1} << pool.device;
  for (const auto& [device, flags] : pool.access) {
    if (flags != mcMemAccessFlagsProtNone && device < 64) {
      mask |= uint64_t{1} << device;
    }
  }
  return mask;
}

}  // namespace mxcts::runtime
