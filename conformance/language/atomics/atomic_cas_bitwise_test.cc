// Conformance: atomicCAS, loops built on it, and atomicAnd, atomicOr and
// atomicXor, with their `_block` and `_system` forms
// (docs/spec/lang-atomics.md "atomicCAS", "Bitwise atomics").

#include <mc_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/language/atomics/atomic_testing.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::atomics {
namespace {

// --------------------------------------------------------------------------
// atomicCAS, one call: the swap happens exactly when the word equals
// `compare`, and the old word comes back either way.
// --------------------------------------------------------------------------

template <class T>
__global__ void CompareAndSwapOnce(Scope scope, T* word, T compare, T val,
                                   T* old) {
  *old = ScopedCas(scope, word, compare, val);
}

// The word holds a pattern with high bits set, so that a comparison on a
// truncated word would be caught.
template <class T>
T PatternOf(unsigned long long seed) {
  return static_cast<T>(seed * 0x9e3779b97f4a7c15ull);
}

template <class T>
void CheckCompareAndSwap(bool equal, Scope scope) {
  const T initial = PatternOf<T>(3);
  // Differs from `initial` only in the top bit.
  const T other = static_cast<T>(initial ^ (T(1) << (8 * sizeof(T) - 1)));
  const T val = PatternOf<T>(5);
  ManagedArray<T> word(1, initial);
  ManagedArray<T> old(1);
  ASSERT_TRUE(word.ok() && old.ok());
  CompareAndSwapOnce<T>
      <<<1, 1>>>(scope, word.get(), equal ? initial : other, val, old.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(old[0], initial);
  EXPECT_EQ(word[0], equal ? val : initial);
}

struct CasCase {
  const char* type_name;
  void (*run)(bool equal, Scope scope);
};

using CasParam = std::tuple<CasCase, bool, Scope>;

class AtomicCasTest : public ::testing::TestWithParam<CasParam> {};

TEST_P(AtomicCasTest, SwapsOnlyWhenEqualAndReturnsOld) {
  MX_SPEC("lang.atomic.cas.semantics", "lang.atomic.cas.overloads",
          "lang.atomic.general.returns-old-value",
          "lang.atomic.general.fixed-width-aliases",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.system-variants-exist");
  const auto& [c, equal, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(c.run(equal, scope));
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, AtomicCasTest,
    ::testing::Combine(
        ::testing::Values(
            CasCase{"Int", &CheckCompareAndSwap<int>},
            CasCase{"Unsigned", &CheckCompareAndSwap<unsigned int>},
            CasCase{"UnsignedLongLong",
                    &CheckCompareAndSwap<unsigned long long>},
            CasCase{"Uint64", &CheckCompareAndSwap<std::uint64_t>},
            CasCase{"UnsignedShort", &CheckCompareAndSwap<unsigned short>}),
        ::testing::Bool(), ::testing::ValuesIn(AllScopes())),
    [](const ::testing::TestParamInfo<CasParam>& info) {
      return std::string(std::get<0>(info.param).type_name) +
             (std::get<1>(info.param) ? "_Equal_" : "_Different_") +
             ScopeName(std::get<2>(info.param));
    });

// --------------------------------------------------------------------------
// atomicCAS racing: every thread tries to replace the initial value.
// --------------------------------------------------------------------------

template <class T>
__global__ void RaceToReplace(Scope scope, T* words, T initial, T* olds) {
  const unsigned id = GridThreadId();
  olds[id] = ScopedCas(scope, &words[WordIndex(scope)], initial,
                       static_cast<T>(id + 1));
}

// Exactly one caller per group sees `initial` (its swap succeeded); the
// word holds that caller's value, and every other caller saw that value.
template <class T>
void CheckOneWinner(Shape shape, Scope scope) {
  const T initial = T(0);
  ManagedArray<T> words(shape.Groups(scope), initial);
  ManagedArray<T> olds(shape.Total());
  ASSERT_TRUE(words.ok() && olds.ok());
  RaceToReplace<T><<<shape.blocks, shape.threads>>>(scope, words.get(), initial,
                                                    olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    std::vector<unsigned> winners;
    for (unsigned id : ids) {
      if (olds[id] == initial) winners.push_back(id);
    }
    ASSERT_EQ(winners.size(), 1u) << "group " << g;
    const T winning_value = static_cast<T>(winners[0] + 1);
    EXPECT_EQ(words[g], winning_value) << "group " << g;
    for (unsigned id : ids) {
      if (id != winners[0]) {
        EXPECT_EQ(olds[id], winning_value) << "thread " << id;
      }
    }
  }
}

const std::vector<TypedRun> kRaceTypes = {
    {"Int", &CheckOneWinner<int>},
    {"Unsigned", &CheckOneWinner<unsigned int>},
    {"UnsignedLongLong", &CheckOneWinner<unsigned long long>},
    {"Uint64", &CheckOneWinner<std::uint64_t>},
    {"UnsignedShort", &CheckOneWinner<unsigned short>},
};

class AtomicCasRaceTest : public ::testing::TestWithParam<TypedShapeScope> {};

TEST_P(AtomicCasRaceTest, ExactlyOneCallerSucceeds) {
  MX_SPEC("lang.atomic.cas.success-detected-by-return",
          "lang.atomic.cas.semantics",
          "lang.atomic.general.indivisible-read-modify-write",
          "lang.atomic.scope.block-atomic-within-block");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicCasRaceTest,
                         AllCombinations(kRaceTypes), TypedShapeScopeName);

// --------------------------------------------------------------------------
// Loops on atomicCAS implement other read-modify-writes.
// --------------------------------------------------------------------------

__device__ long long DoubleAsLongLong(double value) {
  long long bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

__device__ double LongLongAsDouble(long long bits) {
  double value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

// Reads a word atomically: a compare-and-swap that, whatever it finds,
// leaves the word as it was. (A plain read of a word that other threads
// update atomically would be a data race.)
template <class T>
__device__ T AtomicRead(Scope scope, T* address) {
  return ScopedCas(scope, address, T(0), T(0));
}

// The maximum of doubles, through the 64-bit CAS; returns the old value.
__device__ double CasMaxDouble(Scope scope, double* address, double val) {
  auto* word = reinterpret_cast<unsigned long long*>(address);
  unsigned long long seen = AtomicRead(scope, word);
  while (true) {
    const double old = LongLongAsDouble(static_cast<long long>(seen));
    if (old >= val) return old;
    const unsigned long long replacement =
        static_cast<unsigned long long>(DoubleAsLongLong(val));
    const unsigned long long before = ScopedCas(scope, word, seen, replacement);
    if (before == seen) return old;
    seen = before;
  }
}

// A 16-bit counter, through the 16-bit CAS; returns the old value.
__device__ unsigned short CasIncrementShort(Scope scope,
                                            unsigned short* address) {
  unsigned short seen = AtomicRead(scope, address);
  while (true) {
    const unsigned short before =
        ScopedCas(scope, address, seen, static_cast<unsigned short>(seen + 1));
    if (before == seen) return seen;
    seen = before;
  }
}

// A 64-bit sum, through the 64-bit CAS; returns the old value.
__device__ unsigned long long CasAdd(Scope scope, unsigned long long* address,
                                     unsigned long long val) {
  unsigned long long seen = AtomicRead(scope, address);
  while (true) {
    const unsigned long long before =
        ScopedCas(scope, address, seen, seen + val);
    if (before == seen) return seen;
    seen = before;
  }
}

__global__ void CasLoops(Scope scope, double* max_words, double* max_olds,
                         unsigned short* short_words,
                         unsigned short* short_olds,
                         unsigned long long* sum_words,
                         unsigned long long* sum_olds) {
  const unsigned id = GridThreadId();
  const unsigned w = WordIndex(scope);
  // Values that rise and fall: (id * 37) mod 101, scaled by 1/8.
  max_olds[id] = CasMaxDouble(scope, &max_words[w], (id * 37 % 101) / 8.0);
  short_olds[id] = CasIncrementShort(scope, &short_words[w]);
  sum_olds[id] = CasAdd(scope, &sum_words[w], id + 1ull);
}

class AtomicCasLoopTest
    : public ::testing::TestWithParam<std::tuple<Shape, Scope>> {};

TEST_P(AtomicCasLoopTest, LoopsImplementMaxIncrementAndSum) {
  MX_SPEC("lang.atomic.cas.loop-builds-other-operations",
          "lang.atomic.cas.success-detected-by-return",
          "lang.atomic.general.no-update-lost");
  const auto& [shape, scope] = GetParam();
  const unsigned groups = shape.Groups(scope);
  ManagedArray<double> max_words(groups, -1.0);
  ManagedArray<double> max_olds(shape.Total());
  ManagedArray<unsigned short> short_words(groups, 0);
  ManagedArray<unsigned short> short_olds(shape.Total());
  ManagedArray<unsigned long long> sum_words(groups, 0);
  ManagedArray<unsigned long long> sum_olds(shape.Total());
  ASSERT_TRUE(max_words.ok() && max_olds.ok() && short_words.ok() &&
              short_olds.ok() && sum_words.ok() && sum_olds.ok());
  CasLoops<<<shape.blocks, shape.threads>>>(
      scope, max_words.get(), max_olds.get(), short_words.get(),
      short_olds.get(), sum_words.get(), sum_olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < groups; ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    std::vector<double> values;
    std::vector<unsigned short> ones;
    std::vector<unsigned long long> addends;
    double expected_max = -1.0;
    unsigned long long expected_sum = 0;
    for (unsigned id : ids) {
      values.push_back((id * 37 % 101) / 8.0);
      expected_max = std::max(expected_max, values.back());
      ones.push_back(1);
      addends.push_back(id + 1ull);
      expected_sum += id + 1ull;
    }
    EXPECT_EQ(max_words[g], expected_max);
    EXPECT_TRUE(IsTraceOfSequence(
        -1.0, Select(max_olds, ids), values, max_words[g],
        [](double old, double val) { return std::max(old, val); }));
    EXPECT_EQ(short_words[g], static_cast<unsigned short>(ids.size()));
    EXPECT_TRUE(IsTraceOfSequence(
        static_cast<unsigned short>(0), Select(short_olds, ids), ones,
        short_words[g], [](unsigned short old, unsigned short val) {
          return static_cast<unsigned short>(old + val);
        }));
    EXPECT_EQ(sum_words[g], expected_sum);
    EXPECT_TRUE(
        IsTraceOfSequence(0ull, Select(sum_olds, ids), addends, sum_words[g],
                          [](unsigned long long old, unsigned long long val) {
                            return old + val;
                          }));
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllShapes, AtomicCasLoopTest,
    ::testing::Combine(::testing::ValuesIn(AllShapes()),
                       ::testing::ValuesIn(AllScopes())),
    [](const ::testing::TestParamInfo<std::tuple<Shape, Scope>>& info) {
      return ShapeName(std::get<0>(info.param)) + "_" +
             ScopeName(std::get<1>(info.param));
    });

// --------------------------------------------------------------------------
// atomicAnd, atomicOr, atomicXor: every thread works on one bit.
// --------------------------------------------------------------------------

enum class Bitwise { kAnd, kOr, kXor };

template <class T>
__global__ void UpdateBit(Bitwise op, Scope scope, T* words, T* olds) {
  const unsigned id = GridThreadId();
  const T bit = static_cast<T>(T(1) << (id % (8 * sizeof(T))));
  T* word = &words[WordIndex(scope)];
  switch (op) {
    case Bitwise::kAnd:
      olds[id] = ScopedAnd(scope, word, static_cast<T>(~bit));
      break;
    case Bitwise::kOr:
      olds[id] = ScopedOr(scope, word, bit);
      break;
    case Bitwise::kXor:
      olds[id] = ScopedXor(scope, word, bit);
      break;
  }
}

// And clears bit (id mod width) of a word of ones, Or sets it in a word of
// zeros, Xor flips it in a word of alternating bits. The result is every
// one of those bit updates, none undone by another.
template <class T>
void CheckBitwise(Bitwise op, Shape shape, Scope scope) {
  const unsigned width = 8 * sizeof(T);
  const T initial = op == Bitwise::kAnd ? static_cast<T>(~T(0))
                    : op == Bitwise::kOr
                        ? T(0)
                        : static_cast<T>(0x5555555555555555ull);
  ManagedArray<T> words(shape.Groups(scope), initial);
  ManagedArray<T> olds(shape.Total());
  ASSERT_TRUE(words.ok() && olds.ok());
  UpdateBit<T>
      <<<shape.blocks, shape.threads>>>(op, scope, words.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  auto apply = [op](T old, T val) -> T {
    switch (op) {
      case Bitwise::kAnd:
        return old & val;
      case Bitwise::kOr:
        return old | val;
      case Bitwise::kXor:
        return old ^ val;
    }
    return old;
  };
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    std::vector<T> operands;
    T expected = initial;
    for (unsigned id : ids) {
      const T bit = static_cast<T>(T(1) << (id % width));
      operands.push_back(op == Bitwise::kAnd ? static_cast<T>(~bit) : bit);
      expected = apply(expected, operands.back());
    }
    EXPECT_EQ(words[g], expected) << "group " << g;
    EXPECT_TRUE(IsTraceOfSequence(initial, Select(olds, ids), operands,
                                  words[g], apply))
        << "group " << g;
  }
}

template <class T>
void CheckAnd(Shape shape, Scope scope) {
  CheckBitwise<T>(Bitwise::kAnd, shape, scope);
}
template <class T>
void CheckOr(Shape shape, Scope scope) {
  CheckBitwise<T>(Bitwise::kOr, shape, scope);
}
template <class T>
void CheckXor(Shape shape, Scope scope) {
  CheckBitwise<T>(Bitwise::kXor, shape, scope);
}

const std::vector<TypedRun> kBitwiseRuns = {
    {"AndInt", &CheckAnd<int>},
    {"AndUnsigned", &CheckAnd<unsigned int>},
    {"AndUnsignedLongLong", &CheckAnd<unsigned long long>},
    {"AndUint64", &CheckAnd<std::uint64_t>},
    {"OrInt", &CheckOr<int>},
    {"OrUnsigned", &CheckOr<unsigned int>},
    {"OrUnsignedLongLong", &CheckOr<unsigned long long>},
    {"OrUint64", &CheckOr<std::uint64_t>},
    {"XorInt", &CheckXor<int>},
    {"XorUnsigned", &CheckXor<unsigned int>},
    {"XorUnsignedLongLong", &CheckXor<unsigned long long>},
    {"XorUint64", &CheckXor<std::uint64_t>},
};

class AtomicBitwiseTest : public ::testing::TestWithParam<TypedShapeScope> {};

TEST_P(AtomicBitwiseTest, EveryBitUpdateTakesEffect) {
  MX_SPEC("lang.atomic.and.overloads", "lang.atomic.or.overloads",
          "lang.atomic.xor.overloads", "lang.atomic.bitwise.independent-bits",
          "lang.atomic.general.returns-old-value",
          "lang.atomic.general.fixed-width-aliases",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.system-variants-exist");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicBitwiseTest,
                         AllCombinations(kBitwiseRuns), TypedShapeScopeName);

}  // namespace
}  // namespace mxcts::conformance::atomics
