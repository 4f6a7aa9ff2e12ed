// Copyright mxcts authors.
//
// The event table (event.h): handles and their liveness. What an event
// means on the timeline is in api_event.cc.
//
// Tested by event_test.cc.

#include "reference/runtime/timeline/event.h"

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {

EventTable& EventTable::Get() {
  static EventTable* table = new EventTable;
  return *table;
}

absl::StatusOr<mcEvent_t> EventTable::Create(int device, unsigned flags) {
  auto event =
      std::make_unique<MCevent_st>(MCevent_st{device, flags, true, nullptr});
  mcEvent_t handle = event.get();
  absl::MutexLock lock(&mu_);
  events_.emplace(handle, std::move(event));
  return handle;
}

absl::StatusOr<MCevent_st*> EventTable::Find(mcEvent_t event) const {
  absl::MutexLock lock(&mu_);
  auto it = events_.find(event);
  if (event == nullptr || it == events_.end() || !it->second->live) {
    return McStatus(mcErrorInvalidResourceHandle,
                    absl::StrFormat("%p is not a live event", event));
  }
  return it->second.get();
}

absl::Status EventTable::Destroy(mcEvent_t event) {
  absl::StatusOr<MCevent_st*> object = Find(event);
  if (!object.ok()) return object.status();
  absl::MutexLock lock(&mu_);
  (*object)->live = false;
  return absl::OkStatus();
}

void EventTable::DestroyAll(int device) {
  absl::MutexLock lock(&mu_);
  for (auto& [handle, event] : events_) {
    if (event->device == device) event->live = false;
  }
}

}  // namespace mxcts::runtime
