// Copyright mxcts authors.
//
// The live streams and events, the quarantine of destroyed ones and the
// streams' attributes (handles.h).

#include "backends/cuda/runtime/handles.h"

#include <cuda_runtime_api.h>

#include <deque>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/live_handle_memo.h"

namespace mxcts::cuda_backend {
namespace {

struct LiveStream {
  int device = 0;
  StreamAttributes attributes;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, LiveStream> streams;
  std::unordered_map<const void*, int> events;  // handle -> device
  // Destroyed handles not yet destroyed in CUDA, oldest first, with their
  // devices.
  std::deque<std::pair<mcStream_t, int>> retired_streams;
  std::deque<std::pair<mcEvent_t, int>> retired_events;
  // The attributes of the default streams (null, legacy, per-thread), set
  // by the program.
  std::unordered_map<const void*, StreamAttributes> default_streams;
  // Bumped whenever a stream or event leaves `streams` or `events`.
  RetirementCount retired;
};

// The last stream and event this thread found live (live_handle_memo.h).
thread_local LiveHandleMemo last_stream;
thread_local LiveHandleMemo last_event;

Registry& Handles() {
  static Registry* registry = new Registry();
  return *registry;
}

bool IsDefaultStream(mcStream_t stream) {
  return stream == nullptr || stream == mcStreamLegacy ||
         stream == mcStreamPerThread;
}

}  // namespace

void AddStream(mcStream_t stream, int device) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.streams[stream] = LiveStream{device, StreamAttributes()};
}

void AddEvent(mcEvent_t event, int device) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.events[event] = device;
}

bool RetireStream(mcStream_t stream) {
  Registry& r = Handles();
  mcStream_t oldest = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.streams.find(stream);
    if (it == r.streams.end()) return false;
    r.retired_streams.emplace_back(stream, it->second.device);
    r.streams.erase(it);
    r.retired.Bump();
    if (static_cast<int>(r.retired_streams.size()) <= kQuarantine) return true;
    oldest = r.retired_streams.front().first;
    r.retired_streams.pop_front();
  }
  cudaStreamDestroy(ToCuda(oldest));
  return true;
}

bool RetireEvent(mcEvent_t event) {
  Registry& r = Handles();
  mcEvent_t oldest = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.events.find(event);
    if (it == r.events.end()) return false;
    r.retired_events.emplace_back(event, it->second);
    r.events.erase(it);
    r.retired.Bump();
    if (static_cast<int>(r.retired_events.size()) <= kQuarantine) return true;
    oldest = r.retired_events.front().first;
    r.retired_events.pop_front();
  }
  cudaEventDestroy(ToCuda(oldest));
  return true;
}

bool DestroyEventNow(mcEvent_t event) {
  Registry& r = Handles();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.events.erase(event) == 0) return false;
    r.retired.Bump();
  }
  cudaEventDestroy(ToCuda(event));
  return true;
}

bool IsStream(mcStream_t stream) {
  if (IsDefaultStream(stream)) return true;
  Registry& r = Handles();
  if (last_stream.Holds(stream, r.retired)) return true;
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.streams.count(stream) == 0) return false;
  last_stream.Keep(stream, r.retired);
  return true;
}

bool IsEvent(mcEvent_t event) {
  Registry& r = Handles();
  if (last_event.Holds(event, r.retired)) return true;
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.events.count(event) == 0) return false;
  last_event.Keep(event, r.retired);
  return true;
}

StreamAttributes GetStreamAttributes(mcStream_t stream) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (IsDefaultStream(stream)) {
    auto it = r.default_streams.find(stream);
    return it == r.default_streams.end() ? StreamAttributes() : it->second;
  }
  auto it = r.streams.find(stream);
  return it == r.streams.end() ? StreamAttributes() : it->second.attributes;
}

void SetStreamAttributes(mcStream_t stream,
                         const StreamAttributes& attributes) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (IsDefaultStream(stream)) {
    r.default_streams[stream] = attributes;
    return;
  }
  auto it = r.streams.find(stream);
  if (it != r.streams.end()) it->second.attributes = attributes;
}

void ForgetDevice(int device) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.retired.Bump();
  for (auto it = r.streams.begin(); it != r.streams.end();) {
    it = it->second.device == device ? r.streams.erase(it) : std::next(it);
  }
  for (auto it = r.events.begin(); it != r.events.end();) {
    it = it->second == device ? r.events.erase(it) : std::next(it);
  }
  for (auto it = r.retired_streams.begin(); it != r.retired_streams.end();) {
    it = it->second == device ? r.retired_streams.erase(it) : std::next(it);
  }
  for (auto it = r.retired_events.begin(); it != r.retired_events.end();) {
    it = it->second == device ? r.retired_events.erase(it) : std::next(it);
  }
  // One device per machine the suite is certified on: the default streams'
  // attributes go with it.
  r.default_streams.clear();
}

}  // namespace mxcts::cuda_backend
