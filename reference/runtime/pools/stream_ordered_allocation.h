// Copyright mxcts authors.
//
// reference/runtime/pools/stream_ordered_allocation.h: mcMallocAsync and
// mcFreeAsync on the device timeline.
//
// The address of an allocation is chosen when the call is made
// [api.pool.malloc-async.pointer-known-at-once] and the allocation is in
// the allocation table from then until its free is called, so the calls
// that take device pointers accept it. On the timeline:
//
//   - an allocation is a command only when it must wait for the free of
//     the memory it reuses (an internal dependency), or in checked mode,
//     where reaching it makes its pages accessible;
//   - a free is the point its stream has reached when mcFreeAsync is
//     called: the memory is free once the work enqueued before it has run
//     [api.pool.free-async.frees-in-stream-order]. In checked mode it is a
//     command that makes the pages inaccessible, so device work ordered
//     after the free that still uses the memory faults.
//
// Every function requires the runtime's execution lock.
//
//   absl::StatusOr<void*> p = AllocateInStream(*pool, 4096, queue, capacity);
//   ... work in queue ...
//   FreeInStream(*FindStreamOrdered(*p, "mcFreeAsync"), queue);

#ifndef MXCTS_REFERENCE_RUNTIME_POOLS_STREAM_ORDERED_ALLOCATION_H_
#define MXCTS_REFERENCE_RUNTIME_POOLS_STREAM_ORDERED_ALLOCATION_H_

#include <stddef.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "reference/runtime/memory/allocation_table.h"
#include "reference/runtime/pools/memory_pool.h"
#include "reference/runtime/timeline/timeline.h"

namespace mxcts::runtime {

// Allocates `size` (> 0) bytes from `pool` (live, allocatable) in stream
// order in `queue`; `capacity` is the bytes of the pool's device.
// mcErrorMemoryAllocation if the device or the pool's maxSize has no room;
// nothing changes then.
absl::StatusOr<void*> AllocateInStream(MemoryPool& pool, size_t size,
                                       Queue* queue, size_t capacity);

// The live stream-ordered allocation that starts at `ptr`;
// mcErrorInvalidValue (naming `api`) for anything else.
// [api.pool.free-async.foreign-pointer-is-invalid-value]
absl::StatusOr<Allocation> FindStreamOrdered(const void* ptr, const char* api);

// Frees `allocation` (FindStreamOrdered) where `queue` reaches it now.
void FreeInStream(const Allocation& allocation, Queue* queue);

// Frees `allocation` at once: the caller has waited for all device work
// (mcFree). [api.pool.free-async.mcfree-also-frees]
void FreeAtOnce(const Allocation& allocation);

// Gives the live allocations of `pool` the pool's access as it is now
// [api.pool.access.applies-to-all-allocations].
void ApplyPoolAccess(const MemoryPool& pool);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_POOLS_STREAM_ORDERED_ALLOCATION_H_
