// Copyright mxcts authors.
//
// reference/runtime/pools/pool_table.h: the memory pools of the process:
// each device's default and current pool, explicit pools, and what
// happens to them at synchronizations and device resets.
//
// A device's default pool is made on first use and is the same object
// until the process ends [api.pool.default.get-default-pool]; a device
// reset frees its memory and restores its attributes. Destroyed pools stay
// in the table, marked dead, so a stale handle is recognized; their blocks
// are released once the allocations in them have been freed and their
// frees reached [api.pool.destroy.deferred-release].
//
// Every method requires the runtime's execution lock.
//
//   PoolTable& pools = PoolTable::Get();
//   MemoryPool* pool = pools.CurrentPool(0);
//   absl::StatusOr<MemoryPool*> live = pools.Find(handle);

#ifndef MXCTS_REFERENCE_RUNTIME_POOLS_POOL_TABLE_H_
#define MXCTS_REFERENCE_RUNTIME_POOLS_POOL_TABLE_H_

#include <stdint.h>

#include <map>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "reference/runtime/pools/memory_pool.h"

namespace mxcts::runtime {

class PoolTable {
 public:
  // The process's table; installs the release at synchronization
  // (device_work.h) on first use.
  static PoolTable& Get();

  // The default pool of `device` (a valid ordinal).
  MemoryPool* DefaultPool(int device);
  // The current pool of `device`: its default pool until SetCurrentPool.
  MemoryPool* CurrentPool(int device);
  // Makes `pool` (live, allocatable, of `device`) the current pool.
  void SetCurrentPool(int device, MemoryPool* pool);

  // The live pool behind `handle`; mcErrorInvalidValue (naming `api`) for
  // null, a handle never made, or a destroyed pool.
  absl::StatusOr<MemoryPool*> Find(mcMemPool_t handle, const char* api) const;
  // The pool, live or destroyed, whose allocations carry `owner`.
  MemoryPool* FindById(uint64_t owner) const;

  // A new explicit pool with `props` (validated by the caller).
  MemoryPool* Create(const mcMemPoolProps& props);
  // Destroys `pool` (live, not a default pool): its handle dies, a device
  // whose current pool it was goes back to the default pool, and the
  // memory of frees already reached is released.
  void Destroy(MemoryPool* pool);

  // Releases what each pool of `device` holds above its release threshold
  // (a destroyed pool: everything free), as far as frees have been
  // reached. [api.pool.release-threshold.released-at-synchronization]
  void ReleaseAtSynchronization(int device);

  // mcDeviceReset of `device`: every allocation of its pools ends, their
  // memory is released, explicit pools die, the default pool's attributes
  // and access are restored and it becomes current again.
  void ResetDevice(int device);

 private:
  PoolTable() = default;
  MemoryPool* NewPool(int device);

  std::vector<std::unique_ptr<MemoryPool>> pools_;  // every pool ever made
  std::map<int, MemoryPool*> default_pools_;
  std::map<int, MemoryPool*> current_pools_;
  uint64_t next_id_ = 1;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_POOLS_POOL_TABLE_H_
