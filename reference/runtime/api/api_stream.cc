// Copyright mxcts authors.
//
// The stream entry points [api.stream], the attachment of managed memory to
// a stream, stream callbacks and host functions [api.callback]. A stream is a
// handle for a timeline queue (stream.h); waiting for a stream runs the
// timeline until the queue's tail is reached (for the legacy default stream,
// also the tails of the device's blocking streams), and a query runs at most
// one command toward it, so that a polling loop ends in every timeline mode
// [api.sync.timeline.poll-advances].
//
// Callbacks and host functions run on the host thread that advances the
// timeline when their turn comes: the submitting thread in eager mode, a
// thread that waits for or polls the stream otherwise
// [api.callback.add.calling-thread].
//
// Tested by api_stream_test.cc.

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/graphs/stream_capture.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/device_work.h"
#include "reference/runtime/timeline/event.h"
#include "reference/runtime/timeline/stream.h"
#include "reference/runtime/timeline/timeline.h"

namespace mxcts::runtime {

absl::StatusOr<Device*> StreamDeviceForWork(mcStream_t stream) {
  Runtime& runtime = Runtime::Get();
  MX_ASSIGN_OR_RETURN(Device * current, runtime.CurrentDeviceForWork());
  MX_ASSIGN_OR_RETURN(int ordinal,
                      StreamTable::Get().DeviceOf(stream, current->ordinal()));
  MX_ASSIGN_OR_RETURN(Device * device, runtime.DeviceAt(ordinal));
  MX_RETURN_IF_ERROR(device->CheckUsable());
  return device;
}

absl::StatusOr<ResolvedStream> ResolveStreamLocked(mcStream_t stream) {
  MX_ASSIGN_OR_RETURN(Device * current, Runtime::Get().CurrentDevice());
  return StreamTable::Get().Resolve(stream, current->ordinal());
}

absl::Status CheckAccessPolicyWindow(const char* api,
                                     const mcAccessPolicyWindow& window) {
  // [api.stream.attribute.bad-access-policy-is-invalid-value]
  if (!(window.hitRatio >= 0.0f && window.hitRatio <= 1.0f)) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: hitRatio %g is outside [0, 1]", api,
                                    window.hitRatio));
  }
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
  size_t limit =
      static_cast<size_t>(device->properties().accessPolicyMaxWindowSize);
  if (window.num_bytes > limit) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: num_bytes %u is more than "
                                    "accessPolicyMaxWindowSize %u",
                                    api, window.num_bytes, limit));
  }
  for (mcAccessProperty property : {window.hitProp, window.missProp}) {
    if (property < mcAccessPropertyNormal ||
        property > mcAccessPropertyPersisting) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%s: %d is not an mcAccessProperty", api,
                                      static_cast<int>(property)));
    }
  }
  return absl::OkStatus();
}

namespace {

absl::Status NullOutput(const char* api, const char* what) {
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("%s: %s is null", api, what));
}

// The points a wait for `stream` waits for.
std::vector<Point> WaitPoints(mcStream_t stream,
                              const ResolvedStream& resolved) {
  if (stream == nullptr || stream == mcStreamLegacy) {
    // [api.sync.legacy.synchronize-covers-blocking-work]
    return Timeline::Get().LegacyCoverage(resolved.device);
  }
  return {resolved.queue->Tail()};
}

// The stream priorities of `device`: kGreatestStreamPriority to
// kLeastStreamPriority, or 0 to 0 on a device configured without them.
// [api.device.priority.range-implementation-defined]
// [api.stream.priority-range.unsupported-device-reports-zero]
struct PriorityRange {
  int least = kLeastStreamPriority;
  int greatest = kGreatestStreamPriority;
};
PriorityRange PrioritiesOf(const Device& device) {
  if (device.properties().streamPrioritiesSupported == 0) return {0, 0};
  return {};
}

absl::Status CreateStream(mcStream_t* stream, unsigned flags, int priority,
                          const char* api) {
  if (stream == nullptr) {  // [api.stream.create.null-pointer-is-invalid-value]
    return NullOutput(api, "stream");
  }
  if ((flags & ~unsigned{mcStreamNonBlocking}) != 0) {
    // [api.stream.create-with-flags.invalid-flags-is-invalid-value]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: unknown flags %#x", api, flags));
  }
  Runtime& runtime = Runtime::Get();
  MX_ASSIGN_OR_RETURN(Device * device, runtime.CurrentDeviceForWork());
  // [api.stream.create-with-priority.out-of-range-is-clamped]
  const PriorityRange range = PrioritiesOf(*device);
  priority = std::clamp(priority, range.greatest, range.least);
  absl::MutexLock lock(&runtime.execution_mutex());
  // [api.stream.model.stream-bound-to-device]
  MX_ASSIGN_OR_RETURN(
      *stream, StreamTable::Get().Create(device->ordinal(), flags, priority));
  return absl::OkStatus();
}

// Enqueues `command` into `stream` after the checks every stream call
// makes, then lets the timeline's mode act on it.
absl::Status EnqueueInStream(mcStream_t stream, Command command) {
  MX_RETURN_IF_ERROR(StreamDeviceForWork(stream).status());
  Runtime& runtime = Runtime::Get();
  absl::MutexLock lock(&runtime.execution_mutex());
  MX_ASSIGN_OR_RETURN(ResolvedStream resolved, ResolveStreamLocked(stream));
  CaptureTable& captures = CaptureTable::Get();
  if (captures.AnyActive()) {
    // [api.graph.capture.sync-call-unsupported]: work no capture takes.
    MX_RETURN_IF_ERROR(captures.CheckUncapturedWork(resolved.queue, false));
  }
  Timeline& timeline = Timeline::Get();
  timeline.AfterSubmit(timeline.Enqueue(resolved.queue, std::move(command)));
  return absl::OkStatus();
}

absl::Status UnknownAttribute(const char* api, mcStreamAttrID attr) {
  // [api.stream.attribute.unknown-attribute-is-invalid-value]
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("%s: %d is not a stream attribute", api,
                                  static_cast<int>(attr)));
}

}  // namespace
}  // namespace mxcts::runtime

using mxcts::runtime::Allocation;
using mxcts::runtime::CaptureTable;
using mxcts::runtime::Command;
using mxcts::runtime::Device;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemoryKind;
using mxcts::runtime::MemoryManager;
using mxcts::runtime::Point;
using mxcts::runtime::ResolvedStream;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;
using mxcts::runtime::StreamAttributes;
using mxcts::runtime::StreamTable;
using mxcts::runtime::Timeline;

extern "C" {

mcError_t mcStreamCreate(mcStream_t* stream) {
  return RunApi([&] {  // [api.stream.create.returns-new-stream]
    return mxcts::runtime::CreateStream(stream, mcStreamDefault, 0,
                                        "mcStreamCreate");
  });
}

mcError_t mcStreamCreateWithFlags(mcStream_t* stream, unsigned int flags) {
  return RunApi([&] {
    return mxcts::runtime::CreateStream(stream, flags, 0,
                                        "mcStreamCreateWithFlags");
  });
}

mcError_t mcStreamCreateWithPriority(mcStream_t* stream, unsigned int flags,
                                     int priority) {
  return RunApi([&] {  // [api.stream.create-with-priority.records-priority]
    return mxcts::runtime::CreateStream(stream, flags, priority,
                                        "mcStreamCreateWithPriority");
  });
}

mcError_t mcDeviceGetStreamPriorityRange(int* leastPriority,
                                         int* greatestPriority) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
    const mxcts::runtime::PriorityRange range =
        mxcts::runtime::PrioritiesOf(*device);
    // [api.stream.priority-range.null-arguments-allowed]
    if (leastPriority != nullptr) *leastPriority = range.least;
    if (greatestPriority != nullptr) *greatestPriority = range.greatest;
    return absl::OkStatus();
  });
}

mcError_t mcStreamDestroy(mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    MX_RETURN_IF_ERROR(Runtime::Get().CurrentDeviceForWork().status());
    // [api.stream.destroy.default-stream-is-invalid-resource-handle]
    // [api.stream.destroy.twice-is-invalid-resource-handle]
    // [api.stream.destroy.returns-immediately]: the queue keeps its work.
    return StreamTable::Get().Destroy(stream);
  });
}

mcError_t mcStreamQuery(mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.stream.synchronize.other-device-stream]
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    MX_ASSIGN_OR_RETURN(Device * device, runtime.DeviceAt(resolved.device));
    MX_RETURN_IF_ERROR(device->CheckUsable());
    CaptureTable& captures = CaptureTable::Get();
    if (captures.AnyActive()) {
      // [api.graph.capture.sync-call-unsupported]
      MX_RETURN_IF_ERROR(
          captures.CheckSynchronize(resolved.queue, "mcStreamQuery"));
    }
    Timeline& timeline = Timeline::Get();
    // [api.stream.query.non-blocking] [api.sync.timeline.poll-advances]:
    // one piece of work toward the first point not reached, however many
    // points the wait covers (the legacy stream's covers the blocking
    // streams' tails too).
    const std::vector<Point> points =
        mxcts::runtime::WaitPoints(stream, resolved);
    for (const Point& point : points) {
      if (!timeline.Reached(point)) {
        timeline.Advance(point);
        break;
      }
    }
    for (const Point& point : points) {
      if (!timeline.Reached(point)) {
        // [api.stream.query.not-ready-when-pending]
        return McStatus(mcErrorNotReady, "the stream has pending work");
      }
    }
    // [api.stream.query.success-when-idle]
    return mxcts::runtime::ResultAfterWait(resolved.device);
  });
}

mcError_t mcStreamSynchronize(mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.stream.synchronize.other-device-stream]
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    CaptureTable& captures = CaptureTable::Get();
    if (captures.AnyActive()) {
      // [api.graph.capture.sync-call-unsupported]
      MX_RETURN_IF_ERROR(
          captures.CheckSynchronize(resolved.queue, "mcStreamSynchronize"));
      MX_RETURN_IF_ERROR(captures.CheckUnsafeCall("mcStreamSynchronize"));
    }
    Timeline& timeline = Timeline::Get();
    // [api.stream.synchronize.waits-for-prior-work]
    // [api.callback.host-func.synchronize-waits]
    for (const Point& point : mxcts::runtime::WaitPoints(stream, resolved)) {
      timeline.RunUntil(point);
    }
    // [api.stream.synchronize.reports-async-errors]
    return mxcts::runtime::ResultAfterWait(resolved.device);
  });
}

mcError_t mcStreamWaitEvent(mcStream_t stream, mcEvent_t event,
                            unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    // [api.stream.wait-event.invalid-event-is-invalid-resource-handle]
    MX_ASSIGN_OR_RETURN(MCevent_st * object,
                        mxcts::runtime::EventTable::Get().Find(event));
    if (flags != mcEventWaitDefault) {
      // [api.stream.wait-event.nonzero-flags-is-invalid-value]
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("mcStreamWaitEvent: flags %#x are not 0", flags));
    }
    Runtime& runtime = Runtime::Get();
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.stream.wait-event.snapshot-at-call]
    mxcts::runtime::EventTarget target = mxcts::runtime::TargetOf(*object);
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    CaptureTable& captures = CaptureTable::Get();
    if (captures.AnyActive()) {
      if (captures.Of(resolved.queue) != nullptr ||
          captures.IsCapturedEvent(object)) {
        // [api.graph.capture.fork-join-via-events]
        // [api.graph.capture.cross-capture-isolation]
        if (!target.recorded && !captures.IsCapturedEvent(object)) {
          return absl::OkStatus();
        }
        return captures.WaitEvent(resolved.queue, object);
      }
      MX_RETURN_IF_ERROR(captures.CheckUncapturedWork(resolved.queue, false));
    }
    // [api.stream.wait-event.unrecorded-event-is-no-op]
    if (!target.recorded) return absl::OkStatus();
    Command command;
    command.description = "mcStreamWaitEvent";
    if (target.shared == nullptr || target.local()) {
      // [api.stream.wait-event.cross-device]
      command.after.push_back(target.point);
    } else {
      // [api.ipc.event.open-handle] Another process's record: the wait,
      // when its turn comes, sleeps until the record has run there.
      command.work = [shared = target.shared,
                      generation = target.generation]() -> mcError_t {
        shared->WaitFor(generation);
        return mcSuccess;
      };
    }
    Timeline& timeline = Timeline::Get();
    // [api.stream.wait-event.does-not-block-host]
    timeline.AfterSubmit(timeline.Enqueue(resolved.queue, std::move(command)));
    return absl::OkStatus();
  });
}

mcError_t mcStreamGetFlags(mcStream_t stream, unsigned int* flags) {
  return RunApi([&]() -> absl::Status {
    // [api.stream.query-props.null-output-is-invalid-value]
    if (flags == nullptr) {
      return mxcts::runtime::NullOutput("mcStreamGetFlags", "flags");
    }
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    // [api.stream.get-flags.default-stream-is-blocking]
    *flags = resolved.flags;
    return absl::OkStatus();
  });
}

mcError_t mcStreamGetPriority(mcStream_t stream, int* priority) {
  return RunApi([&]() -> absl::Status {
    if (priority == nullptr) {
      return mxcts::runtime::NullOutput("mcStreamGetPriority", "priority");
    }
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    // [api.stream.get-priority.reports-priority]
    *priority = resolved.priority;
    return absl::OkStatus();
  });
}

mcError_t mcStreamGetDevice(mcStream_t stream, int* device) {
  return RunApi([&]() -> absl::Status {
    if (device == nullptr) {
      return mxcts::runtime::NullOutput("mcStreamGetDevice", "device");
    }
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    // [api.stream.get-device.reports-owning-device]
    *device = resolved.device;
    return absl::OkStatus();
  });
}

mcError_t mcStreamSetAttribute(mcStream_t stream, mcStreamAttrID attr,
                               const mcStreamAttrValue* value) {
  return RunApi([&]() -> absl::Status {
    // [api.stream.attribute.null-value-is-invalid-value]
    if (value == nullptr) {
      return mxcts::runtime::NullOutput("mcStreamSetAttribute", "value");
    }
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    StreamAttributes& attributes =
        StreamTable::Get().AttributesOf(resolved.queue);
    switch (attr) {
      case mcStreamAttributeAccessPolicyWindow:
        MX_RETURN_IF_ERROR(mxcts::runtime::CheckAccessPolicyWindow(
            "mcStreamSetAttribute", value->accessPolicyWindow));
        attributes.access_policy_window = value->accessPolicyWindow;
        return absl::OkStatus();
      case mcStreamAttributeSynchronizationPolicy:
        if (value->syncPolicy < mcSyncPolicyAuto ||
            value->syncPolicy > mcSyncPolicyBlockingSync) {
          return McStatus(mcErrorInvalidValue,
                          absl::StrFormat("mcStreamSetAttribute: %d is not an "
                                          "mcSynchronizationPolicy",
                                          static_cast<int>(value->syncPolicy)));
        }
        attributes.sync_policy = value->syncPolicy;
        return absl::OkStatus();
    }
    return mxcts::runtime::UnknownAttribute("mcStreamSetAttribute", attr);
  });
}

mcError_t mcStreamGetAttribute(mcStream_t stream, mcStreamAttrID attr,
                               mcStreamAttrValue* value) {
  return RunApi([&]() -> absl::Status {
    if (value == nullptr) {
      return mxcts::runtime::NullOutput("mcStreamGetAttribute", "value");
    }
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    const StreamAttributes& attributes =
        StreamTable::Get().AttributesOf(resolved.queue);
    switch (attr) {
      case mcStreamAttributeAccessPolicyWindow:
        value->accessPolicyWindow = attributes.access_policy_window;
        return absl::OkStatus();
      case mcStreamAttributeSynchronizationPolicy:
        value->syncPolicy = attributes.sync_policy;
        return absl::OkStatus();
    }
    return mxcts::runtime::UnknownAttribute("mcStreamGetAttribute", attr);
  });
}

mcError_t mcStreamCopyAttribute(mcStream_t dst, mcStream_t src) {
  return RunApi([&]() -> absl::Status {
    absl::MutexLock lock(&Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(ResolvedStream to,
                        mxcts::runtime::ResolveStreamLocked(dst));
    MX_ASSIGN_OR_RETURN(ResolvedStream from,
                        mxcts::runtime::ResolveStreamLocked(src));
    StreamTable& streams = StreamTable::Get();
    StreamAttributes copy = streams.AttributesOf(from.queue);
    // [api.stream.attribute.copy-copies-all]
    streams.AttributesOf(to.queue) = copy;
    return absl::OkStatus();
  });
}

mcError_t mcStreamAttachMemAsync(mcStream_t stream, void* devPtr, size_t length,
                                 unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    // [api.stream.attach-mem.invalid-flags-is-invalid-value]
    if (flags != mcMemAttachGlobal && flags != mcMemAttachHost &&
        flags != mcMemAttachSingle) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcStreamAttachMemAsync: flags %#x are "
                                      "not one of mcMemAttachGlobal, "
                                      "mcMemAttachHost, mcMemAttachSingle",
                                      flags));
    }
    // [api.stream.attach-mem.not-managed-is-invalid-value]
    std::optional<Allocation> allocation = MemoryManager::Get().Find(devPtr);
    const bool managed =
        allocation.has_value() &&
        (allocation->kind == MemoryKind::kManaged ||
         allocation->kind == MemoryKind::kManagedVariable) &&
        allocation->base == reinterpret_cast<uintptr_t>(devPtr);
    if (!managed) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcStreamAttachMemAsync: %p is not the "
                                      "start of a managed allocation",
                                      devPtr));
    }
    // [api.stream.attach-mem.partial-length-is-invalid-value]
    if (length != 0 && length != allocation->size) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcStreamAttachMemAsync: length %u is "
                                      "neither 0 nor the allocation's %u bytes",
                                      length, allocation->size));
    }
    // [api.stream.attach-mem.single-to-legacy-stream-is-invalid-value]
    if (flags == mcMemAttachSingle &&
        (stream == nullptr || stream == mcStreamLegacy)) {
      return McStatus(mcErrorInvalidValue,
                      "mcStreamAttachMemAsync: mcMemAttachSingle needs one "
                      "stream, not the legacy default stream");
    }
    // [api.stream.attach-mem.invalid-stream]
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    // [api.stream.attach-mem.ordered-in-stream] Every device has concurrent
    // managed access and reaches managed memory at the same address, so the
    // attachment restricts nothing: the work only takes its place in the
    // stream.
    return mxcts::runtime::SubmitWork(
        stream,
        absl::StrFormat("mcStreamAttachMemAsync of %p (flags %#x)", devPtr,
                        flags),
        [] { return mcSuccess; }, mxcts::runtime::HostWait::kNone);
  });
}

mcError_t mcStreamAddCallback(mcStream_t stream, mcStreamCallback_t callback,
                              void* userData, unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    // [api.callback.add.null-callback-is-invalid-value]
    if (callback == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcStreamAddCallback: callback is null");
    }
    if (flags != 0) {  // [api.callback.add.nonzero-flags-is-invalid-value]
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("mcStreamAddCallback: flags %#x are not 0", flags));
    }
    MX_ASSIGN_OR_RETURN(Device * device,
                        mxcts::runtime::StreamDeviceForWork(stream));
    Command command;
    command.description = "a stream callback";
    // [api.callback.add.status-reports-prior-failure]
    command.runs_after_fault = true;
    command.work = [=]() -> mcError_t {
      // [api.callback.add.receives-arguments]
      mcError_t status = device->sticky_error();
      mxcts::runtime::RunHostFunction(
          [&] { callback(stream, status, userData); });
      return mcSuccess;
    };
    // [api.callback.add.runs-after-preceding-work]
    // [api.callback.add.blocks-later-work] [api.callback.add.runs-exactly-once]
    return mxcts::runtime::EnqueueInStream(stream, std::move(command));
  });
}

mcError_t mcLaunchHostFunc(mcStream_t stream, mcHostFn_t fn, void* userData) {
  return RunApi([&]() -> absl::Status {
    // [api.callback.host-func.null-function-is-invalid-value]
    if (fn == nullptr) {
      return McStatus(mcErrorInvalidValue, "mcLaunchHostFunc: fn is null");
    }
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    // [api.graph.capture.records-instead-of-executing]
    const mcHostNodeParams params{fn, userData};
    MX_ASSIGN_OR_RETURN(bool captured,
                        mxcts::runtime::CaptureIfCapturing(stream, [&] {
                          return mxcts::runtime::NodeParams::Host(&params);
                        }));
    if (captured) return absl::OkStatus();
    Command command;
    command.description = "a host function";
    // [api.callback.host-func.not-called-after-error]: skipped, as all
    // work, once the device has a sticky error.
    command.work = [=]() -> mcError_t {
      mxcts::runtime::RunHostFunction([&] { fn(userData); });
      return mcSuccess;
    };
    // [api.callback.host-func.runs-in-stream-order]
    return mxcts::runtime::EnqueueInStream(stream, std::move(command));
  });
}

}  // extern "C"
