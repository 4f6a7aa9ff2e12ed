// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/claimed.h
// -----------------------------------------------------------------------------
//
// What the backend's capability manifest claims, for a test that runs on
// every backend and adapts one of its checks to the answer. Where a whole
// test needs a feature, it skips itself with MX_REQUIRE_CAPABILITY
// (capabilities.h) instead; these are for a test that checks what every
// implementation must do unconditionally and adds what a claimed feature
// shows:
//
//   EXPECT_TRUE(result == mcErrorInvalidDevice ||
//               result == mcErrorPeerAccessUnsupported);  // everywhere
//   if (Claimed("reference_choices")) {                   // the reference
//     EXPECT_EQ(result, mcErrorPeerAccessUnsupported);
//   }
//
// The one fallback rule: where the manifest cannot answer (it cannot be
// read, MXMACA_CAPABILITIES is unset, or the name is not a capability the
// suite knows), the calling test fails, and the answer is the reference's,
// which claims every feature and MXMACA's wave of 64 lanes
// [model.exec.wave-size-is-64]: the test goes on checking everything it
// checks on the reference. A missing manifest is a mistake of the run, and
// it must neither pass nor silently check less than the reference is
// checked for.
//
// A manifest that answers is taken as it says: a flag it omits or sets to
// no is not claimed; a wave_size it omits is MXMACA's 64, the value every
// backend has unless its manifest says otherwise.

#ifndef MXCTS_CONFORMANCE_TESTING_CLAIMED_H_
#define MXCTS_CONFORMANCE_TESTING_CLAIMED_H_

namespace mxcts::conformance {

// True where the manifest claims `feature` (a flag set to yes, a count
// above 0, a list that is present), as MX_REQUIRE_CAPABILITY decides it.
// Where the manifest cannot answer: records a failure of the current test
// and returns true.
bool Claimed(const char* feature);

// The lanes of a wave (warpSize in device code) on the backend under test:
// the manifest's wave_size, or 64 where it omits it. Where the manifest
// cannot answer, or gives a size that is not positive: records a failure
// of the current test and returns 64.
int ClaimedWaveSize();

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_CLAIMED_H_
