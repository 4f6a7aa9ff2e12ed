// Copyright mxcts authors.
//
// Conformance: the Ns operand of the execution configuration when it is
// omitted, and accesses beyond it (docs/spec/lang-execution-configuration.md,
// lang.launch.operand.ns-defaults-to-zero,
// lang.launch.operand.ns-overrun-is-undefined).
//
// Omitted, Ns is 0 (a kernel whose static shared memory fills the per-block
// limit: static_shared_limit_test). Access past the Ns bytes is undefined;
// the reference traps with mcErrorIllegalAddress and a diagnostic naming the
// dynamic shared memory and its size, also when Ns was omitted. The
// controls access the last byte within Ns.

#include <mc_runtime.h>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

__global__ void WriteDynamic(int index) {
  extern __shared__ int dynamic[];
  if (threadIdx.x == 0) dynamic[index] = index;
}

mcError_t WriteWithoutNs(int index) {
  WriteDynamic<<<1, 4>>>(index);
  return mcDeviceSynchronize();
}

mcError_t WriteWithNs(size_t ns, int index) {
  WriteDynamic<<<1, 4, ns>>>(index);
  return mcDeviceSynchronize();
}

TEST(DynamicSharedSize, OmittedNsLeavesNoUsableElement) {
  MX_SPEC("lang.launch.operand.ns-defaults-to-zero",
          "lang.launch.operand.ns-overrun-is-undefined");
  MX_EXPECT_TRAP(WriteWithoutNs(0), mcErrorIllegalAddress,
                 "WriteDynamic.*dynamic shared memory.*\\(0 bytes\\)");
}

TEST(DynamicSharedSize, ControlNsOfOneElementMakesItUsable) {
  MX_SPEC("lang.launch.operand.ns-defaults-to-zero");
  MX_EXPECT_NO_TRAP(WriteWithNs(sizeof(int), 0));
}

// The trap is the reference's choice for undefined behaviour: elsewhere an
// access a few bytes past Ns may stay within the block's shared memory (on
// an NVIDIA GPU it does).
TEST(DynamicSharedSize, AccessPastNsTraps) {
  MX_SPEC("lang.launch.operand.ns-overrun-is-undefined");
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(WriteWithNs(64, 16), mcErrorIllegalAddress,
                 "WriteDynamic.*0 bytes past the end of the dynamic shared "
                 "memory.*\\(64 bytes\\)");
}

TEST(DynamicSharedSize, ControlLastElementWithinNsRuns) {
  MX_SPEC("lang.launch.operand.ns-overrun-is-undefined");
  MX_EXPECT_NO_TRAP(WriteWithNs(64, 15));
}

}  // namespace
