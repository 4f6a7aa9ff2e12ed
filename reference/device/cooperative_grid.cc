// Copyright mxcts authors.
//
// The loop keeps one LiveBlock per block of the grid, in slots numbered in
// start order. The host switches between blocks only here, so the current
// grid's block, barrier, wave state and arena are set before every Run and
// Resume, and the built-ins follow (BlockScheduler::EnterBlock). The shared
// arena of a block stays with it across suspensions: a thread that resumes
// after a grid sync finds its block's shared memory as it left it.
//
// A round ends when every live block is suspended or done. If threads wait
// but the phase is not complete, some thread of the grid exited without
// arriving (a block with exited threads stalls by itself, so here a whole
// block has exited): the grid traps from the host, naming a waiting thread.
//
// Tested by cooperative_grid_test.cc.

#include "reference/device/cooperative_grid.h"

#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "reference/device/collectives/barrier.h"
#include "reference/device/collectives/grid_barrier.h"
#include "reference/device/collectives/wave_collectives.h"
#include "reference/device/scheduling/block_scheduler.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {
namespace {

// A block of the grid with everything it keeps while it is suspended.
// Members are destroyed in reverse order: the wave state detaches from the
// scheduler before the scheduler returns its stacks.
struct LiveBlock {
  std::unique_ptr<BlockScheduler> scheduler;
  std::unique_ptr<BlockBarrier> barrier;
  std::unique_ptr<WaveCollectives> waves;
  SharedArena* arena = nullptr;
  bool done = false;  // every thread exited
};

// Arenas for the second and later blocks of cooperative grids, reused from
// grid to grid (mapping one costs system calls), packed or checked.
std::vector<std::unique_ptr<SharedArena>>& ArenaPool(bool checked) {
  static thread_local std::vector<std::unique_ptr<SharedArena>> packed;
  static thread_local std::vector<std::unique_ptr<SharedArena>> guarded;
  return checked ? guarded : packed;
}

class CooperativeLoop {
 public:
  CooperativeLoop(const device::GridLaunch& launch, StackPool* stacks,
                  SharedArena* first_arena, ScheduleOrder* order,
                  ActiveGrid* grid, Fiber* host, unsigned block_count,
                  unsigned long long grid_threads)
      : launch_(launch),
        stacks_(stacks),
        order_(order),
        grid_(grid),
        host_(host),
        blocks_(block_count),
        barrier_(grid_threads, block_count),
        first_arena_(first_arena) {
    free_arenas_.push_back(first_arena);
    grid_->grid_barrier = &barrier_;
  }

  ~CooperativeLoop() {
    grid_->block = nullptr;
    grid_->barrier = nullptr;
    grid_->waves = nullptr;
    grid_->grid_barrier = nullptr;
  }

  // Creates the block in `slot` (linear index `linear`) and runs it until
  // it ends or suspends; false on a trap.
  bool Start(unsigned slot, unsigned linear) {
    SharedArena* arena = TakeArena();
    const dim3 shape = launch_.grid;
    const uint3 index{linear % shape.x, linear / shape.x % shape.y,
                      linear / shape.x / shape.y};
    LiveBlock& block = blocks_[slot];
    block.scheduler =
        std::make_unique<BlockScheduler>(launch_, index, stacks_, order_);
    block.barrier = std::make_unique<BlockBarrier>(block.scheduler.get());
    block.waves = std::make_unique<WaveCollectives>(block.scheduler.get());
    block.arena = arena;
    arena->BeginBlock();
    EnterSlot(slot);
    block.done = block.scheduler->Run(host_);
    if (block.done) Retire(block);
    return block.done || block.scheduler->suspended();
  }

  // Runs phases until every block is done; false on a trap.
  bool Finish() {
    for (;;) {
      bool any_suspended = false;
      for (const LiveBlock& block : blocks_) {
        any_suspended = any_suspended || !block.done;
      }
      if (!any_suspended) return true;
      if (!barrier_.PhaseComplete()) {
        ReportSkippedGridBarrier();
        return false;
      }
      // [api.coop.grid.sync-across-blocks] Every thread of the grid has
      // arrived: release them all, then resume the blocks one by one.
      for (unsigned slot = 0; slot < blocks_.size(); ++slot) {
        if (!blocks_[slot].done) {
          barrier_.Release(slot, blocks_[slot].scheduler.get());
        }
      }
      barrier_.EndPhase();
      const std::vector<unsigned> resume_order =
          order_->Permutation(static_cast<unsigned>(blocks_.size()));
      for (unsigned slot : resume_order) {
        LiveBlock& block = blocks_[slot];
        if (block.done) continue;
        EnterSlot(slot);
        block.done = block.scheduler->Resume(host_);
        if (block.done) Retire(block);
        if (!block.done && !block.scheduler->suspended()) return false;
      }
    }
  }

 private:
  // An arena for a block that starts: a finished block's, the grid's
  // first, or one from the pool.
  SharedArena* TakeArena() {
    if (!free_arenas_.empty()) {
      SharedArena* arena = free_arenas_.back();
      free_arenas_.pop_back();
      return arena;
    }
    std::vector<std::unique_ptr<SharedArena>>& pool =
        ArenaPool(first_arena_->checked());
    if (pool_used_ == pool.size()) {
      pool.push_back(std::make_unique<SharedArena>(first_arena_->checked()));
    }
    SharedArena* arena = pool[pool_used_++].get();
    // The first arena was begun with the same size, so this cannot fail.
    (void)arena->BeginGrid(launch_.dynamic_shared_bytes);
    return arena;
  }

  // A block whose threads have all exited gives back its stacks and arena
  // at once: a grid without grid syncs then needs no more than a plain one.
  void Retire(LiveBlock& block) {
    if (!any_done_) first_done_ = block.scheduler->block_index();
    any_done_ = true;
    free_arenas_.push_back(block.arena);
    block.waves.reset();
    block.barrier.reset();
    block.scheduler.reset();
    block.arena = nullptr;
  }

  void EnterSlot(unsigned slot) {
    LiveBlock& block = blocks_[slot];
    grid_->block = block.scheduler.get();
    grid_->barrier = block.barrier.get();
    grid_->waves = block.waves.get();
    grid_->arena = block.arena;
    barrier_.EnterBlock(slot, block.scheduler.get());
  }

  // Every live block waits at the grid barrier, but threads of the grid
  // have exited without arriving: nothing can ever release them.
  void ReportSkippedGridBarrier() {
    const LiveBlock* waiting = nullptr;
    for (const LiveBlock& block : blocks_) {
      if (!block.done && waiting == nullptr) waiting = &block;
    }
    BlockScheduler& block = *waiting->scheduler;
    unsigned thread = 0;
    while (!block.IsWaiting(thread)) ++thread;
    const WaitSite& site = barrier_.site();
    // [api.coop.group.collective-needs-all-members]
    // [api.coop.grid.sync-across-blocks]
    std::string message = absl::StrFormat(
        "grid barrier skipped by exiting threads: %u of %u threads of the "
        "grid wait in %s at %s:%d, but block %s has exited without "
        "reaching it",
        barrier_.arrived(), barrier_.grid_threads(), site.operation, site.file,
        site.line, FormatIndex(first_done_));
    grid_->trap.error = mcErrorLaunchFailure;
    grid_->trap.diagnostic =
        FormatTrapDiagnostic(grid_->kernel_name, block.block_index(),
                             block.ThreadIndex(thread), message, order_);
    std::fputs(grid_->trap.diagnostic.c_str(), stderr);
    std::fflush(stderr);
  }

  const device::GridLaunch& launch_;
  StackPool* const stacks_;
  ScheduleOrder* const order_;
  ActiveGrid* const grid_;
  Fiber* const host_;
  std::vector<LiveBlock> blocks_;
  GridBarrier barrier_;
  SharedArena* first_arena_ = nullptr;
  std::vector<SharedArena*> free_arenas_;
  size_t pool_used_ = 0;
  bool any_done_ = false;
  uint3 first_done_{0, 0, 0};  // the first block whose threads all exited
};

}  // namespace

bool RunCooperativeBlocks(const device::GridLaunch& launch,
                          const std::vector<unsigned>& block_order,
                          StackPool* stacks, SharedArena* first_arena,
                          ScheduleOrder* order, ActiveGrid* grid, Fiber* host) {
  const dim3 shape = launch.grid;
  const unsigned long long block_count =
      static_cast<unsigned long long>(shape.x) * shape.y * shape.z;
  const unsigned long long block_threads =
      static_cast<unsigned long long>(launch.block.x) * launch.block.y *
      launch.block.z;
  CooperativeLoop loop(launch, stacks, first_arena, order, grid, host,
                       static_cast<unsigned>(block_count),
                       block_count * block_threads);
  for (unsigned slot = 0; slot < block_count; ++slot) {
    const unsigned linear = block_order.empty() ? slot : block_order[slot];
    if (!loop.Start(slot, linear)) return false;
  }
  return loop.Finish();
}

}  // namespace mxcts::device_internal
