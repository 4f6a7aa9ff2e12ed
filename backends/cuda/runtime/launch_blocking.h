// Copyright mxcts authors.
//
// MACA_LAUNCH_BLOCKING=1 for the stream-ordered calls CUDA_LAUNCH_BLOCKING
// leaves asynchronous. Under MXMACA every kernel launch and asynchronous
// operation has completed when the call that enqueued it returns
// [model.async.launch-blocking-env]; the adapter hands the variable to CUDA
// as CUDA_LAUNCH_BLOCKING (environment.h), which makes only kernel launches
// synchronous. Every other call that enqueues work in a stream (copies and
// fills of every shape, prefetches, stream-ordered allocation and free,
// host functions and callbacks, graph uploads and launches, memory
// attachment) passes its result through CompletedIfBlocking, the one place
// that waits.
//
// Not passed through: event records and stream waits, whose only work is
// to mark or order the stream; under MACA_LAUNCH_BLOCKING=1 the work they
// mark or wait for has completed before they are called.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_LAUNCH_BLOCKING_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_LAUNCH_BLOCKING_H_

#include <cuda_runtime_api.h>

#include "backends/cuda/include/mc_runtime_api.h"

namespace mxcts::cuda_backend {

// `submitted`, the result of a call that enqueued work in `stream`, once
// that work has completed if MACA_LAUNCH_BLOCKING was 1 (then an error of
// the work is this call's result, recorded as the thread's last error).
// A failed submission, or one without MACA_LAUNCH_BLOCKING=1, is returned
// as it is, at once. A stream being captured records the work instead of
// running it, so there is nothing to wait for (and waiting would end the
// capture): its submission is returned as it is too.
mcError_t CompletedIfBlocking(mcError_t submitted, mcStream_t stream);

// Whether `stream` runs the work enqueued in it: false while it is being
// captured (its work becomes nodes of a graph) or when CUDA cannot tell.
// Leaves no error behind.
bool RunsItsWork(cudaStream_t stream);

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_LAUNCH_BLOCKING_H_
