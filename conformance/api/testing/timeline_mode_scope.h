// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/timeline_mode_scope.h
// -----------------------------------------------------------------------------
//
// The timeline mode of the fresh processes a check runs in: a scope that
// sets MXCTS_TIMELINE (and MACA_LAUNCH_BLOCKING), and a fixture whose fresh
// processes all run in the deferred mode, where device work runs only when
// the host waits or polls, and a wait runs only the work it needs
// (docs/spec/api-synchronization.md, "When device work runs").
//
//   class Deferred : public DeferredModeTest<> {};
//   TEST_F(Deferred, ReadBeforeSynchronizeSeesOldValue) {
//     MX_EXPECT_HOLDS_IN_FRESH_PROCESS(Program());  // runs deferred
//   }
//
// Host code only.

#ifndef MXCTS_CONFORMANCE_API_TESTING_TIMELINE_MODE_SCOPE_H_
#define MXCTS_CONFORMANCE_API_TESTING_TIMELINE_MODE_SCOPE_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "conformance/testing/fresh_process.h"

namespace mxcts::conformance {

// Sets MXCTS_TIMELINE to `mode` and MACA_LAUNCH_BLOCKING to
// `launch_blocking` (null: unsets either) until the end of the scope, so
// that a fresh process started within it (MX_EXPECT_IN_FRESH_PROCESS,
// MX_EXPECT_TRAP) runs its device work in that mode.
class ScopedTimelineMode {
 public:
  explicit ScopedTimelineMode(const char* mode,
                              const char* launch_blocking = nullptr)
      : mode_("MXCTS_TIMELINE", mode),
        launch_blocking_("MACA_LAUNCH_BLOCKING", launch_blocking) {}

 private:
  ScopedEnvironment mode_;
  ScopedEnvironment launch_blocking_;
};

// True if this process's implementation holds device work back until the
// host waits for it, as the reference does in the deferred mode the
// fixtures ask for (MXCTS_TIMELINE=deferred). Another implementation may
// run work as soon as it can (a GPU does): there, work that nothing waited
// for may have run by the time a wait returns, or not, so a check that it
// has not run applies only where this is true; the order a wait imposes is
// checked everywhere. Decided once per process: a host function in a
// stream of its own is left unwaited for 200 ms, less than the reference's
// idle delay (api.sync.timeline.idle-progress), then waited for.
inline bool HoldsWorkUntilWaited() {
  static const bool holds = [] {
    std::atomic<bool> ran{false};
    mcStream_t stream = nullptr;
    if (mcStreamCreateWithFlags(&stream, mcStreamNonBlocking) != mcSuccess) {
      return false;
    }
    mcLaunchHostFunc(
        stream,
        [](void* flag) { static_cast<std::atomic<bool>*>(flag)->store(true); },
        &ran);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
    while (!ran.load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const bool held = !ran.load();
    mcStreamSynchronize(stream);
    mcStreamDestroy(stream);
    return held;
  }();
  return holds;
}

// A fixture whose fresh processes run in the deferred mode: the mode is set
// from the fixture's construction to its end. `Base` is the fixture it
// extends (testing::Test, a TestWithParam, KindOnDeviceTest, ...).
template <typename Base = testing::Test>
class DeferredModeTest : public Base {
 private:
  ScopedTimelineMode mode_{"deferred"};
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_TIMELINE_MODE_SCOPE_H_
