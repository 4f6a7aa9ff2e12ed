// Copyright mxcts authors.
//
// The device timeline (timeline.h). Queues hold commands in enqueue order,
// each stamped with a process-wide counter, so "the oldest pending command"
// is the head with the smallest stamp. Every dependency of a command points
// at a command stamped earlier, which is why the oldest head is always
// runnable and why stepping toward a point (run the first unmet dependency
// of the queue's head, recursively, else the head) always ends.
//
// Work that fails does not stop the timeline: a sticky error becomes the
// device's fault, and from then on the device's work is skipped (callbacks
// still run, with the fault as their status); any other error is kept as
// the device's pending error for the next synchronizing call
// [api.error.return.async-call-may-report-earlier-error].
//
// Tested by timeline_test.cc.

#include "reference/runtime/timeline/timeline.h"

#include <limits>
#include <utility>

#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/timeline/idle_progress.h"

namespace mxcts::runtime {

Timeline& Timeline::Get() {
  static Timeline* timeline = new Timeline;
  return *timeline;
}

Timeline::Timeline() : mode_(CurrentTimelineMode()), random_(mode_.seed) {}

void Timeline::SetModeForTesting(TimelineMode mode) {
  mode_ = mode;
  random_ = SplitMix64(mode.seed);
}

Queue* Timeline::CreateQueue(int device, QueueKind kind) {
  queues_.push_back(
      std::unique_ptr<Queue>(new Queue(next_queue_id_++, device, kind)));
  return queues_.back().get();
}

Queue* Timeline::LegacyQueue(int device) {
  auto it = legacy_queues_.find(device);
  if (it != legacy_queues_.end()) return it->second;
  Queue* queue = CreateQueue(device, QueueKind::kLegacy);
  legacy_queues_.emplace(device, queue);
  return queue;
}

void Timeline::PruneIdle() {
  for (auto it = busy_.begin(); it != busy_.end();) {
    if (it->second->pending_.empty()) {
      it->second->listed_ = false;
      it = busy_.erase(it);
    } else {
      ++it;
    }
  }
}

Point Timeline::Enqueue(Queue* queue, Command command) {
  if (busy_.size() > kPruneThreshold) PruneIdle();
  if (queue->kind() == QueueKind::kLegacy) {
    // [api.sync.legacy.waits-for-blocking-streams] [api.sync.legacy.per-device]
    for (const auto& [id, busy] : busy_) {
      if (busy != queue && !busy->pending_.empty() &&
          busy->device() == queue->device() &&
          busy->kind() == QueueKind::kBlocking) {
        command.after.push_back(busy->Tail());
      }
    }
  } else if (queue->kind() == QueueKind::kBlocking) {
    // [api.sync.legacy.blocking-streams-wait-for-it]
    Queue* legacy = LegacyQueue(queue->device());
    if (!legacy->Idle()) command.after.push_back(legacy->Tail());
  }
  RecordOrdering(*queue, command.after);
  queue->pending_.push_back(
      Queue::Entry{next_command_stamp_++, std::move(command)});
  ++queue->enqueued_;
  ++pending_count_;
  ++activity_;
  // [api.sync.timeline.idle-progress] Work that may wait: someone must run
  // it if the program waits by its own means.
  if (mode_.kind != TimelineMode::kEager) StartIdleProgress();
  if (!queue->listed_) {
    busy_.emplace(queue->id_, queue);
    queue->listed_ = true;
  }
  return queue->Tail();
}

const std::map<const Queue*, uint64_t>* Queue::ClockAt(uint64_t seq) const {
  // The last entry that starts at or before `seq`.
  for (auto entry = clocks_.rbegin(); entry != clocks_.rend(); ++entry) {
    if (entry->from_seq <= seq) return &entry->after;
  }
  return nullptr;
}

void Timeline::RecordOrdering(Queue& queue, const std::vector<Point>& after) {
  if (after.empty()) return;
  std::map<const Queue*, uint64_t> merged;
  if (!queue.clocks_.empty()) merged = queue.clocks_.back().after;
  bool grew = false;
  auto raise = [&](const Queue* other, uint64_t seq) {
    if (other == &queue) return;
    uint64_t& known = merged[other];
    if (seq > known) {
      known = seq;
      grew = true;
    }
  };
  for (const Point& point : after) {
    if (point.queue == nullptr || point.seq == 0) continue;
    raise(point.queue, point.seq);
    if (const auto* transitive = point.queue->ClockAt(point.seq)) {
      for (const auto& [other, seq] : *transitive) raise(other, seq);
    }
  }
  if (!grew) return;
  queue.clocks_.push_back(Queue::ClockEntry{queue.enqueued_ + 1, merged});
  if (queue.clocks_.size() > Queue::kMaxClockEntries) queue.clocks_.pop_front();
}

bool Timeline::OrderedAfter(const Queue* queue, Point point) const {
  if (point.queue == nullptr) return true;
  if (point.queue == queue) return point.seq <= queue->enqueued_;
  // Even the start of another queue counts only through a dependency on
  // that queue.
  if (queue->clocks_.empty()) return false;
  const auto& after = queue->clocks_.back().after;
  auto known = after.find(point.queue);
  return known != after.end() && known->second >= point.seq;
}

bool Timeline::Reached(Point point) const {
  return point.queue == nullptr || point.queue->completed_ >= point.seq;
}

bool Timeline::Runnable(const Queue& queue) const {
  if (queue.pending_.empty()) return false;
  for (const Point& point : queue.pending_.front().command.after) {
    if (!Reached(point)) return false;
  }
  return true;
}

Queue* Timeline::OldestHead() const {
  Queue* oldest = nullptr;
  uint64_t oldest_stamp = std::numeric_limits<uint64_t>::max();
  for (const auto& [id, queue] : busy_) {
    if (queue->pending_.empty()) continue;
    if (queue->pending_.front().stamp < oldest_stamp) {
      oldest_stamp = queue->pending_.front().stamp;
      oldest = queue;
    }
  }
  return oldest;
}

void Timeline::RunHead(Queue& queue) {
  // Taken off the queue before it runs, so that the timeline is consistent
  // whatever the work does.
  Command command = std::move(queue.pending_.front().command);
  queue.pending_.pop_front();
  --pending_count_;
  ++activity_;

  Device* device = *DeviceTable::Get().DeviceAt(queue.device());
  mcError_t result = mcSuccess;
  bool skipped =
      device->sticky_error() != mcSuccess &&
      !command.runs_after_fault;  // [api.error.sticky.work-not-executed]
  if (!skipped && command.work) result = command.work();
  ++queue.completed_;

  if (IsStickyError(result)) {
    device->RecordFault(
        result);  // [api.error.return.fault-reported-by-later-call]
  } else if (result != mcSuccess && !command.reported_by_submitter) {
    pending_errors_.emplace(queue.device(), result);  // keeps the first
  }
  if (command.outcome != nullptr) {
    command.outcome->ran = true;
    command.outcome->result = result;
  }
}

void Timeline::StepToward(Point point) {
  while (!Reached(point)) {
    Queue& queue = *point.queue;
    const Point* unmet = nullptr;
    for (const Point& dependency : queue.pending_.front().command.after) {
      if (!Reached(dependency)) {
        unmet = &dependency;
        break;
      }
    }
    if (unmet == nullptr) {
      RunHead(queue);
      return;
    }
    point = *unmet;  // older than the head: the walk ends
  }
}

void Timeline::RandomStep() {
  std::vector<Queue*> runnable;
  for (const auto& [id, queue] : busy_) {
    if (Runnable(*queue)) runnable.push_back(queue);
  }
  if (runnable.empty()) return;  // nothing pending
  RunHead(*runnable[random_.Below(runnable.size())]);
}

void Timeline::RunUntil(Point point) {
  while (!Reached(point)) {
    if (mode_.kind == TimelineMode::kShuffle) {
      RandomStep();  // [api.sync.timeline.shuffle-permitted-order]
    } else {
      StepToward(point);
    }
  }
}

bool Timeline::Advance(Point point) {
  if (!Reached(point)) StepToward(point);
  return Reached(point);
}

bool Timeline::HasPending(int device) {
  for (const auto& [id, queue] : busy_) {
    if (queue->device() == device && !queue->pending_.empty()) return true;
  }
  return false;
}

std::vector<Point> Timeline::LegacyCoverage(int device) {
  std::vector<Point> points = {LegacyQueue(device)->Tail()};
  for (const auto& [id, queue] : busy_) {
    if (queue->device() == device && queue->kind() == QueueKind::kBlocking &&
        !queue->pending_.empty()) {
      points.push_back(queue->Tail());
    }
  }
  return points;
}

void Timeline::RunDevice(int device) {
  while (true) {
    Queue* target = nullptr;
    for (const auto& [id, queue] : busy_) {
      if (queue->device() == device && !queue->pending_.empty()) {
        target = queue;
        break;
      }
    }
    if (target == nullptr) return;
    RunUntil(target->Tail());
  }
}

void Timeline::RunAll() {
  while (Queue* oldest = OldestHead()) RunUntil(oldest->Tail());
}

void Timeline::AfterSubmit(Point point) {
  switch (mode_.kind) {
    case TimelineMode::kEager:
      RunUntil(point);  // [api.sync.timeline.eager-runs-at-submission]
      return;
    case TimelineMode::kShuffle:
      // Some of the pending work runs now, some later: as a device does
      // while the host goes on. [api.sync.timeline.shuffle-permitted-order]
      while (pending_count_ > 0 && random_.Below(2) == 0) RandomStep();
      break;
    case TimelineMode::kDeferred:
      break;  // [api.sync.timeline.deferred-runs-when-host-waits]
  }
  // [api.sync.timeline.full-queue-waits]
  while (pending_count_ > kMaxPendingCommands) RunHead(*OldestHead());
}

mcError_t Timeline::TakePendingError(int device) {
  auto it = pending_errors_.find(device);
  if (it == pending_errors_.end()) return mcSuccess;
  mcError_t error = it->second;
  pending_errors_.erase(it);
  return error;
}

}  // namespace mxcts::runtime
