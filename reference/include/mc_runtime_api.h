// Copyright mxcts authors.
//
// ==========================================================================
// mc_runtime_api.h: the MXMACA runtime API (C declarations)
// ==========================================================================
//
// The functions a host program calls to find devices, allocate and copy
// memory, create streams, launch kernels and read back errors. Every
// function returns an mcError_t: mcSuccess when it did what it documents,
// otherwise the code of the first problem it found, which is also stored as
// the calling thread's last error (mcGetLastError). A call that fails
// argument validation changes nothing
// [api.error.return.invalid-call-changes-nothing]. After a kernel faults, calls
// that use the device return the fault
// ("sticky" error) until mcDeviceReset [api.error.sticky.later-calls-fail].
//
// Programs usually include mc_runtime.h, which adds the C++ conveniences
// (typed allocation, symbol calls taking the variable itself). This header
// alone is valid C.
//
//   float* d = NULL;
//   if (mcMalloc((void**)&d, n * sizeof(float)) != mcSuccess) return 1;
//   mcMemcpy(d, h, n * sizeof(float), mcMemcpyHostToDevice);
//   ... launch ...
//   mcError_t err = mcDeviceSynchronize();
//   if (err != mcSuccess) fprintf(stderr, "%s: %s\n", mcGetErrorName(err),
//                                 mcGetErrorString(err));
//   mcFree(d);
//
// In the reference implementation every call is safe to make from any host
// thread; work runs eagerly (a launch or copy has completed when it returns).

#ifndef MC_RUNTIME_API_H_
#define MC_RUNTIME_API_H_

#include <stddef.h>

#include "mcr/mc_runtime_types.h"

// The runtime version these headers describe: major = v / 1000,
// minor = (v % 1000) / 10, patch = v % 10. [api.device.version.runtime]
#define MACART_VERSION 2330

// Default arguments exist only for C++ callers.
#ifdef __cplusplus
#define __MC_DEFAULT(value) = value
#else
#define __MC_DEFAULT(value)
#endif

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Errors [api.error]
// --------------------------------------------------------------------------

// Returns the calling host thread's last error and resets it to mcSuccess.
// A pending sticky error is returned again by the next call that uses the
// device. Never fails. [api.error.last.get-returns-and-resets]
mcError_t mcGetLastError(void);

// Returns the calling host thread's last error without resetting it.
// [api.error.last.peek-does-not-reset]
mcError_t mcPeekAtLastError(void);

// Returns a static English description of `error`, or a text saying the
// code is unrecognized. Never null; changes no state.
// [api.error.string.description-for-every-code]
const char* mcGetErrorString(mcError_t error);

// Returns the enumerator's spelling ("mcErrorInvalidValue"), or a text
// saying the code is unrecognized. Never null; changes no state.
// [api.error.string.name-is-enumerator-spelling]
const char* mcGetErrorName(mcError_t error);

// --------------------------------------------------------------------------
// Devices [api.device]
// --------------------------------------------------------------------------

// Stores the number of visible devices in `*count`.
// Errors: mcErrorInvalidValue if `count` is null; mcErrorNoDevice (and 0
// stored) if no device is visible. [api.device.count.returns-visible-devices]
mcError_t mcGetDeviceCount(int* count);

// Makes `device` the calling host thread's current device.
// Errors: mcErrorInvalidDevice if `device` is not in [0, count);
// mcErrorNoDevice if no device is visible.
// [api.device.set.selects-current-device]
mcError_t mcSetDevice(int device);

// Stores the calling host thread's current device (0 until mcSetDevice).
// Errors: mcErrorInvalidValue if `device` is null; mcErrorNoDevice.
// [api.device.get.returns-current]
mcError_t mcGetDevice(int* device);

// Fills `*prop` with the properties of `device`.
// Errors: mcErrorInvalidValue if `prop` is null; mcErrorInvalidDevice for a
// bad ordinal. [api.device.props.fills-structure]
mcError_t mcGetDeviceProperties(mcDeviceProp_t* prop, int device);

// Stores the value of attribute `attr` of `device` in `*value`.
// Errors: mcErrorInvalidValue if `value` is null or `attr` is not an
// mcDeviceAttribute_t enumerator; mcErrorInvalidDevice for a bad ordinal.
// [api.device.attribute.returns-value]
mcError_t mcDeviceGetAttribute(int* value, mcDeviceAttribute_t attr,
                               int device);

// Waits for all work on the current device, writes pending device printf
// output, and returns mcSuccess or the error of failed work (a sticky fault
// such as mcErrorIllegalAddress). [api.device.synchronize.waits-for-all-work]
mcError_t mcDeviceSynchronize(void);

// Waits for the current device's work, writes pending device printf output,
// then releases every allocation and stream of the current device, restores
// its __device__ and __constant__ variables to their initial values and
// clears its sticky error. Other devices are unaffected.
// [api.device.reset.destroys-allocations]
// [api.error.sticky.persists-until-reset]
mcError_t mcDeviceReset(void);

// Sets the current device's `limit` to `value` or more (rounded up, never
// down): mcLimitStackSize (bytes of stack per device thread),
// mcLimitPrintfFifoSize, mcLimitMallocHeapSize, mcLimitDevRuntimeSyncDepth,
// mcLimitDevRuntimePendingLaunchCount. In the reference the printf buffer
// and the device heap are shared by all devices.
// Errors: mcErrorUnsupportedLimit for another `limit`; mcErrorInvalidValue
// for the printf buffer or heap after a kernel used them;
// mcErrorMemoryAllocation for a value that cannot be reserved. A failed
// call changes nothing. [api.device.limit.set-then-get]
mcError_t mcDeviceSetLimit(mcLimit_t limit, size_t value);

// Stores the current device's value of `limit` in `*value`.
// Errors: mcErrorInvalidValue if `value` is null; mcErrorUnsupportedLimit
// for a limit the device does not support.
// [api.device.limit.get-returns-current-value]
mcError_t mcDeviceGetLimit(size_t* value, mcLimit_t limit);

// Stores MACART_VERSION in `*version`.
// Errors: mcErrorInvalidValue if `version` is null.
// [api.device.version.runtime]
mcError_t mcRuntimeGetVersion(int* version);

// Stores the (simulated) driver's version, same encoding, in `*version`;
// initializes nothing. Errors: mcErrorInvalidValue if `version` is null.
// [api.device.version.driver]
mcError_t mcDriverGetVersion(int* version);

// Initializes the runtime if needed. `flags` must be 0.
// Errors: mcErrorInvalidValue for other flags; mcErrorNoDevice if no device
// is visible. [api.device.init.initializes]
mcError_t mcInit(unsigned int flags);

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

// --------------------------------------------------------------------------
// Streams [api.stream]
// --------------------------------------------------------------------------

// Creates a blocking stream on the current device.
// Errors: mcErrorInvalidValue if `stream` is null.
// [api.stream.create.returns-new-stream]
mcError_t mcStreamCreate(mcStream_t* stream);

// Creates a stream with `flags` (mcStreamDefault or mcStreamNonBlocking).
// Errors: mcErrorInvalidValue if `stream` is null or `flags` has another bit.
// [api.stream.create-with-flags.default-flag]
mcError_t mcStreamCreateWithFlags(mcStream_t* stream, unsigned int flags);

// Destroys `stream`; its work completes first.
// Errors: mcErrorInvalidResourceHandle for a default stream, a destroyed
// stream or a handle never created. [api.stream.destroy.returns-immediately]
mcError_t mcStreamDestroy(mcStream_t stream);

// Waits for the work of `stream` (of any device; 0 for the default stream),
// writes pending device printf output, and returns mcSuccess or the error
// of failed work. Errors: mcErrorInvalidResourceHandle.
// [api.stream.synchronize.waits-for-prior-work]
mcError_t mcStreamSynchronize(mcStream_t stream);

// --------------------------------------------------------------------------
// Launch [lang.launch]
// --------------------------------------------------------------------------

// Launches kernel `func` (its host function address) on the current device
// with a grid of `grid` blocks of `block` threads, `sharedMem` bytes
// of dynamic shared memory per block, in `stream`. `args[i]` points at the
// i-th argument; the arguments are copied before the call returns.
// Errors (the kernel does not run): mcErrorInvalidDeviceFunction if `func`
// is not a kernel; mcErrorInvalidConfiguration for a zero extent, a block
// over maxThreadsPerBlock or maxThreadsDim, a grid over maxGridSize, or
// `sharedMem` over sharedMemPerBlock; mcErrorInvalidResourceHandle for a
// stream that is not live on the current device; mcErrorInvalidValue if
// `args` is null for a kernel with parameters. Faults during execution are
// reported by later calls. [lang.launch.operand.equivalent-to-mclaunchkernel]
mcError_t mcLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                         size_t sharedMem, mcStream_t stream);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MC_RUNTIME_API_H_
