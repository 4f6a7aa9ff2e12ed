// Copyright mxcts authors.
//
// reference/runtime/timeline/event.h: the events of the process.
//
// An event (mcEvent_t) points at an MCevent_st the table created. Like
// streams, destroyed events stay in the table, marked dead, so a stale
// handle is recognized and its address never reused
// [api.event.destroy.invalid-handle-is-invalid-resource-handle].
//
// Recording an event enqueues a record command in a stream's timeline
// queue; the event then stands for the point after that command, which is
// reached when the command and all it is ordered after have run
// [api.event.record.captures-stream-work]. The record command takes the
// event's timestamp when it runs (unless timing is disabled). A
// re-record replaces the point; a wait that already took the old point
// keeps it [api.stream.wait-event.snapshot-at-call].
//
// An interprocess event (mcEventInterprocess, or opened from an IPC handle)
// also keeps its records in a page it shares with other processes
// (interprocess_event.h): a record takes a generation there, and what a
// query, synchronization or wait waits for is the latest generation of any
// process, which is this process's own record (a point of its timeline)
// or another process's (waited for by sleeping on the page). TargetOf says
// which.
//
// The table's methods that read or change records, and the timestamps,
// run with Runtime::execution_mutex() held by the caller.
//
//   EventTable& events = EventTable::Get();
//   absl::StatusOr<mcEvent_t> e = events.Create(/*device=*/0, 0);
//   absl::StatusOr<MCevent_st*> object = events.Find(*e);

#ifndef MXCTS_REFERENCE_RUNTIME_TIMELINE_EVENT_H_
#define MXCTS_REFERENCE_RUNTIME_TIMELINE_EVENT_H_

#include <chrono>
#include <memory>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "mc_runtime_api.h"
#include "reference/runtime/timeline/interprocess_event.h"
#include "reference/runtime/timeline/timeline.h"

// When a record command ran, shared by the command and the event (the event
// may be re-recorded or destroyed before the command runs).
struct MCeventRecord {
  mxcts::runtime::Point point;
  std::optional<std::chrono::steady_clock::time_point> completed_at;
  // An interprocess event's record: its generation in the shared page.
  uint64_t interprocess_generation = 0;
};

// The object behind an mcEvent_t (declared, opaque, in the public header).
struct MCevent_st {
  int device;  // [api.peer.ownership.event-on-current]
  unsigned flags;
  bool live;
  // The most recent record; null if the event was never recorded.
  std::shared_ptr<MCeventRecord> record;
  // Interprocess events: the state shared with other processes; null for
  // other events.
  std::shared_ptr<mxcts::runtime::InterprocessEventState> shared = nullptr;
  // Opened from an IPC handle (mcIpcOpenEventHandle): destroying it
  // releases this process's reference only [api.ipc.event.destroy-opened].
  bool opened = false;
};

namespace mxcts::runtime {

// What a wait on an event waits for, taken when the wait is called
// [api.stream.wait-event.snapshot-at-call].
struct EventTarget {
  bool recorded = false;  // false: never recorded, nothing to wait for
  // A record of this process: the point after it; a null queue otherwise.
  Point point;
  // Interprocess events: the shared state and the generation waited for.
  std::shared_ptr<InterprocessEventState> shared;
  uint64_t generation = 0;

  // The record is this process's, on its timeline.
  bool local() const { return point.queue != nullptr; }
};

// The target of a wait on `event` now. The caller holds the execution lock.
EventTarget TargetOf(const MCevent_st& event);

class EventTable {
 public:
  static EventTable& Get();

  // Creates an event of `device` with `flags` (validated); an interprocess
  // event gets its shared state. mcErrorMemoryAllocation if the system
  // refuses that state's memory file.
  absl::StatusOr<mcEvent_t> Create(int device, unsigned flags);
  // Creates an event of `device` that refers to another process's
  // interprocess event through `shared` (mcIpcOpenEventHandle): flags
  // mcEventInterprocess | mcEventDisableTiming, no timing
  // [api.ipc.event.opened-has-no-timing].
  absl::StatusOr<mcEvent_t> Open(
      int device, std::shared_ptr<InterprocessEventState> shared);
  // The live event behind `event`; mcErrorInvalidResourceHandle for null, a
  // handle never created, or a destroyed event.
  absl::StatusOr<MCevent_st*> Find(mcEvent_t event) const;
  // Marks `event` destroyed (errors as Find). Its pending record still runs.
  // An interprocess event this process created closes its memory file, so
  // that no further process opens it; other processes' references stay.
  // [api.event.destroy.pending-record-completes]
  absl::Status Destroy(mcEvent_t event);
  // Destroys every event of `device`.
  // [api.event.destroy.device-reset-destroys]
  void DestroyAll(int device);

 private:
  EventTable() = default;

  mutable absl::Mutex mu_;
  absl::flat_hash_map<mcEvent_t, std::unique_ptr<MCevent_st>> events_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TIMELINE_EVENT_H_
