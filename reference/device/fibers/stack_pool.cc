// Copyright mxcts authors.
//
// The stack pool maps each stack as one anonymous region of a guard page plus
// the usable bytes, and makes the lowest page inaccessible. Released stacks
// go to an idle list and are handed out again last-in first-out, so the
// pages a grid touched stay warm for the next fiber. Mappings are returned to
// the system only when the pool is destroyed (the engine replaces its pool
// when the stack size setting changes).
//
// Tested by stack_pool_test.cc.

#include "reference/device/fibers/stack_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mxcts::device_internal {

StackPool::StackPool(size_t stack_bytes)
    : page_bytes_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {
  size_t bytes = std::max(stack_bytes, page_bytes_);
  stack_bytes_ = (bytes + page_bytes_ - 1) / page_bytes_ * page_bytes_;
}

StackPool::~StackPool() {
  for (const Stack& stack : mapped_) {
    munmap(static_cast<char*>(stack.base) - page_bytes_,
           stack.size + page_bytes_);
  }
}

absl::StatusOr<Stack> StackPool::Acquire() {
  if (!idle_.empty()) {
    Stack stack = idle_.back();
    idle_.pop_back();
    return stack;
  }
  size_t total = stack_bytes_ + page_bytes_;
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
  Stack stack{static_cast<char*>(region) + page_bytes_, stack_bytes_};
  mapped_.push_back(stack);
  return stack;
}

void StackPool::Release(const Stack& stack) { idle_.push_back(stack); }

const Stack* StackPool::OverflowedStack(uintptr_t address, size_t below) const {
  for (const Stack& stack : mapped_) {
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
