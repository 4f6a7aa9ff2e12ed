// Copyright mxcts authors.
//
// The pool table of pool_table.h. Pools are few (a default pool per device
// and the program's explicit ones), so lookups scan a vector; a handle is
// the pool object's address, checked against the table before use.
//
// Tested by pool_table_test.cc.

#include "reference/runtime/pools/pool_table.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/timeline/device_work.h"

namespace mxcts::runtime {
namespace {

void ReleaseAfterSynchronization(int device) {
  PoolTable::Get().ReleaseAtSynchronization(device);
}

// A default pool's or new pool's properties on `device`.
mcMemPoolProps DeviceProps(int device) {
  mcMemPoolProps props{};
  props.allocType = mcMemAllocationTypePinned;
  props.handleTypes = mcMemHandleTypeNone;
  props.location.type = mcMemLocationTypeDevice;
  props.location.id = device;
  return props;
}

void RestoreAttributes(MemoryPool& pool) {
  pool.release_threshold = 0;
  pool.follow_event_dependencies = true;
  pool.allow_opportunistic = true;
  pool.allow_internal_dependencies = true;
  pool.reserved_high = pool.reserved_bytes;
  pool.used_high = pool.used_bytes;
  pool.access.clear();
}

}  // namespace

PoolTable& PoolTable::Get() {
  static PoolTable* table = [] {
    SetSynchronizationObserver(&ReleaseAfterSynchronization);
    return new PoolTable;
  }();
  return *table;
}

MemoryPool* PoolTable::NewPool(int device) {
  auto pool = std::make_unique<MemoryPool>();
  pool->device = device;
  pool->props = DeviceProps(device);
  pool->id = next_id_++;
  pools_.push_back(std::move(pool));
  return pools_.back().get();
}

MemoryPool* PoolTable::DefaultPool(int device) {
  MemoryPool*& pool = default_pools_[device];
  if (pool == nullptr) {
    pool = NewPool(device);
    pool->is_default = true;
  }
  return pool;
}

MemoryPool* PoolTable::CurrentPool(int device) {
  auto current = current_pools_.find(device);
  if (current != current_pools_.end()) return current->second;
  return DefaultPool(device);  // [api.pool.default.is-initial-current-pool]
}

void PoolTable::SetCurrentPool(int device, MemoryPool* pool) {
  current_pools_[device] = pool;
}

absl::StatusOr<MemoryPool*> PoolTable::Find(mcMemPool_t handle,
                                            const char* api) const {
  if (handle == nullptr) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: the pool is null", api));
  }
  for (const std::unique_ptr<MemoryPool>& pool : pools_) {
    if (pool.get() == handle) {
      if (pool->live) return pool.get();
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%s: pool %p was destroyed", api,
                                      static_cast<void*>(handle)));
    }
  }
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("%s: %p is not a memory pool", api,
                                  static_cast<void*>(handle)));
}

MemoryPool* PoolTable::FindById(uint64_t owner) const {
  for (const std::unique_ptr<MemoryPool>& pool : pools_) {
    if (pool->id == owner) return pool.get();
  }
  return nullptr;
}

MemoryPool* PoolTable::Create(const mcMemPoolProps& props) {
  MemoryPool* pool = NewPool(props.location.id);
  pool->props = props;
  return pool;
}

void PoolTable::Destroy(MemoryPool* pool) {
  pool->live = false;
  // [api.pool.destroy.current-reverts-to-default]
  if (CurrentPool(pool->device) == pool) current_pools_.erase(pool->device);
  ReleaseFreeBlocks(*pool, 0);
}

void PoolTable::ReleaseAtSynchronization(int device) {
  for (const std::unique_ptr<MemoryPool>& pool : pools_) {
    if (pool->device != device) continue;
    // An imported pool keeps nothing it no longer maps for an allocation.
    if (!pool->live || pool->imported) {
      ReleaseFreeBlocks(*pool, 0);
    } else if (pool->reserved_bytes > pool->release_threshold) {
      ReleaseFreeBlocks(*pool, pool->release_threshold);
    }
  }
}

void PoolTable::ResetDevice(int device) {
  for (const std::unique_ptr<MemoryPool>& pool : pools_) {
    if (pool->device != device) continue;
    ReleaseAllBlocks(*pool);
    if (!pool->is_default) pool->live = false;
    RestoreAttributes(*pool);
  }
  current_pools_.erase(device);
}

}  // namespace mxcts::runtime
