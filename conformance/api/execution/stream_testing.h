// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/execution/stream_testing.h
// -----------------------------------------------------------------------------
//
// What the stream, event, callback and timeline conformance tests share: the
// kinds of stream a test is parameterized over, a stream of a kind that lives
// for a scope, a scoped current device, fixtures for tests parameterized
// over (kind, device), a log that host functions and stream callbacks append
// to when they run, so that a test can see in which order the device
// timeline ran the work (docs/spec/api-stream.md, api-synchronization.md),
// the timeline mode of the fresh processes a check runs in, handles that
// name no live event or stream, and the stream attribute setters.
//
//   ScopedDevice device(1);
//   TestStream stream(StreamKind::kNonBlocking);
//   OrderLog log;
//   log.Append(stream.get(), "first");
//   log.Append(stream.get(), "second");
//   mcStreamSynchronize(stream.get());
//   log.Joined();   // "first second"
//
// Follow, a kernel, shows the order of device work the same way: each moves
// a cell from the value its predecessor leaves to its own, or marks it
// kTooEarly when it ran before that predecessor.
//
// For MXMACA sources only (it defines a kernel), one per test binary, as
// the backend's driver compiles them.

#ifndef MXCTS_CONFORMANCE_API_EXECUTION_STREAM_TESTING_H_
#define MXCTS_CONFORMANCE_API_EXECUTION_STREAM_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"

namespace mxcts::conformance {

// Every way a test names a stream: the three names of the default streams
// and the three kinds of stream a program creates.
enum class StreamKind {
  kZero,         // stream 0: the legacy default stream
  kLegacy,       // mcStreamLegacy
  kPerThread,    // mcStreamPerThread
  kBlocking,     // mcStreamCreate
  kNonBlocking,  // mcStreamCreateWithFlags(mcStreamNonBlocking)
  kPriority,     // mcStreamCreateWithPriority, the greatest priority
};

inline constexpr StreamKind kAllStreamKinds[] = {
    StreamKind::kZero,     StreamKind::kLegacy,      StreamKind::kPerThread,
    StreamKind::kBlocking, StreamKind::kNonBlocking, StreamKind::kPriority};
inline constexpr StreamKind kDefaultStreamKinds[] = {
    StreamKind::kZero, StreamKind::kLegacy, StreamKind::kPerThread};
inline constexpr StreamKind kCreatedStreamKinds[] = {
    StreamKind::kBlocking, StreamKind::kNonBlocking, StreamKind::kPriority};

inline const char* StreamKindName(StreamKind kind) {
  switch (kind) {
    case StreamKind::kZero:
      return "Zero";
    case StreamKind::kLegacy:
      return "Legacy";
    case StreamKind::kPerThread:
      return "PerThread";
    case StreamKind::kBlocking:
      return "Blocking";
    case StreamKind::kNonBlocking:
      return "NonBlocking";
    case StreamKind::kPriority:
      return "Priority";
  }
  return "Unknown";
}

// Names the legacy default stream (0 or mcStreamLegacy).
inline bool IsLegacyKind(StreamKind kind) {
  return kind == StreamKind::kZero || kind == StreamKind::kLegacy;
}

// Orders against the legacy default stream: every kind but non-blocking
// [api.sync.per-thread.behaves-as-blocking-stream].
inline bool IsBlockingKind(StreamKind kind) {
  return kind != StreamKind::kNonBlocking;
}

inline bool IsCreatedKind(StreamKind kind) {
  return kind == StreamKind::kBlocking || kind == StreamKind::kNonBlocking ||
         kind == StreamKind::kPriority;
}

// The flags mcStreamGetFlags reports for a stream of `kind`.
inline unsigned FlagsOfKind(StreamKind kind) {
  return kind == StreamKind::kNonBlocking ? mcStreamNonBlocking
                                          : mcStreamDefault;
}

// The current device of the calling thread, or -1.
inline int CurrentDevice() {
  int device = -1;
  if (mcGetDevice(&device) != mcSuccess) return -1;
  return device;
}

// Makes `device` the calling thread's current device until the end of the
// scope, then restores the one before.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device) : previous_(CurrentDevice()) {
    result_ = mcSetDevice(device);
  }
  ~ScopedDevice() {
    if (previous_ >= 0) mcSetDevice(previous_);
  }
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

  bool ok() const { return result_ == mcSuccess; }

 private:
  int previous_;
  mcError_t result_;
};

// A stream of `kind` on the device current at construction. A created
// stream is destroyed at the end of the scope (its pending work still runs
// [api.stream.destroy.pending-work-completes]); a default stream is only
// named.
class TestStream {
 public:
  explicit TestStream(StreamKind kind) : kind_(kind) {
    switch (kind) {
      case StreamKind::kZero:
        stream_ = nullptr;
        break;
      case StreamKind::kLegacy:
        stream_ = mcStreamLegacy;
        break;
      case StreamKind::kPerThread:
        stream_ = mcStreamPerThread;
        break;
      case StreamKind::kBlocking:
        result_ = mcStreamCreate(&stream_);
        break;
      case StreamKind::kNonBlocking:
        result_ = mcStreamCreateWithFlags(&stream_, mcStreamNonBlocking);
        break;
      case StreamKind::kPriority: {
        int least = 0;
        int greatest = 0;
        result_ = mcDeviceGetStreamPriorityRange(&least, &greatest);
        if (result_ == mcSuccess) {
          result_ =
              mcStreamCreateWithPriority(&stream_, mcStreamDefault, greatest);
        }
        break;
      }
    }
  }
  ~TestStream() {
    if (IsCreatedKind(kind_) && result_ == mcSuccess) mcStreamDestroy(stream_);
  }
  TestStream(const TestStream&) = delete;
  TestStream& operator=(const TestStream&) = delete;

  mcStream_t get() const { return stream_; }
  // The result of creating the stream (mcSuccess for a default stream).
  mcError_t status() const { return result_; }
  StreamKind kind() const { return kind_; }

 private:
  StreamKind kind_;
  mcStream_t stream_ = nullptr;
  mcError_t result_ = mcSuccess;
};

// Parameters (stream kind, device ordinal), and their test names
// ("NonBlocking_Device1").
using KindOnDevice = std::tuple<StreamKind, int>;

inline std::string KindOnDeviceName(
    const testing::TestParamInfo<KindOnDevice>& info) {
  return std::string(StreamKindName(std::get<0>(info.param))) + "_Device" +
         std::to_string(std::get<1>(info.param));
}

inline std::string KindName(const testing::TestParamInfo<StreamKind>& info) {
  return StreamKindName(info.param);
}

// Flags in hexadecimal for test names: "0x80000000".
inline std::string HexName(unsigned flags) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%x", flags);
  return hex;
}

// Parameters (flags, stream kind), and their test names
// ("Flags0x80000000_NonBlocking").
using FlagsOnKind = std::tuple<unsigned, StreamKind>;

inline std::string FlagsOnKindName(
    const testing::TestParamInfo<FlagsOnKind>& info) {
  return "Flags" + HexName(std::get<0>(info.param)) + "_" +
         StreamKindName(std::get<1>(info.param));
}

// A test parameterized over (stream kind, device ordinal); skipped where
// the device does not exist.
class KindOnDeviceTest : public testing::TestWithParam<KindOnDevice> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device() + 1);
  }

  StreamKind kind() const { return std::get<0>(GetParam()); }
  int device() const { return std::get<1>(GetParam()); }
};

// A KindOnDeviceTest whose device is current for the whole test, with a
// stream of the kind on it and a managed int cell holding 0; TearDown
// waits for the device's work before releasing them.
class StreamOnDeviceTest : public KindOnDeviceTest {
 protected:
  void SetUp() override {
    KindOnDeviceTest::SetUp();
    if (IsSkipped()) return;
    on_ = std::make_unique<ScopedDevice>(device());
    ASSERT_TRUE(on_->ok());
    stream_ = std::make_unique<TestStream>(kind());
    ASSERT_EQ(stream_->status(), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cell_, sizeof(int)), mcSuccess);
    *cell_ = 0;
  }
  void TearDown() override {
    if (on_ != nullptr) mcDeviceSynchronize();
    if (cell_ != nullptr) {
      EXPECT_EQ(mcFree(cell_), mcSuccess);
    }
    stream_.reset();
    on_.reset();
  }

  mcStream_t stream() const { return stream_->get(); }
  int* cell() const { return cell_; }

 private:
  std::unique_ptr<ScopedDevice> on_;
  std::unique_ptr<TestStream> stream_;
  int* cell_ = nullptr;
};

// What a Follow leaves when the cell did not hold the value it follows.
inline constexpr int kTooEarly = -1;

// Moves *cell from `expected` to `value`, or marks it kTooEarly. A chain
// of them ends at the last value only if every link ran after the one
// before:
//
//   Follow<<<1, 1, 0, first>>>(cell, 0, 1);
//   Follow<<<1, 1, 0, second>>>(cell, 1, 2);
//   mcDeviceSynchronize();
//   *cell;  // 2 if `second` ran after `first`, else kTooEarly
__global__ void Follow(int* cell, int expected, int value) {
  *cell = *cell == expected ? value : kTooEarly;
}

// A log of labels, appended to by host functions and stream callbacks when
// the timeline runs them. Each enqueued entry owns a reference to the log's
// state, so work that runs after the OrderLog is gone writes nowhere
// harmful.
class OrderLog {
 public:
  OrderLog() : state_(std::make_shared<State>()) {}

  // Enqueues a host function that appends `label` (mcLaunchHostFunc).
  mcError_t Append(mcStream_t stream, const std::string& label) {
    auto* mark = new Mark{state_, label};
    const mcError_t result = mcLaunchHostFunc(stream, &OrderLog::Run, mark);
    if (result != mcSuccess) delete mark;
    return result;
  }

  // Enqueues a stream callback that appends `label` (mcStreamAddCallback)
  // and remembers the status it received.
  mcError_t AppendCallback(mcStream_t stream, const std::string& label) {
    auto* mark = new Mark{state_, label};
    const mcError_t result =
        mcStreamAddCallback(stream, &OrderLog::RunCallback, mark, 0);
    if (result != mcSuccess) delete mark;
    return result;
  }

  std::vector<std::string> entries() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->entries;
  }
  size_t size() const { return entries().size(); }
  // The labels in the order they ran, separated by spaces.
  std::string Joined() const {
    std::string joined;
    for (const std::string& entry : entries()) {
      if (!joined.empty()) joined += ' ';
      joined += entry;
    }
    return joined;
  }
  // Where `label` ran first, or -1 if it has not run.
  int PositionOf(const std::string& label) const {
    const std::vector<std::string> all = entries();
    auto it = std::find(all.begin(), all.end(), label);
    return it == all.end() ? -1 : static_cast<int>(it - all.begin());
  }
  bool Ran(const std::string& label) const { return PositionOf(label) >= 0; }
  // How often `label` ran.
  int CountOf(const std::string& label) const {
    const std::vector<std::string> all = entries();
    return static_cast<int>(std::count(all.begin(), all.end(), label));
  }
  // True if both ran and `first` ran before `second`.
  bool RanBefore(const std::string& first, const std::string& second) const {
    const int a = PositionOf(first);
    const int b = PositionOf(second);
    return a >= 0 && b >= 0 && a < b;
  }
  // The statuses the callbacks of AppendCallback received, in call order.
  std::vector<mcError_t> callback_statuses() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->statuses;
  }

 private:
  struct State {
    std::mutex mu;
    std::vector<std::string> entries;
    std::vector<mcError_t> statuses;
  };
  struct Mark {
    std::shared_ptr<State> state;
    std::string label;
  };

  static void Run(void* data) {
    std::unique_ptr<Mark> mark(static_cast<Mark*>(data));
    std::lock_guard<std::mutex> lock(mark->state->mu);
    mark->state->entries.push_back(mark->label);
  }
  static void RunCallback(mcStream_t, mcError_t status, void* data) {
    std::unique_ptr<Mark> mark(static_cast<Mark*>(data));
    std::lock_guard<std::mutex> lock(mark->state->mu);
    mark->state->entries.push_back(mark->label);
    mark->state->statuses.push_back(status);
  }

  std::shared_ptr<State> state_;
};

// "" if `log` reads `expected`, else a sentence saying what it read `when`.
inline std::string ExpectLog(const char* when, const OrderLog& log,
                             const std::string& expected) {
  const std::string joined = log.Joined();
  if (joined == expected) return "";
  return std::string(when) + ": the log is '" + joined + "', expected '" +
         expected + "'; ";
}

// A host function that sleeps for `*milliseconds` (an int).
inline void SleepFor(void* milliseconds) {
  std::this_thread::sleep_for(
      std::chrono::milliseconds(*static_cast<int*>(milliseconds)));
}

// Where a fresh process leaves a result for the test that started it: a
// file in the test's temporary folder.
inline std::string ResultFilePath(const std::string& name) {
  const char* folder = std::getenv("TEST_TMPDIR");
  return std::string(folder != nullptr ? folder : "/tmp") + "/" + name;
}

inline bool WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

// The file's text, or "<missing>".
inline std::string ReadTextFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "<missing>";
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

// "" if `error` is `expected`, else a sentence saying what `what` returned.
inline std::string Expect(const char* what, mcError_t error,
                          mcError_t expected) {
  if (error == expected) return "";
  return std::string(what) + " returned " + mcGetErrorName(error) +
         ", expected " + mcGetErrorName(expected) + "; ";
}

// --- The timeline mode of fresh processes. ---

// Sets MXCTS_TIMELINE to `mode` and MACA_LAUNCH_BLOCKING to
// `launch_blocking` (null: unsets either) until the end of the scope, so
// that a fresh process started within it (MX_EXPECT_IN_FRESH_PROCESS,
// MX_EXPECT_TRAP) runs its device work in that mode: in "deferred", only
// when the host waits or polls, and a wait runs only the work it needs
// (docs/spec/api-synchronization.md, "When device work runs").
class ScopedTimelineMode {
 public:
  explicit ScopedTimelineMode(const char* mode,
                              const char* launch_blocking = nullptr)
      : mode_("MXCTS_TIMELINE", mode),
        launch_blocking_("MACA_LAUNCH_BLOCKING", launch_blocking) {}

 private:
  ScopedEnvironment mode_;
  ScopedEnvironment launch_blocking_;
};

// A fixture whose fresh processes run in the deferred mode: the mode is set
// from the fixture's construction to its end.
template <typename Base = testing::Test>
class DeferredModeTest : public Base {
 private:
  ScopedTimelineMode mode_{"deferred"};
};

// --- Handles that name no live event or stream. ---

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

// --- Stream attributes (docs/spec/api-stream.md, "Stream attributes"). ---

// The access policy window a stream has before one is set.
inline mcAccessPolicyWindow DefaultWindow() {
  return mcAccessPolicyWindow{nullptr, 0, 0.0f, mcAccessPropertyNormal,
                              mcAccessPropertyNormal};
}

inline bool SameWindow(const mcAccessPolicyWindow& a,
                       const mcAccessPolicyWindow& b) {
  return a.base_ptr == b.base_ptr && a.num_bytes == b.num_bytes &&
         a.hitRatio == b.hitRatio && a.hitProp == b.hitProp &&
         a.missProp == b.missProp;
}

inline mcError_t SetWindow(mcStream_t stream,
                           const mcAccessPolicyWindow& window) {
  mcStreamAttrValue value;
  value.accessPolicyWindow = window;
  return mcStreamSetAttribute(stream, mcStreamAttributeAccessPolicyWindow,
                              &value);
}

inline mcError_t SetPolicy(mcStream_t stream, mcSynchronizationPolicy policy) {
  mcStreamAttrValue value;
  value.syncPolicy = policy;
  return mcStreamSetAttribute(stream, mcStreamAttributeSynchronizationPolicy,
                              &value);
}

// Gives `stream` its default attributes back (the default streams keep
// theirs for the life of the process).
inline void RestoreDefaultAttributes(mcStream_t stream) {
  SetWindow(stream, DefaultWindow());
  SetPolicy(stream, mcSyncPolicyAuto);
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_EXECUTION_STREAM_TESTING_H_
