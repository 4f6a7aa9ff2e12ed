// Copyright mxcts authors.
//
// mcr/detail/runtime_api_memory.h: the part of mc_runtime_api.h that declares
// memory: allocation, release, copies and sets of every form. Include
// mc_runtime_api.h (or mc_runtime.h), not this header: it relies on the
// definitions made there.

#ifndef MCR_DETAIL_RUNTIME_API_MEMORY_H_
#define MCR_DETAIL_RUNTIME_API_MEMORY_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Memory [api.memory]
// --------------------------------------------------------------------------

// Allocates `size` bytes of device memory on the current device, 256-byte
// aligned, and stores the address in `*ptr`; `size` 0 stores NULL.
// Errors: mcErrorInvalidValue if `ptr` is null; mcErrorMemoryAllocation if
// the device cannot provide `size` bytes.
// [api.memory.malloc.allocates-on-current-device]
mcError_t mcMalloc(void** ptr, size_t size);

// Releases a device or managed allocation; NULL is a no-op. Waits for the
// device's work first. Errors: mcErrorInvalidValue if `ptr` is not the
// start of a live device or managed allocation (interior, freed, host
// memory). [api.memory.free.releases-allocation]
mcError_t mcFree(void* ptr);

// Allocates `size` bytes of managed memory, valid at the same address on
// the host and every device. `flags` is mcMemAttachGlobal or mcMemAttachHost.
// Errors: mcErrorInvalidValue if `ptr` is null, `size` is 0 or `flags` is
// anything else; mcErrorMemoryAllocation. [api.memory.managed.allocates]
mcError_t mcMallocManaged(void** ptr, size_t size,
                          unsigned int flags __MC_DEFAULT(mcMemAttachGlobal));

// Allocates `size` bytes of page-locked host memory tied to the current
// device (CUDA's cudaHostAlloc). `flags` is an OR of mcMallocHostPortable,
// mcMallocHostMapped and mcMallocHostWriteCombined, or mcMallocHostDefault.
// `size` 0 stores NULL and succeeds.
// Errors: mcErrorInvalidValue if `ptr` is null or `flags` has another bit;
// mcErrorMemoryAllocation. [api.memory.malloc-host.allocates-page-locked]
mcError_t mcMallocHost(void** ptr, size_t size,
                       unsigned int flags __MC_DEFAULT(mcMallocHostDefault));

// Releases memory from mcMallocHost; NULL is a no-op.
// Errors: mcErrorInvalidValue if `ptr` is not the start of a live
// mcMallocHost allocation. [api.memory.free-host.releases]
mcError_t mcFreeHost(void* ptr);

// Copies `count` bytes from `src` to `dst`, in the current device's default
// stream; returns once the copy is complete. `kind` names the direction; the
// device side of an explicit kind must be device, managed or page-locked
// memory; mcMemcpyDefault infers it from the addresses.
// Errors: mcErrorInvalidMemcpyDirection for a `kind` that is not an
// mcMemcpyKind; mcErrorInvalidValue for a null pointer (when `count` > 0), a
// device side that is not device memory, or a range running past the end of
// an allocation. `count` 0 succeeds and copies nothing.
// [api.memory.memcpy.copies-bytes]
mcError_t mcMemcpy(void* dst, const void* src, size_t count, mcMemcpyKind kind);

// As mcMemcpy, ordered in `stream` (0 for the default stream; a stream of
// any device). Errors: those of mcMemcpy, and mcErrorInvalidResourceHandle
// for a stream that is not live. [api.memory.memcpy-async.stream-ordered]
mcError_t mcMemcpyAsync(void* dst, const void* src, size_t count,
                        mcMemcpyKind kind, mcStream_t stream __MC_DEFAULT(0));

// Sets `count` bytes at `ptr`, in a device, managed or page-locked
// allocation, to `(unsigned char)value`.
// Errors: mcErrorInvalidValue if the range is not inside one live such
// allocation. [api.memory.memset.sets-bytes]
mcError_t mcMemset(void* ptr, int value, size_t count);

// As mcMemset, ordered in `stream`. Errors: those of mcMemset, and
// mcErrorInvalidResourceHandle. [api.memory.memset-async.stream-ordered]
mcError_t mcMemsetAsync(void* ptr, int value, size_t count,
                        mcStream_t stream __MC_DEFAULT(0));

// Driver style: mcMemcpy(dst, src, byteCount, mcMemcpyHostToDevice).
// [api.memory.memcpy-htod.copies]
mcError_t mcMemcpyHtoD(mcDeviceptr_t dst, const void* src, size_t byteCount);

// Driver style: mcMemcpy(dst, src, byteCount, mcMemcpyDeviceToHost).
// [api.memory.memcpy-dtoh.copies]
mcError_t mcMemcpyDtoH(void* dst, mcDeviceptr_t src, size_t byteCount);


// --------------------------------------------------------------------------
// Symbols: __device__, __constant__ and __managed__ variables named by the
// address of their host shadow (C++ callers pass the variable itself).
// [api.memory.symbol]
// --------------------------------------------------------------------------

// Copies `count` bytes from `src` into the current device's instance of
// `symbol`, `offset` bytes in. `kind` is mcMemcpyHostToDevice,
// mcMemcpyDeviceToDevice or mcMemcpyDefault.
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

// As mcMemcpyToSymbol, ordered in `stream`. Errors also
// mcErrorInvalidResourceHandle. [api.memory.symbol.async-forms]
mcError_t mcMemcpyToSymbolAsync(const void* symbol, const void* src,
                                size_t count, size_t offset, mcMemcpyKind kind,
                                mcStream_t stream __MC_DEFAULT(0));

// As mcMemcpyFromSymbol, ordered in `stream`. Errors also
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
