// Copyright mxcts authors.
//
// reference/device/barrier.h: the block barrier, __syncthreads().
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

#ifndef REFERENCE_DEVICE_BARRIER_H_
#define REFERENCE_DEVICE_BARRIER_H_

#include <vector>

#include "reference/device/block_scheduler.h"

namespace mxcts::device_internal {

class BlockBarrier {
 public:
  // The barrier of the block that `block` runs; `block` must outlive it.
  explicit BlockBarrier(BlockScheduler* block) : block_(block) {}

  BlockBarrier(const BlockBarrier&) = delete;
  BlockBarrier& operator=(const BlockBarrier&) = delete;

  // The current thread arrives at the __syncthreads() call at file:line.
  // Returns when every thread of the block has arrived there; traps if a
  // thread of this phase waits at another call site.
  void Arrive(const char* file, int line);

  // How many phases have completed (tests count them).
  unsigned long completed_phases() const { return completed_phases_; }

 private:
  BlockScheduler* const block_;
  std::vector<unsigned> waiting_;  // linear thread indices, in arrival order
  WaitSite site_;                  // of the phase under way
  unsigned long completed_phases_ = 0;
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_BARRIER_H_
