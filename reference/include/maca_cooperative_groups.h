// Copyright mxcts authors.
//
// ==========================================================================
// maca_cooperative_groups.h: cooperative groups
// ==========================================================================
//
// Groups of threads as objects, in namespace `cooperative_groups`
// (docs/spec/api-cooperative-groups.md states every rule cited here):
//
// - `thread_group`: any group by handle; every group converts to it.
// - `thread_block`, from `this_thread_block()`: the calling thread's block.
// - `thread_block_tile<N>`, from `tiled_partition<N>(parent)` (N a power of
//   two up to 64, the wave), and `tiled_partition(parent, n)` as a
//   thread_group: N consecutive ranks of a block or tile, with shuffles,
//   votes, matches and `meta_group_rank()`/`meta_group_size()`.
// - `coalesced_group`, from `coalesced_threads()`: the lanes of a wave that
//   call together, ranked in lane order; `labeled_partition` and
//   `binary_partition` split it (or a tile) further.
// - `grid_group`, from `this_grid()`: the whole grid; `sync()` needs a
//   cooperative launch (`mcLaunchCooperativeKernel`, in mc_runtime_api.h).
// - `reduce`, `inclusive_scan`, `exclusive_scan` with `plus`, `less`,
//   `greater`, `bit_and`, `bit_or`, `bit_xor` or any callable; also
//   declared by cooperative_groups/reduce.h and cooperative_groups/scan.h.
//
//   #include <maca_cooperative_groups.h>
//   namespace cg = cooperative_groups;
//
//   __global__ void TileSums(const int* in, int* out) {
//     cg::thread_block block = cg::this_thread_block();
//     cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
//     int sum = cg::reduce(tile, in[block.thread_rank()], cg::plus<int>());
//     if (tile.thread_rank() == 0) out[block.thread_rank() / 16] = sum;
//   }
//
// Contracts common to every group: `size()` (and `num_threads()`) is the
// number of members, `thread_rank()` the caller's rank in [0, size());
// `sync()` (and `cg::sync(g)`, `cg::synchronize(g)`) returns once every
// member has called it, with their earlier memory writes visible. A
// collective must be called by every member, the same one in the same
// order; on the reference a member that exits instead, or calls another
// collective, stops the grid with mcErrorLaunchFailure and a diagnostic
// naming the group ("thread_block_tile<16>::sync() ... (thread_block_tile<16>
// lanes 16-31)"). Shuffles move any trivially copyable type, bit for bit.
// The functions that obtain groups are device functions: in host code they
// are deleted, so a call does not compile. Every collective takes the call
// site as defaulted trailing arguments, which callers never write.
//
// Tested by conformance/api/cooperative_groups.

#ifndef MACA_COOPERATIVE_GROUPS_H_
#define MACA_COOPERATIVE_GROUPS_H_

#include "mc_runtime.h"
#include "mcr/detail/cooperative_groups_algorithms.h"
#include "mcr/detail/cooperative_groups_exchange.h"
#include "mcr/detail/cooperative_groups_groups.h"

#endif  // MACA_COOPERATIVE_GROUPS_H_
