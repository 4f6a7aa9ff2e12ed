// Copyright mxcts authors.
//
// SubmitWork and the waits of device_work.h, over the device timeline
// (timeline.h). A submission that must wait (HostWait::kUntilDone), or any
// submission in eager mode, runs its work before returning and reports the
// work's own error to its caller; other work reports a non-sticky error
// through the device's pending error, which the next synchronizing call
// takes.
//
// Tested by device_work_test.cc.

#include "reference/runtime/timeline/device_work.h"

#include <atomic>
#include <memory>
#include <utility>

#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/host_thread/thread_state.h"
#include "reference/runtime/timeline/stream.h"
#include "reference/runtime/timeline/timeline.h"

namespace mxcts::runtime {

namespace {
std::atomic<UncapturedWorkGate> uncaptured_work_gate{nullptr};
}  // namespace

void SetUncapturedWorkGate(UncapturedWorkGate gate) {
  uncaptured_work_gate.store(gate);
}

absl::Status SubmitWork(mcStream_t stream, std::string description,
                        DeviceWork work, HostWait wait) {
  DeviceTable& devices = DeviceTable::Get();
  MX_ASSIGN_OR_RETURN(Device * current, devices.CurrentDevice());
  absl::MutexLock lock(&devices.execution_mutex());
  MX_ASSIGN_OR_RETURN(ResolvedStream resolved,
                      StreamTable::Get().Resolve(stream, current->ordinal()));
  MX_ASSIGN_OR_RETURN(Device * device, devices.DeviceAt(resolved.device));
  // A fault of work already run may have made the device unusable.
  MX_RETURN_IF_ERROR(current->CheckUsable());
  MX_RETURN_IF_ERROR(device->CheckUsable());
  // [api.graph.capture.sync-call-unsupported]
  if (UncapturedWorkGate gate = uncaptured_work_gate.load()) {
    MX_RETURN_IF_ERROR(gate(resolved.queue, wait == HostWait::kUntilDone));
  }

  Timeline& timeline = Timeline::Get();
  bool run_now = wait == HostWait::kUntilDone ||
                 timeline.mode().kind == TimelineMode::kEager;
  auto outcome = std::make_shared<CommandOutcome>();
  Command command;
  // Only work run now reports its failure here, with the description.
  std::string failure_context = run_now ? description : std::string();
  command.description = std::move(description);
  command.work = std::move(work);
  command.outcome = outcome;
  command.reported_by_submitter = run_now;
  Point point = timeline.Enqueue(resolved.queue, std::move(command));
  if (!run_now) {
    timeline.AfterSubmit(point);
    return absl::OkStatus();
  }
  timeline.RunUntil(point);
  if (outcome->result != mcSuccess && !IsStickyError(outcome->result)) {
    return McStatus(outcome->result,
                    failure_context + " failed: " + ErrorName(outcome->result));
  }
  if (wait == HostWait::kUntilDone) return ResultAfterWait(device->ordinal());
  return absl::OkStatus();
}

absl::Status SynchronizeDevice(int device) {
  DeviceTable& devices = DeviceTable::Get();
  MX_RETURN_IF_ERROR(devices.DeviceAt(device).status());
  absl::MutexLock lock(&devices.execution_mutex());
  // [api.sync.host.device-synchronize-waits-all]
  Timeline::Get().RunDevice(device);
  return ResultAfterWait(device);
}

bool WorkRunsAtSubmission() {
  return Timeline::Get().mode().kind == TimelineMode::kEager;
}

void RunAllPendingWork() {
  DeviceTable& devices = DeviceTable::Get();
  absl::MutexLock lock(&devices.execution_mutex());
  Timeline::Get().RunAll();
}

bool HasPendingWork(int device) {
  DeviceTable& devices = DeviceTable::Get();
  absl::MutexLock lock(&devices.execution_mutex());
  return Timeline::Get().HasPending(device);
}

namespace {
std::atomic<void (*)(int)> synchronization_observer{nullptr};
}  // namespace

void SetSynchronizationObserver(void (*observer)(int device)) {
  synchronization_observer.store(observer);
}

absl::Status ResultAfterWait(int device) {
  DeviceTable::SynchronizationPoint();
  if (auto observer = synchronization_observer.load()) observer(device);
  MX_ASSIGN_OR_RETURN(Device * target, DeviceTable::Get().DeviceAt(device));
  MX_RETURN_IF_ERROR(target->CheckUsable());
  mcError_t pending = Timeline::Get().TakePendingError(device);
  if (pending != mcSuccess) {
    return McStatus(pending,
                    "earlier asynchronous work on the device failed: " +
                        std::string(ErrorName(pending)));
  }
  return absl::OkStatus();
}

void RunHostFunction(const std::function<void()>& function) {
  ThreadState& state = ThreadState::Current();
  bool outer = state.in_host_function();
  // The calls the function makes are refused; their mcErrorNotPermitted is
  // no error of the thread that happens to advance the timeline, which
  // differs between the modes. [api.callback.reference.api-call-not-permitted]
  const mcError_t last_error = state.PeekLastError();
  state.set_in_host_function(true);
  // [lang.printf.flush.before-stream-callback] The kernels before the
  // function in its stream have run; their output is written before it
  // starts.
  DeviceTable::SynchronizationPoint();
  function();
  state.set_in_host_function(outer);
  state.TakeLastError();
  state.RecordResult(last_error);
}

}  // namespace mxcts::runtime
