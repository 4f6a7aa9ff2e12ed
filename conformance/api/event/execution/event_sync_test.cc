// Copyright mxcts authors.
//
// Conformance: what events capture, and what querying, synchronizing,
// re-recording, timing and destroying them do, for every kind of stream on
// every device and every accepted flag (docs/spec/api-event.md).
//
// These results hold in every timeline mode (the target also runs as
// _deferred and _shuffle). The checks that need a record still pending
// (mcErrorNotReady, a destroy that returns before the work) are in
// event_deferred_test.cc, in fresh processes of the deferred mode.

#include <mc_runtime.h>

#include <set>
#include <string>
#include <vector>

#include "conformance/api/testing/follow_kernel.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// The busy interval the timing checks enclose, and the resolution of
// mcEventElapsedTime [api.event.elapsed-time.resolution].
constexpr int kBusyMilliseconds = 20;
constexpr float kResolutionMilliseconds = 0.0005f;

// A stream of the parameter's kind on its device, which is current, a
// managed cell holding 0, and an event.
class EventOnStream : public StreamOnDeviceTest {
 protected:
  void SetUp() override {
    StreamOnDeviceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_EQ(mcEventCreate(&event_), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (event_ != nullptr) mcEventDestroy(event_);
    StreamOnDeviceTest::TearDown();
  }

  mcEvent_t event_ = nullptr;
};

TEST_P(EventOnStream, SynchronizeWaitsForTheCapturedWork) {
  MX_SPEC("api.event.record.captures-stream-work",
          "api.event.synchronize.waits-for-captured-work",
          "api.event.query.success-when-complete",
          "api.event.create.default-event");
  OrderLog log;
  Follow<<<1, 1, 0, stream()>>>(cell(), 0, 1);
  ASSERT_EQ(log.Append(stream(), "captured"), mcSuccess);
  ASSERT_EQ(mcEventRecord(event_, stream()), mcSuccess);
  ASSERT_EQ(mcEventSynchronize(event_), mcSuccess);
  EXPECT_EQ(*cell(), 1);
  EXPECT_EQ(log.Joined(), "captured");
  EXPECT_EQ(mcEventQuery(event_), mcSuccess);
}

TEST_P(EventOnStream, RerecordRefersToTheLatestRecord) {
  MX_SPEC("api.event.record.rerecord-overwrites",
          "api.event.synchronize.waits-for-captured-work");
  Follow<<<1, 1, 0, stream()>>>(cell(), 0, 1);
  ASSERT_EQ(mcEventRecord(event_, stream()), mcSuccess);
  ASSERT_EQ(mcEventSynchronize(event_), mcSuccess);
  ASSERT_EQ(*cell(), 1);
  Follow<<<1, 1, 0, stream()>>>(cell(), 1, 2);
  ASSERT_EQ(mcEventRecord(event_, stream()), mcSuccess);
  ASSERT_EQ(mcEventSynchronize(event_), mcSuccess);
  EXPECT_EQ(*cell(), 2);
  EXPECT_EQ(mcEventQuery(event_), mcSuccess);
}

TEST_P(EventOnStream, ElapsedTimeCoversABusyHostFunction) {
  MX_SPEC("api.event.elapsed-time.milliseconds",
          "api.event.elapsed-time.resolution");
  mcEvent_t middle = nullptr;
  mcEvent_t end = nullptr;
  ASSERT_EQ(mcEventCreate(&middle), mcSuccess);
  ASSERT_EQ(mcEventCreate(&end), mcSuccess);
  int busy = kBusyMilliseconds;
  ASSERT_EQ(mcEventRecord(event_, stream()), mcSuccess);
  ASSERT_EQ(mcLaunchHostFunc(stream(), SleepFor, &busy), mcSuccess);
  ASSERT_EQ(mcEventRecord(middle, stream()), mcSuccess);
  ASSERT_EQ(mcEventRecord(end, stream()), mcSuccess);
  ASSERT_EQ(mcEventSynchronize(end), mcSuccess);
  float enclosing = -1;
  float adjacent = -1;
  float whole = -1;
  ASSERT_EQ(mcEventElapsedTime(&enclosing, event_, middle), mcSuccess);
  ASSERT_EQ(mcEventElapsedTime(&adjacent, middle, end), mcSuccess);
  ASSERT_EQ(mcEventElapsedTime(&whole, event_, end), mcSuccess);
  EXPECT_GE(enclosing, kBusyMilliseconds - kResolutionMilliseconds);
  // Control: two records with nothing between them enclose no busy time.
  EXPECT_GE(adjacent, 0.0f);
  EXPECT_LT(adjacent, kBusyMilliseconds);
  EXPECT_GE(whole, enclosing);
  EXPECT_EQ(mcEventDestroy(middle), mcSuccess);
  EXPECT_EQ(mcEventDestroy(end), mcSuccess);
}

TEST_P(EventOnStream, DestroyedEventsWaitStillHolds) {
  MX_SPEC("api.event.destroy.pending-record-completes",
          "api.event.destroy.releases-event");
  TestStream waiting(StreamKind::kNonBlocking);
  ASSERT_EQ(waiting.status(), mcSuccess);
  OrderLog log;
  ASSERT_EQ(log.Append(stream(), "captured"), mcSuccess);
  Follow<<<1, 1, 0, stream()>>>(cell(), 0, 1);
  ASSERT_EQ(mcEventRecord(event_, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(waiting.get(), event_, 0), mcSuccess);
  ASSERT_EQ(mcEventDestroy(event_), mcSuccess);
  event_ = nullptr;
  Follow<<<1, 1, 0, waiting.get()>>>(cell(), 1, 2);
  ASSERT_EQ(log.Append(waiting.get(), "waiter"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(waiting.get()), mcSuccess);
  EXPECT_EQ(log.Joined(), "captured waiter");
  EXPECT_EQ(*cell(), 2);
}

TEST_P(EventOnStream, RecordWithFlagsBehavesAsRecord) {
  MX_SPEC("api.event.record-with-flags.default-flag",
          "api.event.record-with-flags.external-only-in-capture");
  EXPECT_EQ(mcEventRecordDefault, 0x00);
  Follow<<<1, 1, 0, stream()>>>(cell(), 0, 1);
  ASSERT_EQ(mcEventRecordWithFlags(event_, stream(), mcEventRecordDefault),
            mcSuccess);
  ASSERT_EQ(mcEventSynchronize(event_), mcSuccess);
  EXPECT_EQ(*cell(), 1);
  Follow<<<1, 1, 0, stream()>>>(cell(), 1, 2);
  ASSERT_EQ(mcEventRecordWithFlags(event_, stream(), mcEventRecordExternal),
            mcSuccess);
  ASSERT_EQ(mcEventSynchronize(event_), mcSuccess);
  EXPECT_EQ(*cell(), 2);
}

TEST_P(EventOnStream, QueryAndSynchronizeFromAnotherDevice) {
  MX_SPEC("api.event.synchronize.other-device",
          "api.peer.ownership.event-on-current");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  Follow<<<1, 1, 0, stream()>>>(cell(), 0, 1);
  ASSERT_EQ(mcEventRecord(event_, stream()), mcSuccess);
  ScopedDevice other(1 - device());
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(mcEventSynchronize(event_), mcSuccess);
  EXPECT_EQ(*cell(), 1);
  EXPECT_EQ(mcEventQuery(event_), mcSuccess);
  // The event stays its creating device's: a record into the legacy stream
  // of the now current device is refused.
  EXPECT_EQ(mcEventRecord(event_, nullptr), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
}

INSTANTIATE_TEST_SUITE_P(KindsAndDevices, EventOnStream,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(0, 1)),
                         KindOnDeviceName);

// Flags every accepted combination.
class EventFlags : public testing::TestWithParam<unsigned> {};

TEST_P(EventFlags, EventWorksLikeAnyOther) {
  MX_SPEC("api.event.create-with-flags.accepted-flags",
          "api.event.create-with-flags.disable-timing-no-timestamps",
          "api.event.query.unrecorded-is-success",
          "api.event.synchronize.unrecorded-returns-at-once");
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreateWithFlags(&event, GetParam()), mcSuccess);
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(mcEventQuery(event), mcSuccess);
  EXPECT_EQ(mcEventSynchronize(event), mcSuccess);
  TestStream stream(StreamKind::kNonBlocking);
  TestStream waiting(StreamKind::kNonBlocking);
  OrderLog log;
  ASSERT_EQ(log.Append(stream.get(), "captured"), mcSuccess);
  ASSERT_EQ(mcEventRecord(event, stream.get()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(waiting.get(), event, 0), mcSuccess);
  ASSERT_EQ(log.Append(waiting.get(), "waiter"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(waiting.get()), mcSuccess);
  EXPECT_EQ(log.Joined(), "captured waiter");
  EXPECT_EQ(mcEventSynchronize(event), mcSuccess);
  EXPECT_EQ(mcEventQuery(event), mcSuccess);
  // Timing works exactly when it was not disabled.
  float ms = -1;
  const mcError_t timing = mcEventElapsedTime(&ms, event, event);
  if ((GetParam() & mcEventDisableTiming) != 0) {
    EXPECT_EQ(timing, mcErrorInvalidResourceHandle);
  } else {
    EXPECT_EQ(timing, mcSuccess);
    EXPECT_EQ(ms, 0.0f);
  }
  mcGetLastError();
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Accepted, EventFlags,
    testing::Values(mcEventDefault, mcEventBlockingSync, mcEventDisableTiming,
                    mcEventBlockingSync | mcEventDisableTiming,
                    mcEventInterprocess | mcEventDisableTiming,
                    mcEventBlockingSync | mcEventDisableTiming |
                        mcEventInterprocess));

TEST(EventCreate, FlagValues) {
  MX_SPEC("api.event.create-with-flags.flag-values");
  EXPECT_EQ(mcEventDefault, 0x00);
  EXPECT_EQ(mcEventBlockingSync, 0x01);
  EXPECT_EQ(mcEventDisableTiming, 0x02);
  EXPECT_EQ(mcEventInterprocess, 0x04);
}

TEST(EventCreate, TwoArgumentFormTakesTheFlags) {
  MX_SPEC("api.event.create.two-argument-form",
          "api.event.elapsed-time.disable-timing-is-invalid-resource-handle");
  mcEvent_t untimed = nullptr;
  mcEvent_t timed = nullptr;
  ASSERT_EQ(mcEventCreate(&untimed, mcEventDisableTiming), mcSuccess);
  ASSERT_EQ(mcEventCreate(&timed, mcEventDefault), mcSuccess);
  ASSERT_EQ(mcEventRecord(untimed), mcSuccess);
  ASSERT_EQ(mcEventRecord(timed), mcSuccess);
  ASSERT_EQ(mcEventSynchronize(untimed), mcSuccess);
  ASSERT_EQ(mcEventSynchronize(timed), mcSuccess);
  float ms = -1;
  EXPECT_EQ(mcEventElapsedTime(&ms, untimed, untimed),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcEventElapsedTime(&ms, timed, timed), mcSuccess);
  mcGetLastError();
  EXPECT_EQ(mcEventDestroy(untimed), mcSuccess);
  EXPECT_EQ(mcEventDestroy(timed), mcSuccess);
}

TEST(EventCreate, HandlesAreDistinct) {
  MX_SPEC("api.event.create.returns-distinct-handles");
  std::set<mcEvent_t> seen;
  std::vector<mcEvent_t> events;
  for (int i = 0; i < 16; ++i) {
    mcEvent_t event = nullptr;
    ASSERT_EQ(mcEventCreateWithFlags(
                  &event, i % 2 == 0 ? mcEventDefault : mcEventDisableTiming),
              mcSuccess);
    EXPECT_NE(event, nullptr);
    EXPECT_TRUE(seen.insert(event).second) << "a handle repeats";
    events.push_back(event);
  }
  for (mcEvent_t event : events) EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

TEST(EventRecord, OneArgumentFormRecordsInTheDefaultStream) {
  MX_SPEC("api.event.record.one-argument-form",
          "api.event.record.default-stream-captures-device-work");
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  Follow<<<1, 1>>>(cell, 0, 1);
  ASSERT_EQ(mcEventRecord(event), mcSuccess);
  ASSERT_EQ(mcEventSynchronize(event), mcSuccess);
  EXPECT_EQ(*cell, 1);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance
