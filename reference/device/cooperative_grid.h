// Copyright mxcts authors.
//
// reference/device/cooperative_grid.h: running the blocks of a cooperative
// launch, all alive at once, so that the grid barrier
// (collectives/grid_barrier.h) can complete.
//
// RunGrid (engine.cc) hands a launch with GridLaunch::cooperative set here.
// Every block gets its own scheduler, block barrier, wave state and shared
// arena, kept until the grid ends. Blocks start in the schedule order; each
// runs until all its threads exit or wait at the grid barrier (the block is
// then suspended and the next one runs). When every thread of the grid has
// arrived, the waiters of every block are released and the suspended blocks
// resume, in block order (a fresh permutation per phase in the shuffle
// order). A grid without grid syncs runs exactly as a plain launch.
//
//   ActiveGrid grid;  ...  (installed with SetCurrentGrid)
//   bool completed = RunCooperativeBlocks(launch, blocks_in_order, stacks,
//                                         arena, &order, &grid, &host);

#ifndef REFERENCE_DEVICE_COOPERATIVE_GRID_H_
#define REFERENCE_DEVICE_COOPERATIVE_GRID_H_

#include <vector>

#include "reference/device/engine.h"
#include "reference/device/fibers/fiber.h"
#include "reference/device/fibers/stack_pool.h"
#include "reference/device/scheduling/schedule_order.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/services/shared_arena.h"

namespace mxcts::device_internal {

// Runs every block of `launch` on `host` (the calling OS thread's context)
// with `grid` installed as the current grid. `block_order` lists the
// blocks' linear indices in start order (empty: linear). `first_arena`
// (begun for the grid) serves the first block; the others get arenas of
// the same kind from a pool of the engine's OS thread. Returns true when
// every thread has exited; false when a trap stopped the grid, its error
// and diagnostic in grid->trap (a grid barrier that threads skipped by
// exiting traps with mcErrorLaunchFailure).
// [api.coop.launch.all-blocks-co-resident]
bool RunCooperativeBlocks(const device::GridLaunch& launch,
                          const std::vector<unsigned>& block_order,
                          StackPool* stacks, SharedArena* first_arena,
                          ScheduleOrder* order, ActiveGrid* grid, Fiber* host);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_COOPERATIVE_GRID_H_
