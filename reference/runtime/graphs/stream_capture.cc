// Copyright mxcts authors.
//
// Stream capture (stream_capture.h).
//
// Tested by stream_capture_test.cc and the conformance tests of
// api-graph.md.

#include "reference/runtime/graphs/stream_capture.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/timeline/device_work.h"

namespace mxcts::runtime {
namespace {

thread_local mcStreamCaptureMode thread_capture_mode =
    mcStreamCaptureModeGlobal;

// SubmitWork's question for work no capture took (device_work.h).
absl::Status UncapturedWorkGate(Queue* queue, bool waits) {
  CaptureTable& captures = CaptureTable::Get();
  if (!captures.AnyActive()) return absl::OkStatus();
  return captures.CheckUncapturedWork(queue, waits);
}

const bool gate_installed = [] {
  SetUncapturedWorkGate(&UncapturedWorkGate);
  return true;
}();

// Adds to `tips` each of `nodes` it lacks.
void AddMissing(std::vector<MCgraphNode_st*>& tips,
                const std::vector<MCgraphNode_st*>& nodes) {
  for (MCgraphNode_st* node : nodes) {
    if (std::find(tips.begin(), tips.end(), node) == tips.end()) {
      tips.push_back(node);
    }
  }
}

absl::Status Invalidated(uint64_t id) {
  return McStatus(mcErrorStreamCaptureInvalidated,
                  absl::StrFormat("capture %u was invalidated", id));
}

}  // namespace

mcStreamCaptureMode ThreadCaptureMode() { return thread_capture_mode; }

void SetThreadCaptureMode(mcStreamCaptureMode mode) {
  thread_capture_mode = mode;
}

CaptureTable& CaptureTable::Get() {
  static CaptureTable* table = new CaptureTable();
  (void)gate_installed;
  return *table;
}

absl::Status CaptureTable::Begin(Queue* queue, mcStreamCaptureMode mode) {
  if (Of(queue) != nullptr) {
    // [api.graph.capture.already-capturing-illegal-state]
    return McStatus(mcErrorIllegalState, "the stream is already capturing");
  }
  auto capture = std::make_unique<StreamCapture>();
  capture->id = next_id_++;
  capture->mode = mode;
  capture->thread = std::this_thread::get_id();
  capture->origin = queue;
  capture->graph = GraphTable::Get().Create();
  capture->tips[queue] = {};
  by_queue_[queue] = capture.get();
  captures_[capture->id] = std::move(capture);
  active_.fetch_add(1);
  return absl::OkStatus();
}

void CaptureTable::Finish(StreamCapture* capture, bool destroy_graph) {
  for (const auto& [queue, tips] : capture->tips) by_queue_.erase(queue);
  for (auto it = events_.begin(); it != events_.end();) {
    it = it->second.capture == capture ? events_.erase(it) : std::next(it);
  }
  if (destroy_graph) GraphTable::Get().Destroy(capture->graph);
  captures_.erase(capture->id);
  active_.fetch_sub(1);
}

absl::StatusOr<MCgraph_st*> CaptureTable::End(Queue* queue) {
  StreamCapture* capture = Of(queue);
  if (capture == nullptr) {
    // [api.graph.capture.end-not-capturing-illegal-state]
    return McStatus(mcErrorIllegalState, "the stream is not capturing");
  }
  if (capture->mode != mcStreamCaptureModeRelaxed &&
      capture->thread != std::this_thread::get_id()) {
    // [api.graph.capture.wrong-thread]
    return McStatus(mcErrorStreamCaptureWrongThread,
                    "the capture was begun by another thread");
  }
  if (capture->origin != queue) {
    // [api.graph.capture.end-on-non-origin-unmatched]: the capture can no
    // longer end well; its origin's end reports the invalidation.
    capture->invalidated = true;
    return McStatus(mcErrorStreamCaptureUnmatched,
                    "the stream joined the capture but did not begin it");
  }
  const uint64_t id = capture->id;
  if (capture->invalidated) {
    Finish(capture, /*destroy_graph=*/true);
    return Invalidated(id);
  }
  // [api.graph.capture.unjoined-work-error]: every other stream's nodes
  // must be ordered before the origin's.
  const std::vector<MCgraphNode_st*>& origin_tips = capture->tips[queue];
  for (const auto& [other, tips] : capture->tips) {
    if (other == queue) continue;
    for (const MCgraphNode_st* tip : tips) {
      bool joined = false;
      for (const MCgraphNode_st* end : origin_tips) {
        joined |= Reaches(tip, end);
      }
      if (!joined) {
        Finish(capture, /*destroy_graph=*/true);
        return McStatus(mcErrorStreamCaptureUnjoined,
                        "a stream forked into the capture has work that was "
                        "not joined into the origin stream");
      }
    }
  }
  MCgraph_st* graph = capture->graph;
  Finish(capture, /*destroy_graph=*/false);
  return graph;
}

StreamCapture* CaptureTable::Of(const Queue* queue) {
  if (by_queue_.empty()) return nullptr;
  auto it = by_queue_.find(queue);
  return it == by_queue_.end() ? nullptr : it->second;
}

CaptureInfo CaptureTable::InfoOf(const Queue* queue) {
  CaptureInfo info;
  StreamCapture* capture = Of(queue);
  if (capture == nullptr) return info;
  info.status = capture->invalidated ? mcStreamCaptureStatusInvalidated
                                     : mcStreamCaptureStatusActive;
  info.id = capture->id;
  info.graph = capture->graph;
  info.dependencies = &capture->tips[const_cast<Queue*>(queue)];
  return info;
}

absl::Status CaptureTable::AddNode(Queue* queue, NodeParams params) {
  StreamCapture* capture = Of(queue);
  if (capture->invalidated) return Invalidated(capture->id);
  std::vector<MCgraphNode_st*>& tips = capture->tips[queue];
  MX_ASSIGN_OR_RETURN(
      MCgraphNode_st * node,
      mxcts::runtime::AddNode(*capture->graph, std::move(params), tips));
  tips = {node};
  return absl::OkStatus();
}

absl::Status CaptureTable::RecordEvent(Queue* queue, const MCevent_st* event) {
  StreamCapture* capture = Of(queue);
  if (capture->invalidated) return Invalidated(capture->id);
  events_[event] = CapturedRecord{capture, capture->tips[queue]};
  return absl::OkStatus();
}

void CaptureTable::ForgetEvent(const MCevent_st* event) {
  events_.erase(event);
}

bool CaptureTable::IsCapturedEvent(const MCevent_st* event) const {
  return events_.count(event) > 0;
}

absl::Status CaptureTable::WaitEvent(Queue* queue, const MCevent_st* event) {
  StreamCapture* capture = Of(queue);
  auto recorded = events_.find(event);
  if (recorded == events_.end()) {
    // A capturing stream waits for work outside the capture.
    capture->invalidated = true;
    return McStatus(mcErrorStreamCaptureIsolation,
                    "a capturing stream waits for an event recorded outside "
                    "its capture");
  }
  StreamCapture* source = recorded->second.capture;
  if (capture != nullptr && capture != source) {
    capture->invalidated = true;
    source->invalidated = true;
    return McStatus(mcErrorStreamCaptureIsolation,
                    "the event was recorded in another capture");
  }
  if (source->invalidated) return Invalidated(source->id);
  if (capture == nullptr) {
    // A fork: the stream joins the capture.
    by_queue_[queue] = source;
    source->tips[queue] = recorded->second.nodes;
    return absl::OkStatus();
  }
  AddMissing(source->tips[queue], recorded->second.nodes);
  return absl::OkStatus();
}

absl::Status CaptureTable::UpdateDependencies(
    Queue* queue, const std::vector<MCgraphNode_st*>& nodes, unsigned flags) {
  StreamCapture* capture = Of(queue);
  if (capture == nullptr) {
    // [api.graph.capture.update-dependencies-errors]
    return McStatus(mcErrorIllegalState, "the stream is not capturing");
  }
  if (flags != mcStreamAddCaptureDependencies &&
      flags != mcStreamSetCaptureDependencies) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("unknown flags %#x", flags));
  }
  if (capture->invalidated) return Invalidated(capture->id);
  for (const MCgraphNode_st* node : nodes) {
    if (node->graph != capture->graph) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("node %p is not a node of the graph "
                                      "being captured",
                                      node));
    }
  }
  std::vector<MCgraphNode_st*>& tips = capture->tips[queue];
  if (flags == mcStreamSetCaptureDependencies) tips.clear();
  AddMissing(tips, nodes);
  return absl::OkStatus();
}

absl::Status CaptureTable::CheckUnsafeCall(const char* api) {
  if (captures_.empty()) return absl::OkStatus();
  const mcStreamCaptureMode mode = thread_capture_mode;
  if (mode == mcStreamCaptureModeRelaxed) return absl::OkStatus();
  const std::thread::id self = std::this_thread::get_id();
  std::vector<StreamCapture*> forbidding;
  for (const auto& [id, capture] : captures_) {
    const bool own =
        capture->thread == self && capture->mode != mcStreamCaptureModeRelaxed;
    const bool other_global = capture->thread != self &&
                              capture->mode == mcStreamCaptureModeGlobal &&
                              mode == mcStreamCaptureModeGlobal;
    if (own || other_global) forbidding.push_back(capture.get());
  }
  if (forbidding.empty()) return absl::OkStatus();
  for (StreamCapture* capture : forbidding) capture->invalidated = true;
  return McStatus(mcErrorStreamCaptureUnsupported,
                  absl::StrFormat("%s is not permitted while a stream is "
                                  "capturing",
                                  api));
}

absl::Status CaptureTable::CheckSynchronizeDevice(int device, const char* api) {
  std::vector<StreamCapture*> including;
  for (const auto& [queue, capture] : by_queue_) {
    if (queue->device() == device &&
        std::find(including.begin(), including.end(), capture) ==
            including.end()) {
      including.push_back(capture);
    }
  }
  if (including.empty()) return absl::OkStatus();
  for (StreamCapture* capture : including) capture->invalidated = true;
  return McStatus(
      mcErrorStreamCaptureUnsupported,
      absl::StrFormat("%s while a stream of the device captures", api));
}

StreamCapture* CaptureTable::BlockingCaptureOf(int device) {
  for (const auto& [queue, capture] : by_queue_) {
    if (queue->device() == device && queue->kind() == QueueKind::kBlocking) {
      return capture;
    }
  }
  return nullptr;
}

absl::Status CaptureTable::CheckUncapturedWork(Queue* queue, bool waits) {
  if (StreamCapture* capture = Of(queue)) {
    if (capture->invalidated) return Invalidated(capture->id);
    capture->invalidated = true;
    return McStatus(mcErrorStreamCaptureUnsupported,
                    "this work cannot be captured");
  }
  if (queue->kind() == QueueKind::kLegacy) {
    if (StreamCapture* capture = BlockingCaptureOf(queue->device())) {
      capture->invalidated = true;
      return McStatus(mcErrorStreamCaptureImplicit,
                      "work in the legacy default stream would depend on a "
                      "capturing stream");
    }
  }
  if (waits) return CheckUnsafeCall("a call that waits for device work");
  return absl::OkStatus();
}

absl::Status CaptureTable::CheckSynchronize(Queue* queue, const char* api) {
  if (StreamCapture* capture = Of(queue)) {
    capture->invalidated = true;
    return McStatus(mcErrorStreamCaptureUnsupported,
                    absl::StrFormat("%s of a capturing stream", api));
  }
  if (queue->kind() == QueueKind::kLegacy) {
    if (StreamCapture* capture = BlockingCaptureOf(queue->device())) {
      capture->invalidated = true;
      return McStatus(mcErrorStreamCaptureImplicit,
                      absl::StrFormat("%s of the legacy default stream while "
                                      "a blocking stream captures",
                                      api));
    }
  }
  return absl::OkStatus();
}

}  // namespace mxcts::runtime
