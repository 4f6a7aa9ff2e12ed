// Copyright mxcts authors.
//
// reference/runtime/memory/memory_advice.h: what mcMemAdvise and
// mcMemPrefetchAsync have said about the bytes of managed allocations, for
// mcMemRangeGetAttribute to report.
//
// Advice never changes a value a program reads
// [api.memory.advise.does-not-change-values]: in the reference every device
// reaches managed memory at the same address, so advice has no effect but
// to be remembered. Each managed allocation with advice gets a piecewise
// constant map from its bytes to an AdviceState; a query over a range
// answers what holds for every byte of it.
//
//   ManagedAdvice advice;
//   advice.Apply(base, size, p, 4096, [](AdviceState& s) {
//     s.preferred_location = 1;
//   });
//   advice.Query(base, size, p, 4096).preferred_location;   // 1
//   advice.Forget(base);   // when the allocation is released

#ifndef MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_ADVICE_H_
#define MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_ADVICE_H_

#include <stddef.h>
#include <stdint.h>

#include <functional>
#include <map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace mxcts::runtime {

// The location value that names no location (mcInvalidDeviceId).
inline constexpr int kNoLocation = -2;
// The location value that names the host (mcCpuDeviceId).
inline constexpr int kHostLocation = -1;

// What has been said about one byte of managed memory.
struct AdviceState {
  bool read_mostly = false;
  int preferred_location = kNoLocation;  // a device, kHostLocation or none
  // Bit 0: the host; bit d + 1: device d.
  uint64_t accessed_by = 0;
  int last_prefetch = kNoLocation;

  bool operator==(const AdviceState& other) const {
    return read_mostly == other.read_mostly &&
           preferred_location == other.preferred_location &&
           accessed_by == other.accessed_by &&
           last_prefetch == other.last_prefetch;
  }
  bool operator!=(const AdviceState& other) const { return !(*this == other); }
};

// What holds for every byte of a queried range.
struct RangeAdvice {
  bool read_mostly = false;              // every byte is read-mostly
  int preferred_location = kNoLocation;  // the same for every byte, or none
  std::vector<int> accessed_by;          // locations set for every byte,
                                         // ascending (the host, -1, first)
  int last_prefetch = kNoLocation;       // the same for every byte, or none
};

class ManagedAdvice {
 public:
  // Changes the state of [address, address + count), which lies in the
  // managed allocation [base, base + size), with `change`.
  void Apply(uintptr_t base, size_t size, uintptr_t address, size_t count,
             const std::function<void(AdviceState&)>& change);
  // What holds for every byte of [address, address + count) (count > 0),
  // inside the allocation [base, base + size).
  RangeAdvice Query(uintptr_t base, size_t size, uintptr_t address,
                    size_t count) const;
  // Drops what was said about the allocation at `base`.
  void Forget(uintptr_t base);

  // The bit of `location` (kHostLocation or a device ordinal below 63) in
  // AdviceState::accessed_by.
  static uint64_t LocationBit(int location);

 private:
  // One allocation: the state from each key up to the next key (or the
  // end); the first key is the allocation's base.
  using Pieces = std::map<uintptr_t, AdviceState>;
  // Makes a piece start at `at`, inside the allocation of `pieces`.
  static void SplitAt(Pieces& pieces, uintptr_t at);

  mutable absl::Mutex mu_;
  std::map<uintptr_t, Pieces> allocations_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_ADVICE_H_
