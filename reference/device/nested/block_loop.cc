// Copyright mxcts authors.

#include "reference/device/nested/block_loop.h"

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
  for (unsigned long long i = 0; completed && i < block_count; ++i) {
    const unsigned long long linear = permutation.empty() ? i : permutation[i];
    const uint3 index{static_cast<unsigned>(linear % shape.x),
                      static_cast<unsigned>(linear / shape.x % shape.y),
                      static_cast<unsigned>(linear / shape.x / shape.y)};
    BlockScheduler block(launch, index, stacks, order);
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
