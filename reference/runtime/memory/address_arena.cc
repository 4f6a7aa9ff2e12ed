// Copyright mxcts authors.
//
// Address arenas over mmap. The reservation is PROT_NONE, MAP_NORESERVE:
// it costs address space only. Allocation changes the protection of its
// pages to read-write (the kernel then supplies zero pages on first touch);
// release maps fresh PROT_NONE anonymous pages over them (MAP_FIXED), which
// drops their contents and also ends any file mapped there meanwhile (an
// exported allocation's shared memory file, an IPC mapping: ipc/), so a
// released range is always the reservation's own memory again.
//
// The allocator is a bump pointer over the fresh part of the range, then a
// first-fit search of the released spans, which are kept merged with their
// neighbours. Allocations are never moved.
//
// A checked arena uses the bump pointer alone. Each span is a guard page,
// the usable pages, and a guard page; the allocation starts so that its
// size rounded up to 256 ends exactly where the usable pages end, so an
// access just past the end of an allocation whose size is a multiple of 256
// faults at its first byte. The span map keeps every allocation, released
// ones marked, for PlacementAround; a lookup is one map search.
//
// Tested by address_arena_test.cc.

#include "reference/runtime/memory/address_arena.h"

#include <sys/mman.h>
#include <unistd.h>

#include <iterator>
#include <utility>

#include "absl/strings/str_cat.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {

size_t AddressArena::PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

namespace {

constexpr size_t kCheckedAlignment = 256;  // [api.memory.malloc.alignment-256]

size_t RoundUp(size_t value, size_t unit) {
  return (value + unit - 1) / unit * unit;
}

// Replaces the pages [base, base + size) with inaccessible anonymous
// memory, as the reservation made them.
void DropPages(void* base, size_t size) {
  mmap(base, size, PROT_NONE,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

}  // namespace

size_t AddressArena::CheckedUsableBytes(size_t size) {
  return RoundUp(RoundUp(size, kCheckedAlignment), PageSize());
}

size_t AddressArena::SpanOf(size_t size) const {
  size_t page = PageSize();
  if (layout_ == ArenaLayout::kChecked) {
    return page + CheckedUsableBytes(size) + page;
  }
  return RoundUp(size, page) + page;
}

absl::StatusOr<std::unique_ptr<AddressArena>> AddressArena::Reserve(
    std::string name, size_t bytes, size_t min_bytes, ArenaLayout layout) {
  size_t page = PageSize();
  for (size_t size = bytes; size >= min_bytes && size >= page; size /= 2) {
    size_t rounded = size / page * page;
    void* base = mmap(nullptr, rounded, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base != MAP_FAILED) {
      uintptr_t begin = reinterpret_cast<uintptr_t>(base);
      return std::unique_ptr<AddressArena>(
          new AddressArena(std::move(name), begin, begin + rounded, layout));
    }
  }
  return McStatus(mcErrorMemoryAllocation,
                  absl::StrCat("cannot reserve address space for ", name));
}

AddressArena::AddressArena(std::string name, uintptr_t begin, uintptr_t end,
                           ArenaLayout layout)
    : name_(std::move(name)),
      begin_(begin),
      end_(end),
      layout_(layout),
      next_fresh_(begin) {}

AddressArena::~AddressArena() {
  munmap(reinterpret_cast<void*>(begin_), end_ - begin_);
}

absl::StatusOr<void*> AddressArena::Allocate(size_t size) {
  size_t page = PageSize();
  if (size == 0 || size > (end_ - begin_) - page) {
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrCat(name_, ": no room for ", size, " bytes"));
  }
  if (layout_ == ArenaLayout::kChecked) return AllocateChecked(size);
  size_t span = SpanOf(size);
  absl::MutexLock lock(&mu_);
  uintptr_t start = 0;
  if (span <= end_ - next_fresh_) {
    start = next_fresh_;
    next_fresh_ += span;
  } else {
    for (auto it = released_.begin(); it != released_.end(); ++it) {
      if (it->second < span) continue;
      start = it->first;
      size_t rest = it->second - span;
      released_.erase(it);
      if (rest > 0) released_[start + span] = rest;
      break;
    }
  }
  if (start == 0) {
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrCat(name_, ": no room for ", size, " bytes"));
  }
  void* base = reinterpret_cast<void*>(start);
  if (mprotect(base, span - page, PROT_READ | PROT_WRITE) != 0) {
    // Give the span back untouched; it stays inaccessible.
    released_[start] = span;
    return McStatus(
        mcErrorMemoryAllocation,
        absl::StrCat(name_, ": the system refused ", size, " bytes"));
  }
  return base;
}

void AddressArena::Release(void* base, size_t size) {
  if (layout_ == ArenaLayout::kChecked) {
    ReleaseChecked(base, size);
    return;
  }
  size_t span = SpanOf(size);
  DropPages(base, span);
  uintptr_t start = reinterpret_cast<uintptr_t>(base);
  absl::MutexLock lock(&mu_);
  // Merge with the released neighbours on either side.
  auto next = released_.lower_bound(start);
  if (next != released_.end() && next->first == start + span) {
    span += next->second;
    next = released_.erase(next);
  }
  if (next != released_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == start) {
      previous->second += span;
      return;
    }
  }
  released_[start] = span;
}

absl::StatusOr<void*> AddressArena::AllocateChecked(size_t size) {
  const size_t page = PageSize();
  const size_t usable = CheckedUsableBytes(size);
  const size_t span = page + usable + page;
  absl::MutexLock lock(&mu_);
  // Released spans are never reused: a stale pointer must keep faulting.
  if (usable < size || span > end_ - next_fresh_) {
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrCat(name_, ": no room for ", size,
                                 " bytes (checked memory never reuses an "
                                 "address)"));
  }
  const uintptr_t start = next_fresh_;
  if (mprotect(reinterpret_cast<void*>(start + page), usable,
               PROT_READ | PROT_WRITE) != 0) {
    return McStatus(
        mcErrorMemoryAllocation,
        absl::StrCat(name_, ": the system refused ", size, " bytes"));
  }
  next_fresh_ += span;
  // The end of the allocation, rounded up to 256, touches the guard page.
  const uintptr_t base =
      start + page + usable - RoundUp(size, kCheckedAlignment);
  checked_[start] = CheckedSpan{span, Placement{base, size, false}};
  return reinterpret_cast<void*>(base);
}

void AddressArena::ReleaseChecked(void* base, size_t size) {
  const size_t page = PageSize();
  const uintptr_t usable_start =
      reinterpret_cast<uintptr_t>(base) / page * page;
  const size_t usable = CheckedUsableBytes(size);
  DropPages(reinterpret_cast<void*>(usable_start), usable);
  absl::MutexLock lock(&mu_);
  auto it = checked_.find(usable_start - page);
  if (it != checked_.end()) it->second.placement.released = true;
}

std::optional<AddressArena::Placement> AddressArena::PlacementAround(
    uintptr_t address) const {
  if (layout_ != ArenaLayout::kChecked) return std::nullopt;
  absl::MutexLock lock(&mu_);
  auto it = checked_.upper_bound(address);
  if (it == checked_.begin()) return std::nullopt;
  --it;
  if (address >= it->first + it->second.span) return std::nullopt;
  return it->second.placement;
}

}  // namespace mxcts::runtime
