// Copyright mxcts authors.
//
// mcr/detail/runtime_api_stream.h: the part of mc_runtime_api.h that declares
// streams: creation, properties, attributes, queries, synchronization, waits on
// events, callbacks and host functions. Include mc_runtime_api.h (or
// mc_runtime.h), not this header: it relies on the definitions made there.

#ifndef MCR_DETAIL_RUNTIME_API_STREAM_H_
#define MCR_DETAIL_RUNTIME_API_STREAM_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Streams [api.stream]
//
// A stream is a queue of device work of one device; work in a stream runs
// in order, work in different streams in any order the streams and events
// permit. 0 and mcStreamLegacy name the current device's legacy default
// stream, mcStreamPerThread the calling thread's per-thread default stream.
// --------------------------------------------------------------------------

// Creates a blocking stream on the current device, priority 0.
// Errors: mcErrorInvalidValue if `stream` is null.
// [api.stream.create.returns-new-stream]
mcError_t mcStreamCreate(mcStream_t* stream);

// Creates a stream with `flags` (mcStreamDefault or mcStreamNonBlocking).
// Errors: mcErrorInvalidValue if `stream` is null or `flags` has another bit.
// [api.stream.create-with-flags.default-flag]
mcError_t mcStreamCreateWithFlags(mcStream_t* stream, unsigned int flags);

// Creates a stream with `flags` and `priority`; a priority outside the
// range of mcDeviceGetStreamPriorityRange is clamped into it.
// Errors: as mcStreamCreateWithFlags.
// [api.stream.create-with-priority.records-priority]
// [api.stream.create-with-priority.out-of-range-is-clamped]
mcError_t mcStreamCreateWithPriority(mcStream_t* stream, unsigned int flags,
                                     int priority);

// Stores the current device's least (numerically largest) and greatest
// stream priorities; either pointer may be null.
// [api.stream.priority-range.reports-least-and-greatest]
mcError_t mcDeviceGetStreamPriorityRange(int* leastPriority,
                                         int* greatestPriority);

// Destroys `stream` and returns at once; its pending work still runs.
// Errors: mcErrorInvalidResourceHandle for a default stream, a destroyed
// stream or a handle never created. [api.stream.destroy.returns-immediately]
mcError_t mcStreamDestroy(mcStream_t stream);

// mcSuccess if all work enqueued into `stream` (of any device) has run,
// mcErrorNotReady (not recorded as the last error) if not. Never waits, but
// lets the timeline run one piece of the stream's work, so a polling loop
// ends in every timeline mode. Errors: mcErrorInvalidResourceHandle; the
// error of failed work. [api.stream.query.success-when-idle]
mcError_t mcStreamQuery(mcStream_t stream);

// Waits for the work of `stream` (of any device; 0 for the default stream),
// writes pending device printf output, and returns mcSuccess or the error
// of failed work. Errors: mcErrorInvalidResourceHandle.
// [api.stream.synchronize.waits-for-prior-work]
mcError_t mcStreamSynchronize(mcStream_t stream);

// Makes work enqueued into `stream` after this call wait until the work
// captured by the most recent record of `event` (of any device) has run.
// An event never recorded adds no wait. `flags` must be 0
// (mcEventWaitDefault). Never blocks the host.
// Errors: mcErrorInvalidResourceHandle for a bad stream or event;
// mcErrorInvalidValue for other flags.
// [api.stream.wait-event.delays-later-work]
mcError_t mcStreamWaitEvent(mcStream_t stream, mcEvent_t event,
                            unsigned int flags __MC_DEFAULT(0));

// Stores the flags `stream` was created with (mcStreamDefault for the
// default streams). Errors: mcErrorInvalidValue if `flags` is null;
// mcErrorInvalidResourceHandle. [api.stream.get-flags.reports-creation-flags]
mcError_t mcStreamGetFlags(mcStream_t stream, unsigned int* flags);

// Stores the priority of `stream` (0 for the default streams).
// Errors: mcErrorInvalidValue if `priority` is null;
// mcErrorInvalidResourceHandle. [api.stream.get-priority.reports-priority]
mcError_t mcStreamGetPriority(mcStream_t stream, int* priority);

// Stores the ordinal of the device `stream` belongs to (the current device
// for the default streams). Errors: mcErrorInvalidValue if `device` is
// null; mcErrorInvalidResourceHandle.
// [api.stream.get-device.reports-owning-device]
mcError_t mcStreamGetDevice(mcStream_t stream, int* device);

// Sets attribute `attr` of `stream` to `*value`: an access policy window
// (a cache hint; `hitRatio` in [0, 1], `num_bytes` at most the device's
// accessPolicyMaxWindowSize) or a synchronization policy.
// Errors: mcErrorInvalidValue for a null `value`, an unknown `attr` or a
// bad value (nothing changes); mcErrorInvalidResourceHandle.
// [api.stream.attribute.set-then-get-round-trips]
mcError_t mcStreamSetAttribute(mcStream_t stream, mcStreamAttrID attr,
                               const mcStreamAttrValue* value);

// Stores attribute `attr` of `stream` in `*value`.
// Errors: as mcStreamSetAttribute. [api.stream.attribute.defaults]
mcError_t mcStreamGetAttribute(mcStream_t stream, mcStreamAttrID attr,
                               mcStreamAttrValue* value);

// Copies every attribute of `src` to `dst`.
// Errors: mcErrorInvalidResourceHandle. [api.stream.attribute.copy-copies-all]
mcError_t mcStreamCopyAttribute(mcStream_t dst, mcStream_t src);

// Enqueues into `stream` a change of which streams' kernels may access the
// managed allocation at `devPtr` (mcMallocManaged memory or a __managed__
// variable): all (mcMemAttachGlobal), none but the host
// (mcMemAttachHost) or only `stream`'s (mcMemAttachSingle, the default).
// `length` is 0 or the allocation's size: both mean the whole allocation.
// The change is stream work, ordered like any other: it takes effect after
// the work enqueued before it in `stream`, and later work in `stream` sees
// it. On the reference's devices (concurrentManagedAccess 1) every kernel
// and the host may access managed memory whatever it is attached to, so
// the attachment restricts nothing and values never change.
// Errors, checked in this order: mcErrorInvalidValue if `flags` is not one
// of the three, `devPtr` is not the start of a managed allocation,
// `length` is neither 0 nor its size, or mcMemAttachSingle names the legacy
// default stream (0 or mcStreamLegacy, which is no single stream);
// mcErrorInvalidResourceHandle if `stream` is not a live stream.
// [api.stream.attach-mem.ordered-in-stream]
mcError_t mcStreamAttachMemAsync(
    mcStream_t stream, void* devPtr, size_t length __MC_DEFAULT(0),
    unsigned int flags __MC_DEFAULT(mcMemAttachSingle));

// Enqueues a call of `callback(stream, status, userData)` into `stream`,
// after all work enqueued before it; later work waits for it to return. It
// is called exactly once, on a host thread that waits for or polls the
// stream (or the submitting thread in eager mode), with mcSuccess or the
// device's error; it must not call the runtime (calls return
// mcErrorNotPermitted). `flags` must be 0.
// Errors: mcErrorInvalidValue for a null callback or other flags;
// mcErrorInvalidResourceHandle. [api.callback.add.runs-after-preceding-work]
mcError_t mcStreamAddCallback(mcStream_t stream, mcStreamCallback_t callback,
                              void* userData, unsigned int flags);

// Enqueues a call of `fn(userData)` into `stream`, as mcStreamAddCallback,
// except that it is not called once the device has a sticky error.
// Errors: mcErrorInvalidValue for a null `fn`; mcErrorInvalidResourceHandle.
// [api.callback.host-func.runs-in-stream-order]
mcError_t mcLaunchHostFunc(mcStream_t stream, mcHostFn_t fn, void* userData);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_STREAM_H_
