// Copyright mxcts authors.
//
// The streams and events the program holds. MXMACA answers a destroyed or
// made-up handle with mcErrorInvalidResourceHandle
// [api.stream.handle.invalid-handle-is-invalid-resource-handle]; CUDA leaves a
// destroyed handle undefined, and crashes on many. The adapter therefore
// keeps the set of live handles and checks each before CUDA sees it.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_HANDLES_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_HANDLES_H_

#include "backends/cuda/include/mc_runtime_api.h"

namespace mxcts::cuda_backend {

// Adds a stream or event created on `device`.
void AddStream(mcStream_t stream, int device);
void AddEvent(mcEvent_t event, int device);

// Removes a live handle; false if it was not live.
bool RemoveStream(mcStream_t stream);
bool RemoveEvent(mcEvent_t event);

// Whether a stream argument names a stream: a live one, or the default
// streams (0, mcStreamLegacy, mcStreamPerThread).
bool IsStream(mcStream_t stream);

// Whether `event` is live.
bool IsEvent(mcEvent_t event);

// Forgets every handle of `device` (mcDeviceReset destroys them).
void ForgetDevice(int device);

}  // namespace mxcts::cuda_backend

// Returns mcErrorInvalidResourceHandle from the calling function when the
// stream or event argument names none.
#define MXCTS_CHECK_STREAM(stream)                                      \
  do {                                                                  \
    if (!::mxcts::cuda_backend::IsStream(stream)) {                     \
      return ::mxcts::cuda_backend::Fail(mcErrorInvalidResourceHandle); \
    }                                                                   \
  } while (0)
#define MXCTS_CHECK_EVENT(event)                                        \
  do {                                                                  \
    if (!::mxcts::cuda_backend::IsEvent(event)) {                       \
      return ::mxcts::cuda_backend::Fail(mcErrorInvalidResourceHandle); \
    }                                                                   \
  } while (0)

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_HANDLES_H_
