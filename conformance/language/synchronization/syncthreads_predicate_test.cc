// Copyright mxcts authors.
//
// Conformance: __syncthreads_count, __syncthreads_and and __syncthreads_or
// return the count of nonzero predicates, whether all or any were nonzero,
// the same value to every thread of the block, and each is a full block
// barrier (docs/spec/lang-synchronization.md, "Block barriers with a
// predicate").
//
// The predicate patterns cover the boundaries of each reduction: all true,
// all false, exactly one true (first, middle, last thread) or one false,
// alternating threads, the first half, one thread per wave, and nonzero
// values other than 1 (negative, large); each runs over every block shape.
// The host computes each pattern's predicates with the same function.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/launch_shapes.h"
#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::BlockShapes;
using ::mxcts::conformance::GlobalLinearThread;
using ::mxcts::conformance::LinearBlock;
using ::mxcts::conformance::LinearThread;
using ::mxcts::conformance::ManagedArray;
using ::mxcts::conformance::Shape;
using ::mxcts::conformance::ThreadsPerBlock;

constexpr int kUnwritten = -7;
constexpr unsigned kMaxBlockThreads = 1024;

enum Pattern {
  kAllTrue,
  kAllFalse,
  kOnlyFirstTrue,
  kOnlyMiddleTrue,
  kOnlyLastTrue,
  kOnlyFirstFalse,
  kOnlyLastFalse,
  kAlternating,
  kFirstHalf,
  kOnePerWave,
  kNonzeroNotOne,
  kBlockDependent,  // block b: the first b threads (differs per block)
  kPatternCount,
};

const char* PatternName(int pattern) {
  switch (pattern) {
    case kAllTrue:
      return "AllTrue";
    case kAllFalse:
      return "AllFalse";
    case kOnlyFirstTrue:
      return "OnlyFirstTrue";
    case kOnlyMiddleTrue:
      return "OnlyMiddleTrue";
    case kOnlyLastTrue:
      return "OnlyLastTrue";
    case kOnlyFirstFalse:
      return "OnlyFirstFalse";
    case kOnlyLastFalse:
      return "OnlyLastFalse";
    case kAlternating:
      return "Alternating";
    case kFirstHalf:
      return "FirstHalf";
    case kOnePerWave:
      return "OnePerWave";
    case kNonzeroNotOne:
      return "NonzeroNotOne";
    case kBlockDependent:
      return "BlockDependent";
  }
  return "Unknown";
}

// The predicate thread `t` of block `b` (of `n` threads) passes.
__host__ __device__ int Predicate(int pattern, unsigned b, unsigned t,
                                  unsigned n) {
  switch (pattern) {
    case kAllTrue:
      return 1;
    case kAllFalse:
      return 0;
    case kOnlyFirstTrue:
      return t == 0;
    case kOnlyMiddleTrue:
      return t == n / 2;
    case kOnlyLastTrue:
      return t == n - 1;
    case kOnlyFirstFalse:
      return t != 0;
    case kOnlyLastFalse:
      return t != n - 1;
    case kAlternating:
      return t % 2 == 0;
    case kFirstHalf:
      return t < n / 2;
    case kOnePerWave:
      return t % 64 == 63 || t == n - 1;
    case kNonzeroNotOne:
      // Every third thread passes 0; the others -1 or 0x40000000.
      return t % 3 == 0 ? 0 : (t % 3 == 1 ? -1 : 0x40000000);
    case kBlockDependent:
      return t < b;
  }
  return 0;
}

// The three reductions of one predicate, in three consecutive phases.
struct Reductions {
  int count;
  int all;
  int any;
};

__global__ void ReduceOverBlock(int pattern, Reductions* out) {
  const int predicate =
      Predicate(pattern, LinearBlock(), LinearThread(), ThreadsPerBlock());
  Reductions& mine = out[GlobalLinearThread()];
  mine.count = __syncthreads_count(predicate);
  mine.all = __syncthreads_and(predicate);
  mine.any = __syncthreads_or(predicate);
}

// Uses each result as the condition of a further barrier: legal only
// because the result is the same for every thread of the block.
__global__ void BranchOnReductions(int pattern, int* taken) {
  const int predicate =
      Predicate(pattern, LinearBlock(), LinearThread(), ThreadsPerBlock());
  int branches = 0;
  if (__syncthreads_or(predicate)) {
    __syncthreads();
    branches += 1;
  }
  if (__syncthreads_and(predicate)) {
    __syncthreads();
    branches += 2;
  }
  if (__syncthreads_count(predicate) > 1) {
    __syncthreads();
    branches += 4;
  }
  taken[GlobalLinearThread()] = branches;
}

dim3 ToDim3(const Shape& shape) { return dim3(shape.x, shape.y, shape.z); }

// The expected reductions for block `b` of an `n`-thread block.
int ExpectedCount(int pattern, unsigned b, unsigned n) {
  int count = 0;
  for (unsigned t = 0; t < n; ++t) count += Predicate(pattern, b, t, n) != 0;
  return count;
}

// Parameters: the predicate pattern and the block shape.
class PredicateReductionTest
    : public ::testing::TestWithParam<std::tuple<int, Shape>> {};

TEST_P(PredicateReductionTest, CountAndAllAnyOverTheBlock) {
  MX_SPEC("lang.sync.syncthreads-count.returns-nonzero-count",
          "lang.sync.syncthreads-and.returns-all",
          "lang.sync.syncthreads-or.returns-any",
          "lang.sync.syncthreads-predicate.same-result-for-all");
  const int pattern = std::get<0>(GetParam());
  const Shape block = std::get<1>(GetParam());
  const unsigned n = block.count();
  const unsigned blocks = 2;
  ManagedArray<Reductions> out(blocks * n,
                               Reductions{kUnwritten, kUnwritten, kUnwritten});
  ASSERT_TRUE(out.ok());
  ReduceOverBlock<<<blocks, ToDim3(block)>>>(pattern, out.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < blocks; ++b) {
    const int count = ExpectedCount(pattern, b, n);
    for (unsigned t = 0; t < n; ++t) {
      const Reductions& got = out[b * n + t];
      ASSERT_EQ(got.count, count) << "block " << b << " thread " << t;
      // [lang.sync.syncthreads-and.returns-all] "a nonzero value": any.
      ASSERT_EQ(got.all != 0, count == static_cast<int>(n))
          << "block " << b << " thread " << t << " got " << got.all;
      ASSERT_EQ(got.any != 0, count > 0)
          << "block " << b << " thread " << t << " got " << got.any;
      ASSERT_NE(got.all, kUnwritten);
      ASSERT_NE(got.any, kUnwritten);
      // Every thread of the block gets the first thread's value.
      ASSERT_EQ(got.all, out[b * n].all) << "block " << b << " thread " << t;
      ASSERT_EQ(got.any, out[b * n].any) << "block " << b << " thread " << t;
    }
  }
}

TEST_P(PredicateReductionTest, ResultIsUniformEnoughToGuardABarrier) {
  MX_SPEC("lang.sync.syncthreads-predicate.same-result-for-all",
          "lang.sync.syncthreads.uniform-condition-allowed");
  const int pattern = std::get<0>(GetParam());
  const Shape block = std::get<1>(GetParam());
  const unsigned n = block.count();
  const unsigned blocks = 2;
  ManagedArray<int> taken(blocks * n, kUnwritten);
  ASSERT_TRUE(taken.ok());
  BranchOnReductions<<<blocks, ToDim3(block)>>>(pattern, taken.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < blocks; ++b) {
    const int count = ExpectedCount(pattern, b, n);
    const int expected = (count > 0 ? 1 : 0) +
                         (count == static_cast<int>(n) ? 2 : 0) +
                         (count > 1 ? 4 : 0);
    for (unsigned t = 0; t < n; ++t) {
      ASSERT_EQ(taken[b * n + t], expected) << "block " << b << " thread " << t;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Patterns, PredicateReductionTest,
    ::testing::Combine(::testing::Range(0, static_cast<int>(kPatternCount)),
                       ::testing::ValuesIn(BlockShapes())),
    [](const ::testing::TestParamInfo<std::tuple<int, Shape>>& info) {
      return std::string(PatternName(std::get<0>(info.param))) + "_" +
             std::get<1>(info.param).Name();
    });

// --- Each variant is a barrier. ---

enum Variant { kCount = 0, kAnd = 1, kOr = 2 };

const char* VariantName(int variant) {
  switch (variant) {
    case kCount:
      return "Count";
    case kAnd:
      return "And";
    case kOr:
      return "Or";
  }
  return "Unknown";
}

__host__ __device__ int PublishedValue(unsigned block, unsigned thread) {
  return static_cast<int>(block * 4096 + thread + 1);
}

// Each thread publishes a value in shared and in global memory, passes the
// barrier variant, then reads the values of its successor and of the
// block's last thread (both later in a linear schedule).
__global__ void ReadAfterPredicateBarrier(int variant, int* published,
                                          int* seen) {
  __shared__ int staged[kMaxBlockThreads];
  const unsigned n = ThreadsPerBlock();
  const unsigned t = LinearThread();
  const unsigned b = LinearBlock();
  staged[t] = kUnwritten;
  __syncthreads();
  staged[t] = PublishedValue(b, t);
  published[b * n + t] = PublishedValue(b, t);
  switch (variant) {
    case kCount:
      (void)__syncthreads_count(t % 2);
      break;
    case kAnd:
      (void)__syncthreads_and(t % 2);
      break;
    default:
      (void)__syncthreads_or(t % 2);
      break;
  }
  int* mine = seen + 4 * GlobalLinearThread();
  mine[0] = staged[(t + 1) % n];
  mine[1] = staged[n - 1];
  mine[2] = published[b * n + (t + 1) % n];
  mine[3] = published[b * n + n - 1];
}

// Parameters: the variant, the block shape and the grid shape.
class PredicateBarrierTest
    : public ::testing::TestWithParam<std::tuple<int, Shape, Shape>> {};

TEST_P(PredicateBarrierTest, WritesBeforeAreVisibleAfter) {
  MX_SPEC("lang.sync.syncthreads-count.is-a-barrier",
          "lang.sync.syncthreads-and.is-a-barrier",
          "lang.sync.syncthreads-or.is-a-barrier");
  const int variant = std::get<0>(GetParam());
  const Shape block = std::get<1>(GetParam());
  const Shape grid = std::get<2>(GetParam());
  const unsigned n = block.count();
  const unsigned blocks = grid.count();
  ManagedArray<int> published(blocks * n, kUnwritten);
  ManagedArray<int> seen(blocks * n * 4, kUnwritten);
  ASSERT_TRUE(published.ok() && seen.ok());
  ReadAfterPredicateBarrier<<<ToDim3(grid), ToDim3(block)>>>(
      variant, published.data(), seen.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < n; ++t) {
      const int* mine = &seen[4 * (b * n + t)];
      const int successor = PublishedValue(b, (t + 1) % n);
      const int last = PublishedValue(b, n - 1);
      ASSERT_EQ(mine[0], successor) << "shared, block " << b << " thread " << t;
      ASSERT_EQ(mine[1], last) << "shared, block " << b << " thread " << t;
      ASSERT_EQ(mine[2], successor) << "global, block " << b << " thread " << t;
      ASSERT_EQ(mine[3], last) << "global, block " << b << " thread " << t;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, PredicateBarrierTest,
    ::testing::Combine(::testing::Values(kCount, kAnd, kOr),
                       ::testing::ValuesIn(BlockShapes()),
                       ::testing::Values(Shape{1}, Shape{2, 2})),
    [](const ::testing::TestParamInfo<std::tuple<int, Shape, Shape>>& info) {
      return std::string(VariantName(std::get<0>(info.param))) + "_block_" +
             std::get<1>(info.param).Name() + "_grid_" +
             std::get<2>(info.param).Name();
    });

}  // namespace
