// Copyright mxcts authors.
//
// reference/device/engine_test_util.h: running hand-written kernels in the
// engine's tests.
//
// A test kernel is a plain function `void k(void** args)` that reads its
// arguments through `args` and uses the device ABI directly (threadIdx,
// __syncthreads(), __mc_dev_shared_variable), as translated device code does.
//
//   void Fill(void** args) {
//     int* out = *static_cast<int**>(args[0]);
//     out[threadIdx.x] = 1;
//   }
//   int* out = data.data();
//   RunResult result = RunCapturingStderr("Fill(int*)", &Fill, {&out},
//                                         dim3(1), dim3(64));
//   EXPECT_EQ(result.error, mcSuccess);

#ifndef REFERENCE_DEVICE_ENGINE_TEST_UTIL_H_
#define REFERENCE_DEVICE_ENGINE_TEST_UTIL_H_

#include <stddef.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/engine.h"

namespace mxcts::device {

struct RunResult {
  mcError_t error;
  std::string stderr_text;
};

// The entry that RunThreadsOfTestEntry runs.
inline thread_local void (*thread_loop_entry)(void**) = nullptr;

// A kernel's thread loop (GridLaunch::run_threads) for hand-written test
// kernels, the loop compiled kernels have, running
// thread_loop_entry. The engine's tests are built twice: with
// MXCTS_ENGINE_TEST_THREAD_LOOP defined, every grid runs through this loop,
// as compiled kernels do; without, through one entry call per thread.
inline void RunThreadsOfTestEntry(void** args, __mc_thread_walk* walk) {
  __mc_walk_threads(walk, [args] { thread_loop_entry(args); });
}

// `launch` with the thread loop of the build (see RunThreadsOfTestEntry).
inline GridLaunch WithTestThreadLoop(GridLaunch launch) {
#ifdef MXCTS_ENGINE_TEST_THREAD_LOOP
  thread_loop_entry = launch.entry;
  launch.run_threads = &RunThreadsOfTestEntry;
#endif
  return launch;
}

// Runs `entry` over `grid` x `block` with `args` (pointers to the
// arguments) and returns its result and what it wrote to stderr.
inline RunResult RunCapturingStderr(const std::string& name,
                                    void (*entry)(void**),
                                    std::vector<void*> args, dim3 grid,
                                    dim3 block, size_t dynamic_shared = 0) {
  args.push_back(nullptr);
  GridLaunch launch = WithTestThreadLoop(
      GridLaunch{name, entry, args.data(), grid, block, dynamic_shared});
  testing::internal::CaptureStderr();
  const mcError_t error = RunGrid(launch);
  return RunResult{error, testing::internal::GetCapturedStderr()};
}

// The linear index of the calling device thread within its block.
inline unsigned LinearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// The linear index of the calling device thread's block within the grid.
inline unsigned LinearBlock() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// The argument `index` of a test kernel, as a T.
template <typename T>
T Arg(void** args, int index) {
  return *static_cast<T*>(args[index]);
}

}  // namespace mxcts::device

#endif  // REFERENCE_DEVICE_ENGINE_TEST_UTIL_H_
