// Copyright mxcts authors.

#include "reference/device/nested/block_loop.h"

#include <optional>

#include "reference/device/collectives/barrier.h"
#include "reference/device/collectives/wave_collectives.h"
#include "reference/device/fibers/fiber.h"
#include "reference/device/scheduling/block_scheduler.h"
#include "reference/device/services/shared_arena.h"

namespace mxcts::device_internal {

std::vector<unsigned> BlockOrder(ScheduleOrder& order,
                                 unsigned long long block_count) {
  if (!order.shuffled() || block_count > (1u << 24)) return {};
  return order.Permutation(static_cast<unsigned>(block_count));
}

bool RunBlocksOneAtATime(const device::GridLaunch& launch, ActiveGrid& grid,
                         StackPool* stacks, ScheduleOrder* order,
                         absl::FunctionRef<bool()> after_block) {
  const dim3 shape = launch.grid;
  const unsigned long long block_count =
      static_cast<unsigned long long>(shape.x) * shape.y * shape.z;
  const std::vector<unsigned> permutation = BlockOrder(*order, block_count);
  Fiber host;
  bool completed = true;
  // One scheduler for every block: each completed block's is prepared for
  // the next (a block of a large grid is set up thousands of times).
  std::optional<BlockScheduler> scheduler;
  // The block index of linear id i in the linear order, kept by counting
  // rather than by three divisions per block.
  uint3 next_linear_index{0, 0, 0};
  for (unsigned long long i = 0; completed && i < block_count; ++i) {
    uint3 index = next_linear_index;
    if (!permutation.empty()) {
      const unsigned long long linear = permutation[i];
      index = uint3{static_cast<unsigned>(linear % shape.x),
                    static_cast<unsigned>(linear / shape.x % shape.y),
                    static_cast<unsigned>(linear / shape.x / shape.y)};
    } else if (++next_linear_index.x == shape.x) {
      next_linear_index.x = 0;
      if (++next_linear_index.y == shape.y) {
        next_linear_index.y = 0;
        ++next_linear_index.z;
      }
    }
    if (!scheduler.has_value()) {
      scheduler.emplace(launch, index, stacks, order);
    } else {
      scheduler->PrepareForBlock(index);
    }
    BlockScheduler& block = *scheduler;
    BlockBarrier barrier(&block);
    WaveCollectives waves(&block);
    grid.block = &block;
    grid.barrier = &barrier;
    grid.waves = &waves;
    grid.arena->BeginBlock();
    completed = block.Run(&host);
    grid.block = nullptr;
    grid.barrier = nullptr;
    grid.waves = nullptr;
    if (completed) completed = after_block();
  }
  return completed;
}

}  // namespace mxcts::device_internal
