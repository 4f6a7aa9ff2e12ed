// Copyright mxcts authors.
//
// mcr/detail/runtime_api_event.h: the part of mc_runtime_api.h that declares
// events: creation, recording, queries, synchronization, elapsed time,
// destruction. Include mc_runtime_api.h (or mc_runtime.h), not this header: it
// relies on the definitions made there.

#ifndef MCR_DETAIL_RUNTIME_API_EVENT_H_
#define MCR_DETAIL_RUNTIME_API_EVENT_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Events [api.event]
//
// An event marks a point in a stream: recording it captures the work
// enqueued into the stream so far, and it completes when that work has run.
// --------------------------------------------------------------------------

// Creates an event of the current device with mcEventDefault. (C++ also
// has mcEventCreate(&event, flags), in mc_runtime.h.)
// Errors: mcErrorInvalidValue if `event` is null.
// [api.event.create.default-event]
mcError_t mcEventCreate(mcEvent_t* event);

// Creates an event with `flags`, an OR of mcEventBlockingSync,
// mcEventDisableTiming and mcEventInterprocess (which requires
// mcEventDisableTiming). Errors: mcErrorInvalidValue if `event` is null or
// the flags are not allowed. [api.event.create-with-flags.accepted-flags]
mcError_t mcEventCreateWithFlags(mcEvent_t* event, unsigned int flags);

// Captures in `event` the work enqueued into `stream` so far (for the
// legacy default stream, also the earlier work of the device's blocking
// streams); returns at once.
// Errors: mcErrorInvalidResourceHandle for a bad event or stream, or a
// stream of another device than the event's (the event keeps its state).
// [api.event.record.captures-stream-work]
mcError_t mcEventRecord(mcEvent_t event, mcStream_t stream __MC_DEFAULT(0));

// As mcEventRecord; `flags` is mcEventRecordDefault or
// mcEventRecordExternal (the same outside graph capture).
// Errors: those of mcEventRecord; mcErrorInvalidValue for other flags.
// [api.event.record-with-flags.default-flag]
mcError_t mcEventRecordWithFlags(mcEvent_t event,
                                 mcStream_t stream __MC_DEFAULT(0),
                                 unsigned int flags __MC_DEFAULT(0));

// mcSuccess if the work the event captured has run (or it was never
// recorded), mcErrorNotReady (not recorded as the last error) if not. Never
// waits, but lets the timeline run one piece of the captured work.
// Errors: mcErrorInvalidResourceHandle; the error of failed work.
// [api.event.query.success-when-complete]
mcError_t mcEventQuery(mcEvent_t event);

// Waits until the work the event captured has run (at once if it was never
// recorded), then returns mcSuccess or the error of failed work.
// Errors: mcErrorInvalidResourceHandle.
// [api.event.synchronize.waits-for-captured-work]
mcError_t mcEventSynchronize(mcEvent_t event);

// Stores in `*ms` the milliseconds between the completions of the most
// recent records of `start` and `end`.
// Errors: mcErrorInvalidValue if `ms` is null; mcErrorInvalidResourceHandle
// for a bad handle, an event never recorded, an event with
// mcEventDisableTiming, or events of different devices; mcErrorNotReady if
// a record has not completed. [api.event.elapsed-time.milliseconds]
mcError_t mcEventElapsedTime(float* ms, mcEvent_t start, mcEvent_t end);

// Destroys `event` at once; a pending record still completes and waits on
// it still hold. Errors: mcErrorInvalidResourceHandle.
// [api.event.destroy.releases-event]
mcError_t mcEventDestroy(mcEvent_t event);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_EVENT_H_
