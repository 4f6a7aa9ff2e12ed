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

#include "conformance/testing/capabilities.h"
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

// True if the backend claims the timeline modes (the manifest's
// timeline_modes): only there does the deferred mode hold work back until
// the host waits for it. On another backend, work that nothing waits for
// may have run by the time a wait returns, or not, so a check that it has
// not run applies only where this is true; the order a wait imposes is
// checked everywhere.
inline bool ClaimsTimelineModes() {
  return RequireCapability("timeline_modes").status ==
         CapabilityRequirement::Status::kMet;
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
