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

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_STREAM_H_
