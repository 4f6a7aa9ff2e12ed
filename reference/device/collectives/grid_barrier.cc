// Copyright mxcts authors.
//
// The grid barrier counts arrivals over the whole grid and keeps, per block,
// who waits; the block schedulers park the threads and the cooperative grid
// loop, on the host, releases and resumes them. Arrival never releases
// anything itself: the arriving block cannot resume the other suspended
// blocks (only the host switches between blocks), so even the last arrival
// parks, its block suspends, and the loop sees the completed phase.
//
// Unlike the block barrier, arrivals from different call sites are one
// phase: a grid-wide barrier is the same barrier wherever it is called.
//
// A grid that was not launched cooperatively has no grid barrier: its
// blocks are not co-resident, so a grid sync could never complete (the spec
// makes it undefined); the reference traps instead of hanging.
// [api.coop.grid.sync-without-cooperative-launch-undefined]
//
// Tested by reference/device/cooperative_grid_test.cc.

#include "reference/device/collectives/grid_barrier.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_format.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {

GridBarrier::GridBarrier(unsigned long long grid_threads, unsigned block_count)
    : grid_threads_(grid_threads), waiting_(block_count) {}

void GridBarrier::EnterBlock(unsigned slot, BlockScheduler* block) {
  current_slot_ = slot;
  current_block_ = block;
}

void GridBarrier::Arrive(const char* file, int line) {
  const WaitSite here{"grid_group::sync()",
                      file != nullptr ? file : "<unknown>", line};
  if (arrived_ == 0) site_ = here;
  BlockScheduler* block = current_block_;
  waiting_[current_slot_].push_back(block->current_thread());
  ++arrived_;
  // [api.coop.grid.sync-across-blocks]
  block->ParkCurrentForGrid(here);
  block->Yield();
}

void GridBarrier::Release(unsigned slot, BlockScheduler* block) {
  std::vector<unsigned>& waiting = waiting_[slot];
  // Every thread of the block waits (none has exited, or the block would
  // have stalled), so the linear release order is 0, 1, ..., n-1.
  std::sort(waiting.begin(), waiting.end());
  block->MakeReadyInScheduleOrder(&waiting);
  waiting.clear();
}

void GridBarrier::EndPhase() {
  arrived_ = 0;
  ++completed_phases_;
}

}  // namespace mxcts::device_internal

extern "C" void __mc_dev_grid_sync(const char* file, int line) {
  using namespace mxcts::device_internal;
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->block == nullptr) {
    DieOutsideGrid("grid_group::sync()", file, line);
  }
  if (grid->grid_barrier == nullptr) {
    // [api.coop.grid.sync-without-cooperative-launch-undefined]
    Trap(mcErrorLaunchFailure,
         absl::StrFormat(
             "grid_group::sync() at %s:%d in a grid that was not launched "
             "cooperatively (mcLaunchCooperativeKernel): its blocks are not "
             "co-resident, so the grid barrier could never complete",
             file != nullptr ? file : "<unknown>", line));
  }
  grid->grid_barrier->Arrive(file, line);
}

extern "C" int __mc_dev_grid_is_cooperative(void) {
  using namespace mxcts::device_internal;
  ActiveGrid* grid = CurrentGrid();
  // [api.coop.grid.is-valid-only-cooperative]
  return grid != nullptr && grid->grid_barrier != nullptr ? 1 : 0;
}
