// Copyright mxcts authors.
//
// The live streams and events (handles.h).

#include "backends/cuda/runtime/handles.h"

#include <mutex>
#include <unordered_map>

#include "backends/cuda/runtime/adapter.h"

namespace mxcts::cuda_backend {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, int> streams;  // handle -> device
  std::unordered_map<const void*, int> events;
};

Registry& Handles() {
  static Registry* registry = new Registry();
  return *registry;
}

}  // namespace

void AddStream(mcStream_t stream, int device) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.streams[stream] = device;
}

void AddEvent(mcEvent_t event, int device) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.events[event] = device;
}

bool RemoveStream(mcStream_t stream) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.streams.erase(stream) == 1;
}

bool RemoveEvent(mcEvent_t event) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.events.erase(event) == 1;
}

bool IsStream(mcStream_t stream) {
  if (stream == nullptr || stream == mcStreamLegacy ||
      stream == mcStreamPerThread) {
    return true;
  }
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.streams.count(stream) == 1;
}

bool IsEvent(mcEvent_t event) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.events.count(event) == 1;
}

void ForgetDevice(int device) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto* handles : {&r.streams, &r.events}) {
    for (auto it = handles->begin(); it != handles->end();) {
      it = it->second == device ? handles->erase(it) : std::next(it);
    }
  }
}

}  // namespace mxcts::cuda_backend
