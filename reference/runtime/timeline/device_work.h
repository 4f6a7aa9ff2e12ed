// Copyright mxcts authors.
//
// reference/runtime/timeline/device_work.h: how an entry point hands work to
// the device timeline, and how it waits for it.
//
// Every call that does device work (a launch, a copy, a set, an event
// record, a host function) validates its arguments first, then submits the
// work to a stream with SubmitWork. The timeline (timeline.h) decides when
// the work runs: at once (eager), when the host waits or polls (deferred), or
// in a seeded random order the streams permit (shuffle). So the work must not
// depend on anything the caller may change after the call returns: a call
// that reads pageable host memory the caller may reuse copies it first (or
// waits with HostWait::kUntilDone).
//
//   MX_ASSIGN_OR_RETURN(Device * device, StreamDeviceForWork(stream));
//   ... validate ...
//   return SubmitWork(stream, "mcMemsetAsync", [=] {
//     std::memset(ptr, value, count);
//     return mcSuccess;
//   }, HostWait::kNone);

#ifndef MXCTS_REFERENCE_RUNTIME_TIMELINE_DEVICE_WORK_H_
#define MXCTS_REFERENCE_RUNTIME_TIMELINE_DEVICE_WORK_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "mc_runtime_api.h"

namespace mxcts::runtime {

class Queue;

// How long the submitting call waits.
enum class HostWait {
  kNone,       // return at once; the work runs when the timeline reaches it
  kUntilDone,  // return once the work, and all it is ordered after, has run
};

// One piece of device work. It is called at most once, with the execution
// lock held, on whichever host thread advances the timeline, and must not
// call runtime entry points. It returns mcSuccess or the error of the work:
// a sticky code (error_mapping.h IsStickyError) becomes its device's fault;
// any other code is reported by the next synchronizing call on the device
// [api.error.return.async-call-may-report-earlier-error]. Work whose device
// has a sticky error when its turn comes is not run
// [api.error.sticky.work-not-executed].
using DeviceWork = std::function<mcError_t()>;

// Queues `work` in `stream`: 0, mcStreamLegacy or mcStreamPerThread (the
// current device's default streams) or a live stream of any device. The
// caller has validated the arguments, the stream included
// (StreamDeviceForWork). `description` names the work in diagnostics
// ("mcMemcpyAsync of 4096 bytes"). With HostWait::kUntilDone, returns what a
// synchronizing call returns once the work has run: OK, the device's sticky
// error, or a pending error of earlier work
// [api.sync.host.sync-calls-report-async-errors]; otherwise OK.
absl::Status SubmitWork(mcStream_t stream, std::string description,
                        DeviceWork work, HostWait wait);

// What SubmitWork asks before queuing work in `queue` (`waits`: the caller
// waits for it): stream capture (graphs/stream_capture.h) refuses work in a
// capturing stream that it did not take as a graph node, and work that
// would depend on a capture. OK lets the work be queued. One gate; nullptr
// removes it.
using UncapturedWorkGate = absl::Status (*)(Queue* queue, bool waits);
void SetUncapturedWorkGate(UncapturedWorkGate gate);

// Blocks until all work submitted so far to device `device` (every stream,
// by every host thread) has run, then returns as a synchronizing call
// does, consuming a pending non-sticky error.
// [api.sync.host.device-synchronize-waits-all]
absl::Status SynchronizeDevice(int device);

// Blocks until all work submitted so far to any device has run: what a call
// that releases memory waits for, since work on any device may use memory
// of another (peer or managed memory) [api.sync.host.free-synchronizes].
// Reports nothing: the errors of that work stay for the synchronizing calls
// of their devices.
void RunAllPendingWork();

// True if submitted work runs before SubmitWork returns, whatever the
// HostWait (the eager timeline mode): a call then needs not protect what
// its work reads from later changes by the caller.
bool WorkRunsAtSubmission();

// True if work submitted to device `device` has not run yet.
bool HasPendingWork(int device);

// What a synchronizing call returns once the work it waited for on
// `device` has run: the device's sticky error, else the device's pending
// error of earlier work (taken, so it is reported once), else OK. Writes
// pending device printf output first. The caller holds the execution lock.
// [api.sync.host.sync-calls-report-async-errors]
absl::Status ResultAfterWait(int device);

// Installs `observer`, which ResultAfterWait calls (execution lock held)
// once a synchronizing call has waited for work of a device: memory pools
// release memory above their release threshold then
// [api.pool.release-threshold.released-at-synchronization]. One observer;
// nullptr removes it.
void SetSynchronizationObserver(void (*observer)(int device));

// Runs `function` as a host function or stream callback of the timeline:
// while it runs, runtime entry points called on this thread return
// mcErrorNotPermitted instead of waiting for the timeline the thread is
// advancing, and leave the thread's last error as it was before the
// function ran. [api.callback.add.api-call-inside-undefined]
// [api.callback.reference.api-call-not-permitted]
void RunHostFunction(const std::function<void()>& function);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TIMELINE_DEVICE_WORK_H_
