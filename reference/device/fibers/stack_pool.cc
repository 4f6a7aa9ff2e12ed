// Copyright mxcts authors.
//
// A guarded stack is one anonymous mapping of a guard page plus the usable
// bytes, whose lowest page is made inaccessible. A slab is one mapping of a
// guard page and kSlabStacks stacks laid end to end: its lowest stack is
// guarded by the slab's guard page, and each one above it has the stack
// below as its neighbour, with a canary in its own lowest bytes between
// them. Released stacks go to an idle list and are handed out again
// last-in first-out, so the pages a grid touched stay warm for the next
// fiber. Mappings are returned to the system only when the pool is
// destroyed (the engine replaces its pool when the stack size setting
// changes).
//
// Tested by stack_pool_test.cc.

#include "reference/device/fibers/stack_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mxcts::device_internal {
namespace {

// The canary's byte pattern: not zero (fresh pages) and not a small
// integer or pointer byte that ordinary frames are full of.
constexpr unsigned char kCanaryByte = 0xa7;

// The system's bound on a process's memory mappings, or the Linux default
// when it cannot be read.
size_t SystemMappingLimit() {
  size_t limit = 65530;
  if (FILE* file = std::fopen("/proc/sys/vm/max_map_count", "r")) {
    unsigned long value = 0;
    if (std::fscanf(file, "%lu", &value) == 1 && value > 0) limit = value;
    std::fclose(file);
  }
  return limit;
}

// A guarded stack costs two mappings; leave a quarter of the limit, and at
// least 16,384 mappings, to the rest of the process (its heap, libraries,
// other pools).
size_t GuardedBudgetFromSystem() {
  const size_t limit = SystemMappingLimit();
  const size_t reserve = std::max<size_t>(limit / 4, 16384);
  return limit > reserve ? (limit - reserve) / 2 : 0;
}

}  // namespace

StackPool::StackPool(size_t stack_bytes, size_t guarded_budget)
    : page_bytes_(static_cast<size_t>(sysconf(_SC_PAGESIZE))),
      guarded_budget_(guarded_budget == kBudgetFromSystem
                          ? GuardedBudgetFromSystem()
                          : guarded_budget) {
  size_t bytes = std::max(stack_bytes, page_bytes_);
  stack_bytes_ = (bytes + page_bytes_ - 1) / page_bytes_ * page_bytes_;
}

StackPool::~StackPool() {
  for (const Region& region : regions_) munmap(region.address, region.bytes);
}

absl::StatusOr<Stack> StackPool::Acquire() {
  if (!idle_.empty()) {
    Stack stack = idle_.back();
    idle_.pop_back();
    // The previous fiber's frames may have reached the canary legitimately
    // if it was near the end of its stack; start clean.
    if (!stack.guarded) WriteCanary(stack);
    return stack;
  }
  if (guarded_count_ < guarded_budget_) {
    absl::StatusOr<Stack> stack = MapGuardedStack();
    if (stack.ok()) return stack;
    // Out of mappings after all (another part of the process used them):
    // slabs need far fewer.
    guarded_budget_ = guarded_count_;
  }
  return CarveSlabStack();
}

absl::StatusOr<Stack> StackPool::MapGuardedStack() {
  const size_t total = stack_bytes_ + page_bytes_;
  void* region = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot map a device thread stack of ", stack_bytes_, " bytes"));
  }
  // The guard page: the lowest page, below the stack's lowest address.
  if (mprotect(region, page_bytes_, PROT_NONE) != 0) {
    munmap(region, total);
    return absl::ResourceExhaustedError(
        "cannot protect the guard page of a device thread stack");
  }
  regions_.push_back({region, total});
  Stack stack{static_cast<char*>(region) + page_bytes_, stack_bytes_, true};
  mapped_.push_back(stack);
  ++guarded_count_;
  return stack;
}

absl::StatusOr<Stack> StackPool::CarveSlabStack() {
  if (slab_left_ == 0) {
    const size_t total = page_bytes_ + kSlabStacks * stack_bytes_;
    void* region = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) {
      return absl::ResourceExhaustedError(
          absl::StrCat("cannot map ", kSlabStacks, " device thread stacks of ",
                       stack_bytes_, " bytes"));
    }
    if (mprotect(region, page_bytes_, PROT_NONE) != 0) {
      munmap(region, total);
      return absl::ResourceExhaustedError(
          "cannot protect the guard page of a slab of device thread stacks");
    }
    regions_.push_back({region, total});
    slab_next_ = static_cast<char*>(region) + page_bytes_;
    slab_left_ = kSlabStacks;
  }
  // The slab's lowest stack sits right on its guard page.
  const bool guarded = slab_left_ == kSlabStacks;
  Stack stack{slab_next_, stack_bytes_, guarded};
  slab_next_ += stack_bytes_;
  --slab_left_;
  if (!guarded) WriteCanary(stack);
  mapped_.push_back(stack);
  return stack;
}

void StackPool::WriteCanary(const Stack& stack) const {
  std::memset(stack.base, kCanaryByte, kCanaryBytes);
}

bool StackPool::CanaryIntact(const Stack& stack) const {
  if (stack.guarded) return true;
  const unsigned char* bytes = static_cast<const unsigned char*>(stack.base);
  for (size_t i = 0; i < kCanaryBytes; ++i) {
    if (bytes[i] != kCanaryByte) return false;
  }
  return true;
}

void StackPool::Release(const Stack& stack) { idle_.push_back(stack); }

const Stack* StackPool::OverflowedStack(uintptr_t address, size_t below) const {
  for (const Stack& stack : mapped_) {
    if (!stack.guarded) continue;
    const uintptr_t base = reinterpret_cast<uintptr_t>(stack.base);
    const uintptr_t guard = base - page_bytes_;
    const uintptr_t lowest = guard > below ? guard - below : 0;
    if (address >= lowest && address < base) return &stack;
  }
  return nullptr;
}

bool StackPool::Covers(uintptr_t address, size_t below) const {
  for (const Stack& stack : mapped_) {
    const uintptr_t guard =
        reinterpret_cast<uintptr_t>(stack.base) - page_bytes_;
    const uintptr_t lowest = guard > below ? guard - below : 0;
    if (address >= lowest &&
        address <= reinterpret_cast<uintptr_t>(stack.top())) {
      return true;
    }
  }
  return false;
}

}  // namespace mxcts::device_internal
