// Copyright mxcts authors.
//
// Conformance: a block that spins until another block of the same grid
// sets a flag, in a kernel not launched cooperatively
// (docs/spec/lang-undefined-behaviour.md, lang.ub.sync.inter-block-spin-wait).
// The program relies on the blocks running at the same time, which nothing
// guarantees; on the reference, which runs one block after another, the
// wait never ends, and with MACA_KERNEL_TIMEOUT set (a fresh process) the
// kernel is stopped with mcErrorLaunchTimeout, sticky, and a diagnostic
// naming it. Each block waits for the other, so the wait hangs whichever
// block runs first. The control is the same kernel with the flags already
// set by the host, so that no block depends on another.

#include <mc_runtime.h>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

__global__ void WaitForTheOtherBlock(volatile int* flags) {
  if (threadIdx.x != 0) return;
  flags[blockIdx.x] = 1;
  while (flags[1 - blockIdx.x] == 0) {
  }
}

mcError_t RunWait(bool preset) {
  int* flags = nullptr;
  if (mcMallocManaged(&flags, 2 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  flags[0] = flags[1] = preset ? 1 : 0;
  WaitForTheOtherBlock<<<2, 32>>>(flags);
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) mcFree(flags);
  return error;
}

TEST(InterBlockSpinWait, WaitThatNeedsAnotherBlockTimesOut) {
  MX_SPEC("lang.ub.sync.inter-block-spin-wait", "lang.ub.exec.kernel-timeout");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", "200");
  MX_EXPECT_TRAP(RunWait(false), mcErrorLaunchTimeout,
                 "WaitForTheOtherBlock.*MACA_KERNEL_TIMEOUT=200 ms");
}

TEST(InterBlockSpinWait, ControlWaitAlreadySatisfiedRuns) {
  MX_SPEC("lang.ub.sync.inter-block-spin-wait");
  ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", "200");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(RunWait(true) == mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance
