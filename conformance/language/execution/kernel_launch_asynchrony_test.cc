// Copyright mxcts authors.
//
// Conformance: a kernel runs on the device once per thread, and a launch is
// asynchronous (docs/spec/lang-function-spaces.md, "__global__";
// docs/spec/lang-execution-configuration.md, "Asynchrony and error
// reporting"): it may return before the kernel has run, and errors of the
// kernel's execution come from a later call, not from the launch.
//
// An implementation may also run the kernel before the launch returns
// ("possibly before"), so asynchrony is checked where the backend makes
// it visible: on the reference, in its deferred timeline mode
// (MXCTS_TIMELINE=deferred, a fresh process); a GPU is asynchronous
// anyway. The kernel waits, for a bounded time, for a flag that the host
// sets only after the launch has returned: it sees the flag only if it
// did not finish inside the launch. The control sets MACA_LAUNCH_BLOCKING=1,
// which makes launches synchronous, and sees the kernel give up.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

// Counts, per thread of the grid, how often the body ran.
__global__ void CountRuns(unsigned* runs) {
  const unsigned block =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  atomicAdd(&runs[block * blockDim.x * blockDim.y * blockDim.z + thread], 1u);
}

TEST(KernelExecution, BodyRunsOnceForEveryThreadOfTheGrid) {
  MX_SPEC("lang.function.global.runs-on-device");
  const dim3 grid(3, 2, 1);
  const dim3 block(8, 4, 2);
  const unsigned total = 3 * 2 * 8 * 4 * 2;
  unsigned* runs = nullptr;
  // One slot more than the grid has threads: the control, never counted.
  ASSERT_EQ(mcMallocManaged(&runs, (total + 1) * sizeof(unsigned)), mcSuccess);
  for (unsigned i = 0; i <= total; ++i) runs[i] = 0;
  CountRuns<<<grid, block>>>(runs);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned i = 0; i < total; ++i) EXPECT_EQ(runs[i], 1u) << "thread " << i;
  EXPECT_EQ(runs[total], 0u);
  mcFree(runs);
}

// Device code writes device memory the host then reads: the body ran on
// the device, with the device pass's view of the program.
__device__ int device_value = 0;

__global__ void ReadDeviceVariable(int* out) {
#ifdef __MACA_ARCH__
  out[0] = device_value + 1;
#else
  out[0] = -1;
#endif
}

TEST(KernelExecution, BodyIsDeviceCode) {
  MX_SPEC("lang.function.global.runs-on-device");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  const int value = 41;
  ASSERT_EQ(mcMemcpyToSymbol(device_value, &value, sizeof(value)), mcSuccess);
  ReadDeviceVariable<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // Control: the host path of the body would have written -1.
  EXPECT_EQ(out[0], 42);
  mcFree(out);
}

// --- Asynchrony. ---

constexpr int kNotRun = 0;
constexpr int kSawTheFlag = 1;
constexpr int kGaveUp = 2;

__global__ void WaitForHostFlag(const volatile int* flag,
                                volatile int* result) {
  for (long i = 0; i < 20000000; ++i) {
    if (*flag != 0) {
      *result = kSawTheFlag;
      return;
    }
  }
  *result = kGaveUp;
}

// Launches WaitForHostFlag, reads the result right after the launch, then
// sets the flag and synchronizes. Returns "" if `asynchronous` describes
// what happened.
std::string LaunchThenRelease(bool asynchronous) {
  int* host = nullptr;
  if (mcHostAlloc(&host, 2 * sizeof(int), mcHostAllocMapped) != mcSuccess) {
    return "mcHostAlloc failed";
  }
  volatile int* flag = host;
  volatile int* result = host + 1;
  *flag = 0;
  *result = kNotRun;
  int* device = nullptr;
  if (mcHostGetDevicePointer(&device, host, 0) != mcSuccess) {
    return "mcHostGetDevicePointer failed";
  }
  WaitForHostFlag<<<1, 1>>>(device, device + 1);
  if (mcGetLastError() != mcSuccess) return "the launch failed";
  const int right_after = *result;
  *flag = 1;
  if (mcDeviceSynchronize() != mcSuccess) return "mcDeviceSynchronize failed";
  const int at_the_end = *result;
  mcFreeHost(host);
  std::string problems;
  if (asynchronous) {
    if (right_after != kNotRun) {
      problems += "the kernel had finished when the launch returned (result " +
                  std::to_string(right_after) + "); ";
    }
    if (at_the_end != kSawTheFlag) {
      problems += "after synchronizing, the result is " +
                  std::to_string(at_the_end) + ", not the flag seen; ";
    }
  } else if (right_after != kGaveUp) {
    problems += "with launch blocking, the result right after the launch is " +
                std::to_string(right_after) + "; ";
  }
  return problems;
}

TEST(KernelExecution, LaunchReturnsBeforeTheKernelCompletes) {
  MX_SPEC("lang.function.global.asynchronous",
          "lang.launch.async.returns-before-completion");
  ScopedEnvironment mode("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(LaunchThenRelease(true));
}

TEST(KernelExecution, ControlBlockingLaunchCompletesTheKernel) {
  MX_SPEC("lang.function.global.asynchronous",
          "lang.launch.async.returns-before-completion");
  ScopedEnvironment mode("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", "1");
  MX_EXPECT_IN_FRESH_PROCESS(LaunchThenRelease(false));
}

// --- Errors of the execution. ---

__global__ void StoreThrough(int* target) {
  if (threadIdx.x == 1) *target = 3;
}

// Launches StoreThrough both ways and returns what the synchronization
// reports, or mcErrorUnknown (saying why) if a launch reported an error.
mcError_t LaunchesReportNothing(int* target) {
  StoreThrough<<<1, 2>>>(target);
  const mcError_t chevron = mcGetLastError();
  void* args[] = {&target};
  const mcError_t launched =
      mcLaunchKernel(reinterpret_cast<const void*>(&StoreThrough), dim3(1),
                     dim3(2), args, 0, nullptr);
  if (chevron != mcSuccess || launched != mcSuccess) {
    std::fprintf(stderr, "the launches returned %s and %s\n",
                 mcGetErrorName(chevron), mcGetErrorName(launched));
    return mcErrorUnknown;
  }
  return mcDeviceSynchronize();
}

TEST(KernelExecution, IllegalAddressIsReportedBySynchronization) {
  MX_SPEC("lang.launch.error.execution-errors-reported-later");
  ScopedEnvironment mode("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_TRAP(LaunchesReportNothing(nullptr), mcErrorIllegalAddress,
                 "StoreThrough.*thread \\(1,0,0\\)");
}

TEST(KernelExecution, ControlValidAddressReportsSuccess) {
  MX_SPEC("lang.launch.error.execution-errors-reported-later");
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  MX_EXPECT_NO_TRAP(LaunchesReportNothing(cell));
  EXPECT_EQ(*cell, 3);
  mcFree(cell);
}

}  // namespace
}  // namespace mxcts::conformance
