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
#include <vector>

#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/live_handle_memo.h"

namespace mxcts::cuda_backend {
namespace {

struct LiveStream {
  int device = 0;
  StreamAttributes attributes;
  bool allocates = false;  // has allocated or freed stream-ordered memory
};

// A destroyed stream in the quarantine.
struct RetiredStream {
  mcStream_t handle = nullptr;
  int device = 0;
  bool alive_in_cuda = true;  // false once CUDA destroyed it
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, LiveStream> streams;
  std::unordered_map<const void*, int> events;  // handle -> device
  // Destroyed handles, oldest first: the streams with their devices and
  // whether CUDA still has them, the events (all still alive in CUDA) with
  // their devices.
  std::deque<RetiredStream> retired_streams;
  std::deque<std::pair<mcEvent_t, int>> retired_events;
  // Streams CUDA created at the address of a quarantined one, never handed
  // out, with their devices: destroyed when that address leaves.
  std::unordered_map<const void*, int> held_back_streams;
  // The attributes of the default streams (null, legacy, per-thread), set
  // by the program.
  std::unordered_map<const void*, StreamAttributes> default_streams;
  // Bumped whenever a stream or event leaves `streams` or `events`.
  RetirementCount retired;
};

// The last stream and event this thread found live (live_handle_memo.h),
// and the last stream it noted as allocating.
thread_local LiveHandleMemo last_stream;
thread_local LiveHandleMemo last_event;
thread_local LiveHandleMemo last_allocating_stream;

Registry& Handles() {
  static Registry* registry = new Registry();
  return *registry;
}

bool IsDefaultStream(mcStream_t stream) {
  return stream == nullptr || stream == mcStreamLegacy ||
         stream == mcStreamPerThread;
}

bool IsQuarantinedStream(const Registry& r, mcStream_t stream) {
  for (const RetiredStream& retired : r.retired_streams) {
    if (retired.handle == stream) return true;
  }
  return false;
}

}  // namespace

bool AddStream(mcStream_t stream, int device) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (IsQuarantinedStream(r, stream)) {
    r.held_back_streams[stream] = device;
    return false;
  }
  r.streams[stream] = LiveStream{device, StreamAttributes()};
  return true;
}

void NoteStreamAllocates(mcStream_t stream) {
  if (IsDefaultStream(stream)) return;
  Registry& r = Handles();
  if (last_allocating_stream.Holds(stream, r.retired)) return;
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.streams.find(stream);
  if (it == r.streams.end()) return;
  it->second.allocates = true;
  last_allocating_stream.Keep(stream, r.retired);
}

void AddEvent(mcEvent_t event, int device) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.events[event] = device;
}

bool RetireStream(mcStream_t stream) {
  Registry& r = Handles();
  bool destroy_now = false;
  std::vector<mcStream_t> to_destroy;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.streams.find(stream);
    if (it == r.streams.end()) return false;
    // A capture in progress keeps its stream until the capture ends.
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(ToCuda(stream), &capture) != cudaSuccess) {
      cudaGetLastError();
      capture = cudaStreamCaptureStatusActive;
    }
    destroy_now =
        it->second.allocates && capture == cudaStreamCaptureStatusNone;
    // Quarantined before CUDA may reuse the address (AddStream).
    r.retired_streams.push_back(
        RetiredStream{stream, it->second.device, !destroy_now});
    r.streams.erase(it);
    r.retired.Bump();
    if (static_cast<int>(r.retired_streams.size()) > kQuarantine) {
      const RetiredStream oldest = r.retired_streams.front();
      r.retired_streams.pop_front();
      if (oldest.alive_in_cuda) to_destroy.push_back(oldest.handle);
      if (r.held_back_streams.erase(oldest.handle) == 1) {
        to_destroy.push_back(oldest.handle);
      }
    }
  }
  if (destroy_now) cudaStreamDestroy(ToCuda(stream));
  for (mcStream_t gone : to_destroy) cudaStreamDestroy(ToCuda(gone));
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
  // mcDeviceReset destroyed the device's streams in CUDA; their addresses
  // stay quarantined.
  for (RetiredStream& retired : r.retired_streams) {
    if (retired.device == device) retired.alive_in_cuda = false;
  }
  for (auto it = r.held_back_streams.begin();
       it != r.held_back_streams.end();) {
    it = it->second == device ? r.held_back_streams.erase(it) : std::next(it);
  }
  for (auto it = r.retired_events.begin(); it != r.retired_events.end();) {
    it = it->second == device ? r.retired_events.erase(it) : std::next(it);
  }
  // One device per machine the suite is certified on: the default streams'
  // attributes go with it.
  r.default_streams.clear();
}

}  // namespace mxcts::cuda_backend
