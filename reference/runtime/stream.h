// Copyright mxcts authors.
//
// reference/runtime/stream.h: the streams of the process.
//
// A stream handle (mcStream_t) points at an MCstream_st the table created.
// Handles are validated by lookup before anything reads them, and a
// destroyed stream's object is kept (marked dead) for the life of the
// process, so its address is never reused for a new stream and a stale
// handle is always recognized
// [api.stream.destroy.twice-is-invalid-resource-handle]. 0 (the default
// stream), mcStreamLegacy and mcStreamPerThread name the current device's
// default stream; work there runs in order with all other work, as every
// stream's does while execution is eager.
//
//   StreamTable& streams = StreamTable::Get();
//   absl::StatusOr<mcStream_t> s = streams.Create(/*device=*/0, 0);
//   streams.DeviceOf(*s, /*current_device=*/1);   // 0
//   streams.Destroy(*s);
//   streams.Destroy(*s);   // mcErrorInvalidResourceHandle

#ifndef MXCTS_REFERENCE_RUNTIME_STREAM_H_
#define MXCTS_REFERENCE_RUNTIME_STREAM_H_

#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "mc_runtime_api.h"

// The object behind an mcStream_t (declared, opaque, in the public header).
struct MCstream_st {
  int device;      // [api.stream.model.stream-bound-to-device]
  unsigned flags;  // mcStreamDefault or mcStreamNonBlocking
  bool live;
};

namespace mxcts::runtime {

class StreamTable {
 public:
  static StreamTable& Get();

  // True for 0, mcStreamLegacy and mcStreamPerThread.
  static bool IsDefaultStream(mcStream_t stream);

  // Creates a stream of `device` with `flags` (already validated).
  absl::StatusOr<mcStream_t> Create(int device, unsigned flags);
  // Destroys `stream`. mcErrorInvalidResourceHandle for a default stream
  // [api.stream.destroy.default-stream-is-invalid-resource-handle] or a
  // handle that is not a live stream.
  absl::Status Destroy(mcStream_t stream);
  // The device of `stream`; `current_device` for a default stream.
  // mcErrorInvalidResourceHandle for a handle that is not a live stream.
  // [api.stream.handle.invalid-handle-is-invalid-resource-handle]
  absl::StatusOr<int> DeviceOf(mcStream_t stream, int current_device) const;
  // Destroys every stream of `device`.
  // [api.stream.destroy.device-reset-destroys]
  void DestroyAll(int device);

 private:
  StreamTable() = default;
  absl::Status InvalidHandle(mcStream_t stream) const;

  mutable absl::Mutex mu_;
  // Every stream ever created, live or not; never shrinks.
  absl::flat_hash_map<mcStream_t, std::unique_ptr<MCstream_st>> streams_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_STREAM_H_
