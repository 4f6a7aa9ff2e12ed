// Copyright mxcts authors.
//
// Conformance: stream callbacks and host functions behind a kernel that
// faults (docs/spec/api-stream.md, "Stream callbacks", "Host functions";
// api-errors.md, sticky errors). The same for an event: event/execution/
// event_fault_test.cc.
//
// A callback is still called when earlier work failed, with the failure as
// its status; a host function, and all other later work, is not run; the
// waits that cover the failed work report it. The fault must happen after
// the callback was enqueued, so each program runs in a fresh process in the
// deferred timeline mode, where the kernel runs only when the host waits
// (in eager mode it would fault at its launch, and the device would then
// refuse the callback). The fault is a failed device assert, sticky
// afterwards (MX_EXPECT_TRAP). The control is the same program whose
// kernel passes its assert: every callback gets mcSuccess and every host
// function runs.

#include <assert.h>
#include <mc_runtime.h>

#include <cstdio>
#include <string>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/order_log.h"
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

__global__ void Store(int* cell, int value) { *cell = value; }

// The program: a kernel that fails its assert when `fault`, then a
// callback, a host function, a kernel and a second callback in a stream of
// `kind` on `device`; then it synchronizes the stream. Returns what the
// synchronization returned if the callbacks and host function behaved,
// else mcErrorUnknown (saying why on stderr). Leaves `device` current, so
// that the sticky check of MX_EXPECT_TRAP looks at the faulted device.
mcError_t FaultThenCallbacks(StreamKind kind, int device, bool fault) {
  const bool held = HoldsWorkUntilWaited();
  std::string problems;
  problems += Expect("mcSetDevice", mcSetDevice(device), mcSuccess);
  TestStream* stream = new TestStream(kind);  // outlives the sticky check
  problems += Expect("creating the stream", stream->status(), mcSuccess);
  int* cell = nullptr;
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  if (!problems.empty()) {
    std::fprintf(stderr, "%s\n", problems.c_str());
    return mcErrorUnknown;
  }
  *cell = 0;
  OrderLog log;
  CheckFlag<<<1, 1, 0, stream->get()>>>(fault ? 1 : 0);
  problems += Expect("the launch", mcGetLastError(), mcSuccess);
  problems += Expect("mcStreamAddCallback",
                     log.AppendCallback(stream->get(), "callback"), mcSuccess);
  problems +=
      Expect("mcLaunchHostFunc", log.Append(stream->get(), "host"), mcSuccess);
  Store<<<1, 1, 0, stream->get()>>>(cell, 1);
  problems += Expect("mcStreamAddCallback",
                     log.AppendCallback(stream->get(), "callback2"), mcSuccess);
  // Only the deferred timeline holds the work back until the wait.
  if (held && log.size() != 0) {
    problems += "work ran before the wait; ";
  }
  const mcError_t result = mcStreamSynchronize(stream->get());
  const mcError_t expected = fault ? mcErrorAssert : mcSuccess;
  problems += Expect("mcStreamSynchronize", result, expected);
  problems +=
      ExpectLog("after mcStreamSynchronize", log,
                fault ? "callback callback2" : "callback host callback2");
  for (mcError_t status : log.callback_statuses()) {
    problems += Expect("a callback's status", status, expected);
  }
  if (log.callback_statuses().size() != 2) {
    problems += "the callbacks ran " +
                std::to_string(log.callback_statuses().size()) +
                " times, expected 2; ";
  }
  if (*cell != (fault ? 0 : 1)) {
    problems +=
        "the kernel after the callbacks left " + std::to_string(*cell) + "; ";
  }
  if (!problems.empty()) {
    std::fprintf(stderr, "%s\n", problems.c_str());
    return mcErrorUnknown;
  }
  return result;
}

class CallbackAfterFault : public DeferredModeTest<KindOnDeviceTest> {};

TEST_P(CallbackAfterFault, CallbackGetsTheFaultHostFunctionDoesNotRun) {
  MX_SPEC("api.callback.add.status-reports-prior-failure",
          "api.callback.add.runs-exactly-once",
          "api.callback.host-func.not-called-after-error",
          "api.error.sticky.work-not-executed",
          "api.stream.synchronize.reports-async-errors");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_TRAP(FaultThenCallbacks(kind(), device(), true), mcErrorAssert,
                 "Assertion 'fail == 0' failed");
}

TEST_P(CallbackAfterFault, ControlWithoutFaultRunsEverything) {
  MX_SPEC("api.callback.add.status-reports-prior-failure",
          "api.callback.host-func.runs-in-stream-order");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(
      FaultThenCallbacks(kind(), device(), false) == mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(KindsAndDevices, CallbackAfterFault,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(0, 1)),
                         KindOnDeviceName);

}  // namespace
}  // namespace mxcts::conformance
