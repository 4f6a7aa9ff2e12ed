// Copyright mxcts authors.
//
// Memory pools and stream-ordered allocations as the adapter keeps them
// (pools.cc). An mcMemPool_t is the adapter's own record, never CUDA's
// cudaMemPool_t: MXMACA answers a destroyed or made-up pool with
// mcErrorInvalidValue [api.pool.destroy.invalid-pool-is-invalid-value],
// tells default, explicit and imported pools apart, and bounds a pool's
// size exactly; CUDA hands a new pool the address of a destroyed one and
// rounds sizes to its granularity. A record is never freed, so a handle is
// never reused.
//
// The adapter also records every live stream-ordered allocation (its pool
// and size): mcFreeAsync takes only their starts
// [api.pool.free-async.foreign-pointer-is-invalid-value] where CUDA frees
// any device memory, and mcIpcGetMemHandle refuses them.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_POOLS_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_POOLS_H_

#include "backends/cuda/include/mc_runtime_api.h"

namespace mxcts::cuda_backend {

// True if `ptr` is the start of a live stream-ordered allocation.
bool IsStreamOrderedAllocation(const void* ptr);

// True if `ptr` lies anywhere in a live stream-ordered allocation.
bool InStreamOrderedAllocation(const void* ptr);

// mcFree of a stream-ordered allocation frees it too
// [api.pool.free-async.mcfree-also-frees]: takes `ptr` out of the record
// before CUDA frees it; RestoreStreamOrderedAllocation puts it back when
// CUDA refused.
struct TakenAllocation {
  bool taken = false;
  const void* ptr = nullptr;
  void* pool = nullptr;
  size_t size = 0;
};
TakenAllocation TakeStreamOrderedAllocation(const void* ptr);
void RestoreStreamOrderedAllocation(const TakenAllocation& taken);

// Frees a taken stream-ordered allocation as mcFree does: after all work on
// its device, and returned to its pool before the call returns. CUDA's
// cudaFree of such memory leaves it counted as used by the pool and unmaps
// it under work still queued.
mcError_t FreeTakenAllocation(const TakenAllocation& taken);

// Memory a graph owns: the address of an allocation node made by
// mcGraphAddMemAllocNode. mcFreeAsync frees
// such memory as CUDA does [api.graph.mem-alloc-node.unfreed-memory-persists]
// although it is no stream-ordered allocation of a pool. The address stays
// noted while CUDA keeps it reserved for the graph; CUDA itself answers a
// free of one that is not allocated at the time.
void NoteGraphAllocation(const void* ptr);

// mcDeviceReset destroyed every pool and stream-ordered allocation of
// `device`: forgets them, and makes the default pool current again.
void ForgetDevicePools(int device);

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_POOLS_H_
