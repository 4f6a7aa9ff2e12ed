// Copyright mxcts authors.
//
// Conformance: grid_group::sync() in a kernel that was not launched
// cooperatively (docs/spec/lang-undefined-behaviour.md,
// lang.ub.sync.grid-sync-without-cooperative-launch). The behaviour is
// undefined; the reference traps with mcErrorLaunchFailure, sticky, and a
// diagnostic naming the kernel and the call. The control launches the same
// kernel with mcLaunchCooperativeKernel, on a backend that claims
// cooperative launches.

#include <maca_cooperative_groups.h>
#include <mc_runtime.h>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

namespace cg = cooperative_groups;

// Each block writes its index, syncs the grid, then reads its neighbour's.
__global__ void ExchangeAcrossBlocks(int* slots, int* seen) {
  if (threadIdx.x == 0) slots[blockIdx.x] = static_cast<int>(blockIdx.x) + 1;
  cg::this_grid().sync();
  if (threadIdx.x == 0) seen[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
}

mcError_t RunExchange(bool cooperative) {
  int* slots = nullptr;
  if (mcMallocManaged(&slots, 8 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  int* seen = slots + 4;
  if (cooperative) {
    void* args[] = {&slots, &seen};
    const mcError_t launched = mcLaunchCooperativeKernel(
        reinterpret_cast<const void*>(&ExchangeAcrossBlocks), dim3(4), dim3(32),
        args, 0, nullptr);
    if (launched != mcSuccess) return launched;
  } else {
    ExchangeAcrossBlocks<<<4, 32>>>(slots, seen);
  }
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) {
    for (int b = 0; b < 4; ++b) {
      if (seen[b] != (b + 1) % 4 + 1) return mcErrorUnknown;
    }
    mcFree(slots);
  }
  return error;
}

TEST(GridSyncWithoutCooperativeLaunch, Traps) {
  MX_SPEC("lang.ub.sync.grid-sync-without-cooperative-launch");
  MX_EXPECT_TRAP(RunExchange(false), mcErrorLaunchFailure,
                 "ExchangeAcrossBlocks.*grid_group::sync\\(\\).*not launched "
                 "cooperatively");
}

TEST(GridSyncWithoutCooperativeLaunch, ControlCooperativeLaunchRuns) {
  MX_SPEC("lang.ub.sync.grid-sync-without-cooperative-launch");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  MX_EXPECT_NO_TRAP(RunExchange(true));
}

}  // namespace
