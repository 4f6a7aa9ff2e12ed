// Copyright mxcts authors.
//
// Conformance: freeing a device-heap block twice
// (docs/spec/lang-undefined-behaviour.md, lang.ub.memory.heap-pointer-misuse).
// The behaviour is undefined; the reference traps on the second free with
// mcErrorLaunchFailure, sticky, and a diagnostic naming the kernel, the
// thread and the pointer. The second free comes from the same thread, from
// another thread after a barrier, and from a later kernel; the control
// frees each block once.

#include <mc_runtime.h>

#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

enum class SecondFree { kNone, kSameThread, kOtherThread, kLaterKernel };

__global__ void AllocateAndFree(void** slot, SecondFree second) {
  __shared__ void* block;
  if (threadIdx.x == 0) {
    block = malloc(48);
    *slot = block;
    free(block);
    if (second == SecondFree::kSameThread) free(block);
  }
  __syncthreads();
  if (second == SecondFree::kOtherThread && threadIdx.x == 3) free(block);
}

__global__ void FreeAgain(void* const* slot) {
  if (threadIdx.x == 0) free(*slot);
}

mcError_t RunFrees(SecondFree second) {
  void** slot = nullptr;
  if (mcMallocManaged(&slot, sizeof(void*)) != mcSuccess) {
    return mcErrorUnknown;
  }
  AllocateAndFree<<<1, 4>>>(slot, second);
  if (second == SecondFree::kLaterKernel) {
    if (mcDeviceSynchronize() != mcSuccess) return mcErrorUnknown;
    FreeAgain<<<1, 1>>>(slot);
  }
  return mcDeviceSynchronize();
}

TEST(DeviceHeapMisuse, DoubleFreeInOneThreadTraps) {
  MX_SPEC("lang.ub.memory.heap-pointer-misuse", "api.trap.diagnostic.content");
  MX_EXPECT_TRAP(RunFrees(SecondFree::kSameThread), mcErrorLaunchFailure,
                 "AllocateAndFree.*thread \\(0,0,0\\).*free\\(0x[0-9a-f]+\\): "
                 ".*freed already");
}

TEST(DeviceHeapMisuse, DoubleFreeByAnotherThreadTraps) {
  MX_SPEC("lang.ub.memory.heap-pointer-misuse");
  MX_EXPECT_TRAP(RunFrees(SecondFree::kOtherThread), mcErrorLaunchFailure,
                 "AllocateAndFree.*thread \\(3,0,0\\).*freed already");
}

TEST(DeviceHeapMisuse, DoubleFreeInALaterKernelTraps) {
  MX_SPEC("lang.ub.memory.heap-pointer-misuse");
  MX_EXPECT_TRAP(RunFrees(SecondFree::kLaterKernel), mcErrorLaunchFailure,
                 "FreeAgain.*thread \\(0,0,0\\).*freed already");
}

TEST(DeviceHeapMisuse, ControlSingleFreeRuns) {
  MX_SPEC("lang.ub.memory.heap-pointer-misuse");
  MX_EXPECT_NO_TRAP(RunFrees(SecondFree::kNone));
}

}  // namespace
