// Copyright mxcts authors.
//
// The stream capture entry points (graphs/stream_capture.h), and the
// routing other entry points use to hand their work to a capture
// (capture_routing.h).
//
// Tested by api_graph_test.cc and the conformance tests of api-graph.md.

#include <vector>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/graphs/stream_capture.h"
#include "reference/runtime/process/runtime.h"

namespace mxcts::runtime {

absl::StatusOr<bool> CaptureIfCapturing(
    mcStream_t stream,
    const std::function<absl::StatusOr<NodeParams>()>& make) {
  CaptureTable& captures = CaptureTable::Get();
  if (!captures.AnyActive()) return false;
  absl::MutexLock lock(&Runtime::Get().execution_mutex());
  MX_ASSIGN_OR_RETURN(ResolvedStream resolved, ResolveStreamLocked(stream));
  StreamCapture* capture = captures.Of(resolved.queue);
  if (capture == nullptr) return false;
  if (capture->invalidated) {
    return McStatus(mcErrorStreamCaptureInvalidated,
                    "the stream's capture was invalidated");
  }
  MX_ASSIGN_OR_RETURN(NodeParams params, make());
  MX_RETURN_IF_ERROR(captures.AddNode(resolved.queue, std::move(params)));
  return true;
}

absl::Status LaunchOrCapture(const LaunchRequest& request) {
  MX_ASSIGN_OR_RETURN(
      bool captured,
      CaptureIfCapturing(request.stream, [&]() -> absl::StatusOr<NodeParams> {
        MX_ASSIGN_OR_RETURN(Device * device,
                            DeviceTable::Get().CurrentDeviceForWork());
        MX_ASSIGN_OR_RETURN(
            int stream_device,
            StreamTable::Get().DeviceOf(request.stream, device->ordinal()));
        if (stream_device != device->ordinal()) {
          // [lang.launch.limit.stream-of-other-device], as Launch checks it.
          return McStatus(
              mcErrorInvalidResourceHandle,
              absl::StrFormat("the stream belongs to device %d, the "
                              "current device is %d",
                              stream_device, device->ordinal()));
        }
        const mcKernelNodeParams params{
            const_cast<void*>(request.function),
            request.grid,
            request.block,
            static_cast<unsigned>(request.shared_bytes),
            request.args,
            nullptr};
        MX_ASSIGN_OR_RETURN(NodeParams node, NodeParams::Kernel(&params));
        // A captured cooperative launch stays cooperative in the graph.
        if (request.cooperative) {
          MX_RETURN_IF_ERROR(node.SetCooperative(true));
        }
        return node;
      }));
  if (captured) return absl::OkStatus();
  return Launch(request);
}

absl::Status CheckUncapturedStreamWork(mcStream_t stream) {
  CaptureTable& captures = CaptureTable::Get();
  if (!captures.AnyActive()) return absl::OkStatus();
  absl::MutexLock lock(&Runtime::Get().execution_mutex());
  MX_ASSIGN_OR_RETURN(ResolvedStream resolved, ResolveStreamLocked(stream));
  return captures.CheckUncapturedWork(resolved.queue, false);
}

absl::Status CheckUnsafeDuringCapture(const char* api) {
  CaptureTable& captures = CaptureTable::Get();
  if (!captures.AnyActive()) return absl::OkStatus();
  absl::MutexLock lock(&Runtime::Get().execution_mutex());
  return captures.CheckUnsafeCall(api);
}

absl::Status CheckDeviceSynchronizeDuringCapture(int device) {
  CaptureTable& captures = CaptureTable::Get();
  if (!captures.AnyActive()) return absl::OkStatus();
  absl::MutexLock lock(&Runtime::Get().execution_mutex());
  MX_RETURN_IF_ERROR(
      captures.CheckSynchronizeDevice(device, "mcDeviceSynchronize"));
  return captures.CheckUnsafeCall("mcDeviceSynchronize");
}

namespace {

bool IsCaptureMode(int mode) {
  return mode == mcStreamCaptureModeGlobal ||
         mode == mcStreamCaptureModeThreadLocal ||
         mode == mcStreamCaptureModeRelaxed;
}

// The capture status of `stream`, as mcStreamGetCaptureInfo reports it.
// mcErrorStreamCaptureImplicit for the legacy default stream while a
// blocking stream of its device captures.
absl::StatusOr<CaptureInfo> CaptureInfoOf(mcStream_t stream) {
  MX_RETURN_IF_ERROR(StreamDeviceForWork(stream).status());
  absl::MutexLock lock(&Runtime::Get().execution_mutex());
  MX_ASSIGN_OR_RETURN(ResolvedStream resolved, ResolveStreamLocked(stream));
  CaptureTable& captures = CaptureTable::Get();
  if (resolved.queue->kind() == QueueKind::kLegacy &&
      captures.BlockingCaptureOf(resolved.device) != nullptr) {
    // [api.graph.capture.is-capturing-legacy-stream-implicit]
    return McStatus(mcErrorStreamCaptureImplicit,
                    "the legacy default stream would depend on a capture");
  }
  return captures.InfoOf(resolved.queue);
}

}  // namespace
}  // namespace mxcts::runtime

using mxcts::runtime::CaptureInfo;
using mxcts::runtime::CaptureTable;
using mxcts::runtime::McStatus;
using mxcts::runtime::ResolvedStream;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;

extern "C" mcError_t mcStreamBeginCapture(mcStream_t stream,
                                          mcStreamCaptureMode mode) {
  return RunApi([&]() -> absl::Status {
    if (!mxcts::runtime::IsCaptureMode(mode)) {
      // [api.graph.capture.invalid-mode-invalid-value]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%d is not a capture mode", mode));
    }
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    if (resolved.queue->kind() == mxcts::runtime::QueueKind::kLegacy) {
      // [api.graph.capture.legacy-null-stream-unsupported]
      return McStatus(mcErrorStreamCaptureUnsupported,
                      "the legacy default stream cannot be captured");
    }
    // [api.graph.capture.records-instead-of-executing]
    return CaptureTable::Get().Begin(resolved.queue, mode);
  });
}

extern "C" mcError_t mcStreamEndCapture(mcStream_t stream, mcGraph_t* graph) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.capture.end-null-graph-invalid-value]
    if (graph == nullptr) {
      return McStatus(mcErrorInvalidValue, "the graph output is null");
    }
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    absl::StatusOr<MCgraph_st*> ended = CaptureTable::Get().End(resolved.queue);
    if (!ended.ok()) {
      // [api.graph.capture.invalidated-end-returns-invalidated]
      *graph = nullptr;
      return ended.status();
    }
    *graph = *ended;  // [api.graph.capture.captured-graph-equivalent]
    return absl::OkStatus();
  });
}

extern "C" mcError_t mcStreamIsCapturing(mcStream_t stream,
                                         mcStreamCaptureStatus* status) {
  return RunApi([&]() -> absl::Status {
    if (status == nullptr) {
      return McStatus(mcErrorInvalidValue, "the status output is null");
    }
    // [api.graph.capture.is-capturing-status]
    MX_ASSIGN_OR_RETURN(CaptureInfo info,
                        mxcts::runtime::CaptureInfoOf(stream));
    *status = info.status;
    return absl::OkStatus();
  });
}

extern "C" mcError_t mcStreamGetCaptureInfo(mcStream_t stream,
                                            mcStreamCaptureStatus* status,
                                            unsigned long long* id) {
  return mcStreamGetCaptureInfo_v2(stream, status, id, nullptr, nullptr,
                                   nullptr);
}

extern "C" mcError_t mcStreamGetCaptureInfo_v2(
    mcStream_t stream, mcStreamCaptureStatus* status, unsigned long long* id,
    mcGraph_t* graph, const mcGraphNode_t** dependencies,
    size_t* numDependencies) {
  return RunApi([&]() -> absl::Status {
    if (status == nullptr) {
      return McStatus(mcErrorInvalidValue, "the status output is null");
    }
    // [api.graph.capture.get-info]
    MX_ASSIGN_OR_RETURN(CaptureInfo info,
                        mxcts::runtime::CaptureInfoOf(stream));
    *status = info.status;
    if (info.status == mcStreamCaptureStatusNone) return absl::OkStatus();
    if (id != nullptr) *id = info.id;
    if (graph != nullptr) *graph = info.graph;
    if (dependencies != nullptr) *dependencies = info.dependencies->data();
    if (numDependencies != nullptr) {
      *numDependencies = info.dependencies->size();
    }
    return absl::OkStatus();
  });
}

extern "C" mcError_t mcStreamUpdateCaptureDependencies(mcStream_t stream,
                                                       mcGraphNode_t* nodes,
                                                       size_t numDependencies,
                                                       unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    if (nodes == nullptr && numDependencies > 0) {
      return McStatus(mcErrorInvalidValue,
                      "the node array is null but its count is not 0");
    }
    std::vector<MCgraphNode_st*> found;
    for (size_t i = 0; i < numDependencies; ++i) {
      MX_ASSIGN_OR_RETURN(
          MCgraphNode_st * node,
          mxcts::runtime::GraphTable::Get().FindNode(nodes[i], "a dependency"));
      found.push_back(node);
    }
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    // [api.graph.capture.update-dependencies]
    // [api.graph.capture.update-dependencies-errors]
    return CaptureTable::Get().UpdateDependencies(resolved.queue, found, flags);
  });
}

extern "C" mcError_t mcThreadExchangeStreamCaptureMode(
    mcStreamCaptureMode* mode) {
  return RunApi([&]() -> absl::Status {
    if (mode == nullptr) {
      return McStatus(mcErrorInvalidValue, "the mode is null");
    }
    if (!mxcts::runtime::IsCaptureMode(*mode)) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%d is not a capture mode", *mode));
    }
    // [api.graph.capture.exchange-mode]
    const mcStreamCaptureMode previous = mxcts::runtime::ThreadCaptureMode();
    mxcts::runtime::SetThreadCaptureMode(*mode);
    *mode = previous;
    return absl::OkStatus();
  });
}
