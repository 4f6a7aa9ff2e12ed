// Copyright mxcts authors.
//
// reference/runtime/api/capture_routing.h: how an entry point that enqueues
// stream work hands it to a stream capture instead
// (graphs/stream_capture.h) [api.graph.capture.records-instead-of-executing].
//
// The entry point checks its arguments as usual, then asks
// CaptureIfCapturing with the node its work would be; if the stream
// captures, the node is added and the call is done.
//
//   MX_ASSIGN_OR_RETURN(bool captured, CaptureIfCapturing(stream, [&] {
//     return NodeParams::Memcpy1D(dst, src, count, kind);
//   }));
//   if (captured) return absl::OkStatus();
//   return SubmitCopy(plan, stream, CallKind::kAsynchronous, api);

#ifndef MXCTS_REFERENCE_RUNTIME_API_CAPTURE_ROUTING_H_
#define MXCTS_REFERENCE_RUNTIME_API_CAPTURE_ROUTING_H_

#include <functional>

#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "reference/runtime/graphs/node_params.h"
#include "reference/runtime/launch/launcher.h"

namespace mxcts::runtime {

// If `stream` is in a stream capture, adds the node `make` returns to the
// capture, after the stream's current nodes, and returns true (or `make`'s
// error, or mcErrorStreamCaptureInvalidated for an invalidated capture);
// otherwise returns false and changes nothing.
absl::StatusOr<bool> CaptureIfCapturing(
    mcStream_t stream, const std::function<absl::StatusOr<NodeParams>()>& make);

// Launch(request), or, if its stream captures, a kernel node of the
// capture with the launch's configuration and a copy of its arguments.
absl::Status LaunchOrCapture(const LaunchRequest& request);

// The error, if any, that work enqueued into `stream` outside the device
// timeline's SubmitWork (events, callbacks, stream-ordered allocation)
// gets from stream capture: CaptureTable::CheckUncapturedWork's.
absl::Status CheckUncapturedStreamWork(mcStream_t stream);

// What a call that may synchronize implicitly (mcMalloc, mcFree, ...) gets
// during a capture: CaptureTable::CheckUnsafeCall's answer.
// [api.graph.capture.unsafe-call-in-global-mode]
absl::Status CheckUnsafeDuringCapture(const char* api);

// What mcDeviceSynchronize of `device` gets during a capture: refused while
// a stream of the device captures, whatever the modes (the wait includes
// that stream), else CaptureTable::CheckUnsafeCall's answer.
// [api.graph.capture.sync-call-unsupported]
absl::Status CheckDeviceSynchronizeDuringCapture(int device);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_API_CAPTURE_ROUTING_H_
