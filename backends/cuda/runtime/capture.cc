// Copyright mxcts authors.
//
// Stream capture (docs/spec/api-graph.md, "Stream capture") over CUDA's.
// CUDA records the captured work and reports the capture errors MXMACA
// defines, with MXMACA's numbers (900 to 908); the adapter checks the
// arguments CUDA does not (modes and flags), ends every failed capture with
// a null graph, and records the graph a capture builds, and the nodes a
// query hands out of it, so that the graph calls accept them
// (graph_handles.h).

#include <cuda_runtime_api.h>

#include <mutex>
#include <thread>
#include <unordered_map>

#include "backends/cuda/include/mc_runtime_api.h"
#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/graph_handles.h"
#include "backends/cuda/runtime/handles.h"

using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::ToCuda;

namespace {

// The thread that began each stream's capture, and the capture's mode.
// MXMACA refuses to end a global or thread-local capture in another thread
// and lets it go on [api.graph.capture.wrong-thread]; CUDA refuses too but
// ends the capture, so the adapter answers that end itself. The per-thread
// default stream is another stream in each thread, and is not recorded.
struct CaptureBegun {
  std::thread::id thread;
  mcStreamCaptureMode mode;
};

struct Captures {
  std::mutex mutex;
  std::unordered_map<mcStream_t, CaptureBegun> begun;
};

Captures& Begun() {
  static Captures* captures = new Captures();
  return *captures;
}

// True if `stream`'s capture was begun in another thread in a mode that
// keeps its end to that thread.
bool EndedInWrongThread(mcStream_t stream) {
  Captures& c = Begun();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.begun.find(stream);
  return it != c.begun.end() && it->second.mode != mcStreamCaptureModeRelaxed &&
         it->second.thread != std::this_thread::get_id();
}

bool KnownMode(mcStreamCaptureMode mode) {
  return mode == mcStreamCaptureModeGlobal ||
         mode == mcStreamCaptureModeThreadLocal ||
         mode == mcStreamCaptureModeRelaxed;
}

mcStreamCaptureStatus FromCudaStatus(cudaStreamCaptureStatus status) {
  switch (status) {
    case cudaStreamCaptureStatusActive:
      return mcStreamCaptureStatusActive;
    case cudaStreamCaptureStatusInvalidated:
      return mcStreamCaptureStatusInvalidated;
    default:
      return mcStreamCaptureStatusNone;
  }
}

// The graph `stream`'s capture is building, or null.
cudaGraph_t CaptureGraph(mcStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaGraph_t graph = nullptr;
  if (cudaStreamGetCaptureInfo(ToCuda(stream), &status, nullptr, &graph,
                               nullptr, nullptr, nullptr) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return status == cudaStreamCaptureStatusNone ? nullptr : graph;
}

}  // namespace

extern "C" {

mcError_t mcStreamBeginCapture(mcStream_t stream, mcStreamCaptureMode mode) {
  MXCTS_CHECK_STREAM(stream);
  if (!KnownMode(mode)) return Fail(mcErrorInvalidValue);
  const mcError_t error = Check(cudaStreamBeginCapture(
      ToCuda(stream), static_cast<cudaStreamCaptureMode>(mode)));
  if (error == mcSuccess && stream != mcStreamPerThread) {
    Captures& c = Begun();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.begun[stream] = CaptureBegun{std::this_thread::get_id(), mode};
  }
  return error;
}

mcError_t mcStreamEndCapture(mcStream_t stream, mcGraph_t* graph) {
  MXCTS_CHECK_STREAM(stream);
  if (graph == nullptr) return Fail(mcErrorInvalidValue);
  *graph = nullptr;
  if (EndedInWrongThread(stream)) {
    return Fail(mcErrorStreamCaptureWrongThread);
  }
  const cudaGraph_t building = CaptureGraph(stream);
  cudaGraph_t captured = nullptr;
  const mcError_t error =
      Check(cudaStreamEndCapture(ToCuda(stream), &captured));
  if (error != mcErrorStreamCaptureWrongThread) {
    Captures& c = Begun();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.begun.erase(stream);
  }
  if (error != mcSuccess) {
    // CUDA destroyed the graph of a capture that failed.
    if (building != nullptr && captured == nullptr) {
      mxcts::cuda_backend::ForgetGraph(mxcts::cuda_backend::FromCuda(building));
    }
    if (captured != nullptr && captured != building) {
      cudaGraphDestroy(captured);
    }
    return error;
  }
  *graph = mxcts::cuda_backend::FromCuda(captured);
  mxcts::cuda_backend::AddGraph(*graph);
  return mcSuccess;
}

mcError_t mcStreamIsCapturing(mcStream_t stream,
                              mcStreamCaptureStatus* status) {
  MXCTS_CHECK_STREAM(stream);
  if (status == nullptr) return Fail(mcErrorInvalidValue);
  cudaStreamCaptureStatus cuda = cudaStreamCaptureStatusNone;
  const mcError_t error = Check(cudaStreamIsCapturing(ToCuda(stream), &cuda));
  if (error == mcSuccess) *status = FromCudaStatus(cuda);
  return error;
}

mcError_t mcStreamGetCaptureInfo(mcStream_t stream,
                                 mcStreamCaptureStatus* status,
                                 unsigned long long* id) {
  return mcStreamGetCaptureInfo_v2(stream, status, id, nullptr, nullptr,
                                   nullptr);
}

mcError_t mcStreamGetCaptureInfo_v2(mcStream_t stream,
                                    mcStreamCaptureStatus* status,
                                    unsigned long long* id, mcGraph_t* graph,
                                    const mcGraphNode_t** dependencies,
                                    size_t* numDependencies) {
  MXCTS_CHECK_STREAM(stream);
  if (status == nullptr) return Fail(mcErrorInvalidValue);
  cudaStreamCaptureStatus cuda = cudaStreamCaptureStatusNone;
  unsigned long long cuda_id = 0;
  cudaGraph_t cuda_graph = nullptr;
  const cudaGraphNode_t* cuda_dependencies = nullptr;
  size_t count = 0;
  const mcError_t error = Check(
      cudaStreamGetCaptureInfo(ToCuda(stream), &cuda, &cuda_id, &cuda_graph,
                               &cuda_dependencies, nullptr, &count));
  if (error != mcSuccess) return error;
  *status = FromCudaStatus(cuda);
  if (cuda != cudaStreamCaptureStatusActive) return mcSuccess;
  const mcGraph_t building = mxcts::cuda_backend::FromCuda(cuda_graph);
  const mcGraphNode_t* nodes =
      reinterpret_cast<const mcGraphNode_t*>(cuda_dependencies);
  // The graph under construction is the capture's until it ends; its
  // nodes are the program's to name.
  if (!mxcts::cuda_backend::IsGraph(building)) {
    mxcts::cuda_backend::AddOwnedGraph(building, nullptr);
  }
  mxcts::cuda_backend::AddNodes(building, nodes, count);
  if (id != nullptr) *id = cuda_id;
  if (graph != nullptr) *graph = building;
  if (dependencies != nullptr) *dependencies = nodes;
  if (numDependencies != nullptr) *numDependencies = count;
  return mcSuccess;
}

mcError_t mcStreamUpdateCaptureDependencies(mcStream_t stream,
                                            mcGraphNode_t* nodes,
                                            size_t numDependencies,
                                            unsigned int flags) {
  MXCTS_CHECK_STREAM(stream);
  if (flags != mcStreamAddCaptureDependencies &&
      flags != mcStreamSetCaptureDependencies) {
    return Fail(mcErrorInvalidValue);
  }
  const cudaGraph_t building = CaptureGraph(stream);
  if (building == nullptr) return Fail(mcErrorIllegalState);
  if (nodes == nullptr && numDependencies != 0) {
    return Fail(mcErrorInvalidValue);
  }
  for (size_t i = 0; i < numDependencies; ++i) {
    mcGraph_t owner = nullptr;
    if (!mxcts::cuda_backend::IsNode(nodes[i], &owner) ||
        owner != mxcts::cuda_backend::FromCuda(building)) {
      return Fail(mcErrorInvalidValue);
    }
  }
  return Check(cudaStreamUpdateCaptureDependencies(
      ToCuda(stream), reinterpret_cast<cudaGraphNode_t*>(nodes), nullptr,
      numDependencies, flags));
}

mcError_t mcThreadExchangeStreamCaptureMode(mcStreamCaptureMode* mode) {
  if (mode == nullptr || !KnownMode(*mode)) return Fail(mcErrorInvalidValue);
  cudaStreamCaptureMode cuda = static_cast<cudaStreamCaptureMode>(*mode);
  const mcError_t error = Check(cudaThreadExchangeStreamCaptureMode(&cuda));
  if (error == mcSuccess) *mode = static_cast<mcStreamCaptureMode>(cuda);
  return error;
}

}  // extern "C"
