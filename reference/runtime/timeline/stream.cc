// Copyright mxcts authors.
//
// The stream table (stream.h). Queues come from the timeline; the table
// maps handles to them and keeps what the handle alone knows (flags,
// priority, liveness). A per-thread default stream is identified by a
// number each host thread draws once, not by its thread id, which the
// system may reuse after the thread exits.
//
// Tested by stream_test.cc.

#include "reference/runtime/timeline/stream.h"

#include <atomic>

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

uint64_t ThisThreadNumber() {
  static std::atomic<uint64_t> next{0};
  thread_local const uint64_t number = next.fetch_add(1);
  return number;
}

}  // namespace

StreamTable& StreamTable::Get() {
  static StreamTable* table = new StreamTable;
  return *table;
}

bool StreamTable::IsDefaultStream(mcStream_t stream) {
  return stream == nullptr || stream == mcStreamLegacy ||
         stream == mcStreamPerThread;
}

absl::Status StreamTable::InvalidHandle(mcStream_t stream) const {
  return McStatus(mcErrorInvalidResourceHandle,
                  absl::StrFormat("%p is not a live stream", stream));
}

absl::StatusOr<mcStream_t> StreamTable::Create(int device, unsigned flags,
                                               int priority) {
  Queue* queue = Timeline::Get().CreateQueue(
      device, (flags & mcStreamNonBlocking) != 0 ? QueueKind::kNonBlocking
                                                 : QueueKind::kBlocking);
  auto stream = std::make_unique<MCstream_st>(
      MCstream_st{device, flags, priority, queue, true});
  mcStream_t handle = stream.get();
  absl::MutexLock lock(&mu_);
  streams_.emplace(handle, std::move(stream));
  return handle;
}

absl::Status StreamTable::Destroy(mcStream_t stream) {
  absl::MutexLock lock(&mu_);
  auto it = streams_.find(stream);
  if (IsDefaultStream(stream) || it == streams_.end() || !it->second->live) {
    return InvalidHandle(stream);
  }
  it->second->live = false;
  return absl::OkStatus();
}

absl::StatusOr<int> StreamTable::DeviceOf(mcStream_t stream,
                                          int current_device) const {
  if (IsDefaultStream(stream)) return current_device;
  absl::MutexLock lock(&mu_);
  auto it = streams_.find(stream);
  if (it == streams_.end() || !it->second->live) return InvalidHandle(stream);
  return it->second->device;
}

absl::StatusOr<ResolvedStream> StreamTable::Resolve(mcStream_t stream,
                                                    int current_device) {
  ResolvedStream resolved;
  resolved.device = current_device;
  if (stream == nullptr || stream == mcStreamLegacy) {
    // [api.stream.special.legacy-handle]
    resolved.queue = Timeline::Get().LegacyQueue(current_device);
    return resolved;
  }
  absl::MutexLock lock(&mu_);
  if (stream == mcStreamPerThread) {  // [api.stream.special.per-thread-handle]
    Queue*& queue = per_thread_[{ThisThreadNumber(), current_device}];
    if (queue == nullptr) {
      queue = Timeline::Get().CreateQueue(current_device, QueueKind::kBlocking);
    }
    resolved.queue = queue;
    return resolved;
  }
  auto it = streams_.find(stream);
  if (it == streams_.end() || !it->second->live) return InvalidHandle(stream);
  const MCstream_st& object = *it->second;
  resolved.device = object.device;
  resolved.queue = object.queue;
  resolved.flags = object.flags;
  resolved.priority = object.priority;
  return resolved;
}

void StreamTable::DestroyAll(int device) {
  absl::MutexLock lock(&mu_);
  for (auto& [handle, stream] : streams_) {
    if (stream->device == device) stream->live = false;
  }
  for (auto it = attributes_.begin(); it != attributes_.end();) {
    it = it->first->device() == device ? attributes_.erase(it) : std::next(it);
  }
}

StreamAttributes& StreamTable::AttributesOf(Queue* queue) {
  absl::MutexLock lock(&mu_);
  return attributes_[queue];  // [api.stream.attribute.defaults]
}

}  // namespace mxcts::runtime
