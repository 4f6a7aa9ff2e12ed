// Copyright mxcts authors.
//
// mcr/detail/runtime_api_memory.h: the part of mc_runtime_api.h that declares
// memory: allocation of every kind, release, registration, pointer queries,
// managed memory advice, and copies and sets of every shape. Include
// mc_runtime_api.h (or mc_runtime.h), not this header: it relies on the
// definitions made there.
//
// Every call checks all its arguments before it does anything, so a call
// that fails changes nothing [api.memory.lifetime.failed-call-changes-nothing].
// Copies and sets are queued in a stream (the current device's default
// stream for the calls without one); how long the call blocks the host is
// stated per call, after [api.sync.host]. An asynchronous call may also
// return the sticky error of its stream's device.

#ifndef MCR_DETAIL_RUNTIME_API_MEMORY_H_
#define MCR_DETAIL_RUNTIME_API_MEMORY_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Device memory [api.memory.malloc] [api.memory.free]
// --------------------------------------------------------------------------

// Allocates `size` bytes of device memory on the current device, 256-byte
// aligned, and stores the address in `*ptr`; `size` 0 stores NULL. Accepts
// the address of an mcDeviceptr_t. Errors: mcErrorInvalidValue if `ptr` is
// null; mcErrorMemoryAllocation if the device cannot provide `size` bytes.
// [api.memory.malloc.allocates-on-current-device]
mcError_t mcMalloc(void** ptr, size_t size);

// Releases a device or managed allocation (mcMalloc, mcMallocPitch,
// mcMalloc3D, mcMallocManaged); NULL is a no-op. Waits for every device's
// queued work first. Errors: mcErrorInvalidValue if `ptr` is not the start
// of a live device or managed allocation (interior, freed, host memory);
// the sticky error of the allocation's device, which keeps it.
// [api.memory.free.releases-allocation]
mcError_t mcFree(void* ptr);

// Allocates a 2D array of `height` rows of `width` bytes: stores the base
// in `*devPtr` and the row pitch (a multiple of 256 bytes, at least
// `width`) in `*pitch`. A zero `width` or `height` stores NULL.
// Errors: mcErrorInvalidValue if `devPtr` or `pitch` is null;
// mcErrorMemoryAllocation. [api.memory.malloc-pitch.pitch-at-least-width]
mcError_t mcMallocPitch(void** devPtr, size_t* pitch, size_t width,
                        size_t height);

// Allocates `extent.depth` slices of `extent.height` rows of `extent.width`
// bytes; stores the pointer, pitch, xsize (= width) and ysize (= height).
// Errors: mcErrorInvalidValue if `pitchedDevPtr` is null;
// mcErrorMemoryAllocation. [api.memory.malloc-3d.allocates]
mcError_t mcMalloc3D(mcPitchedPtr* pitchedDevPtr, mcExtent extent);

// Stores the free and total device memory of the current device, in bytes.
// Errors: mcErrorInvalidValue if either pointer is null.
// [api.memory.get-info.free-not-above-total]
mcError_t mcMemGetInfo(size_t* free, size_t* total);

// --------------------------------------------------------------------------
// Page-locked host memory [api.memory.malloc-host] [api.memory.host-register]
// --------------------------------------------------------------------------

// Allocates `size` bytes of page-locked host memory tied to the current
// device (CUDA's cudaHostAlloc). `flags` is an OR of mcMallocHostPortable,
// mcMallocHostMapped and mcMallocHostWriteCombined, or mcMallocHostDefault.
// `size` 0 stores NULL and succeeds.
// Errors: mcErrorInvalidValue if `ptr` is null or `flags` has another bit;
// mcErrorMemoryAllocation. [api.memory.malloc-host.allocates-page-locked]
mcError_t mcMallocHost(void** ptr, size_t size,
                       unsigned int flags __MC_DEFAULT(mcMallocHostDefault));

// mcMallocHost under CUDA's name, with the mcHostAlloc* flags (the same
// values). [api.memory.host-alloc.same-as-malloc-host]
mcError_t mcHostAlloc(void** ptr, size_t size, unsigned int flags);

// Releases memory from mcMallocHost or mcHostAlloc; NULL is a no-op. Waits
// for the work of the devices first.
// Errors: mcErrorInvalidValue if `ptr` is not the start of a live
// mcMallocHost allocation. [api.memory.free-host.releases]
mcError_t mcFreeHost(void* ptr);

// Stores the flags `ptr` (inside an mcMallocHost allocation) was allocated
// with. Errors: mcErrorInvalidValue if `flags` is null or `ptr` is not in
// such an allocation. [api.memory.host-get-flags.returns-allocation-flags]
mcError_t mcHostGetFlags(unsigned int* flags, void* ptr);

// Page-locks `size` bytes of pageable host memory at `ptr` for the devices;
// `flags` is an OR of mcHostRegisterPortable, mcHostRegisterMapped and
// mcHostRegisterReadOnly (mcHostRegisterIoMemory is not supported).
// Errors: mcErrorInvalidValue for a null `ptr`, `size` 0, an unknown flag or
// a range in device, managed or released runtime memory;
// mcErrorHostMemoryAlreadyRegistered if the range overlaps page-locked
// memory; mcErrorNotSupported for mcHostRegisterIoMemory.
// [api.memory.host-register.pins-range]
mcError_t mcHostRegister(void* ptr, size_t size, unsigned int flags);

// Ends the registration starting at `ptr`, after the devices' work has
// completed. Errors: mcErrorHostMemoryNotRegistered if `ptr` is not the start
// of a registered range. [api.memory.host-unregister.unpins-range]
mcError_t mcHostUnregister(void* ptr);

// Stores the device address of page-locked host memory `pHost` (allocated
// or registered): the same address. `flags` must be 0.
// Errors: mcErrorInvalidValue for a null `pDevice`, nonzero `flags`, or
// `pHost` not in page-locked memory.
// [api.memory.host-get-device-pointer.mapped-memory]
mcError_t mcHostGetDevicePointer(void** pDevice, void* pHost,
                                 unsigned int flags);

// --------------------------------------------------------------------------
// Managed memory [api.memory.managed] [api.memory.prefetch] [api.memory.advise]
// --------------------------------------------------------------------------

// Allocates `size` bytes of managed memory, valid at the same address on
// the host and every device. `flags` is mcMemAttachGlobal or mcMemAttachHost.
// Errors: mcErrorInvalidValue if `ptr` is null, `size` is 0 or `flags` is
// anything else; mcErrorMemoryAllocation. [api.memory.managed.allocates]
mcError_t mcMallocManaged(void** ptr, size_t size,
                          unsigned int flags __MC_DEFAULT(mcMemAttachGlobal));

// Queues in `stream` a migration of `count` bytes of managed memory at
// `devPtr` towards `dstDevice` (an ordinal or mcCpuDeviceId); values do not
// change. Errors: mcErrorInvalidValue if the range is not inside one managed
// allocation; mcErrorInvalidDevice for another `dstDevice`;
// mcErrorInvalidResourceHandle for a stream that is not live.
// [api.memory.prefetch.migrates-without-changing-values]
mcError_t mcMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice,
                             mcStream_t stream __MC_DEFAULT(0));

// Advises the runtime about `count` bytes of managed memory at `devPtr`.
// `device` (an ordinal or mcCpuDeviceId) matters for the preferred-location
// and accessed-by advice. Errors: mcErrorInvalidValue for an unknown
// `advice`, or a range not inside one managed allocation;
// mcErrorInvalidDevice for a `device` that matters and is invalid.
// [api.memory.advise.advice-values]
mcError_t mcMemAdvise(const void* devPtr, size_t count, mcMemoryAdvise advice,
                      int device);

// mcMemPrefetchAsync towards `location` (CUDA 12's cudaMemPrefetchAsync_v2;
// C++ programs may also call mcMemPrefetchAsync with these arguments, as
// CUDA 13 spells it): mcMemLocationTypeDevice with a device ordinal `id`,
// or the host (mcMemLocationTypeHost; mcMemLocationTypeHostNuma with `id`
// 0, the reference's one host NUMA node; mcMemLocationTypeHostNumaCurrent),
// recorded as mcCpuDeviceId. `flags` must be 0.
// Errors: as mcMemPrefetchAsync's, and mcErrorInvalidValue for nonzero
// `flags`, another location type or another host NUMA node.
// [api.memory.prefetch.location-form]
// [api.memory.location.invalid-location-is-invalid-value]
mcError_t mcMemPrefetchAsync_v2(const void* devPtr, size_t count,
                                mcMemLocation location, unsigned int flags,
                                mcStream_t stream __MC_DEFAULT(0));

// mcMemAdvise about `location` (CUDA 12's cudaMemAdvise_v2; C++ programs
// may also call mcMemAdvise with these arguments, as CUDA 13 spells it):
// locations as mcMemPrefetchAsync_v2's, recorded the same way.
// Errors: as mcMemAdvise's, and mcErrorInvalidValue for a location that is
// none of those (for the advice that names a location).
// [api.memory.advise.location-form]
// [api.memory.location.invalid-location-is-invalid-value]
mcError_t mcMemAdvise_v2(const void* devPtr, size_t count,
                         mcMemoryAdvise advice, mcMemLocation location);

// Stores in `data` (`dataSize` bytes) what holds for every byte of the
// managed range: 4 bytes (an int) for read-mostly, preferred location and
// last prefetch location; a multiple of 4 for accessed-by (the locations,
// then mcInvalidDeviceId). Errors: mcErrorInvalidValue for a null `data`, a
// wrong `dataSize`, an unknown `attribute`, or a range not inside one
// managed allocation. [api.memory.range-attribute.values]
mcError_t mcMemRangeGetAttribute(void* data, size_t dataSize,
                                 mcMemRangeAttribute attribute,
                                 const void* devPtr, size_t count);

// --------------------------------------------------------------------------
// Pointer queries [api.memory.pointer-attributes]
// --------------------------------------------------------------------------

// Stores what `ptr` addresses: its memory type, device, device and host
// addresses. A pointer the runtime does not know is
// mcMemoryTypeUnregistered. Does not wait for the devices.
// Errors: mcErrorInvalidValue if `attributes` is null.
// [api.memory.pointer-attributes.device-memory]
mcError_t mcPointerGetAttributes(mcPointerAttribute_t* attributes,
                                 const void* ptr);

// Sets `attribute` of the device allocation containing `ptr`; only
// mcPointerAttributeSyncMemops (`value` points to an unsigned int, nonzero
// to set) is settable. Errors: mcErrorInvalidValue for a null `value`,
// another attribute, or `ptr` not in a live device allocation.
// [api.memory.pointer-set-attribute.sync-memops]
mcError_t mcPointerSetAttribute(const void* value,
                                mcPointer_attribute attribute,
                                mcDeviceptr_t ptr);

// Stores the base and size of the live runtime allocation containing
// `ptr`; either output may be NULL. Errors: mcErrorInvalidValue if `ptr` is
// in no live allocation. [api.memory.get-address-range.base-and-size]
mcError_t mcMemGetAddressRange(mcDeviceptr_t* base, size_t* size,
                               mcDeviceptr_t ptr);

// --------------------------------------------------------------------------
// Copies [api.memory.memcpy]
// --------------------------------------------------------------------------

// Copies `count` bytes from `src` to `dst`, in the current device's default
// stream. `kind` names the direction; the device side of an explicit kind
// must be device, managed or page-locked memory; mcMemcpyDefault infers it
// from the addresses. Returns once the copy is complete when the
// destination is host memory or the source page-locked memory; once the
// source has been read when it is pageable memory; possibly before the copy
// when both sides are device or managed memory.
// Errors: mcErrorInvalidMemcpyDirection for a `kind` that is not an
// mcMemcpyKind; mcErrorInvalidValue for a null pointer (when `count` > 0), a
// device side that is not device memory, or a range running past the end of
// an allocation. `count` 0 succeeds and copies nothing.
// [api.memory.memcpy.copies-bytes]
mcError_t mcMemcpy(void* dst, const void* src, size_t count, mcMemcpyKind kind);

// As mcMemcpy, ordered in `stream` (0 for the default stream; a stream of
// any device). Returns before the copy completes, except to pageable
// memory or between host memory (until done) and from pageable memory
// (until the source has been read). Errors: those of mcMemcpy, and
// mcErrorInvalidResourceHandle for a stream that is not live.
// [api.memory.memcpy-async.stream-ordered]
mcError_t mcMemcpyAsync(void* dst, const void* src, size_t count,
                        mcMemcpyKind kind, mcStream_t stream __MC_DEFAULT(0));

// Copies `height` rows of `width` bytes, row r from src + r * spitch to
// dst + r * dpitch; synchronizes as mcMemcpy. Errors: those of mcMemcpy;
// mcErrorInvalidPitchValue if a pitch is below `width` or above the
// device's memPitch. [api.memory.memcpy-2d.copies-rows]
mcError_t mcMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                     size_t width, size_t height, mcMemcpyKind kind);

// As mcMemcpy2D, ordered in `stream` as mcMemcpyAsync.
// [api.memory.memcpy-2d.synchronization-as-memcpy]
mcError_t mcMemcpy2DAsync(void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t height,
                          mcMemcpyKind kind, mcStream_t stream __MC_DEFAULT(0));

// Copies the box `p->extent` between two pitched pointers at `p->srcPos`
// and `p->dstPos`; synchronizes as mcMemcpy. Errors: mcErrorInvalidValue
// for a null `p`, an array, a side without pointer, or a box outside a
// side's slices; mcErrorInvalidPitchValue if a pitch is below pos.x +
// width; mcErrorInvalidMemcpyDirection; those of mcMemcpy.
// [api.memory.memcpy-3d.copies-box]
mcError_t mcMemcpy3D(const mcMemcpy3DParms* p);

// As mcMemcpy3D, ordered in `stream` as mcMemcpyAsync.
// [api.memory.memcpy-3d.async-stream-ordered]
mcError_t mcMemcpy3DAsync(const mcMemcpy3DParms* p,
                          mcStream_t stream __MC_DEFAULT(0));

// Driver style: mcMemcpy(dst, src, byteCount, mcMemcpyHostToDevice), with
// `dst` in device or managed memory. [api.memory.memcpy-htod.copies]
mcError_t mcMemcpyHtoD(mcDeviceptr_t dst, const void* src, size_t byteCount);

// Driver style: mcMemcpy(dst, src, byteCount, mcMemcpyDeviceToHost), with
// `src` in device or managed memory. [api.memory.memcpy-dtoh.copies]
mcError_t mcMemcpyDtoH(void* dst, mcDeviceptr_t src, size_t byteCount);

// Driver style: mcMemcpy(dst, src, byteCount, mcMemcpyDeviceToDevice),
// both in device or managed memory. [api.memory.memcpy-dtod.copies]
mcError_t mcMemcpyDtoD(mcDeviceptr_t dst, mcDeviceptr_t src, size_t byteCount);

// The three driver-style copies ordered in `stream`, as mcMemcpyAsync.
// [api.memory.memcpy-driver.async-forms]
mcError_t mcMemcpyHtoDAsync(mcDeviceptr_t dst, const void* src,
                            size_t byteCount, mcStream_t stream);
mcError_t mcMemcpyDtoHAsync(void* dst, mcDeviceptr_t src, size_t byteCount,
                            mcStream_t stream);
mcError_t mcMemcpyDtoDAsync(mcDeviceptr_t dst, mcDeviceptr_t src,
                            size_t byteCount, mcStream_t stream);

// --------------------------------------------------------------------------
// Sets [api.memory.memset]
// --------------------------------------------------------------------------

// Sets `count` bytes at `ptr`, in a device, managed or page-locked
// allocation, to `(unsigned char)value`, in the current device's default
// stream: asynchronous for device and managed memory, complete on return
// for page-locked memory. Errors: mcErrorInvalidValue if the range is not
// inside one live such allocation. [api.memory.memset.sets-bytes]
mcError_t mcMemset(void* ptr, int value, size_t count);

// As mcMemset, ordered in `stream`. Errors: those of mcMemset, and
// mcErrorInvalidResourceHandle. [api.memory.memset-async.stream-ordered]
mcError_t mcMemsetAsync(void* ptr, int value, size_t count,
                        mcStream_t stream __MC_DEFAULT(0));

// Sets the first `width` bytes of `height` rows at ptr + r * pitch.
// Errors: as mcMemset; mcErrorInvalidValue if `pitch` < `width` with more
// than one row. [api.memory.memset-2d.sets-rows]
mcError_t mcMemset2D(void* ptr, size_t pitch, int value, size_t width,
                     size_t height);
mcError_t mcMemset2DAsync(void* ptr, size_t pitch, int value, size_t width,
                          size_t height, mcStream_t stream __MC_DEFAULT(0));

// Sets the box `extent` of the pitched allocation `pitchedDevPtr`.
// Errors: as mcMemset; mcErrorInvalidValue if extent.width > pitch, or
// extent.height > ysize with more than one slice.
// [api.memory.memset-3d.sets-box]
mcError_t mcMemset3D(mcPitchedPtr pitchedDevPtr, int value, mcExtent extent);
mcError_t mcMemset3DAsync(mcPitchedPtr pitchedDevPtr, int value,
                          mcExtent extent, mcStream_t stream __MC_DEFAULT(0));

// Driver style: sets `count` elements of 1, 2 or 4 bytes at `dst` (aligned
// to the element) to the value, as mcMemset.
// [api.memory.memset-d.sets-elements]
mcError_t mcMemsetD8(mcDeviceptr_t dst, unsigned char value, size_t count);
mcError_t mcMemsetD16(mcDeviceptr_t dst, unsigned short value, size_t count);
mcError_t mcMemsetD32(mcDeviceptr_t dst, unsigned int value, size_t count);
mcError_t mcMemsetD8Async(mcDeviceptr_t dst, unsigned char value, size_t count,
                          mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemsetD16Async(mcDeviceptr_t dst, unsigned short value,
                           size_t count, mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemsetD32Async(mcDeviceptr_t dst, unsigned int value, size_t count,
                           mcStream_t stream __MC_DEFAULT(0));

// --------------------------------------------------------------------------
// Symbols: __device__, __constant__ and __managed__ variables named by the
// address of their host shadow (C++ callers pass the variable itself).
// [api.memory.symbol]
// --------------------------------------------------------------------------

// Copies `count` bytes from `src` into the current device's instance of
// `symbol`, `offset` bytes in. `kind` is mcMemcpyHostToDevice,
// mcMemcpyDeviceToDevice or mcMemcpyDefault. Synchronizes as mcMemcpy.
// Errors: mcErrorInvalidSymbol if `symbol` is not a device variable;
// mcErrorInvalidMemcpyDirection for another kind; mcErrorInvalidValue if
// offset + count exceeds the variable or `src` is null.
// [api.memory.symbol.to-symbol-copies]
mcError_t mcMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                           size_t offset __MC_DEFAULT(0),
                           mcMemcpyKind kind
                               __MC_DEFAULT(mcMemcpyHostToDevice));

// Copies `count` bytes of the current device's instance of `symbol`,
// starting `offset` bytes in, to `dst`. `kind` is mcMemcpyDeviceToHost,
// mcMemcpyDeviceToDevice or mcMemcpyDefault. Errors as mcMemcpyToSymbol.
// [api.memory.symbol.from-symbol-copies]
mcError_t mcMemcpyFromSymbol(
    void* dst, const void* symbol, size_t count, size_t offset __MC_DEFAULT(0),
    mcMemcpyKind kind __MC_DEFAULT(mcMemcpyDeviceToHost));

// As mcMemcpyToSymbol, ordered in `stream` as mcMemcpyAsync. Errors also
// mcErrorInvalidResourceHandle. [api.memory.symbol.async-forms]
mcError_t mcMemcpyToSymbolAsync(const void* symbol, const void* src,
                                size_t count, size_t offset, mcMemcpyKind kind,
                                mcStream_t stream __MC_DEFAULT(0));

// As mcMemcpyFromSymbol, ordered in `stream` as mcMemcpyAsync. Errors also
// mcErrorInvalidResourceHandle. [api.memory.symbol.async-forms]
mcError_t mcMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count,
                                  size_t offset, mcMemcpyKind kind,
                                  mcStream_t stream __MC_DEFAULT(0));

// Stores the device address of the current device's instance of `symbol`.
// Errors: mcErrorInvalidValue if `devPtr` is null; mcErrorInvalidSymbol.
// [api.memory.symbol.get-address]
mcError_t mcGetSymbolAddress(void** devPtr, const void* symbol);

// Stores the size in bytes of `symbol`.
// Errors: mcErrorInvalidValue if `size` is null; mcErrorInvalidSymbol.
// [api.memory.symbol.get-size]
mcError_t mcGetSymbolSize(size_t* size, const void* symbol);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_MEMORY_H_
