// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/stream_kind.h
// -----------------------------------------------------------------------------
//
// The kinds of stream the stream, event, callback and timeline conformance
// tests are parameterized over (the three names of the default streams and
// the three kinds a program creates), what each kind implies
// (docs/spec/api-stream.md, api-synchronization.md), and TestStream, a
// stream of a kind that lives for a scope.
//
//   for (StreamKind kind : kAllStreamKinds) {
//     TestStream stream(kind);
//     ASSERT_EQ(stream.status(), mcSuccess) << StreamKindName(kind);
//     Work<<<1, 1, 0, stream.get()>>>();
//   }  // a created stream is destroyed here; a default one only named
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_STREAM_KIND_H_
#define MXCTS_CONFORMANCE_API_TESTING_STREAM_KIND_H_

#include <mc_runtime.h>

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

// The kind's name in test names ("NonBlocking").
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

// A stream the program creates (and TestStream destroys).
inline bool IsCreatedKind(StreamKind kind) {
  return kind == StreamKind::kBlocking || kind == StreamKind::kNonBlocking ||
         kind == StreamKind::kPriority;
}

// The flags mcStreamGetFlags reports for a stream of `kind`.
inline unsigned FlagsOfKind(StreamKind kind) {
  return kind == StreamKind::kNonBlocking ? mcStreamNonBlocking
                                          : mcStreamDefault;
}

// A stream of `kind` on the device current at construction. A created
// stream is destroyed at the end of the scope (its pending work still runs
// [api.stream.destroy.pending-work-completes]); a default stream is only
// named. status() is the result of creating it.
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

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_STREAM_KIND_H_
