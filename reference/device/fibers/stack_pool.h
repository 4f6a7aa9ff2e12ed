// Copyright mxcts authors.
//
// reference/device/fibers/stack_pool.h: the stacks on which device threads run.
//
// Each stack is a private anonymous mapping with an inaccessible guard page
// below it, so a device thread that overflows its stack faults at once
// instead of overwriting a neighbour. Stacks are expensive to map and cheap to
// reuse, so a pool keeps released stacks for the next fiber; a grid of a
// thousand blocks maps only as many stacks as its widest barrier needs.
//
//   StackPool pool(256 * 1024);
//   absl::StatusOr<Stack> stack = pool.Acquire();
//   ... run a fiber on *stack ...
//   pool.Release(*stack);

#ifndef REFERENCE_DEVICE_FIBERS_STACK_POOL_H_
#define REFERENCE_DEVICE_FIBERS_STACK_POOL_H_

#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "absl/status/statusor.h"

namespace mxcts::device_internal {

// A usable stack: [base, base + size). The guard page lies below `base`.
struct Stack {
  void* base = nullptr;
  size_t size = 0;

  // Stacks grow down: a fiber starts at the highest address.
  void* top() const { return static_cast<char*>(base) + size; }
};

class StackPool {
 public:
  // Stacks of `stack_bytes` usable bytes, rounded up to whole pages.
  explicit StackPool(size_t stack_bytes);
  ~StackPool();

  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  // Returns a stack not in use: a released one if any, else a new mapping.
  // ResourceExhausted if the system refuses a new mapping.
  absl::StatusOr<Stack> Acquire();

  // Gives back a stack that Acquire returned. Its contents are garbage from
  // then on; no fiber may still run on it after it is acquired again.
  void Release(const Stack& stack);

  // The usable bytes of every stack of this pool.
  size_t stack_bytes() const { return stack_bytes_; }
  // How many stacks the pool has mapped, in use or not.
  size_t mapped_count() const { return mapped_.size(); }
  // How many mapped stacks are not in use.
  size_t idle_count() const { return idle_.size(); }
  // The bytes of the inaccessible guard page below each stack.
  size_t guard_bytes() const { return page_bytes_; }

  // The stack whose guard page, or the `below` bytes under the guard page,
  // contains `address`: where a thread that overflowed that stack faults.
  // Null if none. Reads only the pool's list of mappings, so a signal
  // handler may call it while the pool's owner is interrupted anywhere but
  // in Acquire.
  const Stack* OverflowedStack(uintptr_t address, size_t below) const;
  // Whether `address` lies in a stack of this pool, in its guard page, or
  // in the `below` bytes under the guard page (where the stack pointer of a
  // thread that overflowed it may point). Same caveat as OverflowedStack.
  bool Covers(uintptr_t address, size_t below) const;

 private:
  size_t stack_bytes_;
  size_t page_bytes_;
  std::vector<Stack> mapped_;
  std::vector<Stack> idle_;
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_FIBERS_STACK_POOL_H_
