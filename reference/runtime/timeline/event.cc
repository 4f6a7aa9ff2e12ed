// Copyright mxcts authors.
//
// The event table (event.h): handles and their liveness, and what a wait on
// an event waits for. What recording means on the timeline is in
// api_event.cc.
//
// Tested by the api and conformance event tests and
// ../ipc/event_sharing_test.cc.

#include "reference/runtime/timeline/event.h"

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"

namespace mxcts::runtime {

EventTable& EventTable::Get() {
  static EventTable* table = new EventTable;
  return *table;
}

EventTarget TargetOf(const MCevent_st& event) {
  EventTarget target;
  if (event.shared == nullptr) {
    if (event.record == nullptr) return target;
    target.recorded = true;
    target.point = event.record->point;
    return target;
  }
  // [api.ipc.event.open-handle]: the latest record of any process.
  target.shared = event.shared;
  target.generation = event.shared->Latest();
  target.recorded = target.generation != 0;
  if (event.record != nullptr &&
      event.record->interprocess_generation == target.generation) {
    target.point = event.record->point;
  }
  return target;
}

absl::StatusOr<mcEvent_t> EventTable::Create(int device, unsigned flags) {
  auto event =
      std::make_unique<MCevent_st>(MCevent_st{device, flags, true, nullptr});
  if ((flags & mcEventInterprocess) != 0) {
    MX_ASSIGN_OR_RETURN(event->shared, InterprocessEventState::Create());
  }
  mcEvent_t handle = event.get();
  absl::MutexLock lock(&mu_);
  events_.emplace(handle, std::move(event));
  return handle;
}

absl::StatusOr<mcEvent_t> EventTable::Open(
    int device, std::shared_ptr<InterprocessEventState> shared) {
  auto event = std::make_unique<MCevent_st>(
      MCevent_st{device, mcEventInterprocess | mcEventDisableTiming, true,
                 nullptr, std::move(shared), /*opened=*/true});
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
  if ((*object)->shared != nullptr) (*object)->shared->CloseFile();
  return absl::OkStatus();
}

void EventTable::DestroyAll(int device) {
  absl::MutexLock lock(&mu_);
  for (auto& [handle, event] : events_) {
    if (event->device != device) continue;
    event->live = false;
    if (event->shared != nullptr) event->shared->CloseFile();
  }
}

}  // namespace mxcts::runtime
