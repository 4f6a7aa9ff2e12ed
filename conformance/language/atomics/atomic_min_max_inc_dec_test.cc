// Conformance: atomicMin, atomicMax, atomicInc and atomicDec, with their
// `_block` and `_system` forms (docs/spec/lang-atomics.md "atomicMin and
// atomicMax", "atomicInc and atomicDec").

#include <mc_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/language/atomics/atomic_testing.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::atomics {
namespace {

// --------------------------------------------------------------------------
// atomicMin and atomicMax racing over a grid.
// --------------------------------------------------------------------------

enum class Extremum { kMin, kMax };

template <class T>
__global__ void UpdateExtremum(Extremum which, Scope scope, T* words,
                               const T* operands, T* olds) {
  const unsigned id = GridThreadId();
  T* word = &words[WordIndex(scope)];
  olds[id] = which == Extremum::kMin ? ScopedMin(scope, word, operands[id])
                                     : ScopedMax(scope, word, operands[id]);
}

// Scrambled operands that use the whole range of T: negative ones for the
// signed types, ones with the top bit set for the unsigned types, so that a
// comparison of the wrong signedness picks a different winner.
template <class T>
T ScrambledOperand(unsigned id) {
  const unsigned long long mixed = (id + 1) * 0x9e3779b97f4a7c15ull;
  return static_cast<T>(mixed >> (64 - 8 * sizeof(T)));
}

template <class T>
void CheckExtremum(Extremum which, Shape shape, Scope scope) {
  // Start from a value in the middle of the range, so that the first
  // updates both win and lose.
  const T initial = ScrambledOperand<T>(1u << 20);
  ManagedArray<T> words(shape.Groups(scope), initial);
  ManagedArray<T> operands(shape.Total());
  ManagedArray<T> olds(shape.Total());
  ASSERT_TRUE(words.ok() && operands.ok() && olds.ok());
  for (unsigned id = 0; id < shape.Total(); ++id) {
    operands[id] = ScrambledOperand<T>(id);
  }
  UpdateExtremum<T><<<shape.blocks, shape.threads>>>(
      which, scope, words.get(), operands.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  auto pick = [which](T old, T val) {
    return which == Extremum::kMin ? std::min(old, val) : std::max(old, val);
  };
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    T expected = initial;
    for (unsigned id : ids) expected = pick(expected, operands[id]);
    EXPECT_EQ(words[g], expected) << "group " << g;
    EXPECT_TRUE(IsTraceOfSequence(initial, Select(olds, ids),
                                  Select(operands, ids), words[g], pick))
        << "group " << g;
  }
}

template <class T>
void CheckMin(Shape shape, Scope scope) {
  CheckExtremum<T>(Extremum::kMin, shape, scope);
}
template <class T>
void CheckMax(Shape shape, Scope scope) {
  CheckExtremum<T>(Extremum::kMax, shape, scope);
}

const std::vector<TypedRun> kMinTypes = {
    {"Int", &CheckMin<int>},
    {"Unsigned", &CheckMin<unsigned int>},
    {"LongLong", &CheckMin<long long>},
    {"UnsignedLongLong", &CheckMin<unsigned long long>},
    {"Int64", &CheckMin<std::int64_t>},
    {"Uint64", &CheckMin<std::uint64_t>},
};

const std::vector<TypedRun> kMaxTypes = {
    {"Int", &CheckMax<int>},
    {"Unsigned", &CheckMax<unsigned int>},
    {"LongLong", &CheckMax<long long>},
    {"UnsignedLongLong", &CheckMax<unsigned long long>},
    {"Int64", &CheckMax<std::int64_t>},
    {"Uint64", &CheckMax<std::uint64_t>},
};

class AtomicMinTest : public ::testing::TestWithParam<TypedShapeScope> {};

TEST_P(AtomicMinTest, WordEndsAtTheSmallestAndOldValuesTraceTheUpdates) {
  MX_SPEC("lang.atomic.min.overloads", "lang.atomic.minmax.signedness",
          "lang.atomic.general.indivisible-read-modify-write",
          "lang.atomic.general.returns-old-value",
          "lang.atomic.general.fixed-width-aliases",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.system-variants-exist");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicMinTest, AllCombinations(kMinTypes),
                         TypedShapeScopeName);

class AtomicMaxTest : public ::testing::TestWithParam<TypedShapeScope> {};

TEST_P(AtomicMaxTest, WordEndsAtTheLargestAndOldValuesTraceTheUpdates) {
  MX_SPEC("lang.atomic.max.overloads", "lang.atomic.minmax.signedness",
          "lang.atomic.general.indivisible-read-modify-write",
          "lang.atomic.general.returns-old-value",
          "lang.atomic.general.fixed-width-aliases",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.system-variants-exist");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicMaxTest, AllCombinations(kMaxTypes),
                         TypedShapeScopeName);

// --------------------------------------------------------------------------
// Signedness, case by case.
// --------------------------------------------------------------------------

template <class T>
__global__ void MinThenMax(T* min_word, T* max_word, T val, T* olds) {
  olds[0] = atomicMin(min_word, val);
  olds[1] = atomicMax(max_word, val);
}

// A word holding 5 meets an operand whose bits are all ones: -1 for the
// signed types, the maximum for the unsigned ones.
template <class T>
void CheckAllOnesAgainstFive() {
  const T all_ones = static_cast<T>(~static_cast<T>(0));
  ManagedArray<T> min_word(1, T(5));
  ManagedArray<T> max_word(1, T(5));
  ManagedArray<T> olds(2);
  ASSERT_TRUE(min_word.ok() && max_word.ok() && olds.ok());
  MinThenMax<T><<<1, 1>>>(min_word.get(), max_word.get(), all_ones, olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(olds[0], T(5));
  EXPECT_EQ(olds[1], T(5));
  if (std::numeric_limits<T>::is_signed) {
    EXPECT_EQ(min_word[0], all_ones) << "min(5, -1) is -1";
    EXPECT_EQ(max_word[0], T(5)) << "max(5, -1) is 5";
  } else {
    EXPECT_EQ(min_word[0], T(5)) << "min(5, all ones) is 5 when unsigned";
    EXPECT_EQ(max_word[0], all_ones);
  }
}

struct SignednessCase {
  const char* name;
  void (*run)();
};

class AtomicMinMaxSignednessTest
    : public ::testing::TestWithParam<SignednessCase> {};

TEST_P(AtomicMinMaxSignednessTest, ComparesInTheWordType) {
  MX_SPEC("lang.atomic.minmax.signedness", "lang.atomic.min.overloads",
          "lang.atomic.max.overloads");
  EXPECT_NO_FATAL_FAILURE(GetParam().run());
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, AtomicMinMaxSignednessTest,
    ::testing::Values(
        SignednessCase{"Int", &CheckAllOnesAgainstFive<int>},
        SignednessCase{"Unsigned", &CheckAllOnesAgainstFive<unsigned int>},
        SignednessCase{"LongLong", &CheckAllOnesAgainstFive<long long>},
        SignednessCase{"UnsignedLongLong",
                       &CheckAllOnesAgainstFive<unsigned long long>},
        SignednessCase{"Int64", &CheckAllOnesAgainstFive<std::int64_t>},
        SignednessCase{"Uint64", &CheckAllOnesAgainstFive<std::uint64_t>}),
    [](const ::testing::TestParamInfo<SignednessCase>& info) {
      return std::string(info.param.name);
    });

// --------------------------------------------------------------------------
// atomicInc and atomicDec, one call at a time.
// --------------------------------------------------------------------------

enum class Step { kInc, kDec };

__global__ void StepOnce(Step step, Scope scope, unsigned int* word,
                         unsigned int limit, unsigned int* old) {
  *old = step == Step::kInc ? ScopedInc(scope, word, limit)
                            : ScopedDec(scope, word, limit);
}

struct StepCase {
  const char* name;
  Step step;
  unsigned int old;
  unsigned int limit;
  unsigned int stored;
};

// (old >= limit) ? 0 : old + 1, and ((old == 0) || (old > limit)) ? limit
// : old - 1, at and around every boundary.
const StepCase kStepCases[] = {
    {"IncBelowLimit", Step::kInc, 4, 5, 5},
    {"IncAtLimit", Step::kInc, 5, 5, 0},
    {"IncAboveLimit", Step::kInc, 6, 5, 0},
    {"IncZeroLimit", Step::kInc, 0, 0, 0},
    {"IncFromZero", Step::kInc, 0, 5, 1},
    {"IncMaxLimitBelow", Step::kInc, UINT_MAX - 1, UINT_MAX, UINT_MAX},
    {"IncMaxLimitAt", Step::kInc, UINT_MAX, UINT_MAX, 0},
    {"IncMaxAboveSmallLimit", Step::kInc, UINT_MAX, 7, 0},
    {"DecAboveZero", Step::kDec, 3, 5, 2},
    {"DecOne", Step::kDec, 1, 5, 0},
    {"DecZeroWraps", Step::kDec, 0, 5, 5},
    {"DecAtLimit", Step::kDec, 5, 5, 4},
    {"DecAboveLimit", Step::kDec, 6, 5, 5},
    {"DecZeroLimitFromZero", Step::kDec, 0, 0, 0},
    {"DecZeroLimitAbove", Step::kDec, 3, 0, 0},
    {"DecMaxLimitFromZero", Step::kDec, 0, UINT_MAX, UINT_MAX},
    {"DecMaxLimitAtMax", Step::kDec, UINT_MAX, UINT_MAX, UINT_MAX - 1},
    {"DecMaxAboveSmallLimit", Step::kDec, UINT_MAX, 7, 7},
};

class AtomicIncDecStepTest
    : public ::testing::TestWithParam<std::tuple<StepCase, Scope>> {};

TEST_P(AtomicIncDecStepTest, StoresTheWrappedValueAndReturnsOld) {
  MX_SPEC("lang.atomic.inc.wraps-at-limit", "lang.atomic.dec.wraps-at-zero",
          "lang.atomic.incdec.unsigned-only",
          "lang.atomic.general.returns-old-value",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.system-variants-exist");
  const auto& [c, scope] = GetParam();
  ManagedArray<unsigned int> word(1, c.old);
  ManagedArray<unsigned int> old(1);
  ASSERT_TRUE(word.ok() && old.ok());
  StepOnce<<<1, 1>>>(c.step, scope, word.get(), c.limit, old.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(old[0], c.old);
  EXPECT_EQ(word[0], c.stored);
}

INSTANTIATE_TEST_SUITE_P(
    Boundaries, AtomicIncDecStepTest,
    ::testing::Combine(::testing::ValuesIn(kStepCases),
                       ::testing::ValuesIn(AllScopes())),
    [](const ::testing::TestParamInfo<std::tuple<StepCase, Scope>>& info) {
      return std::string(std::get<0>(info.param).name) + "_" +
             ScopeName(std::get<1>(info.param));
    });

// --------------------------------------------------------------------------
// atomicInc and atomicDec racing, with the limit at N - 1, N and N + 1 for
// a group of N threads, and a small limit that wraps many times.
// --------------------------------------------------------------------------

enum class LimitChoice { kSizeMinusOne, kSize, kSizePlusOne, kSix };

unsigned LimitFor(LimitChoice choice, unsigned n) {
  switch (choice) {
    case LimitChoice::kSizeMinusOne:
      return n - 1;
    case LimitChoice::kSize:
      return n;
    case LimitChoice::kSizePlusOne:
      return n + 1;
    case LimitChoice::kSix:
      return 6;
  }
  return 0;
}

std::string LimitName(LimitChoice choice) {
  switch (choice) {
    case LimitChoice::kSizeMinusOne:
      return "LimitNMinus1";
    case LimitChoice::kSize:
      return "LimitN";
    case LimitChoice::kSizePlusOne:
      return "LimitNPlus1";
    case LimitChoice::kSix:
      return "Limit6";
  }
  return "Unknown";
}

__global__ void StepAll(Step step, Scope scope, unsigned int* words,
                        unsigned int limit, unsigned int* olds) {
  unsigned int* word = &words[WordIndex(scope)];
  olds[GridThreadId()] = step == Step::kInc ? ScopedInc(scope, word, limit)
                                            : ScopedDec(scope, word, limit);
}

using RaceParam = std::tuple<Step, LimitChoice, Shape, Scope>;

class AtomicIncDecRaceTest : public ::testing::TestWithParam<RaceParam> {};

// The k-th increment from 0 returns k mod (limit + 1); the k-th decrement
// from `limit` returns (limit - k) mod (limit + 1). The word ends at the
// value the N-th call would return.
TEST_P(AtomicIncDecRaceTest, CallersGetTheWrappedSequence) {
  MX_SPEC("lang.atomic.inc.wraps-at-limit", "lang.atomic.dec.wraps-at-zero",
          "lang.atomic.general.no-update-lost",
          "lang.atomic.general.returns-old-value",
          "lang.atomic.scope.block-atomic-within-block");
  const auto& [step, choice, shape, scope] = GetParam();
  const unsigned n = shape.GroupSize(scope);
  const unsigned limit = LimitFor(choice, n);
  const unsigned start = step == Step::kInc ? 0 : limit;
  ManagedArray<unsigned int> words(shape.Groups(scope), start);
  ManagedArray<unsigned int> olds(shape.Total());
  ASSERT_TRUE(words.ok() && olds.ok());
  StepAll<<<shape.blocks, shape.threads>>>(step, scope, words.get(), limit,
                                           olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const unsigned long long period = limit + 1ull;
  auto kth = [&](unsigned long long k) {
    return static_cast<unsigned>(step == Step::kInc
                                     ? k % period
                                     : (limit + period - k % period) % period);
  };
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    std::vector<unsigned> got = Select(olds, ids);
    std::vector<unsigned> expected;
    for (unsigned k = 0; k < ids.size(); ++k) expected.push_back(kth(k));
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(got, expected) << "group " << g;
    EXPECT_EQ(words[g], kth(ids.size())) << "group " << g;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Limits, AtomicIncDecRaceTest,
    ::testing::Combine(
        ::testing::Values(Step::kInc, Step::kDec),
        ::testing::Values(LimitChoice::kSizeMinusOne, LimitChoice::kSize,
                          LimitChoice::kSizePlusOne, LimitChoice::kSix),
        ::testing::ValuesIn(AllShapes()), ::testing::ValuesIn(AllScopes())),
    [](const ::testing::TestParamInfo<RaceParam>& info) {
      return std::string(std::get<0>(info.param) == Step::kInc ? "Inc"
                                                               : "Dec") +
             "_" + LimitName(std::get<1>(info.param)) + "_" +
             ShapeName(std::get<2>(info.param)) + "_" +
             ScopeName(std::get<3>(info.param));
    });

// --------------------------------------------------------------------------
// The ticket pattern: one atomicInc per block with limit gridDim.x.
// --------------------------------------------------------------------------

__global__ void DrawTicket(unsigned int* count, unsigned int* tickets) {
  if (threadIdx.x == 0) tickets[blockIdx.x] = atomicInc(count, gridDim.x);
}

class AtomicIncTicketTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(AtomicIncTicketTest, BlocksDrawEachTicketOnce) {
  MX_SPEC("lang.atomic.inc.ticket-pattern", "lang.atomic.inc.wraps-at-limit");
  const unsigned blocks = GetParam();
  ManagedArray<unsigned int> count(1, 0u);
  ManagedArray<unsigned int> tickets(blocks, ~0u);
  ASSERT_TRUE(count.ok() && tickets.ok());
  DrawTicket<<<blocks, 64>>>(count.get(), tickets.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::vector<unsigned> got(tickets.get(), tickets.get() + blocks);
  std::sort(got.begin(), got.end());
  for (unsigned b = 0; b < blocks; ++b) EXPECT_EQ(got[b], b);
  EXPECT_EQ(count[0], blocks);
}

INSTANTIATE_TEST_SUITE_P(GridSizes, AtomicIncTicketTest,
                         ::testing::Values(1u, 2u, 3u, 63u, 64u, 65u, 200u));

}  // namespace
}  // namespace mxcts::conformance::atomics
