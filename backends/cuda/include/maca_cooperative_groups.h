// Copyright mxcts authors.
//
// maca_cooperative_groups.h of the CUDA backend: MXMACA's cooperative
// groups (namespace cooperative_groups: thread blocks, grids, tiles,
// coalesced groups, their sync) are CUDA's, which nvcc provides under the
// same names. The backend has no cooperative_groups.h of its own, so the
// include below finds CUDA's header.

#ifndef MXCTS_CUDA_MACA_COOPERATIVE_GROUPS_H_
#define MXCTS_CUDA_MACA_COOPERATIVE_GROUPS_H_

#include <cooperative_groups.h>

#include "mc_runtime.h"

#endif  // MXCTS_CUDA_MACA_COOPERATIVE_GROUPS_H_
