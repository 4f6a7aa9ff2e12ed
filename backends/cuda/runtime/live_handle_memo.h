// Copyright mxcts authors.
//
// A thread's memo of the last handle of one kind that the adapter's
// registry found live, so that a program passing the same stream (event,
// executable graph) call after call pays for one locked registry lookup,
// not one per call: the check every stream-ordered entry makes costs a
// mutex and a hash lookup otherwise, a fifth of an mcEventRecord.
//
// A memo is good while no handle has left its registry since it was made:
// each registry counts its removals (RetirementCount, bumped under the
// registry's lock), and a memo made at an older count is stale. A handle
// destroyed by another thread is then found dead at this thread's next
// call after the destroy returned, as with a lookup every time.
//
//   thread_local LiveHandleMemo last_stream;
//   if (last_stream.Holds(stream, registry.retired)) return true;
//   std::lock_guard<std::mutex> lock(registry.mutex);
//   if (registry.streams.count(stream) == 0) return false;
//   last_stream.Keep(stream, registry.retired);
//   return true;

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_LIVE_HANDLE_MEMO_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_LIVE_HANDLE_MEMO_H_

#include <atomic>
#include <cstdint>

namespace mxcts::cuda_backend {

// How many handles have left a registry. Bump it, with the registry
// locked, whenever one does (destroyed, retired, forgotten at a reset).
class RetirementCount {
 public:
  void Bump() { count_.fetch_add(1, std::memory_order_acq_rel); }
  uint64_t Now() const { return count_.load(std::memory_order_acquire); }

 private:
  // From 1, so that a memo never made (count 0) holds nothing.
  std::atomic<uint64_t> count_{1};
};

class LiveHandleMemo {
 public:
  // True if `handle` is the one this memo keeps and no handle has left the
  // registry since.
  bool Holds(const void* handle, const RetirementCount& retired) const {
    return handle != nullptr && handle == handle_ && count_ == retired.Now();
  }
  // Keeps `handle`, just found live; call with the registry locked.
  void Keep(const void* handle, const RetirementCount& retired) {
    handle_ = handle;
    count_ = retired.Now();
  }

 private:
  const void* handle_ = nullptr;
  uint64_t count_ = 0;
};

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_LIVE_HANDLE_MEMO_H_
