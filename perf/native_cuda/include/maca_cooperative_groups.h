// Copyright mxcts authors.
//
// maca_cooperative_groups.h of the native CUDA twin: CUDA's cooperative
// groups, which MXMACA's share their names with (namespace
// cooperative_groups, this_grid, grid_group::sync, thread_rank).

#ifndef MXCTS_PERF_NATIVE_CUDA_MACA_COOPERATIVE_GROUPS_H_
#define MXCTS_PERF_NATIVE_CUDA_MACA_COOPERATIVE_GROUPS_H_

#include <cooperative_groups.h>

#include "mc_runtime.h"

#endif  // MXCTS_PERF_NATIVE_CUDA_MACA_COOPERATIVE_GROUPS_H_
