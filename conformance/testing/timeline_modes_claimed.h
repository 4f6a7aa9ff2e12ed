// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/timeline_modes_claimed.h
// -----------------------------------------------------------------------------
//
// Whether the backend claims the capability timeline_modes: its runtime
// reads MXCTS_TIMELINE and, in the deferred and shuffle modes, holds device
// work back until the host waits for it (docs/spec/api-synchronization.md,
// "When device work runs"). A check that work has *not* run yet, or that a
// wait ran *only* the work it needs, holds only there; a GPU runs work as
// soon as it can. A test that checks both what every implementation must do
// and what these modes show keeps the first unconditional and makes only the
// second depend on this:
//
//   problems += ExpectLog("after the wait", log, "b0 b1 b2");  // everywhere
//   if (TimelineModesClaimed() && log.size() != 3) ...          // deferred
//
// A test only of the modes skips itself with
// MX_REQUIRE_CAPABILITY("timeline_modes") instead.

#ifndef MXCTS_CONFORMANCE_TESTING_TIMELINE_MODES_CLAIMED_H_
#define MXCTS_CONFORMANCE_TESTING_TIMELINE_MODES_CLAIMED_H_

#include <gtest/gtest.h>

#include "conformance/testing/capabilities.h"

namespace mxcts::conformance {

// True where the manifest claims timeline_modes (the reference). Where the
// claim cannot be decided (no manifest), the test fails and every check
// applies.
inline bool TimelineModesClaimed() {
  const CapabilityRequirement claimed = RequireCapability("timeline_modes");
  if (claimed.status == CapabilityRequirement::Status::kError) {
    ADD_FAILURE() << claimed.message;
    return true;
  }
  return claimed.status == CapabilityRequirement::Status::kMet;
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_TIMELINE_MODES_CLAIMED_H_
