// Copyright mxcts authors.
//
// The event entry points [api.event]. Recording enqueues a record command
// that takes the event's timestamp when the timeline runs it; the event then
// stands for the point after that command (event.h). Querying runs at most
// one command toward the point [api.sync.timeline.poll-advances];
// synchronizing runs until it is reached.
//
// Timestamps come from the host's steady clock, read when the record command
// runs: in eager mode at mcEventRecord, in the other modes when the
// timeline reaches the record, which is after the work before it and before
// the work after it, so the time between two records of one stream covers
// the work between them [api.event.elapsed-time.resolution].
//
// An interprocess event (event.h, interprocess_event.h) also counts its
// records in a page shared with other processes: a record takes the next
// generation there and completes it when it runs; a query or
// synchronization looks at the latest generation of any process. When that
// is this process's record, they advance the timeline toward it as for any
// event; when it is another process's, a query answers from the page and a
// synchronization sleeps until the page says it ran
// [api.ipc.event.open-handle] [api.ipc.event.record-in-importer].
//
// Tested by api_event_test.cc and the conformance tests of api.event and
// api.ipc.

#include <chrono>
#include <memory>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/graphs/stream_capture.h"
#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/device_work.h"
#include "reference/runtime/timeline/event.h"
#include "reference/runtime/timeline/stream.h"
#include "reference/runtime/timeline/timeline.h"

namespace mxcts::runtime {
namespace {

constexpr unsigned kEventFlags =
    mcEventBlockingSync | mcEventDisableTiming | mcEventInterprocess;

absl::Status CreateEvent(mcEvent_t* event, unsigned flags, const char* api) {
  if (event == nullptr) {  // [api.event.create.null-pointer-is-invalid-value]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: event is null", api));
  }
  if ((flags & ~kEventFlags) != 0) {
    // [api.event.create-with-flags.invalid-flags-is-invalid-value]
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%s: unknown flags %#x", api, flags & ~kEventFlags));
  }
  if ((flags & mcEventInterprocess) != 0 &&
      (flags & mcEventDisableTiming) == 0) {
    // [api.event.create-with-flags.interprocess-requires-disable-timing]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: mcEventInterprocess requires "
                                    "mcEventDisableTiming",
                                    api));
  }
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
  // [api.event.create.default-event]
  // [api.event.create-with-flags.accepted-flags]
  MX_ASSIGN_OR_RETURN(*event,
                      EventTable::Get().Create(device->ordinal(), flags));
  return absl::OkStatus();
}

absl::Status RecordEvent(mcEvent_t event, mcStream_t stream, unsigned flags,
                         const char* api) {
  // [api.event.record.invalid-event-is-invalid-resource-handle]
  MX_ASSIGN_OR_RETURN(MCevent_st * object, EventTable::Get().Find(event));
  if ((flags & ~unsigned{mcEventRecordExternal}) != 0) {
    // [api.event.record-with-flags.invalid-flags-is-invalid-value]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: unknown flags %#x", api, flags));
  }
  MX_ASSIGN_OR_RETURN(Device * device, StreamDeviceForWork(stream));
  if (device->ordinal() != object->device) {
    // [api.event.record.other-device-stream-fails]
    return McStatus(mcErrorInvalidResourceHandle,
                    absl::StrFormat("%s: the event belongs to device %d, the "
                                    "stream to device %d",
                                    api, object->device, device->ordinal()));
  }
  Runtime& runtime = Runtime::Get();
  absl::MutexLock lock(&runtime.execution_mutex());
  MX_ASSIGN_OR_RETURN(ResolvedStream resolved, ResolveStreamLocked(stream));
  CaptureTable& captures = CaptureTable::Get();
  if (captures.AnyActive()) {
    if (captures.Of(resolved.queue) != nullptr) {
      // [api.graph.capture.fork-join-via-events]: the event stands for the
      // stream's nodes in the capture.
      return captures.RecordEvent(resolved.queue, object);
    }
    MX_RETURN_IF_ERROR(captures.CheckUncapturedWork(resolved.queue, false));
    captures.ForgetEvent(object);
  }
  auto record = std::make_shared<MCeventRecord>();
  bool timed = (object->flags & mcEventDisableTiming) == 0;
  std::shared_ptr<InterprocessEventState> shared = object->shared;
  Command command;
  command.description = api;
  if (shared != nullptr) {
    // [api.ipc.event.record-in-importer] Other processes may wait for the
    // record: it completes even when a fault makes the device skip work,
    // so that they are not kept waiting (this process reports the fault).
    record->interprocess_generation = shared->BeginRecord();
    command.runs_after_fault = true;
  }
  command.work = [record, timed, shared]() -> mcError_t {
    // [api.event.create-with-flags.disable-timing-no-timestamps]
    if (timed) record->completed_at = std::chrono::steady_clock::now();
    if (shared != nullptr) shared->Complete(record->interprocess_generation);
    return mcSuccess;
  };
  Timeline& timeline = Timeline::Get();
  // [api.event.record.captures-stream-work]
  // [api.event.record.default-stream-captures-device-work]: the legacy
  // queue's command depends on the blocking queues' work.
  record->point = timeline.Enqueue(resolved.queue, std::move(command));
  // [api.event.record.rerecord-overwrites]
  object->record = record;
  timeline.AfterSubmit(record->point);  // [api.event.record.asynchronous]
  return absl::OkStatus();
}

// The sticky error of the event's device, or OK. Execution lock held.
absl::Status DeviceStickyError(const MCevent_st& event) {
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().DeviceAt(event.device));
  return device->CheckUsable();
}

}  // namespace
}  // namespace mxcts::runtime

using mxcts::runtime::CaptureTable;
using mxcts::runtime::Device;
using mxcts::runtime::EventTable;
using mxcts::runtime::McStatus;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;
using mxcts::runtime::Timeline;

extern "C" {

mcError_t mcEventCreate(mcEvent_t* event) {
  return RunApi([&] {
    return mxcts::runtime::CreateEvent(event, mcEventDefault, "mcEventCreate");
  });
}

mcError_t mcEventCreateWithFlags(mcEvent_t* event, unsigned int flags) {
  return RunApi([&] {
    return mxcts::runtime::CreateEvent(event, flags, "mcEventCreateWithFlags");
  });
}

mcError_t mcEventRecord(mcEvent_t event, mcStream_t stream) {
  return RunApi([&] {  // [api.event.record.one-argument-form]
    return mxcts::runtime::RecordEvent(event, stream, mcEventRecordDefault,
                                       "mcEventRecord");
  });
}

mcError_t mcEventRecordWithFlags(mcEvent_t event, mcStream_t stream,
                                 unsigned int flags) {
  return RunApi([&] {
    // [api.event.record-with-flags.default-flag]
    // [api.event.record-with-flags.external-only-in-capture]
    return mxcts::runtime::RecordEvent(event, stream, flags,
                                       "mcEventRecordWithFlags");
  });
}

mcError_t mcEventQuery(mcEvent_t event) {
  return RunApi([&]() -> absl::Status {
    // [api.event.query-sync.invalid-event-is-invalid-resource-handle]
    MX_ASSIGN_OR_RETURN(MCevent_st * object, EventTable::Get().Find(event));
    Runtime& runtime = Runtime::Get();
    absl::MutexLock lock(&runtime.execution_mutex());
    if (CaptureTable::Get().IsCapturedEvent(object)) {
      // [api.graph.capture.captured-event-query]
      return McStatus(mcErrorCapturedEvent,
                      "the event's last record was captured");
    }
    // [api.error.sticky.later-calls-fail] before anything about the
    // record: a faulted device's events answer with its sticky error.
    MX_RETURN_IF_ERROR(mxcts::runtime::DeviceStickyError(*object));
    mxcts::runtime::EventTarget target = mxcts::runtime::TargetOf(*object);
    // [api.event.query.unrecorded-is-success] An unrecorded event stands
    // for an empty set of work, complete: it answers as a completed record
    // does.
    if (!target.recorded) {
      return mxcts::runtime::ResultAfterWait(object->device);
    }
    // [api.sync.timeline.poll-advances] [api.event.synchronize.other-device]
    bool reached = target.shared != nullptr && !target.local()
                       ? target.shared->Reached(target.generation)
                       : Timeline::Get().Advance(target.point);
    if (!reached) {
      // [api.event.query.not-ready-when-pending]
      return McStatus(mcErrorNotReady, "the event's work is pending");
    }
    // [api.event.query.success-when-complete]
    return mxcts::runtime::ResultAfterWait(object->device);
  });
}

mcError_t mcEventSynchronize(mcEvent_t event) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(MCevent_st * object, EventTable::Get().Find(event));
    Runtime& runtime = Runtime::Get();
    mxcts::runtime::EventTarget target;
    {
      absl::MutexLock lock(&runtime.execution_mutex());
      if (CaptureTable::Get().IsCapturedEvent(object)) {
        // [api.graph.capture.captured-event-query]
        return McStatus(mcErrorCapturedEvent,
                        "the event's last record was captured");
      }
      target = mxcts::runtime::TargetOf(*object);
      // [api.event.synchronize.unrecorded-returns-at-once] Nothing to wait
      // for; the call is still a synchronization, which reports the
      // device's errors, a sticky one included (ResultAfterWait). A
      // shortcut only: the wait below returns at once for an unrecorded
      // event too.
      if (!target.recorded) {
        return mxcts::runtime::ResultAfterWait(object->device);
      }
      if (target.shared == nullptr || target.local()) {
        // [api.event.synchronize.waits-for-captured-work]
        // [api.event.create-with-flags.blocking-sync-yields]: the waiting
        // thread runs the work itself, so it neither spins nor sleeps.
        Timeline::Get().RunUntil(target.point);
        // [api.event.synchronize.reports-async-errors]
        return mxcts::runtime::ResultAfterWait(object->device);
      }
    }
    // [api.ipc.event.open-handle] Another process's record: sleep until it
    // has run there, without the execution lock.
    target.shared->WaitFor(target.generation);
    absl::MutexLock lock(&runtime.execution_mutex());
    return mxcts::runtime::ResultAfterWait(object->device);
  });
}

mcError_t mcEventElapsedTime(float* ms, mcEvent_t start, mcEvent_t end) {
  return RunApi([&]() -> absl::Status {
    // [api.event.elapsed-time.null-output-is-invalid-value]
    if (ms == nullptr) {
      return McStatus(mcErrorInvalidValue, "mcEventElapsedTime: ms is null");
    }
    // [api.event.elapsed-time.invalid-handle-is-invalid-resource-handle]
    EventTable& events = EventTable::Get();
    MX_ASSIGN_OR_RETURN(MCevent_st * first, events.Find(start));
    MX_ASSIGN_OR_RETURN(MCevent_st * last, events.Find(end));
    if (first->device != last->device) {
      // [api.event.elapsed-time.different-devices-fails]
      return McStatus(mcErrorInvalidResourceHandle,
                      "mcEventElapsedTime: the events belong to different "
                      "devices");
    }
    Runtime& runtime = Runtime::Get();
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.error.sticky.later-calls-fail] Once the handles are known good,
    // a faulted device's sticky error comes before what is wrong with the
    // events' records or flags.
    MX_RETURN_IF_ERROR(mxcts::runtime::DeviceStickyError(*first));
    if (((first->flags | last->flags) & mcEventDisableTiming) != 0) {
      // [api.event.elapsed-time.disable-timing-is-invalid-resource-handle]
      // [api.ipc.event.opened-has-no-timing] Whether or not the records
      // have completed.
      return McStatus(mcErrorInvalidResourceHandle,
                      "mcEventElapsedTime: an event was created with "
                      "mcEventDisableTiming");
    }
    if (first->record == nullptr || last->record == nullptr) {
      // [api.event.elapsed-time.unrecorded-is-invalid-resource-handle]
      return McStatus(mcErrorInvalidResourceHandle,
                      "mcEventElapsedTime: an event was never recorded");
    }
    Timeline& timeline = Timeline::Get();
    if (!timeline.Reached(first->record->point) ||
        !timeline.Reached(last->record->point)) {
      // [api.event.elapsed-time.incomplete-is-not-ready]
      return McStatus(mcErrorNotReady,
                      "mcEventElapsedTime: a record has not completed");
    }
    if (!first->record->completed_at.has_value() ||
        !last->record->completed_at.has_value()) {
      // The record was skipped: the device faulted after it was enqueued
      // (its sticky error was reported above unless a reset cleared it).
      return McStatus(mcErrorInvalidResourceHandle,
                      "mcEventElapsedTime: a record never ran");
    }
    // [api.event.elapsed-time.milliseconds]
    std::chrono::duration<double, std::milli> elapsed =
        *last->record->completed_at - *first->record->completed_at;
    *ms = static_cast<float>(elapsed.count());
    return absl::OkStatus();
  });
}

mcError_t mcEventDestroy(mcEvent_t event) {
  return RunApi([&]() -> absl::Status {
    // [api.event.destroy.invalid-handle-is-invalid-resource-handle]
    // [api.event.destroy.releases-event]
    // [api.event.destroy.pending-record-completes]: the record command and
    // the points waits took stay on the timeline.
    // [api.ipc.event.destroy-opened]: an opened event's table entry is this
    // process's reference; the exporter's event is untouched.
    MX_ASSIGN_OR_RETURN(MCevent_st * object, EventTable::Get().Find(event));
    {
      absl::MutexLock lock(&Runtime::Get().execution_mutex());
      CaptureTable::Get().ForgetEvent(object);
    }
    return EventTable::Get().Destroy(event);
  });
}

}  // extern "C"
