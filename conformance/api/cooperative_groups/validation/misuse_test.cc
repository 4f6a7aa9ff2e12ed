// Conformance: misuse of cooperative groups that the spec leaves undefined
// and the reference detects (docs/spec/api-cooperative-groups.md,
// api.coop.group.collective-needs-all-members and the partition and grid
// rules): a collective that a member skips by exiting or meets at another
// collective, a partition that does not fit its parent, a grid sync outside
// a cooperative launch or skipped by exiting threads. Each stops the grid
// with mcErrorLaunchFailure and a diagnostic naming the group; the control
// beside each runs the same kernel with the rule kept. The detection is the
// reference's choice for undefined behaviour: the trap tests require
// reference_choices (another backend reports them unsupported; a skipped
// grid sync may simply hang there), while the controls run everywhere.

#include <maca_cooperative_groups.h>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

namespace cg = cooperative_groups;

// ---------------------------------------------------------------------------
// Tile collectives.
// ---------------------------------------------------------------------------

// Every thread of a 64-thread block syncs its tile of 16, except thread
// `leaver` (>= 64: none), which exits first.
__global__ void TileSyncWithLeaver(unsigned leaver) {
  cg::thread_block_tile<16> tile =
      cg::tiled_partition<16>(cg::this_thread_block());
  if (threadIdx.x == leaver) return;
  tile.sync();
}

mcError_t LaunchTileSync(unsigned leaver) {
  TileSyncWithLeaver<<<1, 64>>>(leaver);
  return mcDeviceSynchronize();
}

TEST(TileMisuse, SyncSkippedByAnExitingMemberTraps) {
  MX_SPEC("api.coop.group.collective-needs-all-members",
          "api.coop.tile.sync-only-tile");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchTileSync(19), mcErrorLaunchFailure,
                 "TileSyncWithLeaver.*thread \\(19,0,0\\).*exited without "
                 "reaching thread_block_tile<16>::sync\\(\\).*"
                 "thread_block_tile<16> lanes 16-31");
}

TEST(TileMisuse, SyncByEveryMemberIsFine) {
  MX_SPEC("api.coop.group.collective-needs-all-members");
  MX_EXPECT_NO_TRAP(LaunchTileSync(64));
}

// The members of a tile of 16 below `split` shuffle, the others ballot.
__global__ void TileDivergentCollective(unsigned split, int* out) {
  cg::thread_block_tile<16> tile =
      cg::tiled_partition<16>(cg::this_thread_block());
  if (tile.thread_rank() < split) {
    out[threadIdx.x] = tile.shfl(static_cast<int>(threadIdx.x), 0);
  } else {
    out[threadIdx.x] = static_cast<int>(tile.ballot(1));
  }
}

mcError_t LaunchTileDivergent(unsigned split) {
  int* out = nullptr;
  if (mcMallocManaged(&out, 64 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  TileDivergentCollective<<<1, 64>>>(split, out);
  const mcError_t result = mcDeviceSynchronize();
  mcFree(out);
  return result;
}

TEST(TileMisuse, MembersAtDifferentCollectivesTrap) {
  MX_SPEC("api.coop.group.collective-needs-all-members");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchTileDivergent(8), mcErrorLaunchFailure,
                 "TileDivergentCollective.*thread_block_tile<16> lanes 0-15.*"
                 "thread_block_tile<16>::ballot\\(\\).*"
                 "thread_block_tile<16>::shfl\\(\\)");
}

TEST(TileMisuse, MembersAtTheSameCollectiveAreFine) {
  MX_SPEC("api.coop.group.collective-needs-all-members");
  MX_EXPECT_NO_TRAP(LaunchTileDivergent(16));
}

// A tile of 32 of a block of `threads` threads.
__global__ void StaticTileOfBlock(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  out[block.thread_rank()] = static_cast<int>(tile.thread_rank());
}

mcError_t LaunchStaticTile(unsigned threads) {
  int* out = nullptr;
  if (mcMallocManaged(&out, 128 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  StaticTileOfBlock<<<1, threads>>>(out);
  const mcError_t result = mcDeviceSynchronize();
  mcFree(out);
  return result;
}

TEST(TileMisuse, StaticTileNotDividingTheParentTraps) {
  MX_SPEC("api.coop.tile.parent-divisible");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchStaticTile(48), mcErrorLaunchFailure,
                 "StaticTileOfBlock.*tiled_partition<N>\\(parent\\): the "
                 "parent's size is not a multiple of N");
}

TEST(TileMisuse, StaticTileDividingTheParentIsFine) {
  MX_SPEC("api.coop.tile.parent-divisible");
  MX_EXPECT_NO_TRAP(LaunchStaticTile(96));
}

// A dynamic tile of `size` threads of a 64-thread block.
__global__ void DynamicTileOfBlock(unsigned size, int* out) {
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), size);
  tile.sync();
  out[threadIdx.x] = static_cast<int>(tile.thread_rank());
}

mcError_t LaunchDynamicTile(unsigned size) {
  int* out = nullptr;
  if (mcMallocManaged(&out, 64 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  DynamicTileOfBlock<<<1, 64>>>(size, out);
  const mcError_t result = mcDeviceSynchronize();
  mcFree(out);
  return result;
}

TEST(TileMisuse, DynamicTileSizeNotAPowerOfTwoTraps) {
  MX_SPEC("api.coop.tile.size-must-be-power-of-two");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchDynamicTile(3), mcErrorLaunchFailure,
                 "DynamicTileOfBlock.*n must be a power of two from 1 to 64");
}

TEST(TileMisuse, DynamicTileSizeAboveTheWaveTraps) {
  MX_SPEC("api.coop.tile.size-must-be-power-of-two");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchDynamicTile(128), mcErrorLaunchFailure,
                 "DynamicTileOfBlock.*n must be a power of two from 1 to 64");
}

TEST(TileMisuse, DynamicTileSizeAPowerOfTwoIsFine) {
  MX_SPEC("api.coop.tile.size-must-be-power-of-two");
  MX_EXPECT_NO_TRAP(LaunchDynamicTile(4));
}

// ---------------------------------------------------------------------------
// Coalesced groups and blocks.
// ---------------------------------------------------------------------------

// The even lanes form a coalesced group and sync it; lane `leaver` (>= 64:
// none) exits after joining.
__global__ void CoalescedSyncWithLeaver(unsigned leaver) {
  if (threadIdx.x % 2 != 0) return;
  cg::coalesced_group active = cg::coalesced_threads();
  if (threadIdx.x == leaver) return;
  active.sync();
}

mcError_t LaunchCoalescedSync(unsigned leaver) {
  CoalescedSyncWithLeaver<<<1, 64>>>(leaver);
  return mcDeviceSynchronize();
}

TEST(CoalescedMisuse, SyncSkippedByAnExitingMemberTraps) {
  MX_SPEC("api.coop.group.collective-needs-all-members",
          "api.coop.coalesced.collectives-by-rank");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchCoalescedSync(10), mcErrorLaunchFailure,
                 "CoalescedSyncWithLeaver.*coalesced_group::sync\\(\\)");
}

TEST(CoalescedMisuse, SyncByEveryMemberIsFine) {
  MX_SPEC("api.coop.group.collective-needs-all-members");
  MX_EXPECT_NO_TRAP(LaunchCoalescedSync(64));
}

// Every thread syncs its block, except `leaver` (>= 64: none).
__global__ void BlockSyncWithLeaver(unsigned leaver) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == leaver) return;
  block.sync();
}

mcError_t LaunchBlockSync(unsigned leaver) {
  BlockSyncWithLeaver<<<1, 64>>>(leaver);
  return mcDeviceSynchronize();
}

TEST(BlockMisuse, SyncSkippedByAnExitingThreadTraps) {
  MX_SPEC("api.coop.group.collective-needs-all-members",
          "api.coop.block.sync-equals-syncthreads");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchBlockSync(7), mcErrorLaunchFailure,
                 "BlockSyncWithLeaver.*barrier skipped by exiting threads");
}

TEST(BlockMisuse, SyncByEveryThreadIsFine) {
  MX_SPEC("api.coop.group.collective-needs-all-members");
  MX_EXPECT_NO_TRAP(LaunchBlockSync(64));
}

// ---------------------------------------------------------------------------
// The grid.
// ---------------------------------------------------------------------------

// Every thread syncs the grid, except the threads of block `leaving_block`
// and thread `leaving_thread` of block 0 (out of range: none).
__global__ void GridSyncWithLeavers(unsigned leaving_block,
                                    unsigned leaving_thread) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == leaving_block) return;
  if (blockIdx.x == 0 && threadIdx.x == leaving_thread) return;
  grid.sync();
}

mcError_t LaunchGridSync(bool cooperative, unsigned leaving_block,
                         unsigned leaving_thread) {
  if (cooperative) {
    void* args[] = {&leaving_block, &leaving_thread};
    const mcError_t launched = mcLaunchCooperativeKernel(
        (const void*)GridSyncWithLeavers, dim3(3), dim3(64), args, 0, 0);
    if (launched != mcSuccess) return launched;
  } else {
    GridSyncWithLeavers<<<3, 64>>>(leaving_block, leaving_thread);
  }
  return mcDeviceSynchronize();
}

TEST(GridMisuse, SyncWithoutACooperativeLaunchTraps) {
  MX_SPEC("api.coop.grid.sync-without-cooperative-launch-undefined");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchGridSync(false, 99, 99), mcErrorLaunchFailure,
                 "GridSyncWithLeavers.*grid_group::sync\\(\\) at .* in a grid "
                 "that was not launched cooperatively");
}

TEST(GridMisuse, SyncInACooperativeLaunchIsFine) {
  MX_SPEC("api.coop.grid.sync-without-cooperative-launch-undefined",
          "api.coop.grid.sync-across-blocks");
  MX_EXPECT_NO_TRAP(LaunchGridSync(true, 99, 99));
}

TEST(GridMisuse, SyncSkippedByAnExitingBlockTraps) {
  MX_SPEC("api.coop.group.collective-needs-all-members",
          "api.coop.grid.sync-across-blocks");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchGridSync(true, 1, 99), mcErrorLaunchFailure,
                 "GridSyncWithLeavers.*grid barrier skipped by exiting "
                 "threads: 128 of 192 threads of the grid wait in "
                 "grid_group::sync\\(\\).*block \\(1,0,0\\) has exited");
}

TEST(GridMisuse, SyncSkippedByAnExitingThreadTraps) {
  MX_SPEC("api.coop.group.collective-needs-all-members",
          "api.coop.grid.sync-across-blocks");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(LaunchGridSync(true, 99, 5), mcErrorLaunchFailure,
                 "GridSyncWithLeavers.*block \\(0,0,0\\).*barrier skipped by "
                 "exiting threads: 63 of 64 threads wait in "
                 "grid_group::sync\\(\\)");
}

}  // namespace
