// Copyright mxcts authors.
//
// reference/runtime/timeline/stream.h: the streams of the process and the
// timeline queue behind each.
//
// A stream handle (mcStream_t) points at an MCstream_st the table created.
// Handles are validated by lookup before anything reads them, and a
// destroyed stream's object is kept (marked dead) for the life of the
// process, so its address is never reused for a new stream and a stale
// handle is always recognized
// [api.stream.destroy.twice-is-invalid-resource-handle]. Destroying a
// stream retires only the handle: its queue keeps its pending work, which
// still runs [api.stream.destroy.pending-work-completes].
//
// 0 and mcStreamLegacy name the current device's legacy default stream;
// mcStreamPerThread names the calling thread's per-thread default stream
// of the current device, a blocking queue created on first use
// [api.sync.per-thread.one-stream-per-thread]
// [api.sync.per-thread.behaves-as-blocking-stream].
//
// Resolve, Create and the attribute calls touch timeline queues: their
// caller holds Runtime::execution_mutex().
//
//   StreamTable& streams = StreamTable::Get();
//   absl::StatusOr<mcStream_t> s = streams.Create(/*device=*/0, 0, 0);
//   streams.Resolve(*s, /*current_device=*/1)->device;   // 0
//   streams.Destroy(*s);
//   streams.Destroy(*s);   // mcErrorInvalidResourceHandle

#ifndef MXCTS_REFERENCE_RUNTIME_TIMELINE_STREAM_H_
#define MXCTS_REFERENCE_RUNTIME_TIMELINE_STREAM_H_

#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "mc_runtime_api.h"
#include "reference/runtime/timeline/timeline.h"

// The object behind an mcStream_t (declared, opaque, in the public header).
struct MCstream_st {
  int device;      // [api.stream.model.stream-bound-to-device]
  unsigned flags;  // mcStreamDefault or mcStreamNonBlocking
  int priority;    // inside the device's range
  mxcts::runtime::Queue* queue;
  bool live;
};

namespace mxcts::runtime {

// The stream priorities a device accepts: lower numbers are higher
// priorities. [api.stream.priority-range.reports-least-and-greatest]
inline constexpr int kLeastStreamPriority = 0;
inline constexpr int kGreatestStreamPriority = -5;

// What a stream handle names, resolved for the calling thread.
struct ResolvedStream {
  int device = 0;
  Queue* queue = nullptr;
  unsigned flags = mcStreamDefault;
  int priority = 0;
};

// The attributes of one stream (mcStreamSetAttribute).
struct StreamAttributes {
  mcAccessPolicyWindow access_policy_window{
      nullptr, 0, 0.0f, mcAccessPropertyNormal, mcAccessPropertyNormal};
  mcSynchronizationPolicy sync_policy = mcSyncPolicyAuto;
};

class StreamTable {
 public:
  static StreamTable& Get();

  // True for 0, mcStreamLegacy and mcStreamPerThread.
  static bool IsDefaultStream(mcStream_t stream);

  // Creates a stream of `device` with `flags` and `priority` (validated).
  absl::StatusOr<mcStream_t> Create(int device, unsigned flags, int priority);
  // Destroys `stream`. mcErrorInvalidResourceHandle for a default stream
  // [api.stream.destroy.default-stream-is-invalid-resource-handle] or a
  // handle that is not a live stream.
  absl::Status Destroy(mcStream_t stream);
  // The device of `stream`; `current_device` for a default stream.
  // mcErrorInvalidResourceHandle for a handle that is not a live stream.
  // [api.stream.handle.invalid-handle-is-invalid-resource-handle]
  absl::StatusOr<int> DeviceOf(mcStream_t stream, int current_device) const;
  // What `stream` names (errors as DeviceOf).
  absl::StatusOr<ResolvedStream> Resolve(mcStream_t stream, int current_device);
  // Destroys every stream of `device`.
  // [api.stream.destroy.device-reset-destroys]
  void DestroyAll(int device);

  // The attributes of the stream behind `queue`.
  StreamAttributes& AttributesOf(Queue* queue);

 private:
  StreamTable() = default;
  absl::Status InvalidHandle(mcStream_t stream) const;

  mutable absl::Mutex mu_;
  // Every stream ever created, live or not; never shrinks.
  absl::flat_hash_map<mcStream_t, std::unique_ptr<MCstream_st>> streams_
      ABSL_GUARDED_BY(mu_);
  // Per-thread default streams, by (thread number, device).
  std::map<std::pair<uint64_t, int>, Queue*> per_thread_ ABSL_GUARDED_BY(mu_);
  std::map<Queue*, StreamAttributes> attributes_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TIMELINE_STREAM_H_
