// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/bad_handles.h
// -----------------------------------------------------------------------------
//
// Handles that name no live event or stream, for the validation tests of
// the event and stream calls (docs/spec/api-event.md, api-stream.md): null,
// destroyed (on this device or on device 1), the address of something else,
// and a live handle of the other type. Each maker says, through status(),
// whether making the handle worked, and a test requires DevicesNeeded(bad)
// devices before making one.
//
//   class Query : public testing::TestWithParam<BadStream> {};
//   TEST_P(Query, IsInvalidResourceHandle) {
//     const BadStream kind = GetParam();
//     MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", DevicesNeeded(kind));
//     InvalidStream bad(kind);
//     ASSERT_EQ(bad.status(), mcSuccess);
//     EXPECT_EQ(mcStreamQuery(bad.get()), mcErrorInvalidResourceHandle);
//   }
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_BAD_HANDLES_H_
#define MXCTS_CONFORMANCE_API_TESTING_BAD_HANDLES_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include "conformance/api/testing/scoped_device.h"

namespace mxcts::conformance {

// Something that is no event and no stream, whose address the tests pass
// as a handle.
inline int not_a_handle = 0;

enum class BadEvent {
  kNull,
  kDestroyed,               // created, recorded, destroyed
  kDestroyedOnOtherDevice,  // created and destroyed on device 1
  kNotAnEvent,              // the address of something else
  kStreamHandle,            // a live stream's handle
};

// The kind's name in test names ("Destroyed").
inline const char* BadEventName(BadEvent bad) {
  switch (bad) {
    case BadEvent::kNull:
      return "Null";
    case BadEvent::kDestroyed:
      return "Destroyed";
    case BadEvent::kDestroyedOnOtherDevice:
      return "DestroyedOnOtherDevice";
    case BadEvent::kNotAnEvent:
      return "NotAnEvent";
    case BadEvent::kStreamHandle:
      return "StreamHandle";
  }
  return "Unknown";
}

// How many devices making a handle of kind `bad` takes; a test requires
// them before making it.
inline int DevicesNeeded(BadEvent bad) {
  return bad == BadEvent::kDestroyedOnOtherDevice ? 2 : 1;
}

// An event handle of kind `bad`; a destroyed event was recorded in
// `record_in` first. At the end of the scope, the stream behind a
// kStreamHandle is checked to be untouched (idle) and destroyed.
class InvalidEvent {
 public:
  explicit InvalidEvent(BadEvent bad, mcStream_t record_in = nullptr) {
    switch (bad) {
      case BadEvent::kNull:
        break;
      case BadEvent::kDestroyed:
        result_ = mcEventCreate(&event_);
        if (result_ == mcSuccess) result_ = mcEventRecord(event_, record_in);
        if (result_ == mcSuccess) result_ = mcEventDestroy(event_);
        break;
      case BadEvent::kDestroyedOnOtherDevice: {
        ScopedDevice other(1);
        result_ = other.ok() ? mcEventCreate(&event_) : mcErrorInvalidDevice;
        if (result_ == mcSuccess) result_ = mcEventDestroy(event_);
        break;
      }
      case BadEvent::kNotAnEvent:
        event_ = reinterpret_cast<mcEvent_t>(&not_a_handle);
        break;
      case BadEvent::kStreamHandle:
        result_ = mcStreamCreate(&stream_);
        event_ = reinterpret_cast<mcEvent_t>(stream_);
        break;
    }
  }
  ~InvalidEvent() {
    if (stream_ == nullptr) return;
    EXPECT_EQ(mcStreamQuery(stream_), mcSuccess);
    EXPECT_EQ(mcStreamDestroy(stream_), mcSuccess);
  }
  InvalidEvent(const InvalidEvent&) = delete;
  InvalidEvent& operator=(const InvalidEvent&) = delete;

  mcEvent_t get() const { return event_; }
  // The result of making the handle.
  mcError_t status() const { return result_; }

 private:
  mcEvent_t event_ = nullptr;
  mcStream_t stream_ = nullptr;
  mcError_t result_ = mcSuccess;
};

enum class BadStream {
  kDestroyed,               // created and destroyed
  kDestroyedOnOtherDevice,  // created and destroyed on device 1
  kNotAStream,              // the address of something else
  kEventHandle,             // a live event's handle
};

// The kind's name in test names ("NotAStream").
inline const char* BadStreamName(BadStream bad) {
  switch (bad) {
    case BadStream::kDestroyed:
      return "Destroyed";
    case BadStream::kDestroyedOnOtherDevice:
      return "DestroyedOnOtherDevice";
    case BadStream::kNotAStream:
      return "NotAStream";
    case BadStream::kEventHandle:
      return "EventHandle";
  }
  return "Unknown";
}

inline int DevicesNeeded(BadStream bad) {
  return bad == BadStream::kDestroyedOnOtherDevice ? 2 : 1;
}

// A stream handle of kind `bad`. At the end of the scope, the event behind
// a kEventHandle is checked to be untouched (complete, as it was made) and
// destroyed.
class InvalidStream {
 public:
  explicit InvalidStream(BadStream bad) {
    switch (bad) {
      case BadStream::kDestroyed:
        result_ = mcStreamCreate(&stream_);
        if (result_ == mcSuccess) result_ = mcStreamDestroy(stream_);
        break;
      case BadStream::kDestroyedOnOtherDevice: {
        ScopedDevice other(1);
        result_ = other.ok()
                      ? mcStreamCreateWithFlags(&stream_, mcStreamNonBlocking)
                      : mcErrorInvalidDevice;
        if (result_ == mcSuccess) result_ = mcStreamDestroy(stream_);
        break;
      }
      case BadStream::kNotAStream:
        stream_ = reinterpret_cast<mcStream_t>(&not_a_handle);
        break;
      case BadStream::kEventHandle:
        result_ = mcEventCreate(&event_);
        stream_ = reinterpret_cast<mcStream_t>(event_);
        break;
    }
  }
  ~InvalidStream() {
    if (event_ == nullptr) return;
    EXPECT_EQ(mcEventQuery(event_), mcSuccess);
    EXPECT_EQ(mcEventDestroy(event_), mcSuccess);
  }
  InvalidStream(const InvalidStream&) = delete;
  InvalidStream& operator=(const InvalidStream&) = delete;

  mcStream_t get() const { return stream_; }
  // The result of making the handle.
  mcError_t status() const { return result_; }

 private:
  mcStream_t stream_ = nullptr;
  mcEvent_t event_ = nullptr;
  mcError_t result_ = mcSuccess;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_BAD_HANDLES_H_
