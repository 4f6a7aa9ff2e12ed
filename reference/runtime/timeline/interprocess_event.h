// Copyright mxcts authors.
//
// reference/runtime/timeline/interprocess_event.h: the state an interprocess
// event shares between processes.
//
// An event created with mcEventInterprocess keeps its records in one page
// of a memory file (memfd) instead of in this process alone: a counter of
// records made so far in any process (the latest record's generation) and
// the highest generation whose record has run. A record takes the next
// generation when it is enqueued and marks it complete when the timeline
// runs it; a query, a synchronization or a stream wait takes the latest
// generation when it is called and is satisfied once that generation is
// complete [api.ipc.event.open-handle] [api.ipc.event.record-in-importer].
// Another process maps the same page (ipc/ opens the file through /proc and
// calls Adopt), so both see every record.
//
// Completion is a maximum: a wait for generation g ends once g or any later
// record has run. A wait for a record that no process will run ends too:
// each record notes the process that made it, and a wait gives up on a
// process that has exited (a record still queued at exit never runs), so a
// waiter never hangs on a process that is gone.
//
// Waiting is sleeping: WaitFor polls the page with sleeps growing from 20
// microseconds to 1 millisecond, never spinning.
//
//   std::shared_ptr<InterprocessEventState> s =
//   *InterprocessEventState::Create(); uint64_t g = s->BeginRecord();   // at
//   mcEventRecord s->Complete(g);                  // when the record command
//   runs s->Reached(s->Latest());         // true, in this process and the
//   other

#ifndef MXCTS_REFERENCE_RUNTIME_TIMELINE_INTERPROCESS_EVENT_H_
#define MXCTS_REFERENCE_RUNTIME_TIMELINE_INTERPROCESS_EVENT_H_

#include <stdint.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"

namespace mxcts::runtime {

// The start time of process `pid` (field 22 of /proc/<pid>/stat, in clock
// ticks since boot): with the pid it identifies a process across pid
// reuse. Nullopt if there is no such process or it has exited (a zombie).
std::optional<uint64_t> ProcessStartTime(int pid);

// The process that created an interprocess event, and how its memory file
// is found there: what the event's IPC handle holds.
struct InterprocessEventOrigin {
  int pid = 0;
  uint64_t start_time = 0;  // ProcessStartTime(pid)
  int fd = -1;              // the memory file's descriptor in that process
  uint64_t serial = 0;      // unique among the process's events
};

struct InterprocessEventPage;

class InterprocessEventState {
 public:
  // A new state on a fresh memory file of this process, named
  // FileName(getpid(), serial). mcErrorMemoryAllocation if the system
  // refuses the file.
  static absl::StatusOr<std::shared_ptr<InterprocessEventState>> Create();
  // The state in memory file `fd` (which the call closes) that the process
  // `origin` describes created. mcErrorInvalidValue if the file is not such
  // a state.
  static absl::StatusOr<std::shared_ptr<InterprocessEventState>> Adopt(
      int fd, const InterprocessEventOrigin& origin);
  ~InterprocessEventState();
  InterprocessEventState(const InterprocessEventState&) = delete;
  InterprocessEventState& operator=(const InterprocessEventState&) = delete;

  // The name of the memory file of event `serial` of process `pid`.
  static std::string FileName(int pid, uint64_t serial);

  // Takes the next generation for a record this process enqueues.
  uint64_t BeginRecord();
  // The record of `generation` has run.
  void Complete(uint64_t generation);
  // The latest generation taken by any process; 0 if the event was never
  // recorded.
  uint64_t Latest() const;
  // True once `generation` (or a later one) is complete, or the process
  // that took it has exited.
  bool Reached(uint64_t generation) const;
  // Sleeps until Reached(generation).
  void WaitFor(uint64_t generation) const;

  const InterprocessEventOrigin& origin() const { return origin_; }
  // Whether this process created the state (its file is still open here
  // until CloseFile).
  bool created_here() const { return created_here_; }
  // The creator's event was destroyed: closes the file, so that no further
  // process can open the event; the page stays mapped for the records
  // still queued.
  void CloseFile();

 private:
  InterprocessEventState(InterprocessEventPage* page,
                         InterprocessEventOrigin origin, bool created_here);

  InterprocessEventPage* const page_;
  const InterprocessEventOrigin origin_;
  const bool created_here_;
  std::atomic<int> file_fd_;  // the creator's open file; -1 once closed
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TIMELINE_INTERPROCESS_EVENT_H_
