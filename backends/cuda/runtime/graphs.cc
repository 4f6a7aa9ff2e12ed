// Copyright mxcts authors.
//
// Graphs and stream capture: not implemented by the adapter yet (the
// manifest does not claim `graphs`, so their tests are unsupported). The
// entries that tests of other chapters call exist so that those link; each
// checks what it can and answers mcErrorNotSupported.

#include "backends/cuda/include/mc_runtime_api.h"
#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/handles.h"

using mxcts::cuda_backend::Fail;

extern "C" {

mcError_t mcStreamBeginCapture(mcStream_t stream, mcStreamCaptureMode) {
  MXCTS_CHECK_STREAM(stream);
  return Fail(mcErrorNotSupported);
}

mcError_t mcStreamEndCapture(mcStream_t stream, mcGraph_t* graph) {
  MXCTS_CHECK_STREAM(stream);
  if (graph == nullptr) return Fail(mcErrorInvalidValue);
  return Fail(mcErrorNotSupported);
}

mcError_t mcGraphGetNodes(mcGraph_t graph, mcGraphNode_t*, size_t* numNodes) {
  if (graph == nullptr || numNodes == nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  return Fail(mcErrorNotSupported);
}

mcError_t mcGraphDestroy(mcGraph_t graph) {
  if (graph == nullptr) return Fail(mcErrorInvalidValue);
  return Fail(mcErrorNotSupported);
}

}  // extern "C"
