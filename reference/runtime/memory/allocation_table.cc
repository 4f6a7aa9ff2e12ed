// Copyright mxcts authors.
//
// The allocation table is an ordered map from start address to allocation;
// the allocation containing an address is the last one starting at or
// before it, if it reaches that far. All operations take one mutex, held
// only for the lookup itself.
//
// Tested by allocation_table_test.cc.

#include "reference/runtime/memory/allocation_table.h"

#include <iterator>

#include "absl/strings/str_format.h"

namespace mxcts::runtime {

const char* MemoryKindName(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kDevice:
      return "device memory";
    case MemoryKind::kHost:
      return "page-locked host memory";
    case MemoryKind::kManaged:
      return "managed memory";
    case MemoryKind::kDeviceVariable:
      return "a device variable";
    case MemoryKind::kManagedVariable:
      return "a managed variable";
    case MemoryKind::kRegisteredHost:
      return "registered host memory";
  }
  return "memory";
}

absl::Status AllocationTable::Insert(const Allocation& allocation) {
  if (allocation.size == 0 || allocation.end() < allocation.base) {
    return absl::InternalError("allocation table: empty or wrapping range");
  }
  absl::MutexLock lock(&mu_);
  auto next = by_base_.lower_bound(allocation.base);
  bool overlaps_next = next != by_base_.end() && next->first < allocation.end();
  bool overlaps_previous = next != by_base_.begin() &&
                           std::prev(next)->second.end() > allocation.base;
  if (overlaps_next || overlaps_previous) {
    return absl::InternalError(
        absl::StrFormat("allocation table: [%#x, %#x) overlaps a live range",
                        allocation.base, allocation.end()));
  }
  by_base_.emplace(allocation.base, allocation);
  return absl::OkStatus();
}

std::optional<Allocation> AllocationTable::Find(const void* address) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(address);
  absl::MutexLock lock(&mu_);
  auto after = by_base_.upper_bound(a);
  if (after == by_base_.begin()) return std::nullopt;
  const Allocation& candidate = std::prev(after)->second;
  if (!candidate.Contains(a)) return std::nullopt;
  return candidate;
}

std::optional<Allocation> AllocationTable::FindOverlap(uintptr_t begin,
                                                       size_t size) const {
  const uintptr_t end = begin + size < begin ? UINTPTR_MAX : begin + size;
  absl::MutexLock lock(&mu_);
  auto next = by_base_.lower_bound(begin);
  if (next != by_base_.begin() && std::prev(next)->second.end() > begin) {
    return std::prev(next)->second;
  }
  if (next != by_base_.end() && next->first < end) return next->second;
  return std::nullopt;
}

bool AllocationTable::Update(const void* base,
                             const std::function<void(Allocation&)>& change) {
  absl::MutexLock lock(&mu_);
  auto it = by_base_.find(reinterpret_cast<uintptr_t>(base));
  if (it == by_base_.end()) return false;
  Allocation changed = it->second;
  change(changed);
  changed.base = it->second.base;
  changed.size = it->second.size;
  it->second = changed;
  return true;
}

std::optional<Allocation> AllocationTable::Erase(const void* base) {
  absl::MutexLock lock(&mu_);
  auto it = by_base_.find(reinterpret_cast<uintptr_t>(base));
  if (it == by_base_.end()) return std::nullopt;
  Allocation erased = it->second;
  by_base_.erase(it);
  return erased;
}

std::vector<Allocation> AllocationTable::EraseIf(
    const std::function<bool(const Allocation&)>& predicate) {
  std::vector<Allocation> erased;
  absl::MutexLock lock(&mu_);
  for (auto it = by_base_.begin(); it != by_base_.end();) {
    if (predicate(it->second)) {
      erased.push_back(it->second);
      it = by_base_.erase(it);
    } else {
      ++it;
    }
  }
  return erased;
}

size_t AllocationTable::TotalSize(
    const std::function<bool(const Allocation&)>& predicate) const {
  size_t total = 0;
  absl::MutexLock lock(&mu_);
  for (const auto& [base, allocation] : by_base_) {
    if (predicate(allocation)) total += allocation.size;
  }
  return total;
}

}  // namespace mxcts::runtime
