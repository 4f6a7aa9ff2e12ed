// Copyright mxcts authors.
//
// The streams and events the program holds. MXMACA answers a destroyed or
// made-up handle with mcErrorInvalidResourceHandle
// [api.stream.handle.invalid-handle-is-invalid-resource-handle]; CUDA leaves a
// destroyed handle undefined, and crashes on many. The adapter therefore
// keeps the set of live handles and checks each before CUDA sees it.
//
// CUDA hands a new stream or event the address of one destroyed just before,
// so a destroyed handle would turn live again under the program's feet. A
// destroyed handle therefore waits in a quarantine of the most recent ones
// (kQuarantine), and its address is not handed out again while it is
// there: the check still finds it dead. Most wait alive, CUDA destroying
// them when they leave. A stream that allocated stream-ordered memory is
// destroyed in CUDA at once, since every live stream that has used a pool
// slows CUDA's stream-ordered allocation in all the others (on an H200,
// 128 of them made 20 allocations, launches and frees 4.6 times slower);
// a stream CUDA creates at the address of such a one is held back unused
// until the address leaves the quarantine.
//
// The registry also keeps each stream's attributes
// [api.stream.attribute.set-then-get-round-trips]: CUDA has no
// synchronization policy to read back on a stream never set, and rejects a
// persisting miss property (see stream_event.cc).

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_HANDLES_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_HANDLES_H_

#include "backends/cuda/include/mc_runtime_api.h"

namespace mxcts::cuda_backend {

// How many destroyed streams, and events, are kept in the quarantine.
inline constexpr int kQuarantine = 64;

// What MXMACA reads back with mcStreamGetAttribute.
struct StreamAttributes {
  mcAccessPolicyWindow window = {nullptr, 0, 0.0f, mcAccessPropertyNormal,
                                 mcAccessPropertyNormal};
  mcSynchronizationPolicy policy = mcSyncPolicyAuto;
};

// Adds a stream created on `device`, and true; false if CUDA gave it the
// address of a stream in the quarantine: the registry then keeps the new
// stream unused until that address leaves the quarantine, and the caller
// creates another (each refusal takes one more quarantined address, so at
// most kQuarantine + 1 creations find a free one).
bool AddStream(mcStream_t stream, int device);
// Adds an event created on `device`.
void AddEvent(mcEvent_t event, int device);

// Notes that `stream` (live or a default stream) allocates or frees
// stream-ordered memory, which makes its destruction immediate.
void NoteStreamAllocates(mcStream_t stream);

// Takes a live handle out of the live set and into the quarantine, really
// destroying the oldest one there once it holds more than kQuarantine;
// false (and nothing changes) if the handle was not live. A stream that
// allocated stream-ordered memory, and is not capturing, is destroyed in
// CUDA now (its work still runs to the end).
bool RetireStream(mcStream_t stream);
bool RetireEvent(mcEvent_t event);

// Takes a live event out of the live set and has CUDA destroy it at once,
// skipping the quarantine: an interprocess event whose handle was exported
// must be gone for the other processes too [api.ipc.event.open-handle];
// false if the event was not live.
bool DestroyEventNow(mcEvent_t event);

// True if `stream` is live or one of the default streams (null, legacy,
// per-thread).
bool IsStream(mcStream_t stream);

// True if `event` is live.
bool IsEvent(mcEvent_t event);

// The attributes of a live or default stream (the defaults if never set).
StreamAttributes GetStreamAttributes(mcStream_t stream);
void SetStreamAttributes(mcStream_t stream, const StreamAttributes& attributes);

// Forgets every handle of `device`, live or quarantined, and the default
// streams' attributes: mcDeviceReset destroyed them all. The addresses of
// its quarantined streams stay out of use until they leave the quarantine.
void ForgetDevice(int device);

}  // namespace mxcts::cuda_backend

#define MXCTS_CHECK_STREAM(stream)                                      \
  do {                                                                  \
    if (!::mxcts::cuda_backend::IsStream(stream)) {                     \
      return ::mxcts::cuda_backend::Fail(mcErrorInvalidResourceHandle); \
    }                                                                   \
  } while (0)
#define MXCTS_CHECK_EVENT(event)                                        \
  do {                                                                  \
    if (!::mxcts::cuda_backend::IsEvent(event)) {                       \
      return ::mxcts::cuda_backend::Fail(mcErrorInvalidResourceHandle); \
    }                                                                   \
  } while (0)

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_HANDLES_H_
