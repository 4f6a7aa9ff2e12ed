// Copyright mxcts authors.
//
// reference/runtime/graphs/stream_capture.h: stream capture: work enqueued
// into a capturing stream becomes nodes of a graph instead of running.
//
// A capture begins in one stream (its origin) and spreads to every stream
// made to wait on an event recorded in it (a fork); each stream of the
// capture has a set of nodes its next work depends on, which that work
// replaces [api.graph.capture.records-instead-of-executing]. A wait on an
// event recorded during the capture adds the recorded stream's nodes to the
// waiting stream's set (a join) [api.graph.capture.fork-join-via-events].
// Ending the capture in its origin checks that every forked stream's last
// work is ordered before the origin's [api.graph.capture.unjoined-work-error].
//
// A call the capture forbids invalidates it: work on a stream of an
// invalidated capture, and its end, report mcErrorStreamCaptureInvalidated
// [api.graph.capture.invalidated-end-returns-invalidated]. Which calls are
// forbidden depends on each thread's interaction mode
// (mcThreadExchangeStreamCaptureMode) and the modes captures began in
// [api.graph.capture.modes].
//
// Every method requires the execution lock (Runtime::execution_mutex()),
// which orders capture state with the timeline's.
//
//   CaptureTable& captures = CaptureTable::Get();
//   captures.Begin(queue, device, mcStreamCaptureModeGlobal);
//   captures.AddNode(queue, *NodeParams::Memcpy1D(d, h, n, kind));
//   absl::StatusOr<MCgraph_st*> graph = captures.End(queue);

#ifndef MXCTS_REFERENCE_RUNTIME_GRAPHS_STREAM_CAPTURE_H_
#define MXCTS_REFERENCE_RUNTIME_GRAPHS_STREAM_CAPTURE_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "reference/runtime/graphs/graph.h"
#include "reference/runtime/timeline/timeline.h"

namespace mxcts::runtime {

// One capture sequence.
struct StreamCapture {
  uint64_t id = 0;  // unique in the process [api.graph.capture.get-info]
  mcStreamCaptureMode mode = mcStreamCaptureModeGlobal;
  std::thread::id thread;  // the thread that began it
  Queue* origin = nullptr;
  MCgraph_st* graph = nullptr;  // registered in the GraphTable
  bool invalidated = false;
  // Each stream of the capture and the nodes its next work depends on.
  std::map<Queue*, std::vector<MCgraphNode_st*>> tips;
};

// What mcStreamGetCaptureInfo reports of a stream.
struct CaptureInfo {
  mcStreamCaptureStatus status = mcStreamCaptureStatusNone;
  uint64_t id = 0;
  MCgraph_st* graph = nullptr;
  const std::vector<MCgraphNode_st*>* dependencies = nullptr;
};

class CaptureTable {
 public:
  static CaptureTable& Get();

  // Starts a capture in `queue` (a stream's, not the legacy queue's: the
  // caller refuses that). mcErrorIllegalState if `queue` is in a capture.
  // [api.graph.capture.already-capturing-illegal-state]
  absl::Status Begin(Queue* queue, mcStreamCaptureMode mode);
  // Ends the capture that `queue` began and returns its graph (now the
  // program's). Errors: mcErrorIllegalState if `queue` is in no capture;
  // mcErrorStreamCaptureWrongThread from another thread than the one that
  // began a global or thread-local capture; mcErrorStreamCaptureUnmatched
  // if `queue` did not begin it; mcErrorStreamCaptureInvalidated or
  // mcErrorStreamCaptureUnjoined otherwise, which end the capture and
  // destroy its graph.
  absl::StatusOr<MCgraph_st*> End(Queue* queue);

  // The capture `queue` is in, or null.
  StreamCapture* Of(const Queue* queue);
  CaptureInfo InfoOf(const Queue* queue);

  // Adds a node with `params` to the capture of `queue` (in one), after
  // the stream's current nodes, which it replaces.
  // mcErrorStreamCaptureInvalidated if the capture was invalidated.
  absl::Status AddNode(Queue* queue, NodeParams params);

  // mcEventRecord of `event` in the capturing `queue`: the event stands for
  // the stream's current nodes until it is recorded again outside a
  // capture. [api.graph.capture.fork-join-via-events]
  absl::Status RecordEvent(Queue* queue, const MCevent_st* event);
  // Forgets that `event` was recorded in a capture (it was recorded
  // outside one, or destroyed).
  void ForgetEvent(const MCevent_st* event);
  // True if the last record of `event` was made in a capture that has not
  // ended. [api.graph.capture.captured-event-query]
  bool IsCapturedEvent(const MCevent_st* event) const;

  // mcStreamWaitEvent(queue's stream, event) where `queue` captures or the
  // event was recorded in a capture: joins the event's nodes into the
  // stream's set, bringing a stream that does not capture into the
  // capture. mcErrorStreamCaptureIsolation (invalidating the captures
  // concerned) for an event of another capture, or an event recorded
  // outside any capture waited for by a capturing stream.
  // [api.graph.capture.cross-capture-isolation]
  absl::Status WaitEvent(Queue* queue, const MCevent_st* event);

  // mcStreamUpdateCaptureDependencies. [api.graph.capture.update-dependencies]
  absl::Status UpdateDependencies(Queue* queue,
                                  const std::vector<MCgraphNode_st*>& nodes,
                                  unsigned flags);

  // What a call that may synchronize implicitly (mcMalloc, mcFree, a
  // synchronization) gets on this thread: mcErrorStreamCaptureUnsupported,
  // invalidating the captures that forbid it, when the thread's mode is not
  // relaxed and it began a capture that is not relaxed, or its mode is
  // global and another thread's global capture is active; else OK.
  // [api.graph.capture.unsafe-call-in-global-mode]
  absl::Status CheckUnsafeCall(const char* api);

  // What SubmitWork gets for work in `queue` (of `device`) that no capture
  // took as a node: for a queue of a capture, its invalidation
  // (mcErrorStreamCaptureInvalidated if it already was, else
  // mcErrorStreamCaptureUnsupported); for the legacy queue while a blocking
  // queue of the device captures, mcErrorStreamCaptureImplicit (invalidating
  // that capture); for work the caller waits for, CheckUnsafeCall's answer.
  absl::Status CheckUncapturedWork(Queue* queue, bool waits);

  // What synchronizing or querying `queue` gets:
  // mcErrorStreamCaptureUnsupported if it captures,
  // mcErrorStreamCaptureImplicit for the legacy queue while a blocking queue of
  // its device captures (both invalidate); else OK.
  // [api.graph.capture.sync-call-unsupported]
  absl::Status CheckSynchronize(Queue* queue, const char* api);

  // What mcDeviceSynchronize of `device` gets: mcErrorStreamCaptureUnsupported,
  // invalidating them, while streams of the device capture (in any mode:
  // the wait would include a capturing stream); else OK.
  // [api.graph.capture.sync-call-unsupported]
  absl::Status CheckSynchronizeDevice(int device, const char* api);

  // True if any capture is active. The one call that needs no lock: a
  // quick test before taking it.
  bool AnyActive() const { return active_.load() > 0; }

  // The capture a blocking queue of `device` is in, or null: work in the
  // device's legacy default stream would depend on it.
  // [api.graph.capture.is-capturing-legacy-stream-implicit]
  StreamCapture* BlockingCaptureOf(int device);

 private:
  CaptureTable() = default;
  // Ends `capture`: its streams leave it; with `destroy_graph` its graph is
  // destroyed.
  void Finish(StreamCapture* capture, bool destroy_graph);

  std::atomic<int> active_{0};
  uint64_t next_id_ = 1;
  std::map<uint64_t, std::unique_ptr<StreamCapture>> captures_;
  std::map<const Queue*, StreamCapture*> by_queue_;
  // Events last recorded in a capture: the capture and the nodes.
  struct CapturedRecord {
    StreamCapture* capture;
    std::vector<MCgraphNode_st*> nodes;
  };
  std::map<const MCevent_st*, CapturedRecord> events_;
};

// The calling thread's capture interaction mode
// (mcThreadExchangeStreamCaptureMode); initially global.
// [api.graph.capture.exchange-mode]
mcStreamCaptureMode ThreadCaptureMode();
void SetThreadCaptureMode(mcStreamCaptureMode mode);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_GRAPHS_STREAM_CAPTURE_H_
