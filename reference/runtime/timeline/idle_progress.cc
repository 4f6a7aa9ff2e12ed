// Copyright mxcts authors.
//
// The thread is detached and never stops: the timeline and the device
// table it uses are never destroyed, so it may keep sleeping while the
// process exits. It wakes every interval and compares the timeline's
// activity count with what it saw the last time; an unchanged count with
// work pending means no host thread has touched the timeline for a whole
// interval.
//
// Tested by idle_progress_test.cc.

#include "reference/runtime/timeline/idle_progress.h"

#include <cstdint>
#include <mutex>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/timeline/timeline.h"

namespace mxcts::runtime {
namespace {

[[noreturn]] void WatchTimeline() {
  uint64_t seen = 0;
  for (;;) {
    std::this_thread::sleep_for(kIdleProgressInterval);
    absl::MutexLock lock(&DeviceTable::Get().execution_mutex());
    Timeline& timeline = Timeline::Get();
    if (timeline.HasAnyPending() && timeline.activity() == seen) {
      // [api.sync.timeline.idle-progress]
      timeline.RunAll();
    }
    seen = timeline.activity();
  }
}

}  // namespace

void StartIdleProgress() {
  static std::once_flag started;
  std::call_once(started, [] { std::thread(&WatchTimeline).detach(); });
}

}  // namespace mxcts::runtime
