// Copyright mxcts authors.
//
// reference/device/collectives/grid_barrier.h: the grid barrier of a
// cooperative launch, cooperative_groups::grid_group::sync().
//
// A phase is a rendezvous of every thread of the grid. An arriving thread
// parks in its block (BlockScheduler::ParkCurrentForGrid); a block whose
// remaining threads all wait here is suspended and the cooperative grid
// loop (reference/device/cooperative_grid.h) runs the next block. Once
// every thread of the grid has arrived, the loop releases the waiters of
// every block (Release) and resumes the blocks. A thread that exits while
// others wait makes the phase impossible to complete: its block stalls
// ("barrier skipped by exiting threads"), or, when a whole block has
// exited, the loop traps after the round.
//
//   GridBarrier barrier(grid_threads, block_count);
//   barrier.EnterBlock(slot, &block);      // host, before each switch
//   barrier.Arrive(__FILE__, __LINE__);    // device thread of `block`
//   if (barrier.PhaseComplete()) { barrier.Release(slot, &block); ... }

#ifndef REFERENCE_DEVICE_COLLECTIVES_GRID_BARRIER_H_
#define REFERENCE_DEVICE_COLLECTIVES_GRID_BARRIER_H_

#include <vector>

#include "reference/device/scheduling/block_scheduler.h"

namespace mxcts::device_internal {

class GridBarrier {
 public:
  // The barrier of a grid of `grid_threads` threads in `block_count`
  // blocks, each block known by its slot, 0 to block_count - 1.
  GridBarrier(unsigned long long grid_threads, unsigned block_count);

  GridBarrier(const GridBarrier&) = delete;
  GridBarrier& operator=(const GridBarrier&) = delete;

  // Host side: the block in `slot`, run by `block`, runs next.
  void EnterBlock(unsigned slot, BlockScheduler* block);

  // Device side: the current thread of the current block arrives at the
  // grid_group::sync() call at file:line and waits until the loop resumes
  // it after the phase completed.
  void Arrive(const char* file, int line);

  // Whether every thread of the grid has arrived in the phase under way.
  bool PhaseComplete() const { return arrived_ == grid_threads_; }
  // Threads arrived in the phase under way.
  unsigned long long arrived() const { return arrived_; }
  unsigned long long grid_threads() const { return grid_threads_; }
  // The call site of the phase's first arrival (for diagnostics).
  const WaitSite& site() const { return site_; }

  // Host side, once the phase is complete: makes the waiting threads of
  // the block in `slot` ready, in linear order or the block's shuffled
  // release order. After every slot is released, EndPhase.
  void Release(unsigned slot, BlockScheduler* block);
  // Starts the next phase.
  void EndPhase();

  // How many phases have completed (tests count them).
  unsigned long completed_phases() const { return completed_phases_; }

 private:
  const unsigned long long grid_threads_;
  unsigned long long arrived_ = 0;
  // Per slot, the linear indices of the threads that wait, in arrival order.
  std::vector<std::vector<unsigned>> waiting_;
  unsigned current_slot_ = 0;
  BlockScheduler* current_block_ = nullptr;
  WaitSite site_;
  unsigned long completed_phases_ = 0;
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_COLLECTIVES_GRID_BARRIER_H_
