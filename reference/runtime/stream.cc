// Copyright mxcts authors.
//
// The stream table: a map from handle to stream object under one mutex.
// Streams never hold work here: execution is eager (every operation has
// completed when the call that enqueues it returns), so a stream is its
// identity, its device and its flags. A later timeline adds queues behind
// the same handles.
//
// Tested by stream_test.cc.

#include "reference/runtime/stream.h"

#include "absl/strings/str_format.h"
#include "reference/runtime/error_mapping.h"

namespace mxcts::runtime {

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

absl::StatusOr<mcStream_t> StreamTable::Create(int device, unsigned flags) {
  auto stream = std::make_unique<MCstream_st>(MCstream_st{device, flags, true});
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

void StreamTable::DestroyAll(int device) {
  absl::MutexLock lock(&mu_);
  for (auto& [handle, stream] : streams_) {
    if (stream->device == device) stream->live = false;
  }
}

}  // namespace mxcts::runtime
