// Copyright mxcts authors.
//
// maca_cooperative_groups.h of the CUDA backend: MXMACA's cooperative
// groups (namespace cooperative_groups: thread blocks, grids, tiles,
// coalesced groups, their sync, reduce and scan) are CUDA's, which nvcc
// provides under the same names. The backend has no cooperative_groups.h
// of its own, so the includes below find CUDA's headers; what MXMACA adds
// is defined here.

#ifndef MXCTS_CUDA_MACA_COOPERATIVE_GROUPS_H_
#define MXCTS_CUDA_MACA_COOPERATIVE_GROUPS_H_

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "mc_runtime.h"

namespace cooperative_groups {

// MXMACA's second name for cg::sync(g) [api.coop.group.sync-free-functions],
// which CUDA does not have.
template <class Group>
__device__ inline void synchronize(const Group& group) {
  sync(group);
}

}  // namespace cooperative_groups

#endif  // MXCTS_CUDA_MACA_COOPERATIVE_GROUPS_H_
