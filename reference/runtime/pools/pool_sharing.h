// Copyright mxcts authors.
//
// reference/runtime/pools/pool_sharing.h: pools shared between processes
// (mcMemPoolExportToShareableHandle and the calls after it).
//
// The memory of an exportable pool (one created with
// mcMemHandleTypePosixFileDescriptor) lives in a memory file (memfd): each
// block is a range of the file mapped shared at the block's address. The
// file's first page holds the pool's identity (a magic word, the exporting
// process, the pool's id, its device), so an importer can tell a pool's
// file from any other descriptor. Exporting the pool hands out a new
// descriptor of the file [api.pool.ipc.export-import-round-trip]; an
// allocation is exported as its range of the file
// [api.pool.ipc.export-pointer]. An importer maps the range at an address
// of its own device range, so its address differs from the exporter's,
// and the bytes are the same memory.
//
// Releasing a block to the arena also ends its file mapping (the arena maps
// fresh pages over what it gets back). An imported allocation's range is
// another process's memory: it is reserved and released as an IPC mapping's
// is (MemoryManager::ReserveMappingRange), not counted as this process's
// device memory.
//
// An exportable pool never gives memory back to the system: its blocks
// stay in the file until the pool is destroyed and its allocations freed
// [api.pool.ipc.trim-may-be-no-op]. An imported pool holds only the
// allocations imported into it, each released when freed.
//
// Every function requires the runtime's execution lock.

#ifndef MXCTS_REFERENCE_RUNTIME_POOLS_POOL_SHARING_H_
#define MXCTS_REFERENCE_RUNTIME_POOLS_POOL_SHARING_H_

#include <stddef.h>
#include <stdint.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "reference/runtime/pools/memory_pool.h"

namespace mxcts::runtime {

// True if `pool` was created exportable (and is not an imported pool).
bool IsExportablePool(const MemoryPool& pool);

// Maps a new range of `pool`'s memory file (made on first use) over the
// `size` bytes of the block at `base`, recording the range in the block.
// mcErrorMemoryAllocation if the file cannot grow or be mapped.
absl::Status BackBlockWithFile(MemoryPool& pool, uintptr_t base, size_t size);

// A new descriptor of `pool`'s memory file (exportable, live).
absl::StatusOr<int> ExportPoolFile(MemoryPool& pool);

// A new imported pool for the pool whose file `fd` is (the caller keeps
// `fd`). mcErrorInvalidValue if `fd` is not an exported pool's file.
absl::StatusOr<MemoryPool*> ImportPoolFile(int fd);

// Describes the live allocation of an exportable pool that starts at
// `ptr`. mcErrorInvalidValue for any other pointer.
absl::Status ExportAllocation(const void* ptr, mcMemPoolPtrExportData* data);

// Maps the allocation `data` describes from the imported `pool` and
// returns its address here. mcErrorInvalidValue if the data does not
// describe an allocation of that pool's file.
absl::StatusOr<void*> ImportAllocation(MemoryPool& pool,
                                       const mcMemPoolPtrExportData& data);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_POOLS_POOL_SHARING_H_
