// Copyright mxcts authors.
//
// reference/device/fibers/stack_pool.h: the stacks on which device threads run.
//
// A stack normally has an inaccessible guard page right below it, so a
// device thread that overflows its stack faults at once instead of
// overwriting a neighbour. A guard page costs the process two memory
// mappings, and the system bounds their number (vm.max_map_count, 65,530 by
// default), while a cooperative grid keeps a stack for every thread that
// waits at a grid barrier: up to the device's co-resident threads, over
// 200,000. So a pool hands out guarded stacks up to a budget that leaves
// the rest of the process most of the system's mappings, and after it
// carves stacks out of shared slabs: only a slab's lowest stack has a guard
// page, and every other one has a canary in its lowest bytes, which the
// scheduler checks whenever a thread leaves its stack (CanaryIntact).
//
// Stacks are expensive to map and cheap to reuse, so a pool keeps released
// stacks for the next fiber; a grid of a thousand blocks maps only as many
// stacks as its widest barrier needs.
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

// A usable stack: [base, base + size). When `guarded`, the inaccessible
// guard page lies right below `base`; otherwise the lowest
// StackPool::kCanaryBytes of the stack hold the pool's canary.
struct Stack {
  void* base = nullptr;
  size_t size = 0;
  bool guarded = true;

  // Stacks grow down: a fiber starts at the highest address.
  void* top() const { return static_cast<char*>(base) + size; }
};

class StackPool {
 public:
  // The bytes at the bottom of an unguarded stack that hold the canary.
  static constexpr size_t kCanaryBytes = 512;
  // How many stacks share one slab once the guarded budget is spent.
  static constexpr size_t kSlabStacks = 64;
  // The guarded-stack budget that the system's mapping limit allows.
  static constexpr size_t kBudgetFromSystem = ~size_t{0};

  // Stacks of `stack_bytes` usable bytes, rounded up to whole pages. At most
  // `guarded_budget` stacks have a guard page of their own (by default, a
  // budget that leaves a quarter of vm.max_map_count, and at least 16,384
  // mappings, to the rest of the process).
  explicit StackPool(size_t stack_bytes,
                     size_t guarded_budget = kBudgetFromSystem);
  ~StackPool();

  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  // Returns a stack not in use: a released one if any, else a new one.
  // ResourceExhausted if the system refuses the memory.
  absl::StatusOr<Stack> Acquire();

  // Gives back a stack that Acquire returned. Its contents are garbage from
  // then on; no fiber may still run on it after it is acquired again.
  void Release(const Stack& stack);

  // False when a thread overwrote the canary of unguarded `stack` (it
  // overflowed); always true for a guarded stack, whose overflow faults.
  bool CanaryIntact(const Stack& stack) const;

  // The usable bytes of every stack of this pool.
  size_t stack_bytes() const { return stack_bytes_; }
  // How many stacks the pool has mapped, in use or not.
  size_t mapped_count() const { return mapped_.size(); }
  // How many of them have a guard page of their own.
  size_t guarded_count() const { return guarded_count_; }
  // How many mapped stacks are not in use.
  size_t idle_count() const { return idle_.size(); }
  // The bytes of the inaccessible guard page below a guarded stack.
  size_t guard_bytes() const { return page_bytes_; }

  // The guarded stack whose guard page, or the `below` bytes under the guard
  // page, contains `address`: where a thread that overflowed that stack
  // faults. Null if none. Reads only the pool's list of stacks, so a signal
  // handler may call it while the pool's owner is interrupted anywhere but
  // in Acquire.
  const Stack* OverflowedStack(uintptr_t address, size_t below) const;
  // Whether `address` lies in a stack of this pool, in its guard page, or
  // in the `below` bytes under the guard page (where the stack pointer of a
  // thread that overflowed it may point). Same caveat as OverflowedStack.
  bool Covers(uintptr_t address, size_t below) const;

 private:
  // One mapping to unmap when the pool goes.
  struct Region {
    void* address;
    size_t bytes;
  };

  absl::StatusOr<Stack> MapGuardedStack();
  absl::StatusOr<Stack> CarveSlabStack();
  void WriteCanary(const Stack& stack) const;

  size_t stack_bytes_;
  size_t page_bytes_;
  size_t guarded_budget_;
  size_t guarded_count_ = 0;
  std::vector<Stack> mapped_;
  std::vector<Stack> idle_;
  std::vector<Region> regions_;
  // The slab stacks are carved from: the next free stack's base and how
  // many stacks are left in it.
  char* slab_next_ = nullptr;
  size_t slab_left_ = 0;
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_FIBERS_STACK_POOL_H_
