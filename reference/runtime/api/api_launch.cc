// Copyright mxcts authors.
//
// mcLaunchKernel [lang.launch.operand.equivalent-to-mclaunchkernel]: the
// launcher does the checks and runs the grid.
//
// Tested by api_launch_test.cc.

#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/launch/launcher.h"

extern "C" mcError_t mcLaunchKernel(const void* func, dim3 grid, dim3 block,
                                    void** args, size_t sharedMem,
                                    mcStream_t stream) {
  return mxcts::runtime::RunApi([&] {
    // [api.graph.capture.records-instead-of-executing]
    return mxcts::runtime::LaunchOrCapture(
        {func, grid, block, args, sharedMem, stream});
  });
}
