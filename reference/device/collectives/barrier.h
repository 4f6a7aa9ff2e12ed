// Copyright mxcts authors.
//
// reference/device/collectives/barrier.h: the block barrier, __syncthreads().
//
// A barrier phase is a rendezvous of every thread of the block. The first
// thread to arrive fixes the phase's call site; every later arrival must come
// from the same site (file and line), or the grid traps naming both sites.
// When the last thread arrives, all of them are released in linear order and
// the next phase begins. A thread that exits while others wait makes the
// phase impossible to complete; the block scheduler notices when no thread
// can run any more and traps ("barrier skipped by exiting threads").
//
//   BlockBarrier barrier(&block);
//   barrier.Arrive(__FILE__, __LINE__);  // on a device thread of `block`

#ifndef REFERENCE_DEVICE_COLLECTIVES_BARRIER_H_
#define REFERENCE_DEVICE_COLLECTIVES_BARRIER_H_

#include <vector>

#include "reference/device/scheduling/block_scheduler.h"

namespace mxcts::device_internal {

class BlockBarrier {
 public:
  // The barrier of the block that `block` runs; `block` must outlive it.
  // Nothing is allocated until the first arrival: most blocks of most
  // grids never wait, and a block of a large grid is set up thousands of
  // times.
  explicit BlockBarrier(BlockScheduler* block) : block_(block) {}

  BlockBarrier(const BlockBarrier&) = delete;
  BlockBarrier& operator=(const BlockBarrier&) = delete;

  // What a barrier call combines over the block: nothing (__syncthreads)
  // or a predicate (__syncthreads_count, _and, _or; the __MC_BARRIER_*
  // values of mcr/detail/device_abi.h).
  enum class Kind { kPlain = 0, kCount = 1, kAnd = 2, kOr = 3 };

  // The current thread arrives at the __syncthreads() call at file:line.
  // Returns when every thread of the block has arrived there; traps if a
  // thread of this phase waits at another call site.
  void Arrive(const char* file, int line);

  // The current thread arrives with `predicate` at a barrier call of `kind`
  // at file:line. Returns, when every thread of the block has arrived, the
  // phase's combined value: the number of threads with a nonzero predicate
  // (kCount), 1 if all (kAnd) or any (kOr) of them had one, else 0; 0 for
  // kPlain. Traps if a thread of this phase waits at another call site or
  // at a barrier of another kind.
  int Arrive(Kind kind, int predicate, const char* file, int line);

  // How many phases have completed (tests count them).
  unsigned long completed_phases() const { return completed_phases_; }

 private:
  static const char* OperationName(Kind kind) {
    switch (kind) {
      case Kind::kPlain:
        return "__syncthreads()";
      case Kind::kCount:
        return "__syncthreads_count()";
      case Kind::kAnd:
        return "__syncthreads_and()";
      case Kind::kOr:
        return "__syncthreads_or()";
    }
    return "a barrier";
  }
  // Arrive, for a plain barrier (kPredicated false: kind is kPlain) or one
  // with a predicate; the plain one skips the predicate's bookkeeping.
  // Always inline: each thread of a block runs it once per phase, and a
  // frame fewer is a tenth of its cost.
  template <bool kPredicated>
  __attribute__((always_inline)) inline int ArriveAs(Kind kind, int predicate,
                                                     const char* file,
                                                     int line);
  // Releases every thread of the block, each with `result`, in linear
  // order or the schedule order's.
  void ReleasePhase(int result);
  // The value the phase under way gives every thread when it completes.
  int PhaseResult() const;
  // The last thread of the phase has arrived: releases every thread with
  // the phase's result and begins the next phase. Out of line: once per
  // phase, while Arrive's frame is kept by every parked thread.
  __attribute__((noinline)) void CompletePhase();
  // Traps: the current thread arrived at a barrier of `kind` at file:line
  // while the phase under way waits at another call site or barrier kind.
  [[noreturn]] __attribute__((noinline, cold)) void TrapDifferentBarriers(
      Kind kind, const char* file, int line) const;

  BlockScheduler* const block_;
  unsigned arrived_ = 0;        // threads waiting in the phase under way
  unsigned first_arrival_ = 0;  // of the phase under way, if any
  // Of the phase under way: where every parked thread of it waits.
  WaitSite site_;
  Kind kind_ = Kind::kPlain;         // of the phase under way
  unsigned nonzero_predicates_ = 0;  // of the phase under way
  // Each thread's result of the last phase with a predicate it took part
  // in: a released thread reads it after later phases may have begun.
  // Sized at the first such phase's release; a plain barrier's result is 0.
  std::vector<int> results_;
  unsigned long completed_phases_ = 0;
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_COLLECTIVES_BARRIER_H_
