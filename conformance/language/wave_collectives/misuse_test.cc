// Conformance: misuse of the wave collectives that an implementation may
// detect, and the reference does, by trapping with mcErrorLaunchFailure and
// a diagnostic naming the lanes, masks and call sites
// (docs/spec/lang-wave-collectives.md "Rules common to every mask-taking
// function", docs/spec/lang-synchronization.md "The wave barrier").
//
// Each trap test breaks one rule; the control beside it runs the same
// kernel with the rule kept and must not trap. A backend that leaves the
// undefined behaviour undetected lists the trap tests as known failures.

#include <mc_runtime.h>

#include "conformance/language/wave_collectives/wave_test_support.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using wave_test::kFullMask;

// ---------------------------------------------------------------------------
// A caller that its own mask does not name.
// ---------------------------------------------------------------------------

// Every lane synchronizes with `mask`.
__global__ void SyncwaveWithMask(unsigned long mask) { __syncwave(mask); }

mcError_t LaunchSyncwave(unsigned threads, unsigned long mask) {
  SyncwaveWithMask<<<1, threads>>>(mask);
  return mcDeviceSynchronize();
}

TEST(SyncwaveMisuse, ThirtyTwoBitFullMaskInAFullWaveTraps) {
  MX_SPEC("lang.sync.syncwave.caller-not-in-mask-undefined",
          "lang.wave.legacy32.full-mask-names-half");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_TRAP(LaunchSyncwave(64, 0xfffffffful), mcErrorLaunchFailure,
                 "SyncwaveWithMask.*thread \\(32,0,0\\).*lane 32 .*"
                 "0x00000000ffffffff.*does not name it");
}

TEST(SyncwaveMisuse, ThirtyTwoBitFullMaskInAThirtyTwoThreadBlockIsFine) {
  MX_SPEC("lang.sync.syncwave.caller-not-in-mask-undefined",
          "lang.wave.legacy32.block-size-multiple-of-64");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_NO_TRAP(LaunchSyncwave(32, 0xfffffffful));
}

// Every lane shuffles with `mask`.
__global__ void ShuffleWithMask(unsigned long mask, int* out) {
  out[threadIdx.x] = __shfl_sync(mask, static_cast<int>(threadIdx.x), 0);
}

mcError_t LaunchShuffle(unsigned long mask) {
  int* out = nullptr;
  if (mcMallocManaged(&out, 64 * sizeof(int)) != mcSuccess)
    return mcErrorUnknown;
  ShuffleWithMask<<<1, 64>>>(mask, out);
  const mcError_t result = mcDeviceSynchronize();
  mcFree(out);
  return result;
}

TEST(ShuffleMisuse, CallerOutsideItsMaskTraps) {
  MX_SPEC("lang.wave.mask.caller-not-in-mask-undefined",
          "lang.wave.legacy32.full-mask-names-half");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_TRAP(LaunchShuffle(0xfffffffful), mcErrorLaunchFailure,
                 "ShuffleWithMask.*__shfl_sync.*mask 0x00000000ffffffff.*"
                 "does not name it");
}

TEST(ShuffleMisuse, SixtyFourBitFullMaskIsFine) {
  MX_SPEC("lang.wave.mask.caller-not-in-mask-undefined",
          "lang.wave.mask.is-64-bit");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_NO_TRAP(LaunchShuffle(kFullMask));
}

// ---------------------------------------------------------------------------
// Lanes whose masks differ and wait for each other.
// ---------------------------------------------------------------------------

// Lane 0 synchronizes with `lane0_mask`; lanes 1 and 2 with {0, 1, 2}.
__global__ void ThreeLanesSync(unsigned long lane0_mask) {
  __syncwave(threadIdx.x == 0 ? lane0_mask : 0x7ul);
}

mcError_t LaunchThreeLanes(unsigned long lane0_mask) {
  ThreeLanesSync<<<1, 3>>>(lane0_mask);
  return mcDeviceSynchronize();
}

TEST(SyncwaveMisuse, InconsistentMasksTrap) {
  MX_SPEC("lang.sync.syncwave.inconsistent-masks-undefined",
          "lang.wave.mask.differing-masks-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_TRAP(LaunchThreeLanes(0x3ul), mcErrorLaunchFailure,
                 "ThreeLanesSync.*overlapping but different masks.*"
                 "0x0000000000000007.*0x0000000000000003");
}

TEST(SyncwaveMisuse, ConsistentMasksAreFine) {
  MX_SPEC("lang.sync.syncwave.inconsistent-masks-undefined",
          "lang.wave.mask.differing-masks-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_NO_TRAP(LaunchThreeLanes(0x7ul));
}

// ---------------------------------------------------------------------------
// Lanes of one mask at different collectives.
// ---------------------------------------------------------------------------

// Lanes below `split` ballot, the others call __any_sync; all with the
// full mask.
__global__ void BallotOrAny(unsigned split, unsigned long* out) {
  if (threadIdx.x < split) {
    out[threadIdx.x] = __ballot_sync(kFullMask, 1);
  } else {
    out[threadIdx.x] = static_cast<unsigned long>(__any_sync(kFullMask, 1));
  }
}

mcError_t LaunchBallotOrAny(unsigned split) {
  unsigned long* out = nullptr;
  if (mcMallocManaged(&out, 64 * sizeof(unsigned long)) != mcSuccess) {
    return mcErrorUnknown;
  }
  BallotOrAny<<<1, 64>>>(split, out);
  const mcError_t result = mcDeviceSynchronize();
  mcFree(out);
  return result;
}

TEST(VoteMisuse, DifferentCollectivesWithOneMaskTrap) {
  MX_SPEC("lang.wave.mask.different-collectives-undefined",
          "lang.wave.mask.named-lane-not-participating-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_TRAP(LaunchBallotOrAny(32), mcErrorLaunchFailure,
                 "BallotOrAny.*different wave collectives.*lane 32 called "
                 "__any_sync.*lanes 0-31 wait in __ballot_sync");
}

TEST(VoteMisuse, OneCollectiveForAllLanesIsFine) {
  MX_SPEC("lang.wave.mask.different-collectives-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_NO_TRAP(LaunchBallotOrAny(64));
}

// Lanes below 32 shuffle with width `low_width`, the others with 64.
__global__ void MixedWidths(int low_width, int* out) {
  const int width = threadIdx.x < 32 ? low_width : 64;
  out[threadIdx.x] = __shfl_xor_sync(kFullMask, 1, 1, width);
}

mcError_t LaunchMixedWidths(int low_width) {
  int* out = nullptr;
  if (mcMallocManaged(&out, 64 * sizeof(int)) != mcSuccess)
    return mcErrorUnknown;
  MixedWidths<<<1, 64>>>(low_width, out);
  const mcError_t result = mcDeviceSynchronize();
  mcFree(out);
  return result;
}

TEST(ShuffleMisuse, DifferentWidthsWithOneMaskTrap) {
  MX_SPEC("lang.wave.mask.different-collectives-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_TRAP(LaunchMixedWidths(32), mcErrorLaunchFailure,
                 "MixedWidths.*different wave collectives.*width 64.*"
                 "width 32");
}

TEST(ShuffleMisuse, OneWidthForAllLanesIsFine) {
  MX_SPEC("lang.wave.mask.different-collectives-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_NO_TRAP(LaunchMixedWidths(64));
}

// ---------------------------------------------------------------------------
// A named lane that never arrives: it waits at a block barrier.
// ---------------------------------------------------------------------------

// Lanes below `shufflers` shuffle over the whole wave before the block
// barrier; the others go to the barrier directly.
__global__ void ShuffleThenBarrier(unsigned shufflers, int* out) {
  int v = static_cast<int>(threadIdx.x);
  if (threadIdx.x < shufflers) v = __shfl_down_sync(kFullMask, v, 1);
  __syncthreads();
  out[threadIdx.x] = v;
}

mcError_t LaunchShuffleThenBarrier(unsigned shufflers) {
  int* out = nullptr;
  if (mcMallocManaged(&out, 64 * sizeof(int)) != mcSuccess)
    return mcErrorUnknown;
  ShuffleThenBarrier<<<1, 64>>>(shufflers, out);
  const mcError_t result = mcDeviceSynchronize();
  mcFree(out);
  return result;
}

TEST(ShuffleMisuse, NamedLaneWaitingAtABarrierDeadlocks) {
  MX_SPEC("lang.wave.mask.named-lane-not-participating-undefined",
          "lang.sync.syncwave.named-lane-missing-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_TRAP(LaunchShuffleThenBarrier(32), mcErrorLaunchFailure,
                 "ShuffleThenBarrier.*deadlock.*lanes 0-31 wait in "
                 "__shfl_down_sync.*for lanes 32-63.*__syncthreads");
}

TEST(ShuffleMisuse, EveryNamedLaneShufflingIsFine) {
  MX_SPEC("lang.wave.mask.named-lane-not-participating-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_NO_TRAP(LaunchShuffleThenBarrier(64));
}

// Lane 0 synchronizes with lane 1, which waits at a block barrier instead.
__global__ void SyncwaveAgainstBarrier(bool lane1_syncs) {
  if (threadIdx.x == 0 || lane1_syncs) __syncwave(0x3ul);
  __syncthreads();
}

mcError_t LaunchSyncwaveAgainstBarrier(bool lane1_syncs) {
  SyncwaveAgainstBarrier<<<1, 2>>>(lane1_syncs);
  return mcDeviceSynchronize();
}

TEST(SyncwaveMisuse, NamedLaneThatNeverSyncsDeadlocks) {
  MX_SPEC("lang.sync.syncwave.named-lane-missing-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_TRAP(LaunchSyncwaveAgainstBarrier(false), mcErrorLaunchFailure,
                 "SyncwaveAgainstBarrier.*deadlock.*__syncwave.*"
                 "0x0000000000000003");
}

TEST(SyncwaveMisuse, NamedLaneThatSyncsIsFine) {
  MX_SPEC("lang.sync.syncwave.named-lane-missing-undefined");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_EXPECT_NO_TRAP(LaunchSyncwaveAgainstBarrier(true));
}

}  // namespace
