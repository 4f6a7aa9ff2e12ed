// Copyright mxcts authors.
//
// mcr/detail/runtime_api_pool.h: the part of mc_runtime_api.h that declares
// stream-ordered allocation and memory pools: mcMallocAsync, mcFreeAsync,
// mcMallocFromPoolAsync, the default, current and explicit pools, their
// attributes and access, and the export and import of pools between
// processes. Include mc_runtime_api.h (or mc_runtime.h), not this header: it
// relies on the definitions made there.
//
// Every stream-ordered allocation comes from a pool located on one device.
// The allocation exists for the work ordered after its mcMallocAsync and
// ends where its mcFreeAsync is reached; its address is known when the call
// returns [api.pool.malloc-async.pointer-known-at-once]. Freed memory stays
// in the pool for reuse, under the pool's reuse attributes, until a
// synchronization finds the pool above its release threshold or
// mcMemPoolTrimTo releases it.
//
//   float* d = NULL;
//   mcMallocAsync((void**)&d, n * sizeof(float), stream);
//   Scale<<<blocks, threads, 0, stream>>>(d, n);
//   mcFreeAsync(d, stream);
//   mcStreamSynchronize(stream);
//
// In the reference, a pool's memory is device memory of its device's
// address range; each allocation occupies whole pages. The reference reuses
// freed memory whenever the pool's attributes permit it (same-sized blocks,
// the one freed last first), releases memory in whole blocks, and never
// releases the memory of an exportable pool.

#ifndef MCR_DETAIL_RUNTIME_API_POOL_H_
#define MCR_DETAIL_RUNTIME_API_POOL_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Stream-ordered allocation [api.pool.malloc-async] [api.pool.free-async]
// --------------------------------------------------------------------------

// Allocates `size` bytes from the current pool of the device `stream`
// belongs to, ordered in `stream`, and stores the address in `*ptr` at
// once; `size` 0 stores NULL. The memory may be used by work ordered after
// the call. Errors: mcErrorInvalidValue if `ptr` is null;
// mcErrorInvalidResourceHandle for a bad stream; mcErrorNotSupported on a
// device without memory pools; mcErrorMemoryAllocation if the pool cannot
// grow by `size` bytes. [api.pool.malloc-async.usable-after-in-stream-order]
mcError_t mcMallocAsync(void** ptr, size_t size, mcStream_t stream);

// As mcMallocAsync, from `pool` (which need not be any device's current
// pool). Errors: those of mcMallocAsync; mcErrorInvalidValue if `pool` is
// null, not a live pool, or a pool imported from another process.
// [api.pool.malloc-from-pool.uses-given-pool]
mcError_t mcMallocFromPoolAsync(void** ptr, size_t size, mcMemPool_t pool,
                                mcStream_t stream);

// Frees the stream-ordered allocation that starts at `ptr` when `stream`
// reaches this call; returns at once. Work ordered before the call may
// still use the memory. Errors: mcErrorInvalidValue if `ptr` is null or not
// the start of a live stream-ordered allocation (imported ones included);
// mcErrorInvalidResourceHandle for a bad stream; mcErrorNotSupported if the
// stream's device has no memory pools.
// [api.pool.free-async.frees-in-stream-order]
mcError_t mcFreeAsync(void* ptr, mcStream_t stream);

// --------------------------------------------------------------------------
// Default and current pools [api.pool.default] [api.pool.current]
// --------------------------------------------------------------------------

// Stores the default pool of `device`, the same handle on every call.
// Errors: mcErrorInvalidValue if `pool` is null; mcErrorInvalidDevice for a
// bad ordinal; mcErrorNotSupported for a device without memory pools
// (mcDeviceAttributeMemoryPoolsSupported 0), which has none.
// [api.pool.default.get-default-pool]
mcError_t mcDeviceGetDefaultMemPool(mcMemPool_t* pool, int device);

// Makes `pool`, located on `device`, the pool mcMallocAsync uses for
// streams of `device`. Errors: mcErrorInvalidDevice for a bad ordinal;
// mcErrorNotSupported for a device without memory pools; mcErrorInvalidValue
// if `pool` is null, not live, imported, or located on another device (the
// current pool stays). [api.pool.current.set-then-get]
mcError_t mcDeviceSetMemPool(int device, mcMemPool_t pool);

// Stores the current pool of `device` (its default pool until
// mcDeviceSetMemPool). Errors: as mcDeviceGetDefaultMemPool.
// [api.pool.default.is-initial-current-pool]
mcError_t mcDeviceGetMemPool(mcMemPool_t* pool, int device);

// The runtime guide's spellings of the three functions above; each
// behaves exactly as the function it names.
mcError_t mcDeviceGetDefaultMempool(mcMemPool_t* pool, int device);
mcError_t mcDeviceSetMempool(int device, mcMemPool_t pool);
mcError_t mcDeviceGetMempool(mcMemPool_t* pool, int device);

// --------------------------------------------------------------------------
// Explicit pools [api.pool.create] [api.pool.destroy]
// --------------------------------------------------------------------------

// Creates a pool of pinned device memory on the device
// `props->location.id`, exportable as `props->handleTypes`.
// Errors: mcErrorInvalidValue if `pool` or `props` is null, `allocType` is
// not mcMemAllocationTypePinned, the location is not a device, the ordinal
// is bad, `handleTypes` is not mcMemHandleTypeNone or
// mcMemHandleTypePosixFileDescriptor, or a reserved field is not zero;
// mcErrorNotSupported for a device without memory pools.
// [api.pool.create.explicit-pool]
mcError_t mcMemPoolCreate(mcMemPool_t* pool, const mcMemPoolProps* props);

// Destroys `pool` at once: later calls with the handle fail, a device whose
// current pool it was goes back to its default pool, and allocations still
// live stay valid until freed. Errors: mcErrorInvalidValue if `pool` is
// null, not live, or a default pool. [api.pool.destroy.deferred-release]
mcError_t mcMemPoolDestroy(mcMemPool_t pool);

// Releases memory of `pool` that backs no live allocation and whose frees
// have been reached, until releasing another block would leave fewer than
// `minBytesToKeep` bytes reserved. No effect on an exportable or imported
// pool. Errors: mcErrorInvalidValue if `pool` is null or not live.
// [api.pool.trim.keeps-live-allocations]
mcError_t mcMemPoolTrimTo(mcMemPool_t pool, size_t minBytesToKeep);

// Sets attribute `attr` of `pool` from `*value`: an `int` 0 or 1 for the
// reuse policies, an `unsigned long long` for the release threshold, 0 (a
// reset to the current value) for the two high watermarks.
// Errors: mcErrorInvalidValue if `pool` is null or not live, `value` is
// null, `attr` is not a pool attribute or is read-only, or the value is
// not one the attribute takes. [api.pool.attribute.set-then-get]
mcError_t mcMemPoolSetAttribute(mcMemPool_t pool, mcMemPoolAttr attr,
                                void* value);

// Stores attribute `attr` of `pool` in `*value` (types as for
// mcMemPoolSetAttribute). Errors: mcErrorInvalidValue if `pool` is null or
// not live, `value` is null, or `attr` is not a pool attribute.
// [api.pool.attribute.usage-counters]
mcError_t mcMemPoolGetAttribute(mcMemPool_t pool, mcMemPoolAttr attr,
                                void* value);

// Gives each device `descList[i].location` names the access
// `descList[i].flags` to every allocation of `pool`, present and future.
// All entries are checked before any applies. Errors: mcErrorInvalidValue
// if `pool` is not live, `descList` is null with `count` > 0, a location is
// not a device or its ordinal is bad, the flags are not an mcMemAccessFlags
// value, or an entry for the pool's own device asks for less than
// mcMemAccessFlagsProtReadWrite; mcErrorInvalidDevice if a device cannot
// access the pool's device as a peer. [api.pool.access.set-grants-peer]
mcError_t mcMemPoolSetAccess(mcMemPool_t pool, const mcMemAccessDesc* descList,
                             size_t count);

// Stores in `*flags` the access the device `*location` names has to
// `pool`. Errors: mcErrorInvalidValue if `flags` or `location` is null,
// `pool` is not live, or the location is not a valid device.
// [api.pool.access.get-reports-flags]
mcError_t mcMemPoolGetAccess(mcMemAccessFlags* flags, mcMemPool_t pool,
                             mcMemLocation* location);

// --------------------------------------------------------------------------
// Pools shared between processes [api.pool.ipc]
// --------------------------------------------------------------------------

// Stores in `*(int*)shareableHandle` a new file descriptor for `pool`'s
// memory, which another process receives by any means the operating system
// offers (a Unix socket, /proc/<pid>/fd/<fd>) and imports. `handleType`
// must be mcMemHandleTypePosixFileDescriptor and in the pool's
// `handleTypes`; `flags` must be 0. Errors: mcErrorInvalidValue otherwise,
// for a null pointer, a pool not live, or a default pool.
// [api.pool.ipc.export-import-round-trip]
mcError_t mcMemPoolExportToShareableHandle(void* shareableHandle,
                                           mcMemPool_t pool,
                                           mcMemAllocationHandleType handleType,
                                           unsigned long long flags);

// Creates in `*pool` a pool that refers to the memory of the exported pool
// whose descriptor is `(int)(intptr_t)shareableHandle`; the descriptor stays
// the caller's. The imported pool is accessible from its device only and
// cannot be allocated from. Errors: mcErrorInvalidValue for a null `pool`, a
// descriptor that is not an exported pool's, another handle type, or
// `flags` other than 0. [api.pool.ipc.export-import-round-trip]
mcError_t mcMemPoolImportFromShareableHandle(
    mcMemPool_t* pool, void* shareableHandle,
    mcMemAllocationHandleType handleType, unsigned long long flags);

// Fills `*exportData` with the description of the allocation from an
// exportable pool that starts at `ptr`. Errors: mcErrorInvalidValue if
// `exportData` is null or `ptr` is not the start of a live allocation from
// an exportable pool. [api.pool.ipc.export-pointer]
mcError_t mcMemPoolExportPointer(mcMemPoolPtrExportData* exportData, void* ptr);

// Stores in `*ptr` this process's address of the allocation `*exportData`
// describes, from the imported `pool`; does not wait for the allocation to
// be ready in the exporter. Free it with mcFreeAsync or mcFree before the
// exporter frees it. Errors: mcErrorInvalidValue for null arguments, a pool
// that was not imported, or data that describes no allocation of it.
// [api.pool.ipc.export-pointer]
mcError_t mcMemPoolImportPointer(void** ptr, mcMemPool_t pool,
                                 mcMemPoolPtrExportData* exportData);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_POOL_H_
