// Copyright mxcts authors.
//
// Conformance: block barriers that not every thread of the block reaches,
// reached through different call sites, of different variants in one
// phase, or deadlocked against a wave barrier have undefined behaviour;
// the reference detects each, stops the grid with mcErrorLaunchFailure and
// writes a diagnostic naming the kernel, the block, a thread and the call
// sites as file:line (docs/spec/lang-synchronization.md,
// docs/spec/lang-undefined-behaviour.md "lang.ub.sync.barrier-*").
//
// The behaviour is undefined, so the detection is the reference's choice:
// the misuse tests require reference_choices (another backend reports them
// unsupported), while the tests of uniform barriers run everywhere.
//
// Each misuse runs in a fresh process (MX_EXPECT_TRAP) and has a control
// beside it: the same kernel with an argument that makes the barrier
// uniform, which must complete with mcSuccess. The misuse is placed at the
// first, a middle and the last thread of each block shape, so that the
// misbehaving thread runs before, among and after the waiting ones.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/launch_shapes.h"
#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using ::mxcts::conformance::GlobalLinearThread;
using ::mxcts::conformance::LinearBlock;
using ::mxcts::conformance::LinearThread;
using ::mxcts::conformance::ManagedArray;
using ::mxcts::conformance::MultiThreadBlockShapes;
using ::mxcts::conformance::Shape;

constexpr int kNoThread = -1;

// --- Kernels. The k...Line constants are the lines of the barrier calls
// below them, which the diagnostics must name. ---

// Thread `exiting_thread` of block `exiting_block` returns before the
// barrier; the others wait in it.
constexpr int kExitBeforeBarrierLine = __LINE__ + 6;
__global__ void ExitBeforeBarrier(int exiting_block, int exiting_thread) {
  if (static_cast<int>(LinearBlock()) == exiting_block &&
      static_cast<int>(LinearThread()) == exiting_thread) {
    return;
  }
  __syncthreads();
}

// Thread `skipping_thread` steps over the first barrier but not the second,
// so it reaches the second call site while the others wait at the first.
constexpr int kSkippedBarrierLine = __LINE__ + 4;
constexpr int kFollowingBarrierLine = __LINE__ + 5;
__global__ void SkipOneBarrier(int skipping_thread) {
  if (static_cast<int>(LinearThread()) != skipping_thread) {
    __syncthreads();
  }
  __syncthreads();
}

// Threads below `split` reach the barrier of the `then` branch, the others
// the one of the `else` branch.
constexpr int kThenBarrierLine = __LINE__ + 4;
constexpr int kElseBarrierLine = __LINE__ + 5;
__global__ void BarrierInBothBranches(int split) {
  if (static_cast<int>(LinearThread()) < split) {
    __syncthreads();
  } else {
    __syncthreads();
  }
}

// Thread `looping_thread` runs the loop, and its barrier, twice; the others
// once, then exit.
constexpr int kLoopBarrierLine = __LINE__ + 4;
__global__ void BarrierInDivergentLoop(int looping_thread) {
  const int trips = static_cast<int>(LinearThread()) == looping_thread ? 2 : 1;
  for (int trip = 0; trip < trips; ++trip) {
    __syncthreads();
  }
}

enum Variant { kPlain, kCount, kAnd, kOr };

const char* VariantName(int variant) {
  switch (variant) {
    case kPlain:
      return "Plain";
    case kCount:
      return "Count";
    case kAnd:
      return "And";
    case kOr:
      return "Or";
  }
  return "Unknown";
}

// The function name a diagnostic uses for `variant`, as a regular
// expression.
std::string VariantPattern(int variant) {
  switch (variant) {
    case kPlain:
      return "__syncthreads\\(\\)";
    case kCount:
      return "__syncthreads_count\\(\\)";
    case kAnd:
      return "__syncthreads_and\\(\\)";
    default:
      return "__syncthreads_or\\(\\)";
  }
}

// One barrier call of `variant`, all on one source line so that every
// variant has the same call site.
__device__ int BarrierOfVariant(int variant, int predicate) {
  // clang-format off
  return variant == kPlain ? (__syncthreads(), 0) : variant == kCount ? __syncthreads_count(predicate) : variant == kAnd ? __syncthreads_and(predicate) : __syncthreads_or(predicate);
  // clang-format on
}

// Threads below `split` call `first_variant`, the others `second_variant`,
// at one call site.
__global__ void MixedVariants(int first_variant, int second_variant,
                              int split) {
  const int variant =
      static_cast<int>(LinearThread()) < split ? first_variant : second_variant;
  (void)BarrierOfVariant(variant, 1);
}

// Thread `exiting_thread` returns before a predicate barrier of `variant`.
constexpr int kExitBeforePredicateLine = __LINE__ + 5;
__global__ void ExitBeforePredicateBarrier(int variant, int exiting_thread) {
  if (static_cast<int>(LinearThread()) == exiting_thread) return;
  switch (variant) {
    case kCount:
      (void)__syncthreads_count(1);
      break;
    case kAnd:
      (void)__syncthreads_and(1);
      break;
    default:
      (void)__syncthreads_or(1);
      break;
  }
}
// The lines of the three calls above.
constexpr int kPredicateCallLines[] = {0, kExitBeforePredicateLine,
                                       kExitBeforePredicateLine + 3,
                                       kExitBeforePredicateLine + 6};

// Every thread records that it ran past the barrier, then
// `exiting_thread` returns early: legal, as no barrier follows.
__global__ void ExitAfterBarrier(int exiting_thread, int* passed) {
  __syncthreads();
  passed[GlobalLinearThread()] = 1;
  if (static_cast<int>(LinearThread()) == exiting_thread) return;
  passed[GlobalLinearThread()] = 2;
}

// Thread 0 skips the wave barrier and waits at the block barrier, while
// the rest of its wave waits at the wave barrier, which names thread 0:
// neither barrier can complete, and no thread has exited. With `misuse`
// false every thread of the first wave takes the wave barrier first.
constexpr int kDeadlockBarrierLine = __LINE__ + 6;
__global__ void BarrierAgainstWaveBarrier(bool misuse) {
  const unsigned t = LinearThread();
  if (t < 64 && !(misuse && t == 0)) {
    __syncwave();
  }
  __syncthreads();
}

// --- Helpers. ---

dim3 ToDim3(const Shape& shape) { return dim3(shape.x, shape.y, shape.z); }

// "(x,y,z)" of linear thread `linear` of `block`, as a regular expression.
std::string ThreadPattern(const Shape& block, unsigned linear) {
  return "\\(" + std::to_string(linear % block.x) + "," +
         std::to_string(linear / block.x % block.y) + "," +
         std::to_string(linear / block.x / block.y) + "\\)";
}

// "barrier_misuse_test.cc:<line>" as a regular expression.
std::string SitePattern(int line) {
  return "barrier_misuse_test\\.cc:" + std::to_string(line) + "[^0-9]";
}

// The thread a test makes misbehave: the first, one in the middle, or the
// last of the block.
enum Position { kFirst, kMiddle, kLast };

const char* PositionName(int position) {
  switch (position) {
    case kFirst:
      return "First";
    case kMiddle:
      return "Middle";
    default:
      return "Last";
  }
}

unsigned ThreadAt(int position, unsigned threads) {
  switch (position) {
    case kFirst:
      return 0;
    case kMiddle:
      return threads / 2;
    default:
      return threads - 1;
  }
}

// Launchers for MX_EXPECT_TRAP: each launches one grid and returns what
// mcDeviceSynchronize() returns.
mcError_t RunExitBeforeBarrier(const Shape& grid, const Shape& block,
                               int exiting_block, int exiting_thread) {
  ExitBeforeBarrier<<<ToDim3(grid), ToDim3(block)>>>(exiting_block,
                                                     exiting_thread);
  return mcDeviceSynchronize();
}

mcError_t RunSkipOneBarrier(const Shape& block, int skipping_thread) {
  SkipOneBarrier<<<1, ToDim3(block)>>>(skipping_thread);
  return mcDeviceSynchronize();
}

mcError_t RunBarrierInBothBranches(const Shape& block, int split) {
  BarrierInBothBranches<<<1, ToDim3(block)>>>(split);
  return mcDeviceSynchronize();
}

mcError_t RunBarrierInDivergentLoop(const Shape& block, int looping_thread) {
  BarrierInDivergentLoop<<<1, ToDim3(block)>>>(looping_thread);
  return mcDeviceSynchronize();
}

mcError_t RunMixedVariants(const Shape& block, int first, int second,
                           int split) {
  MixedVariants<<<1, ToDim3(block)>>>(first, second, split);
  return mcDeviceSynchronize();
}

mcError_t RunBarrierAgainstWaveBarrier(const Shape& block, bool misuse) {
  BarrierAgainstWaveBarrier<<<1, ToDim3(block)>>>(misuse);
  return mcDeviceSynchronize();
}

mcError_t RunExitBeforePredicateBarrier(const Shape& block, int variant,
                                        int exiting_thread) {
  ExitBeforePredicateBarrier<<<1, ToDim3(block)>>>(variant, exiting_thread);
  return mcDeviceSynchronize();
}

// Parameters: the block shape and the misbehaving thread's position.
class BarrierMisuseTest
    : public ::testing::TestWithParam<std::tuple<Shape, int>> {
 protected:
  Shape block() const { return std::get<0>(GetParam()); }
  unsigned threads() const { return block().count(); }
  int misbehaving() const {
    return static_cast<int>(ThreadAt(std::get<1>(GetParam()), threads()));
  }
};

TEST_P(BarrierMisuseTest, ThreadExitingBeforeBarrierTraps) {
  MX_SPEC("lang.sync.syncthreads.exited-threads-undefined",
          "lang.sync.syncthreads.divergent-condition-undefined",
          "lang.ub.sync.barrier-after-thread-exit");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const std::string pattern =
      "kernel '[^']*ExitBeforeBarrier[^']*' block \\(0,0,0\\) thread "
      "\\([0-9]+,[0-9]+,[0-9]+\\): .*exit.*" +
      SitePattern(kExitBeforeBarrierLine) + ".*thread " +
      ThreadPattern(block(), misbehaving());
  MX_EXPECT_TRAP(RunExitBeforeBarrier(Shape{1}, block(), 0, misbehaving()),
                 mcErrorLaunchFailure, pattern);
}

TEST_P(BarrierMisuseTest, ExitingAfterTheLastBarrierIsFine) {
  MX_SPEC("lang.sync.syncthreads.exited-threads-undefined",
          "lang.ub.sync.barrier-after-thread-exit");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  ManagedArray<int> passed(threads(), 0);
  ASSERT_TRUE(passed.ok());
  // Control: no thread exits before the barrier.
  MX_EXPECT_NO_TRAP(RunExitBeforeBarrier(Shape{1}, block(), 0, kNoThread));
  // Control: the same thread exits after the block's only barrier.
  ExitAfterBarrier<<<1, ToDim3(block())>>>(misbehaving(), passed.data());
  MX_EXPECT_NO_TRAP(mcDeviceSynchronize());
  for (unsigned t = 0; t < threads(); ++t) {
    ASSERT_EQ(passed[t], static_cast<int>(t) == misbehaving() ? 1 : 2) << t;
  }
}

TEST_P(BarrierMisuseTest, SkippingOneOfTwoBarriersTraps) {
  MX_SPEC("lang.sync.syncthreads.divergent-condition-undefined",
          "lang.sync.syncthreads.different-call-sites-undefined",
          "lang.ub.sync.barrier-in-divergent-code");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  // Both call sites are named, in either order.
  const std::string skipped = SitePattern(kSkippedBarrierLine);
  const std::string following = SitePattern(kFollowingBarrierLine);
  const std::string pattern =
      "kernel '[^']*SkipOneBarrier[^']*' block \\(0,0,0\\) thread "
      "\\([0-9]+,[0-9]+,[0-9]+\\): .*(" +
      skipped + ".*" + following + "|" + following + ".*" + skipped + ")";
  MX_EXPECT_TRAP(RunSkipOneBarrier(block(), misbehaving()),
                 mcErrorLaunchFailure, pattern);
}

TEST_P(BarrierMisuseTest, NoThreadSkippingIsFine) {
  MX_SPEC("lang.sync.syncthreads.divergent-condition-undefined",
          "lang.ub.sync.barrier-in-divergent-code");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_NO_TRAP(RunSkipOneBarrier(block(), kNoThread));
}

TEST_P(BarrierMisuseTest, BarriersInThenAndElseTrap) {
  MX_SPEC("lang.sync.syncthreads.different-call-sites-undefined",
          "lang.ub.sync.barrier-in-divergent-code");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  // The first `split` threads take the `then` branch: at least one thread
  // takes each branch.
  const int split = misbehaving() == 0 ? 1 : misbehaving();
  const std::string then_site = SitePattern(kThenBarrierLine);
  const std::string else_site = SitePattern(kElseBarrierLine);
  const std::string pattern =
      "kernel '[^']*BarrierInBothBranches[^']*' block \\(0,0,0\\) thread "
      "\\([0-9]+,[0-9]+,[0-9]+\\): .*(" +
      then_site + ".*" + else_site + "|" + else_site + ".*" + then_site + ")";
  MX_EXPECT_TRAP(RunBarrierInBothBranches(block(), split), mcErrorLaunchFailure,
                 pattern);
}

TEST_P(BarrierMisuseTest, OneBranchForTheWholeBlockIsFine) {
  MX_SPEC("lang.sync.syncthreads.different-call-sites-undefined",
          "lang.sync.syncthreads.uniform-condition-allowed");
  // Control: every thread in `else`, then every thread in `then`.
  MX_EXPECT_NO_TRAP(RunBarrierInBothBranches(block(), 0));
  MX_EXPECT_NO_TRAP(
      RunBarrierInBothBranches(block(), static_cast<int>(threads())));
}

TEST_P(BarrierMisuseTest, LoopTripCountDivergingAtABarrierTraps) {
  MX_SPEC("lang.sync.syncthreads.divergent-condition-undefined",
          "lang.ub.sync.barrier-in-divergent-code",
          "lang.ub.sync.barrier-after-thread-exit");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const std::string pattern =
      "kernel '[^']*BarrierInDivergentLoop[^']*' block \\(0,0,0\\) thread "
      "\\([0-9]+,[0-9]+,[0-9]+\\): .*" +
      SitePattern(kLoopBarrierLine);
  MX_EXPECT_TRAP(RunBarrierInDivergentLoop(block(), misbehaving()),
                 mcErrorLaunchFailure, pattern);
}

TEST_P(BarrierMisuseTest, UniformLoopTripCountIsFine) {
  MX_SPEC("lang.sync.syncthreads.uniform-condition-allowed");
  MX_EXPECT_NO_TRAP(RunBarrierInDivergentLoop(block(), kNoThread));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BarrierMisuseTest,
    ::testing::Combine(::testing::ValuesIn(MultiThreadBlockShapes()),
                       ::testing::Values(kFirst, kMiddle, kLast)),
    [](const ::testing::TestParamInfo<std::tuple<Shape, int>>& info) {
      return std::get<0>(info.param).Name() + "_" +
             PositionName(std::get<1>(info.param));
    });

// --- The trap names the block of a multi-block grid. ---

// Parameters: the grid shape and the linear index of the misbehaving block.
class BarrierMisuseBlockTest
    : public ::testing::TestWithParam<std::tuple<Shape, unsigned>> {};

TEST_P(BarrierMisuseBlockTest, DiagnosticNamesTheBlock) {
  MX_SPEC("lang.sync.syncthreads.exited-threads-undefined",
          "lang.ub.sync.barrier-after-thread-exit");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const Shape grid = std::get<0>(GetParam());
  const unsigned linear = std::get<1>(GetParam());
  const std::string block_index =
      "\\(" + std::to_string(linear % grid.x) + "," +
      std::to_string(linear / grid.x % grid.y) + "," +
      std::to_string(linear / grid.x / grid.y) + "\\)";
  const std::string pattern =
      "kernel '[^']*ExitBeforeBarrier[^']*' block " + block_index + " thread ";
  MX_EXPECT_TRAP(
      RunExitBeforeBarrier(grid, Shape{64}, static_cast<int>(linear), 5),
      mcErrorLaunchFailure, pattern);
}

TEST_P(BarrierMisuseBlockTest, ControlWithoutMisuseCompletes) {
  MX_SPEC("lang.sync.syncthreads.exited-threads-undefined");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const Shape grid = std::get<0>(GetParam());
  MX_EXPECT_NO_TRAP(
      RunExitBeforeBarrier(grid, Shape{64}, static_cast<int>(grid.count()), 5));
}

INSTANTIATE_TEST_SUITE_P(
    Grids, BarrierMisuseBlockTest,
    ::testing::Values(std::make_tuple(Shape{3}, 0u),
                      std::make_tuple(Shape{3}, 2u),
                      std::make_tuple(Shape{2, 2}, 3u),
                      std::make_tuple(Shape{2, 2, 2}, 6u)),
    [](const ::testing::TestParamInfo<std::tuple<Shape, unsigned>>& info) {
      return "grid_" + std::get<0>(info.param).Name() + "_block" +
             std::to_string(std::get<1>(info.param));
    });

// --- Predicate variants: mixing, and exits. ---

// Parameters: two different variants and the block shape.
class MixedVariantsTest
    : public ::testing::TestWithParam<std::tuple<int, int, Shape>> {};

TEST_P(MixedVariantsTest, TwoVariantsInOnePhaseTrap) {
  MX_SPEC("lang.sync.syncthreads-predicate.mixed-variants-undefined",
          "lang.ub.sync.barrier-in-divergent-code");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const int first = std::get<0>(GetParam());
  const int second = std::get<1>(GetParam());
  const Shape block = std::get<2>(GetParam());
  const int split = static_cast<int>(block.count() / 2);
  const std::string a = VariantPattern(first);
  const std::string b = VariantPattern(second);
  const std::string pattern =
      "kernel '[^']*MixedVariants[^']*' block \\(0,0,0\\) thread "
      "\\([0-9]+,[0-9]+,[0-9]+\\): .*(" +
      a + ".*" + b + "|" + b + ".*" + a + ")";
  MX_EXPECT_TRAP(RunMixedVariants(block, first, second, split),
                 mcErrorLaunchFailure, pattern);
}

TEST_P(MixedVariantsTest, OneVariantPerPhaseIsFine) {
  MX_SPEC("lang.sync.syncthreads-predicate.mixed-variants-undefined");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const int first = std::get<0>(GetParam());
  const int second = std::get<1>(GetParam());
  const Shape block = std::get<2>(GetParam());
  const int all = static_cast<int>(block.count());
  MX_EXPECT_NO_TRAP(RunMixedVariants(block, first, second, all));
  MX_EXPECT_NO_TRAP(RunMixedVariants(block, first, second, 0));
}

INSTANTIATE_TEST_SUITE_P(
    Pairs, MixedVariantsTest,
    ::testing::Combine(::testing::Values(kPlain, kCount, kAnd),
                       ::testing::Values(kOr),
                       ::testing::Values(Shape{2}, Shape{64}, Shape{65},
                                         Shape{1024}, Shape{8, 8, 16})),
    [](const ::testing::TestParamInfo<std::tuple<int, int, Shape>>& info) {
      return std::string(VariantName(std::get<0>(info.param))) + "_" +
             VariantName(std::get<1>(info.param)) + "_" +
             std::get<2>(info.param).Name();
    });

INSTANTIATE_TEST_SUITE_P(
    CountWith, MixedVariantsTest,
    ::testing::Combine(::testing::Values(kCount),
                       ::testing::Values(kPlain, kAnd),
                       ::testing::Values(Shape{2}, Shape{65}, Shape{32, 32})),
    [](const ::testing::TestParamInfo<std::tuple<int, int, Shape>>& info) {
      return std::string(VariantName(std::get<0>(info.param))) + "_" +
             VariantName(std::get<1>(info.param)) + "_" +
             std::get<2>(info.param).Name();
    });

// Parameters: the predicate variant and the block shape.
class PredicateExitTest
    : public ::testing::TestWithParam<std::tuple<int, Shape>> {};

TEST_P(PredicateExitTest, ThreadExitingBeforePredicateBarrierTraps) {
  MX_SPEC("lang.sync.syncthreads-predicate.uniform-condition-required",
          "lang.ub.sync.barrier-after-thread-exit");
  MX_REQUIRE_CAPABILITY("reference_choices");
  const int variant = std::get<0>(GetParam());
  const Shape block = std::get<1>(GetParam());
  const unsigned exiting = block.count() - 1;
  const std::string pattern =
      "kernel '[^']*ExitBeforePredicateBarrier[^']*' block \\(0,0,0\\) "
      "thread \\([0-9]+,[0-9]+,[0-9]+\\): .*" +
      VariantPattern(variant) + ".*" +
      SitePattern(kPredicateCallLines[variant]) + ".*thread " +
      ThreadPattern(block, exiting);
  MX_EXPECT_TRAP(
      RunExitBeforePredicateBarrier(block, variant, static_cast<int>(exiting)),
      mcErrorLaunchFailure, pattern);
}

TEST_P(PredicateExitTest, NoThreadExitingIsFine) {
  MX_SPEC("lang.sync.syncthreads-predicate.uniform-condition-required");
  const int variant = std::get<0>(GetParam());
  const Shape block = std::get<1>(GetParam());
  MX_EXPECT_NO_TRAP(RunExitBeforePredicateBarrier(block, variant, kNoThread));
}

INSTANTIATE_TEST_SUITE_P(
    Variants, PredicateExitTest,
    ::testing::Combine(::testing::Values(kCount, kAnd, kOr),
                       ::testing::Values(Shape{2}, Shape{64}, Shape{65},
                                         Shape{1024}, Shape{1, 1023})),
    [](const ::testing::TestParamInfo<std::tuple<int, Shape>>& info) {
      return std::string(VariantName(std::get<0>(info.param))) + "_" +
             std::get<1>(info.param).Name();
    });

// --- Deadlock: a block barrier against a wave barrier. ---

class BarrierDeadlockTest : public ::testing::TestWithParam<Shape> {};

TEST_P(BarrierDeadlockTest, BlockBarrierAgainstWaveBarrierTraps) {
  MX_SPEC("lang.sync.syncthreads.deadlock-undefined",
          "lang.ub.sync.barrier-in-divergent-code",
          "lang.sync.syncwave.named-lane-missing-undefined");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const std::string pattern =
      "kernel '[^']*BarrierAgainstWaveBarrier[^']*' block \\(0,0,0\\) thread "
      "\\([0-9]+,[0-9]+,[0-9]+\\): .*deadlock.*" +
      SitePattern(kDeadlockBarrierLine);
  MX_EXPECT_TRAP(RunBarrierAgainstWaveBarrier(GetParam(), true),
                 mcErrorLaunchFailure, pattern);
}

TEST_P(BarrierDeadlockTest, WaveBarrierThenBlockBarrierIsFine) {
  MX_SPEC("lang.sync.syncthreads.deadlock-undefined");
  // Undefined behaviour: the trap is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_EXPECT_NO_TRAP(RunBarrierAgainstWaveBarrier(GetParam(), false));
}

INSTANTIATE_TEST_SUITE_P(Shapes, BarrierDeadlockTest,
                         ::testing::Values(Shape{2}, Shape{63}, Shape{64},
                                           Shape{65}, Shape{128}, Shape{1024},
                                           Shape{8, 8, 16}),
                         ::mxcts::conformance::ShapeParamName);

}  // namespace
