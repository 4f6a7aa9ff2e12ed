// Copyright mxcts authors.
//
// Conformance: the errors of mcStreamWaitEvent (docs/spec/api-stream.md,
// "Waiting on events"): flags other than 0, and an event handle that names
// no live event. A refused wait adds no dependency: in the deferred
// timeline mode, where a wait runs only what it needs, the stream's later
// work then runs without the event's work (each such check runs in a
// fresh process), while the control, the same wait with flags 0, makes it
// wait. Bad stream handles are in stream_handle_test.cc.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/api/testing/bad_handles.h"
#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Records an event in a non-blocking stream after pending work, then waits
// for it in another with `flags`; checks the result and what the waiting
// stream's synchronization ran. `recorded` false: the event is never
// recorded.
std::string WaitWithFlags(unsigned flags, bool recorded) {
  const bool held = HoldsWorkUntilWaited();
  std::string problems;
  TestStream recording(StreamKind::kNonBlocking);
  TestStream waiting(StreamKind::kNonBlocking);
  mcEvent_t event = nullptr;
  problems += Expect("creating the streams", recording.status(), mcSuccess);
  problems += Expect("creating the streams", waiting.status(), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
  if (!problems.empty()) return problems;
  OrderLog log;
  log.Append(recording.get(), "captured");
  if (recorded) {
    problems += Expect("mcEventRecord", mcEventRecord(event, recording.get()),
                       mcSuccess);
  }
  const mcError_t expected = flags == 0 ? mcSuccess : mcErrorInvalidValue;
  problems += Expect("mcStreamWaitEvent",
                     mcStreamWaitEvent(waiting.get(), event, flags), expected);
  problems += Expect("mcGetLastError", mcGetLastError(), expected);
  log.Append(waiting.get(), "waiter");
  problems += Expect("mcStreamSynchronize", mcStreamSynchronize(waiting.get()),
                     mcSuccess);
  const bool waits = flags == 0 && recorded;
  if (held) {
    problems += ExpectLog("after the waiting stream's synchronization", log,
                          waits ? "captured waiter" : "waiter");
  } else if (log.PositionOf("waiter") < 0 ||
             (waits &&
              (log.PositionOf("captured") < 0 ||
               log.PositionOf("captured") > log.PositionOf("waiter")))) {
    // Without the timeline modes, work nothing waited for may have run:
    // only the order a wait imposes is checked.
    problems += "after the waiting stream's synchronization: the log is '" +
                log.Joined() + "'; ";
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  mcEventDestroy(event);
  return problems;
}

using FlagsCase = std::tuple<unsigned, bool>;

std::string FlagsCaseName(const testing::TestParamInfo<FlagsCase>& info) {
  return "Flags" + HexName(std::get<0>(info.param)) +
         (std::get<1>(info.param) ? "_Recorded" : "_Unrecorded");
}

class WaitFlags : public DeferredModeTest<testing::TestWithParam<FlagsCase>> {};

TEST_P(WaitFlags, NonzeroFlagsAreInvalidValueAndAddNoWait) {
  MX_SPEC("api.stream.wait-event.nonzero-flags-is-invalid-value",
          "api.stream.wait-event.default-flag-is-zero",
          "api.stream.wait-event.delays-later-work",
          "api.error.last.recorded-on-failure");
  MX_EXPECT_IN_FRESH_PROCESS(
      WaitWithFlags(std::get<0>(GetParam()), std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(Flags, WaitFlags,
                         testing::Combine(testing::Values(0u, 1u, 2u, 4u, 0x80u,
                                                          0x80000000u,
                                                          0xffffffffu),
                                          testing::Bool()),
                         FlagsCaseName);

using EventCase = std::tuple<BadEvent, StreamKind>;

std::string EventCaseName(const testing::TestParamInfo<EventCase>& info) {
  return std::string(BadEventName(std::get<0>(info.param))) + "_" +
         StreamKindName(std::get<1>(info.param));
}

class WaitInvalidEvent : public testing::TestWithParam<EventCase> {};

TEST_P(WaitInvalidEvent, IsInvalidResourceHandle) {
  MX_SPEC("api.stream.wait-event.invalid-event-is-invalid-resource-handle",
          "api.error.last.recorded-on-failure");
  TestStream stream(std::get<1>(GetParam()));
  ASSERT_EQ(stream.status(), mcSuccess);
  InvalidEvent event(std::get<0>(GetParam()), stream.get());
  ASSERT_EQ(event.status(), mcSuccess);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcStreamWaitEvent(stream.get(), event.get(), 0),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // The stream goes on working; control: a live event is accepted.
  mcEvent_t live = nullptr;
  ASSERT_EQ(mcEventCreate(&live), mcSuccess);
  ASSERT_EQ(mcEventRecord(live, stream.get()), mcSuccess);
  EXPECT_EQ(mcStreamWaitEvent(stream.get(), live, 0), mcSuccess);
  OrderLog log;
  ASSERT_EQ(log.Append(stream.get(), "later"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
  EXPECT_EQ(log.Joined(), "later");
  EXPECT_EQ(mcEventDestroy(live), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Events, WaitInvalidEvent,
    testing::Combine(testing::Values(BadEvent::kNull, BadEvent::kDestroyed,
                                     BadEvent::kNotAnEvent,
                                     BadEvent::kStreamHandle),
                     testing::ValuesIn(kAllStreamKinds)),
    EventCaseName);

}  // namespace
}  // namespace mxcts::conformance
