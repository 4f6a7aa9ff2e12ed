// Conformance: atomicSub and atomicExch, with their `_block` and `_system`
// forms (docs/spec/lang-atomics.md "atomicSub and atomicExch", "Scopes").

#include <mc_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance/language/atomics/atomic_testing.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::atomics {
namespace {

// --------------------------------------------------------------------------
// atomicSub: every thread subtracts 1; the word passes through zero (int)
// or wraps (unsigned int).
// --------------------------------------------------------------------------

template <class T>
__global__ void SubOne(Scope scope, T* words, T* olds) {
  olds[GridThreadId()] = ScopedSub(scope, &words[WordIndex(scope)], T(1));
}

// Each group's word starts at half the group's size, so that it ends below
// zero: negative for int, wrapped modulo 2^32 for unsigned int. The callers
// got back start, start - 1, ..., start - size + 1 (in T), each once.
template <class T>
void CheckSubOne(Shape shape, Scope scope) {
  const T start = static_cast<T>(shape.GroupSize(scope) / 2);
  ManagedArray<T> words(shape.Groups(scope), start);
  ManagedArray<T> olds(shape.Total());
  ASSERT_TRUE(words.ok() && olds.ok());
  SubOne<T><<<shape.blocks, shape.threads>>>(scope, words.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    EXPECT_EQ(words[g], static_cast<T>(start - static_cast<T>(ids.size())))
        << "group " << g;
    std::vector<T> got = Select(olds, ids);
    std::vector<T> expected;
    for (size_t k = 0; k < ids.size(); ++k) {
      expected.push_back(static_cast<T>(start - static_cast<T>(k)));
    }
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(got, expected) << "group " << g;
  }
}

const std::vector<TypedRun> kSubTypes = {
    {"Int", &CheckSubOne<int>},
    {"Unsigned", &CheckSubOne<unsigned int>},
};

class AtomicSubTest : public ::testing::TestWithParam<TypedShapeScope> {};

TEST_P(AtomicSubTest, CountsDownThroughZeroAndReturnsOldValues) {
  MX_SPEC("lang.atomic.sub.overloads", "lang.atomic.general.no-update-lost",
          "lang.atomic.general.returns-old-value",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.block-atomic-within-block",
          "lang.atomic.scope.system-variants-exist");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicSubTest, AllCombinations(kSubTypes),
                         TypedShapeScopeName);

template <class T>
__global__ void SubOperand(Scope scope, T* words, const T* operands, T* olds) {
  const unsigned id = GridThreadId();
  olds[id] = ScopedSub(scope, &words[WordIndex(scope)], operands[id]);
}

// Operands of both signs (as int) or large enough to wrap (unsigned).
template <class T>
void CheckSubOperands(Shape shape, Scope scope) {
  const T start = static_cast<T>(17);
  ManagedArray<T> words(shape.Groups(scope), start);
  ManagedArray<T> operands(shape.Total());
  ManagedArray<T> olds(shape.Total());
  ASSERT_TRUE(words.ok() && operands.ok() && olds.ok());
  for (unsigned id = 0; id < shape.Total(); ++id) {
    operands[id] = static_cast<T>(static_cast<int>(id * 37 % 101) - 40);
  }
  SubOperand<T><<<shape.blocks, shape.threads>>>(scope, words.get(),
                                                 operands.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    T expected = start;
    for (unsigned id : ids) expected = static_cast<T>(expected - operands[id]);
    EXPECT_EQ(words[g], expected) << "group " << g;
    EXPECT_TRUE(IsTraceOfSequence(
        start, Select(olds, ids), Select(operands, ids), words[g],
        [](T old, T val) { return static_cast<T>(old - val); }))
        << "group " << g;
  }
}

const std::vector<TypedRun> kSubOperandTypes = {
    {"Int", &CheckSubOperands<int>},
    {"Unsigned", &CheckSubOperands<unsigned int>},
};

class AtomicSubOperandTest : public ::testing::TestWithParam<TypedShapeScope> {
};

TEST_P(AtomicSubOperandTest, WordIsDifferenceAndOldValuesTraceTheUpdates) {
  MX_SPEC("lang.atomic.sub.overloads",
          "lang.atomic.general.indivisible-read-modify-write",
          "lang.atomic.general.returns-old-value");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicSubOperandTest,
                         AllCombinations(kSubOperandTypes),
                         TypedShapeScopeName);

// --------------------------------------------------------------------------
// atomicExch: every thread swaps in its own value.
// --------------------------------------------------------------------------

template <class T>
__global__ void ExchangeOwnValue(Scope scope, T* words, T* olds) {
  const unsigned id = GridThreadId();
  olds[id] =
      ScopedExch(scope, &words[WordIndex(scope)], static_cast<T>(id + 1));
}

// The values swapped out (the old values and the final word) are the
// initial 0 and every value swapped in, each exactly once: no value is
// lost or duplicated.
template <class T>
void CheckExchangeChain(Shape shape, Scope scope) {
  ManagedArray<T> words(shape.Groups(scope), T(0));
  ManagedArray<T> olds(shape.Total());
  ASSERT_TRUE(words.ok() && olds.ok());
  ExchangeOwnValue<T>
      <<<shape.blocks, shape.threads>>>(scope, words.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    std::vector<T> swapped_in;
    for (unsigned id : ids) swapped_in.push_back(static_cast<T>(id + 1));
    EXPECT_TRUE(IsTraceOfSequence(T(0), Select(olds, ids), swapped_in, words[g],
                                  [](T, T val) { return val; }))
        << "group " << g;
    std::vector<T> out = Select(olds, ids);
    out.push_back(words[g]);
    std::vector<T> in = swapped_in;
    in.push_back(T(0));
    std::sort(out.begin(), out.end());
    std::sort(in.begin(), in.end());
    EXPECT_EQ(out, in) << "group " << g;
  }
}

const std::vector<TypedRun> kExchTypes = {
    {"Int", &CheckExchangeChain<int>},
    {"Unsigned", &CheckExchangeChain<unsigned int>},
    {"UnsignedLongLong", &CheckExchangeChain<unsigned long long>},
    {"Uint64", &CheckExchangeChain<std::uint64_t>},
    {"Float", &CheckExchangeChain<float>},
};

class AtomicExchTest : public ::testing::TestWithParam<TypedShapeScope> {};

TEST_P(AtomicExchTest, EveryValueIsSwappedOutExactlyOnce) {
  MX_SPEC("lang.atomic.exch.overloads", "lang.atomic.general.returns-old-value",
          "lang.atomic.general.indivisible-read-modify-write",
          "lang.atomic.general.fixed-width-aliases",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.block-atomic-within-block",
          "lang.atomic.scope.system-variants-exist");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicExchTest, AllCombinations(kExchTypes),
                         TypedShapeScopeName);

// --------------------------------------------------------------------------
// atomicExch on float keeps every bit.
// --------------------------------------------------------------------------

float FloatFromBits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// One thread swaps each of `values` in turn into a word that first holds
// `initial`, recording what each swap returned.
__global__ void ExchangeSequence(float* word, const float* values, int count,
                                 float* olds) {
  for (int i = 0; i < count; ++i) olds[i] = atomicExch(word, values[i]);
}

TEST(AtomicExchFloat, StoresAndReturnsBitPatternsUnchanged) {
  MX_SPEC("lang.atomic.exch.float-bits-preserved",
          "lang.atomic.exch.overloads");
  const std::vector<std::uint32_t> patterns = {
      0x80000000u,  // -0.0
      0x7fc12345u,  // quiet NaN with a payload
      0xffc00001u,  // negative quiet NaN with a payload
      0x00000001u,  // the smallest subnormal
      0x7f800000u,  // +infinity
      0x3f800000u,  // 1.0
  };
  const std::uint32_t initial = 0x807fffffu;  // the largest negative subnormal
  ManagedArray<float> word(1, FloatFromBits(initial));
  ManagedArray<float> values(patterns.size());
  ManagedArray<float> olds(patterns.size());
  ASSERT_TRUE(word.ok() && values.ok() && olds.ok());
  for (size_t i = 0; i < patterns.size(); ++i) {
    values[i] = FloatFromBits(patterns[i]);
  }
  ExchangeSequence<<<1, 1>>>(word.get(), values.get(),
                             static_cast<int>(patterns.size()), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(BitsOf(olds[0]), initial);
  for (size_t i = 1; i < patterns.size(); ++i) {
    EXPECT_EQ(BitsOf(olds[i]), patterns[i - 1]) << "swap " << i;
  }
  EXPECT_EQ(BitsOf(word[0]), patterns.back());
}

// --------------------------------------------------------------------------
// 64-bit fixed-width aliases: uint64_t and int64_t words.
// --------------------------------------------------------------------------

__global__ void FixedWidthWords(std::uint64_t* u, std::int64_t* s,
                                std::uint64_t* olds) {
  olds[0] = atomicExch(u, 0x123456789abcdef0ull);
  olds[1] = atomicCAS(u, 0x123456789abcdef0ull, 7ull);
  olds[2] = atomicAdd_system(u, 3ull);
  olds[3] = static_cast<std::uint64_t>(atomicMin(s, std::int64_t{-5}));
  olds[4] = static_cast<std::uint64_t>(atomicMax_block(s, std::int64_t{-9}));
  olds[5] = atomicOr(u, 0x100ull);
}

TEST(AtomicFixedWidth, Uint64AndInt64WordsUseThe64BitOverloads) {
  MX_SPEC("lang.atomic.general.fixed-width-aliases",
          "lang.atomic.exch.overloads", "lang.atomic.cas.overloads",
          "lang.atomic.min.overloads", "lang.atomic.or.overloads");
  ManagedArray<std::uint64_t> u(1, ~0ull);
  ManagedArray<std::int64_t> s(1, std::int64_t{3});
  ManagedArray<std::uint64_t> olds(6);
  ASSERT_TRUE(u.ok() && s.ok() && olds.ok());
  FixedWidthWords<<<1, 1>>>(u.get(), s.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(olds[0], ~0ull);
  EXPECT_EQ(olds[1], 0x123456789abcdef0ull);
  EXPECT_EQ(olds[2], 7ull);
  EXPECT_EQ(olds[3], 3ull);
  EXPECT_EQ(static_cast<std::int64_t>(olds[4]), -5);
  EXPECT_EQ(olds[5], 10ull);
  EXPECT_EQ(u[0], 0x10aull);
  EXPECT_EQ(s[0], -5);
}

}  // namespace
}  // namespace mxcts::conformance::atomics
