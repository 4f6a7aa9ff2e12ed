// Copyright mxcts authors.
//
// Conformance: the errors of mcEventRecord and mcEventRecordWithFlags
// (docs/spec/api-event.md, "Recording events"): a bad event, a bad stream,
// a stream of another device than the event's, unknown record flags.
//
// A refused record leaves the event's previous record in place. The tests
// show it through timing: the event was recorded before a busy host
// function and a second event after it, so the time between the two is at
// least the busy time; had the refused call recorded the event again, after
// the second, that time would no longer be the same. A good record of the
// same event is the control. The results hold in every timeline mode (the
// target also runs as _deferred and _shuffle).

#include <mc_runtime.h>

#include <memory>
#include <string>
#include <tuple>

#include "conformance/api/testing/bad_handles.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kBusyMilliseconds = 5;

// An event of `device`, recorded before a busy host function, and a later
// event recorded after it; Unchanged() says whether the first still holds
// that record.
class RecordedPair {
 public:
  explicit RecordedPair(int device) : device_(device) {
    ScopedDevice on(device);
    stream_ = std::make_unique<TestStream>(StreamKind::kNonBlocking);
    EXPECT_EQ(mcEventCreate(&event_), mcSuccess);
    EXPECT_EQ(mcEventCreate(&later_), mcSuccess);
    EXPECT_EQ(mcEventRecord(event_, stream_->get()), mcSuccess);
    EXPECT_EQ(mcLaunchHostFunc(stream_->get(), SleepFor, &busy_), mcSuccess);
    EXPECT_EQ(mcEventRecord(later_, stream_->get()), mcSuccess);
    EXPECT_EQ(mcEventSynchronize(later_), mcSuccess);
    EXPECT_EQ(mcEventElapsedTime(&elapsed_, event_, later_), mcSuccess);
    EXPECT_GE(elapsed_, kBusyMilliseconds - 0.001f);
  }
  ~RecordedPair() {
    ScopedDevice on(device_);
    mcDeviceSynchronize();
    mcEventDestroy(event_);
    mcEventDestroy(later_);
  }

  mcEvent_t event() const { return event_; }
  mcStream_t stream() const { return stream_->get(); }

  // "" if the event still holds its first record.
  std::string Unchanged() const {
    ScopedDevice on(device_);
    if (mcDeviceSynchronize() != mcSuccess) return "the device failed";
    if (mcEventQuery(event_) != mcSuccess) return "the event is not complete";
    float now = -1;
    if (mcEventElapsedTime(&now, event_, later_) != mcSuccess) {
      return "the elapsed time is gone";
    }
    if (now != elapsed_) {
      return "the event's record moved: " + std::to_string(elapsed_) +
             " ms became " + std::to_string(now) + " ms";
    }
    return "";
  }

  // The control: recording the event again in its stream moves it.
  std::string RerecordMoves() const {
    ScopedDevice on(device_);
    if (mcEventRecord(event_, stream_->get()) != mcSuccess ||
        mcEventSynchronize(event_) != mcSuccess) {
      return "the good record failed";
    }
    float now = -1;
    if (mcEventElapsedTime(&now, event_, later_) != mcSuccess) {
      return "the elapsed time is gone";
    }
    if (now >= elapsed_) return "a good record did not move the event";
    return "";
  }

 private:
  int device_;
  int busy_ = kBusyMilliseconds;
  std::unique_ptr<TestStream> stream_;
  mcEvent_t event_ = nullptr;
  mcEvent_t later_ = nullptr;
  float elapsed_ = -1;
};

mcError_t Record(bool with_flags, mcEvent_t event, mcStream_t stream,
                 unsigned flags = 0) {
  return with_flags ? mcEventRecordWithFlags(event, stream, flags)
                    : mcEventRecord(event, stream);
}

const char* RecordName(bool with_flags) {
  return with_flags ? "RecordWithFlags" : "Record";
}

// --- Bad events. ---

using EventCase = std::tuple<BadEvent, bool, StreamKind>;

std::string EventCaseName(const testing::TestParamInfo<EventCase>& info) {
  return std::string(BadEventName(std::get<0>(info.param))) + "_" +
         RecordName(std::get<1>(info.param)) + "_" +
         StreamKindName(std::get<2>(info.param));
}

class RecordInvalidEvent : public testing::TestWithParam<EventCase> {};

TEST_P(RecordInvalidEvent, IsInvalidResourceHandle) {
  MX_SPEC("api.event.record.invalid-event-is-invalid-resource-handle",
          "api.error.last.recorded-on-failure");
  const auto [bad, with_flags, kind] = GetParam();
  TestStream stream(kind);
  ASSERT_EQ(stream.status(), mcSuccess);
  InvalidEvent event(bad, stream.get());
  ASSERT_EQ(event.status(), mcSuccess);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(Record(with_flags, event.get(), stream.get()),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // Control: a live event records in the same stream.
  mcEvent_t live = nullptr;
  ASSERT_EQ(mcEventCreate(&live), mcSuccess);
  EXPECT_EQ(Record(with_flags, live, stream.get()), mcSuccess);
  EXPECT_EQ(mcEventSynchronize(live), mcSuccess);
  EXPECT_EQ(mcEventDestroy(live), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Events, RecordInvalidEvent,
    testing::Combine(
        testing::Values(BadEvent::kNull, BadEvent::kDestroyed,
                        BadEvent::kNotAnEvent, BadEvent::kStreamHandle),
        testing::Bool(),
        testing::Values(StreamKind::kZero, StreamKind::kNonBlocking)),
    EventCaseName);

// --- Bad streams. ---

using StreamCase = std::tuple<BadStream, bool>;

std::string StreamCaseName(const testing::TestParamInfo<StreamCase>& info) {
  return std::string(BadStreamName(std::get<0>(info.param))) + "_" +
         RecordName(std::get<1>(info.param));
}

class RecordInvalidStream : public testing::TestWithParam<StreamCase> {};

TEST_P(RecordInvalidStream, IsInvalidResourceHandleAndKeepsTheRecord) {
  MX_SPEC("api.event.record.invalid-event-is-invalid-resource-handle",
          "api.stream.handle.invalid-handle-is-invalid-resource-handle",
          "api.event.record.rerecord-overwrites");
  const auto [bad, with_flags] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", DevicesNeeded(bad));
  RecordedPair pair(0);
  InvalidStream stream(bad);
  ASSERT_EQ(stream.status(), mcSuccess);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(Record(with_flags, pair.event(), stream.get()),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  EXPECT_EQ(pair.Unchanged(), "");
  EXPECT_EQ(pair.RerecordMoves(), "");
}

INSTANTIATE_TEST_SUITE_P(
    Streams, RecordInvalidStream,
    testing::Combine(testing::Values(BadStream::kDestroyed,
                                     BadStream::kDestroyedOnOtherDevice,
                                     BadStream::kNotAStream,
                                     BadStream::kEventHandle),
                     testing::Bool()),
    StreamCaseName);

// --- A stream of another device. ---

// (stream kind, event's device, with flags)
using DeviceCase = std::tuple<StreamKind, int, bool>;

std::string DeviceCaseName(const testing::TestParamInfo<DeviceCase>& info) {
  return std::string(StreamKindName(std::get<0>(info.param))) +
         "_EventOnDevice" + std::to_string(std::get<1>(info.param)) + "_" +
         RecordName(std::get<2>(info.param));
}

class RecordOtherDeviceStream : public testing::TestWithParam<DeviceCase> {};

TEST_P(RecordOtherDeviceStream, IsInvalidResourceHandleAndKeepsTheRecord) {
  MX_SPEC("api.event.record.other-device-stream-fails",
          "api.peer.ownership.event-on-current");
  const auto [kind, event_device, with_flags] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const int stream_device = 1 - event_device;
  RecordedPair pair(event_device);
  {
    // The stream is the other device's; a default stream names the other
    // device's when that device is current.
    ScopedDevice on(stream_device);
    TestStream stream(kind);
    ASSERT_EQ(stream.status(), mcSuccess);
    ASSERT_EQ(mcGetLastError(), mcSuccess);
    EXPECT_EQ(Record(with_flags, pair.event(), stream.get()),
              mcErrorInvalidResourceHandle);
    EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
    if (!IsCreatedKind(kind)) {
      // With the event's device current, the same name is that device's
      // stream: the control.
      ScopedDevice own(event_device);
      EXPECT_EQ(pair.Unchanged(), "");
      EXPECT_EQ(Record(with_flags, pair.event(), stream.get()), mcSuccess);
      EXPECT_EQ(mcEventSynchronize(pair.event()), mcSuccess);
      return;
    }
    // A created stream stays the other device's whatever is current.
    ScopedDevice own(event_device);
    EXPECT_EQ(Record(with_flags, pair.event(), stream.get()),
              mcErrorInvalidResourceHandle);
    mcGetLastError();
  }
  EXPECT_EQ(pair.Unchanged(), "");
  EXPECT_EQ(pair.RerecordMoves(), "");
}

INSTANTIATE_TEST_SUITE_P(Kinds, RecordOtherDeviceStream,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(0, 1),
                                          testing::Bool()),
                         DeviceCaseName);

// --- Unknown record flags. ---

class RecordFlags : public testing::TestWithParam<FlagsOnKind> {};

TEST_P(RecordFlags, UnknownBitIsInvalidValueAndKeepsTheRecord) {
  MX_SPEC("api.event.record-with-flags.invalid-flags-is-invalid-value",
          "api.event.record-with-flags.default-flag");
  const auto [flags, kind] = GetParam();
  RecordedPair pair(0);
  TestStream stream(kind);
  ASSERT_EQ(stream.status(), mcSuccess);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcEventRecordWithFlags(pair.event(), stream.get(), flags),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(pair.Unchanged(), "");
  // Control: the known flag alone records.
  EXPECT_EQ(mcEventRecordWithFlags(pair.event(), stream.get(),
                                   flags & mcEventRecordExternal),
            mcSuccess);
  EXPECT_EQ(mcEventSynchronize(pair.event()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Flags, RecordFlags,
    testing::Combine(
        testing::Values(0x2u, 0x3u, 0x4u, 0x80000000u, 0xffffffffu),
        testing::Values(StreamKind::kZero, StreamKind::kNonBlocking)),
    FlagsOnKindName);

}  // namespace
}  // namespace mxcts::conformance
