// Copyright mxcts authors.
//
// Advice is kept as pieces: a map from the start of each run of bytes with
// the same state to that state. Apply splits the pieces at both ends of
// the range, changes the pieces in between, and joins neighbours left
// equal, so the map stays as small as the advice given. An allocation
// nobody advised has no entry; its bytes have the default state.
//
// Tested by memory_advice_test.cc.

#include "reference/runtime/memory/memory_advice.h"

#include <algorithm>
#include <iterator>

namespace mxcts::runtime {

uint64_t ManagedAdvice::LocationBit(int location) {
  if (location < kHostLocation || location >= 63) return 0;
  return uint64_t{1} << (location + 1);
}

void ManagedAdvice::SplitAt(Pieces& pieces, uintptr_t at) {
  auto after = pieces.upper_bound(at);
  if (after == pieces.begin()) return;  // before the allocation
  auto containing = std::prev(after);
  if (containing->first == at) return;
  pieces.emplace_hint(after, at, containing->second);
}

void ManagedAdvice::Apply(uintptr_t base, size_t size, uintptr_t address,
                          size_t count,
                          const std::function<void(AdviceState&)>& change) {
  if (count == 0) return;
  const uintptr_t end = address + count;
  absl::MutexLock lock(&mu_);
  Pieces& pieces = allocations_[base];
  if (pieces.empty()) pieces.emplace(base, AdviceState());
  SplitAt(pieces, address);
  if (end < base + size) SplitAt(pieces, end);
  for (auto it = pieces.find(address); it != pieces.end() && it->first < end;
       ++it) {
    change(it->second);
  }
  // Join equal neighbours, so repeated advice does not grow the map.
  for (auto it = pieces.begin(); it != pieces.end();) {
    auto next = std::next(it);
    if (next != pieces.end() && next->second == it->second) {
      pieces.erase(next);
    } else {
      it = next;
    }
  }
  if (pieces.size() == 1 && pieces.begin()->second == AdviceState()) {
    allocations_.erase(base);
  }
}

RangeAdvice ManagedAdvice::Query(uintptr_t base, size_t size, uintptr_t address,
                                 size_t count) const {
  (void)size;
  std::vector<AdviceState> states;
  {
    absl::MutexLock lock(&mu_);
    auto found = allocations_.find(base);
    if (found == allocations_.end()) {
      states.push_back(AdviceState());
    } else {
      const Pieces& pieces = found->second;
      const uintptr_t end = address + count;
      auto it = std::prev(pieces.upper_bound(address));
      for (; it != pieces.end() && it->first < end; ++it) {
        states.push_back(it->second);
      }
    }
  }
  RangeAdvice result;
  result.read_mostly = true;
  uint64_t accessed_by = ~uint64_t{0};
  for (const AdviceState& state : states) {
    result.read_mostly = result.read_mostly && state.read_mostly;
    accessed_by &= state.accessed_by;
  }
  const AdviceState& first = states.front();
  auto same = [&](int AdviceState::*field) {
    return std::all_of(
               states.begin(), states.end(),
               [&](const AdviceState& s) { return s.*field == first.*field; })
               ? first.*field
               : kNoLocation;
  };
  result.preferred_location = same(&AdviceState::preferred_location);
  result.last_prefetch = same(&AdviceState::last_prefetch);
  for (int location = kHostLocation; location < 63; ++location) {
    if ((accessed_by & LocationBit(location)) != 0) {
      result.accessed_by.push_back(location);
    }
  }
  return result;
}

void ManagedAdvice::Forget(uintptr_t base) {
  absl::MutexLock lock(&mu_);
  allocations_.erase(base);
}

}  // namespace mxcts::runtime
