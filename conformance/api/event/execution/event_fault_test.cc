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

#include <assert.h>
#include <mc_runtime.h>

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

}  // namespace
}  // namespace mxcts::conformance
