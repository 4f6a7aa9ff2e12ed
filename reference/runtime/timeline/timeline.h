// Copyright mxcts authors.
//
// reference/runtime/timeline/timeline.h: the device timeline: every stream's
// queue of commands, the order the API permits among them, and when they run.
//
// A command runs after the command before it in its queue
// [api.stream.model.in-order-execution] and after every point it depends
// on. Dependencies come from events (mcStreamWaitEvent) and from the legacy
// default stream: a command of a device's legacy queue depends on the last
// command, at enqueue time, of each blocking queue of that device, and a
// command of a blocking queue depends on the last command of the legacy
// queue [api.sync.legacy.waits-for-blocking-streams]
// [api.sync.legacy.blocking-streams-wait-for-it]; non-blocking queues get
// neither [api.sync.legacy.non-blocking-streams-exempt]. A dependency always
// names a command enqueued earlier, so the oldest pending command of the
// whole timeline can always run: every wait ends.
//
// One host thread at a time advances the timeline, holding the runtime's
// execution lock, and runs the commands itself: device work needs no thread
// of its own. When work runs depends on the mode (timeline_mode.h): at
// submission (eager), when the host waits or polls (deferred), or in a
// random permitted order (shuffle).
//
// Every method requires the caller to hold Runtime::execution_mutex().
//
//   Timeline& t = Timeline::Get();
//   Queue* q = t.CreateQueue(/*device=*/0, QueueKind::kBlocking);
//   Point p = t.Enqueue(q, Command{"memset", work});
//   t.RunUntil(p);   // p's command and everything it is ordered after ran

#ifndef MXCTS_REFERENCE_RUNTIME_TIMELINE_TIMELINE_H_
#define MXCTS_REFERENCE_RUNTIME_TIMELINE_TIMELINE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mc_runtime_api.h"
#include "reference/device/scheduling/splitmix64.h"
#include "reference/runtime/timeline/device_work.h"
#include "reference/runtime/timeline/timeline_mode.h"

namespace mxcts::runtime {

enum class QueueKind {
  kLegacy,       // a device's legacy default stream
  kBlocking,     // a stream without mcStreamNonBlocking; per-thread streams
  kNonBlocking,  // a stream created with mcStreamNonBlocking
};

class Queue;

// A point in a queue: reached once the queue's first `seq` commands have
// run. A null queue or seq 0 is reached from the start.
struct Point {
  Queue* queue = nullptr;
  uint64_t seq = 0;
};

// What became of a command, for the caller that submitted it.
struct CommandOutcome {
  bool ran = false;  // false until it ran or was skipped
  mcError_t result = mcSuccess;
};

struct Command {
  std::string description;
  DeviceWork work;
  // Runs even when its device has a sticky error (stream callbacks, which
  // receive the error as their status). Other work is skipped then.
  bool runs_after_fault = false;
  // Points this command waits for besides its queue order (event waits).
  std::vector<Point> after;
  // Set when the command has run; may be null.
  std::shared_ptr<CommandOutcome> outcome;
  // The submitter reports the command's error itself (it waits for it): a
  // failure does not become the device's pending error.
  bool reported_by_submitter = false;
};

// One stream's queue. Created by the timeline; never freed, so a Point stays
// valid for the life of the process.
class Queue {
 public:
  int device() const { return device_; }
  QueueKind kind() const { return kind_; }
  // The point after the last command enqueued so far.
  Point Tail() { return Point{this, enqueued_}; }
  bool Idle() const { return completed_ == enqueued_; }

 private:
  friend class Timeline;
  Queue(uint64_t id, int device, QueueKind kind)
      : id_(id), device_(device), kind_(kind) {}

  struct Entry {
    uint64_t stamp;  // enqueue order across all queues
    Command command;
  };

  const uint64_t id_;  // creation order: iteration order in shuffle mode
  const int device_;
  const QueueKind kind_;
  // What the queue's commands are ordered after in other queues: from the
  // command numbered `from_seq` on, command k of queue q for every
  // (q, k) in `after` (and everything those are ordered after). Appended
  // when it grows; the oldest entries are dropped beyond kMaxClockEntries,
  // which only forgets orderings (OrderedAfter then answers false).
  struct ClockEntry {
    uint64_t from_seq;
    std::map<const Queue*, uint64_t> after;
  };
  static constexpr size_t kMaxClockEntries = 64;
  // The ordering of command `seq` of this queue (empty map if forgotten).
  const std::map<const Queue*, uint64_t>* ClockAt(uint64_t seq) const;

  std::deque<Entry> pending_;
  std::deque<ClockEntry> clocks_;
  bool listed_ = false;  // in the timeline's busy_ list
  uint64_t enqueued_ = 0;
  uint64_t completed_ = 0;
};

class Timeline {
 public:
  static Timeline& Get();

  // A new queue of `device`.
  Queue* CreateQueue(int device, QueueKind kind);
  // The legacy default queue of `device`, created on first use.
  Queue* LegacyQueue(int device);

  // Appends `command` to `queue`, adding the legacy-stream dependencies, and
  // returns the point after it.
  Point Enqueue(Queue* queue, Command command);

  bool Reached(Point point) const;
  // True if a command enqueued into `queue` now would be ordered after
  // `point`: by queue order, or through dependencies (event waits, the
  // legacy default stream), directly or transitively. Whether `point` was
  // reached does not matter. (Memory pools reuse memory freed in another
  // stream by this [api.pool.reuse.follow-event-dependencies].)
  bool OrderedAfter(const Queue* queue, Point point) const;
  // Runs commands until `point` is reached: in deferred and eager mode only
  // those it needs, oldest first; in shuffle mode any runnable commands,
  // picked at random.
  void RunUntil(Point point);
  // Runs at most one command toward `point` (a poll), then says whether it
  // is reached. [api.sync.timeline.poll-advances]
  bool Advance(Point point);
  // Runs until every queue of `device` is idle.
  void RunDevice(int device);
  // Runs until every queue of every device is idle.
  void RunAll();
  // True if a queue of `device` has commands that have not run.
  bool HasPending(int device);
  // True if any queue has commands that have not run.
  bool HasAnyPending() const { return pending_count_ > 0; }
  // Counts enqueued and run commands: unchanged over a period, the timeline
  // was idle. (idle_progress.h)
  uint64_t activity() const { return activity_; }
  // The points a wait on the legacy default stream of `device` waits for:
  // its own tail and the tail of every blocking queue of the device.
  // [api.sync.legacy.synchronize-covers-blocking-work]
  std::vector<Point> LegacyCoverage(int device);

  // What the mode does after `point` was enqueued: eager runs up to it;
  // shuffle runs a random number of random runnable commands; deferred
  // runs the oldest commands only while more than kMaxPendingCommands wait.
  void AfterSubmit(Point point);

  // Takes the first error of work on `device` that no submitter reported
  // (non-sticky; sticky ones are device faults), or mcSuccess, and clears it.
  mcError_t TakePendingError(int device);

  TimelineMode mode() const { return mode_; }
  // For tests: replaces the mode (no work may be pending).
  void SetModeForTesting(TimelineMode mode);

  // The most commands deferred mode keeps waiting: like a real device's
  // queue, a full timeline makes the host wait for the oldest work.
  static constexpr size_t kMaxPendingCommands = 4096;

 private:
  Timeline();

  // The oldest pending command (the head of the queue whose head was
  // enqueued first): always runnable.
  Queue* OldestHead() const;
  bool Runnable(const Queue& queue) const;
  // Extends `queue`'s ordering (Queue::clocks_) by the dependencies of the
  // command about to be appended.
  void RecordOrdering(Queue& queue, const std::vector<Point>& after);
  // Runs the head of `queue` (runnable).
  void RunHead(Queue& queue);
  // Runs one command needed for `point`, oldest dependency first.
  void StepToward(Point point);
  // Runs one random runnable head (shuffle mode).
  void RandomStep();

  TimelineMode mode_;
  SplitMix64 random_;
  uint64_t next_queue_id_ = 0;
  uint64_t next_command_stamp_ = 0;
  std::vector<std::unique_ptr<Queue>> queues_;
  std::map<int, Queue*> legacy_queues_;
  // Removes the queues that have become idle from busy_, once it holds more
  // than kPruneThreshold queues.
  void PruneIdle();
  static constexpr size_t kPruneThreshold = 64;

  // The queues that had pending commands, by creation order; a queue that
  // became idle leaves at the next scan (PruneIdle), so a stream that is
  // used over and over is not inserted and erased each time.
  std::map<uint64_t, Queue*> busy_;
  size_t pending_count_ = 0;
  uint64_t activity_ = 0;
  std::map<int, mcError_t> pending_errors_;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TIMELINE_TIMELINE_H_
