// Copyright mxcts authors.
//
// Conformance: the errors of mcEventElapsedTime (docs/spec/api-event.md,
// "Elapsed time"): a null output, an event never recorded, a record not
// yet complete, an event without timing, events of two devices, and bad
// handles. Each returns its error, records it as the last error (all but
// mcErrorNotReady) and leaves the output as it was. The control beside
// each is the same pair of events made good, which gives a time.
//
// A record that has not completed exists only while device work waits to
// run: that check runs in a fresh process in the deferred timeline mode,
// where nothing runs until the host waits, with the records behind a host
// gate (host_gate.h) that the test opens only after its queries, so they
// are pending where device work runs at once too. That the query ran none
// of the pending work is checked only where work waits for the host
// (HoldsWorkUntilWaited); elsewhere it may have run by itself.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/api/testing/bad_handles.h"
#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/host_gate.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr float kSentinel = -12345.0f;

// Which of the two events is broken.
enum class Which { kStart, kEnd, kBoth };

const char* WhichName(Which which) {
  switch (which) {
    case Which::kStart:
      return "Start";
    case Which::kEnd:
      return "End";
    case Which::kBoth:
      return "Both";
  }
  return "Unknown";
}

bool BreaksStart(Which which) { return which != Which::kEnd; }
bool BreaksEnd(Which which) { return which != Which::kStart; }

std::string WhichParamName(const testing::TestParamInfo<Which>& info) {
  return WhichName(info.param);
}

mcEvent_t Created(unsigned flags) {
  mcEvent_t event = nullptr;
  EXPECT_EQ(mcEventCreateWithFlags(&event, flags), mcSuccess);
  return event;
}

mcEvent_t Recorded(unsigned flags = mcEventDefault) {
  mcEvent_t event = Created(flags);
  EXPECT_EQ(mcEventRecord(event, nullptr), mcSuccess);
  EXPECT_EQ(mcEventSynchronize(event), mcSuccess);
  return event;
}

// Expects `error` with the output untouched, recorded as the last error.
void ExpectRefused(mcEvent_t start, mcEvent_t end, mcError_t error) {
  float ms = kSentinel;
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcEventElapsedTime(&ms, start, end), error);
  EXPECT_EQ(ms, kSentinel) << "the output was written";
  EXPECT_EQ(mcGetLastError(), error);
}

void ExpectTime(mcEvent_t start, mcEvent_t end) {
  float ms = kSentinel;
  EXPECT_EQ(mcEventElapsedTime(&ms, start, end), mcSuccess);
  EXPECT_GE(ms, 0.0f);
}

TEST(ElapsedTime, NullOutputIsInvalidValue) {
  MX_SPEC("api.event.elapsed-time.null-output-is-invalid-value");
  mcEvent_t start = Recorded();
  mcEvent_t end = Recorded();
  EXPECT_EQ(mcEventElapsedTime(nullptr, start, end), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  ExpectTime(start, end);  // the control
  mcEventDestroy(start);
  mcEventDestroy(end);
}

TEST(ElapsedTime, NullOutputComesBeforeHandleChecks) {
  MX_SPEC("api.event.elapsed-time.null-output-is-invalid-value");
  EXPECT_EQ(mcEventElapsedTime(nullptr, nullptr, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
}

class Unrecorded : public testing::TestWithParam<Which> {};

TEST_P(Unrecorded, IsInvalidResourceHandle) {
  MX_SPEC("api.event.elapsed-time.unrecorded-is-invalid-resource-handle");
  mcEvent_t start = BreaksStart(GetParam()) ? Created(0) : Recorded();
  mcEvent_t end = BreaksEnd(GetParam()) ? Created(0) : Recorded();
  ExpectRefused(start, end, mcErrorInvalidResourceHandle);
  // Control: once recorded, the pair has a time.
  for (mcEvent_t event : {start, end}) {
    ASSERT_EQ(mcEventRecord(event, nullptr), mcSuccess);
    ASSERT_EQ(mcEventSynchronize(event), mcSuccess);
  }
  ExpectTime(start, end);
  mcEventDestroy(start);
  mcEventDestroy(end);
}

INSTANTIATE_TEST_SUITE_P(Events, Unrecorded,
                         testing::Values(Which::kStart, Which::kEnd,
                                         Which::kBoth),
                         WhichParamName);

class TimingDisabled : public testing::TestWithParam<Which> {};

TEST_P(TimingDisabled, IsInvalidResourceHandle) {
  MX_SPEC("api.event.elapsed-time.disable-timing-is-invalid-resource-handle",
          "api.event.create-with-flags.disable-timing-no-timestamps");
  mcEvent_t start =
      Recorded(BreaksStart(GetParam()) ? mcEventDisableTiming : mcEventDefault);
  mcEvent_t end =
      Recorded(BreaksEnd(GetParam()) ? mcEventDisableTiming : mcEventDefault);
  ExpectRefused(start, end, mcErrorInvalidResourceHandle);
  // Control: timed events recorded the same way have a time.
  mcEvent_t timed_start = Recorded();
  mcEvent_t timed_end = Recorded();
  ExpectTime(timed_start, timed_end);
  for (mcEvent_t event : {start, end, timed_start, timed_end}) {
    mcEventDestroy(event);
  }
}

INSTANTIATE_TEST_SUITE_P(Events, TimingDisabled,
                         testing::Values(Which::kStart, Which::kEnd,
                                         Which::kBoth),
                         WhichParamName);

class DifferentDevices : public testing::TestWithParam<Which> {};

TEST_P(DifferentDevices, IsInvalidResourceHandle) {
  MX_SPEC("api.event.elapsed-time.different-devices-fails");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  // kBoth: both on device 1, the control.
  mcEvent_t start = nullptr;
  mcEvent_t end = nullptr;
  {
    ScopedDevice on(BreaksStart(GetParam()) ? 1 : 0);
    start = Recorded();
  }
  {
    ScopedDevice on(BreaksEnd(GetParam()) ? 1 : 0);
    end = Recorded();
  }
  if (GetParam() == Which::kBoth) {
    ExpectTime(start, end);
  } else {
    ExpectRefused(start, end, mcErrorInvalidResourceHandle);
  }
  mcEventDestroy(start);
  mcEventDestroy(end);
}

INSTANTIATE_TEST_SUITE_P(Events, DifferentDevices,
                         testing::Values(Which::kStart, Which::kEnd,
                                         Which::kBoth),
                         WhichParamName);

using HandleCase = std::tuple<BadEvent, Which>;

std::string HandleCaseName(const testing::TestParamInfo<HandleCase>& info) {
  return std::string(BadEventName(std::get<0>(info.param))) + "_" +
         WhichName(std::get<1>(info.param));
}

class InvalidHandle : public testing::TestWithParam<HandleCase> {};

TEST_P(InvalidHandle, IsInvalidResourceHandle) {
  MX_SPEC("api.event.elapsed-time.invalid-handle-is-invalid-resource-handle");
  const auto [bad, which] = GetParam();
  mcEvent_t good = Recorded();
  InvalidEvent invalid(bad);
  ASSERT_EQ(invalid.status(), mcSuccess);
  const mcEvent_t broken = invalid.get();
  ExpectRefused(BreaksStart(which) ? broken : good,
                BreaksEnd(which) ? broken : good, mcErrorInvalidResourceHandle);
  ExpectTime(good, good);  // the control
  mcEventDestroy(good);
}

INSTANTIATE_TEST_SUITE_P(
    Handles, InvalidHandle,
    testing::Combine(testing::Values(BadEvent::kNull, BadEvent::kDestroyed,
                                     BadEvent::kNotAnEvent),
                     testing::Values(Which::kStart, Which::kEnd, Which::kBoth)),
    HandleCaseName);

// In a deferred-mode process: the broken events' records wait behind a
// host function; elapsed time is mcErrorNotReady (not the last error)
// until they complete.
std::string NotReadyUntilComplete(Which which) {
  const bool held = HoldsWorkUntilWaited();
  std::string problems;
  TestStream stream(StreamKind::kNonBlocking);
  mcEvent_t start = nullptr;
  mcEvent_t end = nullptr;
  problems += Expect("creating the stream", stream.status(), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&start), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&end), mcSuccess);
  if (!problems.empty()) return problems;
  OrderLog log;
  // The events not broken are recorded and complete first.
  if (!BreaksStart(which)) mcEventRecord(start, stream.get());
  if (!BreaksEnd(which)) mcEventRecord(end, stream.get());
  problems += Expect("mcStreamSynchronize", mcStreamSynchronize(stream.get()),
                     mcSuccess);
  log.Append(stream.get(), "pending");
  HostGate gate;
  gate.Hold(stream.get());
  if (BreaksStart(which)) mcEventRecord(start, stream.get());
  if (BreaksEnd(which)) mcEventRecord(end, stream.get());
  float ms = kSentinel;
  problems += Expect("mcEventElapsedTime of a pending record",
                     mcEventElapsedTime(&ms, start, end), mcErrorNotReady);
  if (ms != kSentinel) problems += "the output was written; ";
  if (held && log.size() != 0) problems += "mcEventElapsedTime ran work; ";
  problems += Expect("mcGetLastError after mcErrorNotReady", mcGetLastError(),
                     mcSuccess);
  // Control: once the records complete there is a time.
  gate.Open();
  problems += Expect("mcStreamSynchronize", mcStreamSynchronize(stream.get()),
                     mcSuccess);
  if (!gate.ReleasedInTime()) problems += "the gate ran out its bound; ";
  problems += Expect("mcEventElapsedTime once complete",
                     mcEventElapsedTime(&ms, start, end), mcSuccess);
  mcEventDestroy(start);
  mcEventDestroy(end);
  return problems;
}

class NotReady : public DeferredModeTest<testing::TestWithParam<Which>> {};

TEST_P(NotReady, IncompleteRecordIsNotReady) {
  MX_SPEC("api.event.elapsed-time.incomplete-is-not-ready",
          "api.error.last.not-ready-not-recorded");
  MX_EXPECT_IN_FRESH_PROCESS(NotReadyUntilComplete(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Events, NotReady,
                         testing::Values(Which::kStart, Which::kEnd,
                                         Which::kBoth),
                         WhichParamName);

// In a deferred-mode process: events without timing whose records wait
// behind a host function. Elapsed time refuses them for their flag, not
// as mcErrorNotReady: the flag is checked whether or not the records have
// completed.
std::string UntimedRefusedBeforeComplete(Which which) {
  const bool held = HoldsWorkUntilWaited();
  std::string problems;
  TestStream stream(StreamKind::kNonBlocking);
  problems += Expect("creating the stream", stream.status(), mcSuccess);
  if (!problems.empty()) return problems;
  mcEvent_t events[4] = {};
  const unsigned start_flags =
      BreaksStart(which) ? mcEventDisableTiming : mcEventDefault;
  const unsigned end_flags =
      BreaksEnd(which) ? mcEventDisableTiming : mcEventDefault;
  const unsigned flags[4] = {start_flags, end_flags, mcEventDefault,
                             mcEventDefault};
  for (int i = 0; i < 4; ++i) {
    problems += Expect("mcEventCreateWithFlags",
                       mcEventCreateWithFlags(&events[i], flags[i]), mcSuccess);
  }
  if (!problems.empty()) return problems;
  OrderLog log;
  log.Append(stream.get(), "pending");
  HostGate gate;
  gate.Hold(stream.get());
  for (mcEvent_t event : events) mcEventRecord(event, stream.get());
  float ms = kSentinel;
  problems += Expect("mcEventElapsedTime of pending records without timing",
                     mcEventElapsedTime(&ms, events[0], events[1]),
                     mcErrorInvalidResourceHandle);
  problems +=
      Expect("mcGetLastError", mcGetLastError(), mcErrorInvalidResourceHandle);
  // Control: timed events recorded in the same place are still pending.
  problems +=
      Expect("mcEventElapsedTime of pending timed records",
             mcEventElapsedTime(&ms, events[2], events[3]), mcErrorNotReady);
  if (ms != kSentinel) problems += "the output was written; ";
  if (held && log.size() != 0) problems += "mcEventElapsedTime ran work; ";
  gate.Open();
  problems += Expect("mcStreamSynchronize", mcStreamSynchronize(stream.get()),
                     mcSuccess);
  if (!gate.ReleasedInTime()) problems += "the gate ran out its bound; ";
  problems += Expect("mcEventElapsedTime of complete records without timing",
                     mcEventElapsedTime(&ms, events[0], events[1]),
                     mcErrorInvalidResourceHandle);
  for (mcEvent_t event : events) mcEventDestroy(event);
  return problems;
}

class UntimedPending : public DeferredModeTest<testing::TestWithParam<Which>> {
};

TEST_P(UntimedPending, IsInvalidResourceHandleNotNotReady) {
  MX_SPEC("api.event.elapsed-time.disable-timing-is-invalid-resource-handle",
          "api.event.elapsed-time.incomplete-is-not-ready");
  MX_EXPECT_IN_FRESH_PROCESS(UntimedRefusedBeforeComplete(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Events, UntimedPending,
                         testing::Values(Which::kStart, Which::kEnd,
                                         Which::kBoth),
                         WhichParamName);

}  // namespace
}  // namespace mxcts::conformance
