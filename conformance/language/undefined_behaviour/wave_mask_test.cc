// Copyright mxcts authors.
//
// Conformance: a wave collective whose calling lanes pass inconsistent
// masks (docs/spec/lang-undefined-behaviour.md,
// lang.ub.sync.wave-mask-inconsistent). The behaviour is undefined; the
// reference traps with mcErrorLaunchFailure, sticky, and a diagnostic
// naming the kernel and the masks. Three ways to break the rule: lanes
// that pass different masks, a lane whose mask leaves it out, a mask that
// names a lane that calls another collective. The control is the same
// kernel with one consistent mask.
//
// The trap is the reference's choice for undefined behaviour, so the three
// broken cases run where the backend claims reference_choices: elsewhere
// such a kernel may wait forever for lanes that never join (an NVIDIA GPU
// does, for different masks and for a lane of another collective).

#include <mc_runtime.h>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

enum class Masks {
  kConsistent,
  kDifferent,
  kCallerLeftOut,
  kNamesALaneOfAnotherCollective
};

// Lanes 0-3 call __shfl_sync; which mask each passes depends on `masks`.
// Lane 4 calls __any_sync, with the same mask, when the mask names it.
__global__ void ShuffleWithMasks(int* out, Masks masks) {
  const unsigned lane = threadIdx.x;
  if (lane > 4) return;
  if (lane == 4) {
    if (masks == Masks::kNamesALaneOfAnotherCollective) {
      out[lane] = __any_sync(0x1ful, 1);
    }
    return;
  }
  unsigned long mask = 0xful;
  if (masks == Masks::kDifferent && lane == 3) mask = 0xbul;
  if (masks == Masks::kCallerLeftOut && lane == 2) mask = 0xbul;
  if (masks == Masks::kNamesALaneOfAnotherCollective) mask = 0x1ful;
  out[lane] = __shfl_sync(mask, static_cast<int>(lane) * 10, 0);
}

mcError_t RunShuffle(Masks masks) {
  int* out = nullptr;
  if (mcMallocManaged(&out, 64 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  ShuffleWithMasks<<<1, 64>>>(out, masks);
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) {
    for (int lane = 0; lane < 4; ++lane) {
      if (out[lane] != 0) return mcErrorUnknown;
    }
    mcFree(out);
  }
  return error;
}

TEST(WaveMaskInconsistent, DifferentMasksTrap) {
  MX_SPEC("lang.ub.sync.wave-mask-inconsistent");
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(RunShuffle(Masks::kDifferent), mcErrorLaunchFailure,
                 "ShuffleWithMasks.*different masks.*0x000000000000000[bf]");
}

TEST(WaveMaskInconsistent, CallerOutsideItsMaskTraps) {
  MX_SPEC("lang.ub.sync.wave-mask-inconsistent");
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(RunShuffle(Masks::kCallerLeftOut), mcErrorLaunchFailure,
                 "ShuffleWithMasks.*thread \\(2,0,0\\).*0x000000000000000b");
}

TEST(WaveMaskInconsistent, MaskNamingALaneOfAnotherCollectiveTraps) {
  MX_SPEC("lang.ub.sync.wave-mask-inconsistent");
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_TRAP(RunShuffle(Masks::kNamesALaneOfAnotherCollective),
                 mcErrorLaunchFailure,
                 "ShuffleWithMasks.*different wave collectives.*__any_sync");
}

TEST(WaveMaskInconsistent, ControlOneConsistentMaskRuns) {
  MX_SPEC("lang.ub.sync.wave-mask-inconsistent");
  MX_EXPECT_NO_TRAP(RunShuffle(Masks::kConsistent));
}

}  // namespace
