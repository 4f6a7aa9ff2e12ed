// Copyright mxcts authors.
//
// launch_blocking.h: waits for a stream after its work was submitted.

#include "backends/cuda/runtime/launch_blocking.h"

#include <cuda_runtime_api.h>

#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/environment.h"

namespace mxcts::cuda_backend {

bool RunsItsWork(cudaStream_t stream) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return capture == cudaStreamCaptureStatusNone;
}

mcError_t CompletedIfBlocking(mcError_t submitted, mcStream_t stream) {
  if (submitted != mcSuccess || !LaunchBlocking()) return submitted;
  const cudaStream_t cuda = ToCuda(stream);
  if (!RunsItsWork(cuda)) return submitted;
  return Check(cudaStreamSynchronize(cuda));
}

}  // namespace mxcts::cuda_backend
