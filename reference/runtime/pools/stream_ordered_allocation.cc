// Copyright mxcts authors.
//
// Stream-ordered allocation over the pools (memory_pool.h), the allocation
// table and the timeline; see stream_ordered_allocation.h for what is a
// command and what is only a point.
//
// Tested by stream_ordered_allocation_test.cc.

#include "reference/runtime/pools/stream_ordered_allocation.h"

#include <optional>
#include <utility>

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/pools/pool_table.h"

namespace mxcts::runtime {

absl::StatusOr<void*> AllocateInStream(MemoryPool& pool, size_t size,
                                       Queue* queue, size_t capacity) {
  MX_ASSIGN_OR_RETURN(PoolPlacement placement,
                      AllocateFromPool(pool, size, queue, capacity));
  MemoryManager& memory = MemoryManager::Get();
  const bool checked = memory.checked_mode();
  Allocation allocation;
  allocation.base = placement.base;
  allocation.size = size;
  allocation.kind = MemoryKind::kDevice;
  allocation.device = pool.device;
  allocation.origin = DeviceOrigin::kStreamOrdered;
  allocation.pool_access = ReadWriteAccessMask(pool);
  allocation.pool_read_access = ReadAccessMask(pool);
  allocation.pages_ready = !checked;
  allocation.owner = pool.id;
  absl::Status registered = memory.RegisterAllocation(allocation);
  if (!registered.ok()) {
    FreeToPool(pool, placement.base, Point{});
    return registered;
  }
  if (checked || placement.wait_for.has_value()) {
    Command command;
    command.description = absl::StrFormat("mcMallocAsync of %u bytes", size);
    // [api.pool.reuse.internal-dependencies]
    if (placement.wait_for.has_value()) {
      command.after.push_back(*placement.wait_for);
    }
    const size_t block_size = pool.blocks[placement.base].size;
    const uintptr_t base = placement.base;
    command.work = [checked, base, block_size]() -> mcError_t {
      if (checked) {
        // [api.pool.malloc-async.usable-after-in-stream-order]
        MemoryManager::SetPagesAccessible(reinterpret_cast<void*>(base),
                                          block_size, true);
        MemoryManager::Get().UpdateAllocation(
            reinterpret_cast<void*>(base),
            [](Allocation& a) { a.pages_ready = true; });
      }
      return mcSuccess;
    };
    command.runs_after_fault = true;
    Timeline& timeline = Timeline::Get();
    timeline.AfterSubmit(timeline.Enqueue(queue, std::move(command)));
  }
  return reinterpret_cast<void*>(placement.base);
}

absl::StatusOr<Allocation> FindStreamOrdered(const void* ptr, const char* api) {
  std::optional<Allocation> found = MemoryManager::Get().Find(ptr);
  if (ptr == nullptr || !found.has_value() ||
      found->base != reinterpret_cast<uintptr_t>(ptr) ||
      found->kind != MemoryKind::kDevice ||
      found->origin != DeviceOrigin::kStreamOrdered) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: %p is not the start of a live "
                                    "stream-ordered allocation",
                                    api, ptr));
  }
  return *found;
}

void FreeInStream(const Allocation& allocation, Queue* queue) {
  MemoryPool* pool = PoolTable::Get().FindById(allocation.owner);
  MemoryManager& memory = MemoryManager::Get();
  memory.UnregisterRange(reinterpret_cast<void*>(allocation.base));
  Timeline& timeline = Timeline::Get();
  Point freed_at = queue->Tail();
  if (memory.checked_mode()) {
    const uintptr_t base = allocation.base;
    const size_t block_size = pool->blocks[base].size;
    Command command;
    command.description =
        absl::StrFormat("mcFreeAsync of %u bytes", allocation.size);
    command.work = [base, block_size]() -> mcError_t {
      // [api.pool.free-async.use-after-free-undefined]
      MemoryManager::SetPagesAccessible(reinterpret_cast<void*>(base),
                                        block_size, false);
      return mcSuccess;
    };
    command.runs_after_fault = true;
    freed_at = timeline.Enqueue(queue, std::move(command));
    FreeToPool(*pool, allocation.base, freed_at);
    timeline.AfterSubmit(freed_at);
    return;
  }
  FreeToPool(*pool, allocation.base, freed_at);
}

void FreeAtOnce(const Allocation& allocation) {
  MemoryPool* pool = PoolTable::Get().FindById(allocation.owner);
  MemoryManager& memory = MemoryManager::Get();
  memory.UnregisterRange(reinterpret_cast<void*>(allocation.base));
  if (memory.checked_mode()) {
    MemoryManager::SetPagesAccessible(reinterpret_cast<void*>(allocation.base),
                                      pool->blocks[allocation.base].size,
                                      false);
  }
  FreeToPool(*pool, allocation.base, Point{});
}

void ApplyPoolAccess(const MemoryPool& pool) {
  const uint64_t read_write = ReadWriteAccessMask(pool);
  const uint64_t read = ReadAccessMask(pool);
  MemoryManager& memory = MemoryManager::Get();
  for (const auto& [base, block] : pool.blocks) {
    if (!block.in_use) continue;
    memory.UpdateAllocation(reinterpret_cast<void*>(base), [&](Allocation& a) {
      a.pool_access = read_write;
      a.pool_read_access = read;
    });
  }
}

}  // namespace mxcts::runtime
