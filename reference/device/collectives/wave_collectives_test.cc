// Copyright mxcts authors.
//
// Longer than the project's 600-line guide: one test file per part, and
// every collective's rule has a control beside it.
//
// Tests of the wave collectives in the engine: grouping by wave and mask,
// results, release order, exited and absent lanes, __activemask(), the
// traps for misuse (each with a control), and the stall report's account of
// the groups. Kernels call the device header's functions, which reach the
// engine through __mc_dev_wave_collective as compiled device code does.

#include "reference/device/collectives/wave_collectives.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "mcr/detail/device_wave.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"
#include "reference/device/scheduling/thread_context.h"

namespace mxcts::device {
namespace {

using device_internal::FormatLaneList;
using device_internal::FormatLaneMask;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::MatchesRegex;

constexpr unsigned long kFull = ~0ul;

// The tests name the lanes that arrive (and trap) first, which assumes the
// linear order whatever MXCTS_ENGINE_ORDER says; the test of the shuffled
// order sets its own.
class LinearOrder : public ::testing::Environment {
 public:
  void SetUp() override { ASSERT_TRUE(SetScheduleOrder("linear")); }
};
::testing::Environment* const linear_order =
    ::testing::AddGlobalTestEnvironment(new LinearOrder);

// out[t] = the value of lane `source` (threads' values are 100 + t).
void Broadcast(void** args) {
  unsigned long long* out = Arg<unsigned long long*>(args, 0);
  const int source = Arg<int>(args, 1);
  const unsigned t = LinearThread();
  out[t] = __shfl_sync(kFull, 100ull + t, source);
}

TEST(WaveCollectives, ShuffleReadsTheSourceLaneOfEachWave) {
  // [lang.wave.shfl.returns-source-lane-value] [lang.wave.shfl.broadcast]
  std::vector<unsigned long long> out(128);
  unsigned long long* data = out.data();
  int source = 5;
  RunResult result = RunCapturingStderr("Broadcast", &Broadcast,
                                        {&data, &source}, dim3(1), dim3(128));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (unsigned t = 0; t < 128; ++t) {
    EXPECT_EQ(out[t], 100u + (t / 64) * 64 + 5) << "thread " << t;
  }
}

// Lanes below 32 and the others use disjoint masks: two groups per wave.
void DisjointHalves(void** args) {
  unsigned long* out = Arg<unsigned long*>(args, 0);
  const unsigned t = LinearThread();
  const unsigned long mask = (t % 64) < 32 ? 0xfffffffful : ~0xfffffffful;
  out[t] = __ballot_sync(mask, t % 2 == 0);
}

TEST(WaveCollectives, DisjointMasksFormSeparateGroups) {
  // [lang.wave.ballot.returns-64-bit-mask]
  // [lang.wave.ballot.unnamed-lanes-are-zero]
  std::vector<unsigned long> out(64);
  unsigned long* data = out.data();
  RunResult result = RunCapturingStderr("DisjointHalves", &DisjointHalves,
                                        {&data}, dim3(1), dim3(64));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t], t < 32 ? 0x55555555ul : 0x5555555500000000ul) << t;
  }
}

// Lanes reach one group from two call sites; every lane logs its release.
void DivergentSites(void** args) {
  std::vector<unsigned>* resumed = Arg<std::vector<unsigned>*>(args, 0);
  const unsigned t = LinearThread();
  if (t % 2 == 0) {
    __syncwave();
  } else {
    __syncwarp();
  }
  resumed->push_back(t);
}

TEST(WaveCollectives, DivergentCallSitesJoinOneGroupReleasedInLaneOrder) {
  // [lang.sync.syncwave.divergent-lanes-allowed]
  // [lang.sync.syncwave.syncwarp-is-synonym]
  std::vector<unsigned> resumed;
  std::vector<unsigned>* data = &resumed;
  RunResult result = RunCapturingStderr("DivergentSites", &DivergentSites,
                                        {&data}, dim3(1), dim3(64));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  std::vector<unsigned> expected;
  for (unsigned t = 0; t < 64; ++t) expected.push_back(t);
  EXPECT_EQ(resumed, expected);
}

// Lanes at or above `stay` exit at once; the others vote over the full mask.
void ExitThenVote(void** args) {
  unsigned long* out = Arg<unsigned long*>(args, 0);
  const unsigned stay = Arg<unsigned>(args, 1);
  const unsigned t = LinearThread();
  if (t % 64 >= stay) return;
  out[t] = __ballot_sync(kFull, 1);
}

TEST(WaveCollectives, ExitedLanesAreNotAwaitedAndVoteZero) {
  // [lang.wave.mask.waits-for-named-lanes]
  // [lang.sync.syncwave.exited-lanes-not-awaited]
  std::vector<unsigned long> out(64, 0);
  unsigned long* data = out.data();
  unsigned stay = 40;
  RunResult result = RunCapturingStderr("ExitThenVote", &ExitThenVote,
                                        {&data, &stay}, dim3(1), dim3(64));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (unsigned t = 0; t < 40; ++t) EXPECT_EQ(out[t], (1ul << 40) - 1) << t;
}

// Lane 0 waits with the mask {0, 1}; lane 1 exits without taking part.
void PartnerExitsLater(void** args) {
  unsigned long* out = Arg<unsigned long*>(args, 0);
  if (LinearThread() == 1) return;
  if (LinearThread() == 0) out[0] = __ballot_sync(0x3, 1);
}

TEST(WaveCollectives, ALaneExitingWhileAGroupWaitsCompletesIt) {
  // [lang.sync.syncwave.exited-lanes-not-awaited]
  unsigned long out = 0;
  unsigned long* data = &out;
  RunResult result = RunCapturingStderr("PartnerExitsLater", &PartnerExitsLater,
                                        {&data}, dim3(1), dim3(2));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(out, 0x1ul);
}

TEST(WaveCollectives, AbsentLanesOfAPartialWaveCountAsExited) {
  // [lang.wave.formation.partial-last-wave]
  // [lang.sync.syncwave.absent-lanes-count-as-exited]
  std::vector<unsigned long> out(70, 0);
  unsigned long* data = out.data();
  unsigned stay = 64;
  RunResult result = RunCapturingStderr("ExitThenVote", &ExitThenVote,
                                        {&data, &stay}, dim3(1), dim3(70));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(out[0], kFull);
  EXPECT_EQ(out[69], 0x3ful);
}

// Each lane does `op` once with its own values; out[t] = result.
enum class Op { kUp, kDown, kXor, kAdd32, kMinSigned, kMatchAny, kMatchAll };

void RunOp(void** args) {
  long long* out = Arg<long long*>(args, 0);
  const Op op = Arg<Op>(args, 1);
  const int operand = Arg<int>(args, 2);
  const int width = Arg<int>(args, 3);
  const unsigned t = LinearThread();
  const int value = static_cast<int>(t) * 10 - 300;
  int pred = -1;
  switch (op) {
    case Op::kUp:
      out[t] = __shfl_up_sync(kFull, value, operand, width);
      return;
    case Op::kDown:
      out[t] = __shfl_down_sync(kFull, value, operand, width);
      return;
    case Op::kXor:
      out[t] = __shfl_xor_sync(kFull, value, operand, width);
      return;
    case Op::kAdd32:
      out[t] = __reduce_add_sync(0xffffffffu, value);
      return;
    case Op::kMinSigned:
      out[t] = __reduce_min_sync(kFull, value);
      return;
    case Op::kMatchAny:
      out[t] = static_cast<long long>(__match_any_sync(kFull, t % 3));
      return;
    case Op::kMatchAll:
      out[t] = static_cast<long long>(__match_all_sync(
          kFull, operand == 0 ? 7 : static_cast<int>(t % 2), &pred));
      out[64 + t] = pred;
      return;
  }
}

std::vector<long long> RunOpOnOneWave(Op op, int operand, int width) {
  std::vector<long long> out(128, -12345);
  long long* data = out.data();
  RunResult result = RunCapturingStderr(
      "RunOp", &RunOp, {&data, &op, &operand, &width}, dim3(1), dim3(64));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  return out;
}

TEST(WaveCollectives, ShuffleUpKeepsOwnValueBelowDelta) {
  // [lang.wave.shfl-up.returns-lower-lane]
  // [lang.wave.shfl-up.out-of-range-returns-own]
  const std::vector<long long> out = RunOpOnOneWave(Op::kUp, 3, 16);
  for (int t = 0; t < 64; ++t) {
    const int source = t % 16 < 3 ? t : t - 3;
    EXPECT_EQ(out[t], source * 10 - 300) << t;
  }
}

TEST(WaveCollectives, ShuffleDownKeepsOwnValuePastTheGroup) {
  // [lang.wave.shfl-down.returns-higher-lane]
  // [lang.wave.shfl-down.out-of-range-returns-own]
  const std::vector<long long> out = RunOpOnOneWave(Op::kDown, 5, 8);
  for (int t = 0; t < 64; ++t) {
    const int source = t % 8 + 5 >= 8 ? t : t + 5;
    EXPECT_EQ(out[t], source * 10 - 300) << t;
  }
}

TEST(WaveCollectives, ShuffleXorToALaterGroupKeepsOwnValue) {
  // [lang.wave.shfl-xor.returns-butterfly-partner]
  // [lang.wave.shfl-xor.later-group-returns-own]
  const std::vector<long long> out = RunOpOnOneWave(Op::kXor, 20, 16);
  for (int t = 0; t < 64; ++t) {
    const int partner = t ^ 20;
    const int source = partner >= (t / 16) * 16 + 16 ? t : partner;
    EXPECT_EQ(out[t], source * 10 - 300) << t;
  }
}

TEST(WaveCollectives, ThirtyTwoBitMaskReducesEachHalf) {
  // [lang.wave.reduce.mask-32-half-wave] [lang.wave.reduce.add-result]
  const std::vector<long long> out = RunOpOnOneWave(Op::kAdd32, 0, 64);
  long long low = 0, high = 0;
  for (int t = 0; t < 32; ++t) low += t * 10 - 300;
  for (int t = 32; t < 64; ++t) high += t * 10 - 300;
  for (int t = 0; t < 64; ++t) EXPECT_EQ(out[t], t < 32 ? low : high) << t;
}

TEST(WaveCollectives, SignedMinimumComparesAsSigned) {
  // [lang.wave.reduce.min-result] [lang.wave.reduce.mask-64-whole-wave]
  const std::vector<long long> out = RunOpOnOneWave(Op::kMinSigned, 0, 64);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(out[t], -300) << t;
}

TEST(WaveCollectives, MatchAnyGroupsEqualValues) {
  // [lang.wave.match-any.returns-equal-value-lanes]
  const std::vector<long long> out = RunOpOnOneWave(Op::kMatchAny, 0, 64);
  for (int t = 0; t < 64; ++t) {
    unsigned long expected = 0;
    for (int other = 0; other < 64; ++other) {
      if (other % 3 == t % 3) expected |= 1ul << other;
    }
    EXPECT_EQ(static_cast<unsigned long>(out[t]), expected) << t;
  }
}

TEST(WaveCollectives, MatchAllReturnsMaskOnlyForUniformValues) {
  // [lang.wave.match-all.uniform-returns-mask]
  // [lang.wave.match-all.differing-returns-zero]
  const std::vector<long long> uniform = RunOpOnOneWave(Op::kMatchAll, 0, 64);
  const std::vector<long long> mixed = RunOpOnOneWave(Op::kMatchAll, 1, 64);
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(uniform[t], -1) << t;  // the full mask
    EXPECT_EQ(uniform[64 + t], 1) << t;
    EXPECT_EQ(mixed[t], 0) << t;
    EXPECT_EQ(mixed[64 + t], 0) << t;
  }
}

// out[t] = __activemask() of lanes that call it; how depends on `shape`:
// 0 converged; 1 two call sites split at lane 10; 2 lanes from 20 up exit
// first; 3 lanes from 20 up wait at a block barrier that the callers reach
// afterwards.
void ActiveMask(void** args) {
  unsigned long* out = Arg<unsigned long*>(args, 0);
  const int shape = Arg<int>(args, 1);
  const unsigned t = LinearThread();
  switch (shape) {
    case 0:
      out[t] = __activemask();
      return;
    case 1:
      if (t % 64 < 10) {
        out[t] = __activemask();
      } else {
        out[t] = __activemask();
      }
      return;
    case 2:
      if (t % 64 >= 20) return;
      out[t] = __activemask();
      return;
    case 3:
      if (t % 64 < 20) out[t] = __activemask();
      __syncthreads();
      return;
  }
}

std::vector<unsigned long> ActiveMasks(int shape, unsigned threads) {
  std::vector<unsigned long> out(threads, 0);
  unsigned long* data = out.data();
  RunResult result = RunCapturingStderr(
      "ActiveMask", &ActiveMask, {&data, &shape}, dim3(1), dim3(threads));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  return out;
}

TEST(WaveCollectives, ActiveMaskOfConvergedLanesIsTheWholeWave) {
  // [lang.wave.activemask.full-wave-when-converged]
  const std::vector<unsigned long> out = ActiveMasks(0, 100);
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(out[t], kFull) << t;
  for (unsigned t = 64; t < 100; ++t) EXPECT_EQ(out[t], (1ul << 36) - 1) << t;
}

TEST(WaveCollectives, ActiveMaskSeparatesCallSites) {
  // [lang.wave.activemask.returns-active-lanes]
  // [lang.wave.activemask.not-a-barrier]
  const std::vector<unsigned long> out = ActiveMasks(1, 64);
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t], t < 10 ? 0x3fful : kFull & ~0x3fful) << t;
  }
}

TEST(WaveCollectives, ActiveMaskLeavesOutExitedLanes) {
  // [lang.wave.activemask.returns-active-lanes]
  const std::vector<unsigned long> out = ActiveMasks(2, 64);
  for (unsigned t = 0; t < 20; ++t) EXPECT_EQ(out[t], 0xffffful) << t;
}

TEST(WaveCollectives, ActiveMaskResolvesWhileOtherLanesWaitAtABarrier) {
  // [lang.wave.activemask.returns-active-lanes]
  const std::vector<unsigned long> out = ActiveMasks(3, 128);
  for (unsigned t = 0; t < 20; ++t) EXPECT_EQ(out[t], 0xffffful) << t;
  for (unsigned t = 64; t < 84; ++t) EXPECT_EQ(out[t], 0xffffful) << t;
}

TEST(WaveCollectives, ResultsDoNotDependOnTheScheduleOrder) {
  // [lang.wave.mask.waits-for-named-lanes]
  // [lang.wave.activemask.returns-active-lanes]
  const std::vector<long long> linear_xor = RunOpOnOneWave(Op::kXor, 20, 16);
  const std::vector<long long> linear_match =
      RunOpOnOneWave(Op::kMatchAny, 0, 64);
  const std::vector<unsigned long> linear_active = ActiveMasks(1, 64);
  for (const char* order : {"shuffle:1", "shuffle:2", "shuffle:977"}) {
    ASSERT_TRUE(SetScheduleOrder(order));
    EXPECT_EQ(RunOpOnOneWave(Op::kXor, 20, 16), linear_xor) << order;
    EXPECT_EQ(RunOpOnOneWave(Op::kMatchAny, 0, 64), linear_match) << order;
    EXPECT_EQ(ActiveMasks(1, 64), linear_active) << order;
  }
  ASSERT_TRUE(SetScheduleOrder("linear"));
}

// --- Misuse traps, each with its control. ---

// Every lane calls __syncwave(mask).
void SyncWithMask(void** args) {
  const unsigned long mask = Arg<unsigned long>(args, 0);
  __syncwave(mask);
}

TEST(WaveCollectives, ALaneOutsideItsMaskTraps) {
  // [lang.wave.mask.caller-not-in-mask-undefined]
  // [lang.wave.legacy32.full-mask-names-half]
  unsigned long mask = 0xfffffffful;
  RunResult result = RunCapturingStderr("SyncWithMask", &SyncWithMask, {&mask},
                                        dim3(1), dim3(64));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              MatchesRegex("mxmaca trap: kernel 'SyncWithMask' block "
                           "\\(0,0,0\\) thread \\(32,0,0\\): lane 32 of wave "
                           "0 called __syncwave\\(\\) at "
                           ".*wave_collectives_test.cc:[0-9]+ with mask "
                           "0x00000000ffffffff, which does not name it "
                           "\\(0xffffffff names lanes 0 to 31 only; a wave "
                           "has 64 lanes\\)\n"));
}

TEST(WaveCollectives, AFullMaskInAThirtyTwoThreadBlockIsFine) {
  // Control of the test above: lanes 32 to 63 do not exist.
  unsigned long mask = 0xfffffffful;
  RunResult result = RunCapturingStderr("SyncWithMask", &SyncWithMask, {&mask},
                                        dim3(1), dim3(32));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
}

// Lane 0 uses the mask {0, 1}; lanes 1 and 2 use `mask` where it names
// them, else lane 1 {0, 1} and lane 2 {2}.
void TwoLaneMasks(void** args) {
  const unsigned long mask = Arg<unsigned long>(args, 0);
  const unsigned t = LinearThread();
  if (t == 0) {
    __syncwave(0x3ul);
  } else {
    __syncwave((mask >> t & 1) != 0 ? mask : t == 1 ? 0x3ul : 0x4ul);
  }
}

TEST(WaveCollectives, OverlappingButDifferentMasksTrap) {
  // [lang.wave.mask.differing-masks-undefined]
  // [lang.sync.syncwave.inconsistent-masks-undefined]
  unsigned long mask = 0x7;
  RunResult result = RunCapturingStderr("TwoLaneMasks", &TwoLaneMasks, {&mask},
                                        dim3(1), dim3(3));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              MatchesRegex(".*thread \\(1,0,0\\): lanes of wave 0 wait for "
                           "each other in wave collectives with overlapping "
                           "but different masks: lane 1 called "
                           "__syncwave\\(\\) with mask 0x0000000000000007 at "
                           ".*wave_collectives_test.cc:[0-9]+, while lanes 0 "
                           "wait in __syncwave\\(\\) with mask "
                           "0x0000000000000003 at .*wave_collectives_test.cc:"
                           "[0-9]+ \\(the first: thread \\(0,0,0\\)\\)\n"));
}

TEST(WaveCollectives, EqualMasksDoNotTrap) {
  // Control of the test above.
  unsigned long mask = 0x3;
  RunResult result = RunCapturingStderr("TwoLaneMasks", &TwoLaneMasks, {&mask},
                                        dim3(1), dim3(3));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
}

// Lanes 0, 1 and 2 use the masks {0, 1}, {1, 2} and {0, 2}: each group
// needs a lane parked in the next.
void ThreeWayCycle(void**) {
  const unsigned t = LinearThread();
  __syncwave(t == 0 ? 0x3ul : t == 1 ? 0x6ul : 0x5ul);
}

TEST(WaveCollectives, ACycleThroughThreeGroupsTraps) {
  // [lang.wave.mask.differing-masks-undefined]
  RunResult result =
      RunCapturingStderr("ThreeWayCycle", &ThreeWayCycle, {}, dim3(1), dim3(3));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              MatchesRegex(".*thread \\(2,0,0\\): lanes of wave 0 wait for "
                           "each other .*: lane 2 called __syncwave\\(\\) "
                           "with mask 0x0000000000000005 at .*, while lanes 0 "
                           "wait in __syncwave\\(\\) with mask "
                           "0x0000000000000003 at .*; lanes 1 wait in "
                           "__syncwave\\(\\) with mask 0x0000000000000006 "
                           "at .*\n"));
}

// Each half reduces with a 32-bit mask, then the wave with a 64-bit one:
// lanes 0-31 reach the second call while lanes 32-63 have not made the
// first.
void HalvesThenWhole(void** args) {
  unsigned* out = Arg<unsigned*>(args, 0);
  const unsigned t = LinearThread();
  const unsigned half = __reduce_add_sync(0xffffffffu, 1u);
  out[t] = half * 1000 + __reduce_add_sync(kFull, 1u);
}

TEST(WaveCollectives, LanesAheadAtALaterMaskDoNotTrap) {
  // [lang.wave.mask.waits-for-named-lanes]
  // [lang.wave.reduce.mask-32-half-wave]
  std::vector<unsigned> out(64);
  unsigned* data = out.data();
  RunResult result = RunCapturingStderr("HalvesThenWhole", &HalvesThenWhole,
                                        {&data}, dim3(1), dim3(64));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(out[t], 32u * 1000 + 64) << t;
}

// Lane 0 ballots; the others do `other` (0 ballot, 1 any, 2 shuffle of
// width 32 against lane 0's shuffle of width 64).
void MixedOperations(void** args) {
  const int other = Arg<int>(args, 0);
  const bool first = LinearThread() == 0;
  if (other == 2) {
    (void)__shfl_sync(kFull, 1, 0, first ? 64 : 32);
  } else if (first || other == 0) {
    (void)__ballot_sync(kFull, 1);
  } else {
    (void)__any_sync(kFull, 1);
  }
}

TEST(WaveCollectives, DifferentOperationsInOneGroupTrap) {
  // [lang.wave.mask.different-collectives-undefined]
  int other = 1;
  RunResult result = RunCapturingStderr("MixedOperations", &MixedOperations,
                                        {&other}, dim3(1), dim3(64));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              MatchesRegex(".*thread \\(1,0,0\\): lanes of wave 0 meet at "
                           "different wave collectives with mask "
                           "0xffffffffffffffff: lane 1 called __any_sync\\(\\) "
                           "at .*:[0-9]+, while lanes 0 wait in "
                           "__ballot_sync\\(\\) at .*:[0-9]+ \\(the first: "
                           "thread \\(0,0,0\\)\\)\n"));
}

TEST(WaveCollectives, DifferentShuffleWidthsInOneGroupTrap) {
  // [lang.wave.mask.different-collectives-undefined]
  int other = 2;
  RunResult result = RunCapturingStderr("MixedOperations", &MixedOperations,
                                        {&other}, dim3(1), dim3(64));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("lane 1 called __shfl_sync() of width 32 on 4-byte "
                        "values at "));
  EXPECT_THAT(result.stderr_text,
              HasSubstr("wait in __shfl_sync() of width 64 on 4-byte values"));
}

TEST(WaveCollectives, OneOperationInOneGroupDoesNotTrap) {
  // Control of the tests above.
  int other = 0;
  RunResult result = RunCapturingStderr("MixedOperations", &MixedOperations,
                                        {&other}, dim3(1), dim3(64));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
}

void ShuffleWithWidth(void** args) {
  const int width = Arg<int>(args, 0);
  (void)__shfl_sync(kFull, 1, 0, width);
}

TEST(WaveCollectives, AWidthThatIsNotAPowerOfTwoTraps) {
  // [lang.wave.shfl.width-invalid-undefined]
  for (int width : {0, 3, 65, -64}) {
    RunResult result = RunCapturingStderr("ShuffleWithWidth", &ShuffleWithWidth,
                                          {&width}, dim3(1), dim3(64));
    EXPECT_EQ(result.error, mcErrorLaunchFailure) << width;
    EXPECT_THAT(result.stderr_text,
                HasSubstr("the width must be a power of two from 1 to 64"));
  }
  for (int width : {1, 2, 4, 8, 16, 32, 64}) {  // Control.
    RunResult result = RunCapturingStderr("ShuffleWithWidth", &ShuffleWithWidth,
                                          {&width}, dim3(1), dim3(64));
    EXPECT_EQ(result.error, mcSuccess) << width << result.stderr_text;
  }
}

// Lanes below 32 shuffle over the whole wave; the others wait at a block
// barrier (unless `converge`): neither can complete.
void ShuffleAgainstBarrier(void** args) {
  const bool converge = Arg<bool>(args, 0);
  if (converge || LinearThread() < 32) (void)__shfl_sync(kFull, 1, 0);
  __syncthreads();
}

TEST(WaveCollectives, ADeadlockReportNamesTheGroupAndTheMissingLanes) {
  // [lang.wave.mask.named-lane-not-participating-undefined]
  // [lang.sync.syncwave.named-lane-missing-undefined]
  bool converge = false;
  RunResult result =
      RunCapturingStderr("ShuffleAgainstBarrier", &ShuffleAgainstBarrier,
                         {&converge}, dim3(1), dim3(64));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(
      result.stderr_text,
      MatchesRegex(".*thread \\(0,0,0\\): deadlock: 64 of 64 threads wait "
                   "\\(this one in __shfl_sync\\(\\) at .*:[0-9]+\\) and no "
                   "thread of the block can continue; wave 0: lanes 0-31 "
                   "wait in __shfl_sync\\(\\) with mask 0xffffffffffffffff at "
                   ".*:[0-9]+ for lanes 32-63, which have not arrived "
                   "\\(thread \\(32,0,0\\) waits in __syncthreads\\(\\) at "
                   ".*:[0-9]+\\)\n"));
}

TEST(WaveCollectives, ConvergedLanesBeforeTheBarrierDoNotDeadlock) {
  // Control of the test above.
  bool converge = true;
  RunResult result =
      RunCapturingStderr("ShuffleAgainstBarrier", &ShuffleAgainstBarrier,
                         {&converge}, dim3(1), dim3(64));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
}

// Counts the groups of a block from inside its last thread.
void CountGroups(void** args) {
  unsigned long* groups = Arg<unsigned long*>(args, 0);
  __syncwave();
  (void)__ballot_sync(0xfffffffful << (LinearThread() / 32 % 2 * 32), 1);
  __syncthreads();
  if (LinearThread() == blockDim.x * blockDim.y * blockDim.z - 1) {
    *groups = device_internal::CurrentGrid()->waves->completed_groups();
  }
}

TEST(WaveCollectives, EachWaveAndMaskIsOneGroup) {
  // [lang.wave.formation.consecutive-linear-ids]
  unsigned long groups = 0;
  unsigned long* data = &groups;
  RunResult result = RunCapturingStderr("CountGroups", &CountGroups, {&data},
                                        dim3(1), dim3(32, 2, 2));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(groups, 2u + 4u);  // one sync per wave, one ballot per half
}

TEST(WaveCollectivesDeathTest, CallFromHostCodeAborts) {
  EXPECT_DEATH((void)__ballot_sync(kFull, 1, "host.cc", 12),
               "mxmaca: __ballot_sync\\(\\) called outside device code at "
               "host.cc:12");
}

TEST(WaveCollectivesFormat, LaneListsAreRanges) {
  EXPECT_EQ(FormatLaneList(0), "none");
  EXPECT_EQ(FormatLaneList(0x1), "0");
  EXPECT_EQ(FormatLaneList(0xffffffffull), "0-31");
  EXPECT_EQ(FormatLaneList(0xb0000000000000f5ull), "0,2,4-7,60-61,63");
  EXPECT_EQ(FormatLaneList(~0ull), "0-63");
  EXPECT_EQ(FormatLaneMask(0xf0), "0x00000000000000f0");
}

}  // namespace
}  // namespace mxcts::device
