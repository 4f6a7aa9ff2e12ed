// Copyright mxcts authors.
//
// Conformance: an event recorded behind a kernel that faults
// (docs/spec/api-event.md, "Querying and synchronizing";
// api-synchronization.md, "Calls synchronous with respect to the host").
//
// mcEventSynchronize of an event recorded after a kernel that fails its
// device assert reports the failure. The fault must happen after the record,
// so each program runs in a fresh process in the deferred timeline mode,
// where the kernel runs only when the host waits. The fault is sticky
// afterwards (MX_EXPECT_TRAP). The control is the same program whose kernel
// passes its assert: the synchronization succeeds. The same for stream
// callbacks: stream/execution/callback_fault_test.cc.
//
// Events that no record of the fault concerns answer with the sticky error
// too (api-errors.md, "Sticky errors"): an event never recorded, which
// queries and synchronizes with mcSuccess on a healthy device, and a pair
// without timing, which elapsed time refuses for its flag on a healthy
// device.

#include <assert.h>
#include <mc_runtime.h>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

__global__ void CheckFlag(int fail) { assert(fail == 0); }

// An event recorded after a kernel that faults: its synchronization
// reports the fault. Returns what mcEventSynchronize returned.
mcError_t SynchronizeEventAfterFault(StreamKind kind, bool fault) {
  TestStream* stream = new TestStream(kind);  // outlives the sticky check
  mcEvent_t event = nullptr;
  if (stream->status() != mcSuccess || mcEventCreate(&event) != mcSuccess) {
    return mcErrorUnknown;
  }
  CheckFlag<<<1, 1, 0, stream->get()>>>(fault ? 1 : 0);
  if (mcEventRecord(event, stream->get()) != mcSuccess) return mcErrorUnknown;
  return mcEventSynchronize(event);
}

class EventAfterFault
    : public DeferredModeTest<testing::TestWithParam<StreamKind>> {};

TEST_P(EventAfterFault, SynchronizeReportsTheFault) {
  MX_SPEC("api.event.synchronize.reports-async-errors",
          "api.sync.host.sync-calls-report-async-errors");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_TRAP(SynchronizeEventAfterFault(GetParam(), true), mcErrorAssert,
                 "Assertion 'fail == 0' failed");
}

TEST_P(EventAfterFault, ControlWithoutFaultSucceeds) {
  MX_SPEC("api.event.synchronize.waits-for-captured-work",
          "api.event.synchronize.reports-async-errors");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(
      SynchronizeEventAfterFault(GetParam(), false) == mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Kinds, EventAfterFault,
                         testing::ValuesIn(kAllStreamKinds), KindName);

// Events created before a fault: on the healthy device, then after the
// fault. "" if each call gives what the clauses say.
std::string EventsAnswerWithTheStickyError() {
  std::string problems;
  mcEvent_t unrecorded = nullptr;
  mcEvent_t untimed[2] = {};
  if (mcEventCreate(&unrecorded) != mcSuccess ||
      mcEventCreateWithFlags(&untimed[0], mcEventDisableTiming) != mcSuccess ||
      mcEventCreateWithFlags(&untimed[1], mcEventDisableTiming) != mcSuccess ||
      mcEventRecord(untimed[0], nullptr) != mcSuccess ||
      mcEventRecord(untimed[1], nullptr) != mcSuccess ||
      mcDeviceSynchronize() != mcSuccess) {
    return "could not make the events";
  }
  float ms = -1.0f;
  // Control: the healthy device.
  problems += Expect("mcEventQuery of an unrecorded event",
                     mcEventQuery(unrecorded), mcSuccess);
  problems += Expect("mcEventSynchronize of an unrecorded event",
                     mcEventSynchronize(unrecorded), mcSuccess);
  problems += Expect("mcEventElapsedTime without timing",
                     mcEventElapsedTime(&ms, untimed[0], untimed[1]),
                     mcErrorInvalidResourceHandle);
  mcGetLastError();
  CheckFlag<<<1, 1>>>(1);
  problems += Expect("mcDeviceSynchronize after the fault",
                     mcDeviceSynchronize(), mcErrorAssert);
  problems += Expect("mcEventQuery of an unrecorded event after the fault",
                     mcEventQuery(unrecorded), mcErrorAssert);
  problems +=
      Expect("mcEventSynchronize of an unrecorded event after the fault",
             mcEventSynchronize(unrecorded), mcErrorAssert);
  problems +=
      Expect("mcEventElapsedTime without timing after the fault",
             mcEventElapsedTime(&ms, untimed[0], untimed[1]), mcErrorAssert);
  if (ms != -1.0f) problems += "mcEventElapsedTime wrote its output; ";
  return problems;
}

void Nothing(void*) {}

// In a deferred-mode process: an event recorded in a second stream behind
// a host function, still pending when a kernel of the first stream faults.
// Its query answers with the sticky error, not mcErrorNotReady; without
// the fault (the control) the pending record is mcErrorNotReady.
std::string PendingEventQueryAfterFault(bool fault) {
  std::string problems;
  mcStream_t faulting = nullptr;
  mcStream_t other = nullptr;
  mcEvent_t event = nullptr;
  if (mcStreamCreateWithFlags(&faulting, mcStreamNonBlocking) != mcSuccess ||
      mcStreamCreateWithFlags(&other, mcStreamNonBlocking) != mcSuccess ||
      mcEventCreate(&event) != mcSuccess) {
    return "could not make the streams and the event";
  }
  CheckFlag<<<1, 1, 0, faulting>>>(fault ? 1 : 0);
  problems += Expect("mcLaunchHostFunc",
                     mcLaunchHostFunc(other, Nothing, nullptr), mcSuccess);
  problems += Expect("mcEventRecord", mcEventRecord(event, other), mcSuccess);
  problems +=
      Expect("mcStreamSynchronize of the kernel's stream",
             mcStreamSynchronize(faulting), fault ? mcErrorAssert : mcSuccess);
  problems += Expect("mcEventQuery of the pending record", mcEventQuery(event),
                     fault ? mcErrorAssert : mcErrorNotReady);
  return problems;
}

class PendingEventAfterFault : public DeferredModeTest<> {};

TEST_F(PendingEventAfterFault, QueryAnswersWithTheStickyError) {
  MX_SPEC("api.error.sticky.later-calls-fail",
          "api.event.query.not-ready-when-pending");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_IN_FRESH_PROCESS(PendingEventQueryAfterFault(true));
}

TEST_F(PendingEventAfterFault, ControlWithoutFaultIsNotReady) {
  MX_SPEC("api.event.query.not-ready-when-pending");
  MX_EXPECT_IN_FRESH_PROCESS(PendingEventQueryAfterFault(false));
}

TEST(EventsAfterFault, AnswerWithTheStickyError) {
  MX_SPEC("api.error.sticky.later-calls-fail",
          "api.event.query.unrecorded-is-success",
          "api.event.synchronize.unrecorded-returns-at-once",
          "api.event.elapsed-time.disable-timing-is-invalid-resource-handle");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_IN_FRESH_PROCESS(EventsAnswerWithTheStickyError());
}

}  // namespace
}  // namespace mxcts::conformance
