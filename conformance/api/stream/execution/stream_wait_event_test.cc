// Copyright mxcts authors.
//
// Conformance: mcStreamWaitEvent makes a stream's later work wait for the
// work an event captured, across kinds of stream and across devices
// (docs/spec/api-stream.md, "Waiting on events").
//
// A recording stream runs a host function and a kernel, then records an
// event; a waiting stream (always on device 0) waits for the event and runs
// a kernel that checks the recording kernel's value and a host function
// that logs. These results hold in every timeline mode (the target also
// runs as _deferred and _shuffle). What a wait does *not* wait for (work
// after the record, an unrecorded event) is visible only when a wait runs
// less than everything: event/execution/event_deferred_test.cc.

#include <mc_runtime.h>

#include <memory>
#include <string>
#include <tuple>

#include "conformance/api/testing/follow_kernel.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// (waiting stream's kind, recording stream's kind, recording device)
using Case = std::tuple<StreamKind, StreamKind, int>;

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string("Wait") + StreamKindName(std::get<0>(info.param)) +
         "_Record" + StreamKindName(std::get<1>(info.param)) + "_Device" +
         std::to_string(std::get<2>(info.param));
}

class WaitEvent : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", recording_device() + 1);
    waiting_ = std::make_unique<TestStream>(std::get<0>(GetParam()));
    ASSERT_EQ(waiting_->status(), mcSuccess);
    ScopedDevice on(recording_device());
    ASSERT_TRUE(on.ok());
    recording_ = std::make_unique<TestStream>(std::get<1>(GetParam()));
    ASSERT_EQ(recording_->status(), mcSuccess);
    ASSERT_EQ(mcEventCreate(&event_), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cell_, sizeof(int)), mcSuccess);
    *cell_ = 0;
  }
  void TearDown() override {
    // A case skipped for want of the recording device has nothing to undo,
    // and selecting that device would leave mcErrorInvalidDevice as the
    // thread's last error for the next case to find.
    if (IsSkipped()) return;
    for (int device : {recording_device(), 0}) {
      ScopedDevice on(device);
      mcDeviceSynchronize();
    }
    if (cell_ != nullptr) mcFree(cell_);
    if (event_ != nullptr) mcEventDestroy(event_);
    ScopedDevice on(recording_device());
    recording_.reset();
  }

  int recording_device() const { return std::get<2>(GetParam()); }
  mcStream_t waiting() const { return waiting_->get(); }

  // Runs `call` with the recording device current (the default streams
  // name that device's streams then).
  template <typename Call>
  auto OnRecordingDevice(Call call) {
    ScopedDevice on(recording_device());
    return call(recording_->get());
  }

  std::unique_ptr<TestStream> waiting_;
  std::unique_ptr<TestStream> recording_;
  mcEvent_t event_ = nullptr;
  int* cell_ = nullptr;
};

TEST_P(WaitEvent, LaterWorkWaitsForTheCapturedWork) {
  MX_SPEC("api.stream.wait-event.delays-later-work",
          "api.stream.wait-event.cross-device",
          "api.stream.wait-event.default-flag-is-zero",
          "api.event.record.captures-stream-work");
  OrderLog log;
  ASSERT_EQ(OnRecordingDevice([&](mcStream_t s) {
              Follow<<<1, 1, 0, s>>>(cell_, 0, 1);
              log.Append(s, "recorded");
              return mcEventRecord(event_, s);
            }),
            mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(waiting(), event_, mcEventWaitDefault),
            mcSuccess);
  Follow<<<1, 1, 0, waiting()>>>(cell_, 1, 2);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(log.Append(waiting(), "waiter"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(waiting()), mcSuccess);
  EXPECT_EQ(log.Joined(), "recorded waiter");
  EXPECT_EQ(*cell_, 2);
}

TEST_P(WaitEvent, TwoArgumentFormWaitsToo) {
  MX_SPEC("api.stream.wait-event.two-argument-form",
          "api.stream.wait-event.delays-later-work");
  ASSERT_EQ(OnRecordingDevice([&](mcStream_t s) {
              Follow<<<1, 1, 0, s>>>(cell_, 0, 1);
              return mcEventRecord(event_, s);
            }),
            mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(waiting(), event_), mcSuccess);
  Follow<<<1, 1, 0, waiting()>>>(cell_, 1, 2);
  ASSERT_EQ(mcStreamSynchronize(waiting()), mcSuccess);
  EXPECT_EQ(*cell_, 2);
}

TEST_P(WaitEvent, EarlierWaitKeepsItsRecordAfterARerecord) {
  // The waiter runs after the first record's work in every mode; whether
  // it also waits for the second is visible in deferred mode only.
  MX_SPEC("api.stream.wait-event.snapshot-at-call",
          "api.event.record.rerecord-overwrites");
  OrderLog log;
  ASSERT_EQ(OnRecordingDevice([&](mcStream_t s) {
              log.Append(s, "first");
              return mcEventRecord(event_, s);
            }),
            mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(waiting(), event_, 0), mcSuccess);
  ASSERT_EQ(OnRecordingDevice([&](mcStream_t s) {
              log.Append(s, "second");
              return mcEventRecord(event_, s);
            }),
            mcSuccess);
  ASSERT_EQ(log.Append(waiting(), "waiter"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(waiting()), mcSuccess);
  EXPECT_TRUE(log.RanBefore("first", "waiter")) << log.Joined();
  ASSERT_EQ(mcEventSynchronize(event_), mcSuccess);
  EXPECT_TRUE(log.RanBefore("first", "second")) << log.Joined();
}

TEST_P(WaitEvent, UnrecordedEventAddsNoWait) {
  MX_SPEC("api.stream.wait-event.unrecorded-event-is-no-op");
  OrderLog log;
  ASSERT_EQ(mcStreamWaitEvent(waiting(), event_, 0), mcSuccess);
  // Nothing was enqueued: the idle stream is still idle.
  EXPECT_EQ(mcStreamQuery(waiting()), mcSuccess);
  ASSERT_EQ(log.Append(waiting(), "waiter"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(waiting()), mcSuccess);
  EXPECT_EQ(log.Joined(), "waiter");
  EXPECT_EQ(mcEventQuery(event_), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, WaitEvent,
    testing::Combine(
        testing::Values(StreamKind::kNonBlocking, StreamKind::kBlocking,
                        StreamKind::kPerThread, StreamKind::kZero),
        testing::Values(StreamKind::kNonBlocking, StreamKind::kBlocking,
                        StreamKind::kPerThread, StreamKind::kLegacy),
        testing::Values(0, 1)),
    CaseName);

class SameStreamWait : public testing::TestWithParam<StreamKind> {};

TEST_P(SameStreamWait, WaitOnOwnRecordNeitherDelaysNorDeadlocks) {
  MX_SPEC("api.stream.wait-event.same-stream-is-no-op",
          "api.stream.model.in-order-execution");
  TestStream stream(GetParam());
  ASSERT_EQ(stream.status(), mcSuccess);
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  OrderLog log;
  ASSERT_EQ(log.Append(stream.get(), "before"), mcSuccess);
  ASSERT_EQ(mcEventRecord(event, stream.get()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream.get(), event, 0), mcSuccess);
  ASSERT_EQ(log.Append(stream.get(), "after"), mcSuccess);
  // A record after the wait, and a wait on it: still no deadlock.
  ASSERT_EQ(mcEventRecord(event, stream.get()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream.get(), event, 0), mcSuccess);
  ASSERT_EQ(log.Append(stream.get(), "last"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
  EXPECT_EQ(log.Joined(), "before after last");
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Kinds, SameStreamWait,
                         testing::ValuesIn(kAllStreamKinds), KindName);

}  // namespace
}  // namespace mxcts::conformance
