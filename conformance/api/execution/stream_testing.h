// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/execution/stream_testing.h
// -----------------------------------------------------------------------------
//
// What the stream, event, callback and timeline conformance tests share: the
// kinds of stream a test is parameterized over, a stream of a kind that lives
// for a scope, a scoped current device, and a log that host functions and
// stream callbacks append to when they run, so that a test can see in which
// order the device timeline ran the work (docs/spec/api-stream.md,
// api-synchronization.md).
//
//   ScopedDevice device(1);
//   TestStream stream(StreamKind::kNonBlocking);
//   OrderLog log;
//   log.Append(stream.get(), "first");
//   log.Append(stream.get(), "second");
//   mcStreamSynchronize(stream.get());
//   log.Joined();   // "first second"
//
// Host code only: the sources that include it hold their own kernels.

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

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_EXECUTION_STREAM_TESTING_H_
