// Copyright mxcts authors.
//
// Conformance: what an event's record does and does not capture, and what
// a wait on it does and does not wait for, where the difference shows: in
// the deferred timeline mode, whose waits and polls run only the work they
// need (docs/spec/api-event.md; api-stream.md, "Waiting on events";
// api-synchronization.md, "When device work runs").
//
// Each check runs in a fresh process with MXCTS_TIMELINE=deferred, and
// logs host functions: after a wait the log holds exactly the work the
// wait was ordered after. Where a check shows that something is *not*
// waited for, its twin beside it shows the wait when there is one.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Runs `program(stream, event, log)` with `device` current, a stream of
// `kind` on it, a new event (the program destroys it) and a log; returns
// the problems of the setup or those the program returns.
template <typename Program>
std::string WithStreamAndEvent(StreamKind kind, int device, Program program) {
  HoldsWorkUntilWaited();  // decided before any work (the programs ask)
  ScopedDevice on(device);
  TestStream stream(kind);
  mcEvent_t event = nullptr;
  std::string problems =
      Expect("creating the stream", stream.status(), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
  if (!problems.empty()) return problems;
  OrderLog log;
  return program(stream, event, log);
}

// Work, a record, more work; then the event's query and synchronization.
std::string RecordCapturesOnlyEarlierWork(const TestStream& stream,
                                          mcEvent_t event, OrderLog& log) {
  std::string problems;
  problems +=
      Expect("mcLaunchHostFunc", log.Append(stream.get(), "a"), mcSuccess);
  problems +=
      Expect("mcLaunchHostFunc", log.Append(stream.get(), "b"), mcSuccess);
  problems +=
      Expect("mcEventRecord", mcEventRecord(event, stream.get()), mcSuccess);
  problems +=
      Expect("mcLaunchHostFunc", log.Append(stream.get(), "later1"), mcSuccess);
  problems +=
      Expect("mcLaunchHostFunc", log.Append(stream.get(), "later2"), mcSuccess);
  // Where work runs as soon as it can, none of it need still be pending:
  // the checks that it is apply where it is held until waited for.
  const bool held = HoldsWorkUntilWaited();
  if (held) problems += ExpectLog("after the record", log, "");
  // A poll runs one piece of the captured work and reports it pending;
  // that is a status, not the last error.
  const mcError_t first_query = mcEventQuery(event);
  if (held || first_query != mcSuccess) {
    problems += Expect("the first mcEventQuery", first_query, mcErrorNotReady);
  }
  problems += Expect("mcGetLastError after mcErrorNotReady", mcGetLastError(),
                     mcSuccess);
  problems +=
      Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  if (held) {
    problems += ExpectLog("after mcEventSynchronize", log, "a b");
  } else if (log.PositionOf("a") != 0 || log.PositionOf("b") != 1) {
    problems += "after mcEventSynchronize: the log is '" + log.Joined() +
                "', expected it to begin 'a b'; ";
  }
  problems +=
      Expect("mcEventQuery once complete", mcEventQuery(event), mcSuccess);
  if (held) {
    problems += Expect("mcStreamQuery with later work",
                       mcStreamQuery(stream.get()), mcErrorNotReady);
  }
  problems += Expect("mcStreamSynchronize", mcStreamSynchronize(stream.get()),
                     mcSuccess);
  problems += ExpectLog("after mcStreamSynchronize", log, "a b later1 later2");
  mcEventDestroy(event);
  return problems;
}

// A completed record, then more work and a second record: the event now
// stands for the second.
std::string RerecordIsPendingAgain(const TestStream& stream, mcEvent_t event,
                                   OrderLog& log) {
  std::string problems;
  log.Append(stream.get(), "first");
  problems +=
      Expect("mcEventRecord", mcEventRecord(event, stream.get()), mcSuccess);
  problems +=
      Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  problems += Expect("mcEventQuery", mcEventQuery(event), mcSuccess);
  log.Append(stream.get(), "second");
  log.Append(stream.get(), "third");
  problems += Expect("mcEventRecord again", mcEventRecord(event, stream.get()),
                     mcSuccess);
  if (HoldsWorkUntilWaited()) {  // else the new work may be done already
    problems += Expect("mcEventQuery after the new record", mcEventQuery(event),
                       mcErrorNotReady);
  }
  problems +=
      Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  problems += ExpectLog("after the second wait", log, "first second third");
  mcEventDestroy(event);
  return problems;
}

// Destroying an event whose record is pending returns at once; a stream
// that waits on it still waits.
std::string DestroyPendingEvent(const TestStream& stream, mcEvent_t event,
                                OrderLog& log) {
  TestStream waiting(StreamKind::kNonBlocking);
  std::string problems =
      Expect("creating the waiting stream", waiting.status(), mcSuccess);
  if (!problems.empty()) return problems;
  log.Append(stream.get(), "captured");
  problems +=
      Expect("mcEventRecord", mcEventRecord(event, stream.get()), mcSuccess);
  problems += Expect("mcStreamWaitEvent",
                     mcStreamWaitEvent(waiting.get(), event, 0), mcSuccess);
  problems += Expect("mcEventDestroy", mcEventDestroy(event), mcSuccess);
  if (HoldsWorkUntilWaited()) {  // else the work may have run already
    problems += ExpectLog("after mcEventDestroy", log, "");
  }
  problems += Expect("mcEventQuery of the destroyed event", mcEventQuery(event),
                     mcErrorInvalidResourceHandle);
  log.Append(waiting.get(), "waiter");
  problems += Expect("mcStreamSynchronize", mcStreamSynchronize(waiting.get()),
                     mcSuccess);
  problems += ExpectLog("after the waiter's wait", log, "captured waiter");
  mcGetLastError();
  return problems;
}

class EventDeferred : public DeferredModeTest<KindOnDeviceTest> {};

TEST_P(EventDeferred, RecordCapturesOnlyEarlierWork) {
  MX_SPEC("api.event.record.captures-stream-work",
          "api.event.query.not-ready-when-pending",
          "api.event.query.success-when-complete",
          "api.event.synchronize.waits-for-captured-work",
          "api.error.last.not-ready-not-recorded",
          "api.stream.query.not-ready-when-pending");
  MX_EXPECT_IN_FRESH_PROCESS(
      WithStreamAndEvent(kind(), device(), RecordCapturesOnlyEarlierWork));
}

TEST_P(EventDeferred, RerecordIsPendingAgain) {
  MX_SPEC("api.event.record.rerecord-overwrites",
          "api.event.query.not-ready-when-pending");
  MX_EXPECT_IN_FRESH_PROCESS(
      WithStreamAndEvent(kind(), device(), RerecordIsPendingAgain));
}

TEST_P(EventDeferred, DestroyWithPendingRecordReturnsAtOnce) {
  MX_SPEC("api.event.destroy.pending-record-completes",
          "api.event.destroy.releases-event");
  MX_EXPECT_IN_FRESH_PROCESS(
      WithStreamAndEvent(kind(), device(), DestroyPendingEvent));
}

INSTANTIATE_TEST_SUITE_P(KindsAndDevices, EventDeferred,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(0, 1)),
                         KindOnDeviceName);

// What a wait of a stream of `waiting_kind` (device 0) on an event of
// `recording_device` waits for.
enum class WaitShape {
  kRecorded,    // the control: the waiter runs after the captured work
  kUnrecorded,  // a wait on an event never recorded waits for nothing
  kNoWait,      // no wait at all: nothing orders the two streams
  kRerecorded,  // a later record does not extend the earlier wait
};

const char* WaitShapeName(WaitShape shape) {
  switch (shape) {
    case WaitShape::kRecorded:
      return "Recorded";
    case WaitShape::kUnrecorded:
      return "Unrecorded";
    case WaitShape::kNoWait:
      return "NoWait";
    case WaitShape::kRerecorded:
      return "Rerecorded";
  }
  return "Unknown";
}

// What a backend without the timeline modes must show after the waiting
// stream's synchronization: the waiter ran, after the captured work if it
// waited for it. Work nothing waited for may have run or not.
std::string ExpectWaitOrder(const OrderLog& log, bool waits) {
  const int waiter = log.PositionOf("waiter");
  const int captured = log.PositionOf("captured");
  if (waiter < 0 || (waits && (captured < 0 || captured > waiter))) {
    return "after the waiting stream's synchronization: the log is '" +
           log.Joined() + "', expected " +
           (waits ? "'captured' before 'waiter'" : "'waiter'") + "; ";
  }
  return "";
}

std::string RunWaitShape(WaitShape shape, StreamKind waiting_kind,
                         int recording_device) {
  const bool held = HoldsWorkUntilWaited();
  std::string problems;
  TestStream waiting(waiting_kind);
  problems +=
      Expect("creating the waiting stream", waiting.status(), mcSuccess);
  ScopedDevice recording_on(recording_device);
  // A non-blocking recording stream: the legacy stream orders nothing.
  TestStream recording(StreamKind::kNonBlocking);
  mcEvent_t event = nullptr;
  problems +=
      Expect("creating the recording stream", recording.status(), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
  if (!problems.empty()) return problems;
  OrderLog log;
  log.Append(recording.get(), "captured");
  if (shape != WaitShape::kUnrecorded) {
    problems += Expect("mcEventRecord", mcEventRecord(event, recording.get()),
                       mcSuccess);
  }
  {
    ScopedDevice waiting_on(0);
    if (shape != WaitShape::kNoWait) {
      problems += Expect("mcStreamWaitEvent",
                         mcStreamWaitEvent(waiting.get(), event, 0), mcSuccess);
    }
  }
  if (shape == WaitShape::kRerecorded) {
    log.Append(recording.get(), "later");
    problems += Expect("mcEventRecord again",
                       mcEventRecord(event, recording.get()), mcSuccess);
  }
  {
    ScopedDevice waiting_on(0);
    log.Append(waiting.get(), "waiter");
    problems += Expect("mcStreamSynchronize of the waiting stream",
                       mcStreamSynchronize(waiting.get()), mcSuccess);
  }
  const bool waits =
      shape == WaitShape::kRecorded || shape == WaitShape::kRerecorded;
  if (held) {
    problems += ExpectLog("after the waiting stream's synchronization", log,
                          waits ? "captured waiter" : "waiter");
  } else {
    problems += ExpectWaitOrder(log, waits);
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  mcEventDestroy(event);
  return problems;
}

// (shape, waiting stream's kind, recording device)
using WaitCase = std::tuple<WaitShape, StreamKind, int>;

std::string WaitCaseName(const testing::TestParamInfo<WaitCase>& info) {
  return std::string(WaitShapeName(std::get<0>(info.param))) + "_Wait" +
         StreamKindName(std::get<1>(info.param)) + "_Device" +
         std::to_string(std::get<2>(info.param));
}

class WaitDeferred : public DeferredModeTest<testing::TestWithParam<WaitCase>> {
};

TEST_P(WaitDeferred, WaiterRunsAfterExactlyWhatItWaitsFor) {
  MX_SPEC("api.stream.wait-event.delays-later-work",
          "api.stream.wait-event.snapshot-at-call",
          "api.stream.wait-event.unrecorded-event-is-no-op",
          "api.stream.wait-event.cross-device",
          "api.stream.model.no-order-between-streams");
  const auto [shape, waiting_kind, recording_device] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", recording_device + 1);
  MX_EXPECT_IN_FRESH_PROCESS(
      RunWaitShape(shape, waiting_kind, recording_device));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, WaitDeferred,
    testing::Combine(testing::Values(WaitShape::kRecorded,
                                     WaitShape::kUnrecorded, WaitShape::kNoWait,
                                     WaitShape::kRerecorded),
                     testing::Values(StreamKind::kNonBlocking,
                                     StreamKind::kBlocking,
                                     StreamKind::kPerThread, StreamKind::kZero),
                     testing::Values(0, 1)),
    WaitCaseName);

}  // namespace
}  // namespace mxcts::conformance
