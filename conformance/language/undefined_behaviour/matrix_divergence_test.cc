// Copyright mxcts authors.
//
// Conformance: a matrix operation that not every lane of the wave executes
// with the same arguments (docs/spec/lang-undefined-behaviour.md,
// lang.ub.sync.matrix-op-divergent). The behaviour is undefined; the
// reference traps with mcErrorLaunchFailure, sticky, and a diagnostic
// naming the kernel and the operation. Broken two ways: half of the wave
// skips fill_fragment, and the lanes pass different leading dimensions to
// store_matrix_sync. The control runs the same kernel with every lane
// calling alike.

#include <mc_runtime.h>

#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

namespace wmma = mxmaca::wmma;

enum class Divergence { kNone, kHalfSkipsFill, kDifferentStrides };

__global__ void FillAndStore(float* out, Divergence divergence) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  if (divergence != Divergence::kHalfSkipsFill || threadIdx.x < 32) {
    wmma::fill_fragment(c, 2.0f);
  }
  const unsigned ldm =
      divergence == Divergence::kDifferentStrides && threadIdx.x >= 32 ? 32
                                                                       : 16;
  wmma::store_matrix_sync(out, c, ldm, wmma::mem_row_major);
}

mcError_t RunFillAndStore(Divergence divergence) {
  float* out = nullptr;
  if (mcMallocManaged(&out, 32 * 16 * sizeof(float)) != mcSuccess) {
    return mcErrorUnknown;
  }
  FillAndStore<<<1, 64>>>(out, divergence);
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) {
    for (int i = 0; i < 256; ++i) {
      if (out[i] != 2.0f) return mcErrorUnknown;
    }
    mcFree(out);
  }
  return error;
}

TEST(MatrixDivergence, HalfTheWaveSkippingAnOperationTraps) {
  MX_SPEC("lang.ub.sync.matrix-op-divergent");
  MX_EXPECT_TRAP(RunFillAndStore(Divergence::kHalfSkipsFill),
                 mcErrorLaunchFailure, "FillAndStore.*mxmaca::wmma::");
}

TEST(MatrixDivergence, LanesPassingDifferentArgumentsTrap) {
  MX_SPEC("lang.ub.sync.matrix-op-divergent");
  MX_EXPECT_TRAP(RunFillAndStore(Divergence::kDifferentStrides),
                 mcErrorLaunchFailure,
                 "FillAndStore.*mxmaca::wmma::store_matrix_sync");
}

TEST(MatrixDivergence, ControlEveryLaneCallingAlikeRuns) {
  MX_SPEC("lang.ub.sync.matrix-op-divergent");
  MX_EXPECT_NO_TRAP(RunFillAndStore(Divergence::kNone));
}

}  // namespace
