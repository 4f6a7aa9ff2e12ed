// Copyright mxcts authors.
//
// The loop that runs a grid's blocks one after another: a top-level grid
// (engine.cc) and a child grid (nested_grids.cc) run their blocks the same
// way, each with a barrier and wave collectives of its own and a fresh
// block in the grid's shared arena, stopping at the first trap. Only what
// happens after each block differs (the children the block launched), so
// the caller passes it in. A cooperative grid keeps every block alive at
// once instead (cooperative_grid.h) and uses only BlockOrder.

#ifndef MXCTS_REFERENCE_DEVICE_NESTED_BLOCK_LOOP_H_
#define MXCTS_REFERENCE_DEVICE_NESTED_BLOCK_LOOP_H_

#include <vector>

#include "absl/functional/function_ref.h"
#include "reference/device/engine.h"
#include "reference/device/fibers/stack_pool.h"
#include "reference/device/scheduling/schedule_order.h"
#include "reference/device/scheduling/thread_context.h"

namespace mxcts::device_internal {

// The linear block ids of a grid of `block_count` blocks in the order they
// run: empty for the linear order (x fastest, then y, then z), else the
// shuffle order's permutation. Grids of more than 2^24 blocks keep the
// linear order, to bound the permutation's memory.
// [model.exec.linear-block-id]
std::vector<unsigned> BlockOrder(ScheduleOrder& order,
                                 unsigned long long block_count);

// Runs the blocks of `launch` one at a time in `order`, each on fibers from
// `stacks` with `grid`'s block, barrier and wave collectives pointing at it
// while it runs (null again afterwards). After each block that completes,
// `after_block` runs; it returns false when something it ran trapped.
// Returns true when every block and every `after_block` completed, false at
// the first trap (the trap's record is in `grid.trap`).
bool RunBlocksOneAtATime(const device::GridLaunch& launch, ActiveGrid& grid,
                         StackPool* stacks, ScheduleOrder* order,
                         absl::FunctionRef<bool()> after_block);

}  // namespace mxcts::device_internal

#endif  // MXCTS_REFERENCE_DEVICE_NESTED_BLOCK_LOOP_H_
