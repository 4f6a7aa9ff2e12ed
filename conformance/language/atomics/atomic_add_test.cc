// Conformance: atomicAdd on every word type, its `_block` and `_system`
// forms, and the overload resolution of its plain overloads
// (docs/spec/lang-atomics.md "Common rules", "atomicAdd", "Scopes").

#include <mc_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "conformance/language/atomics/atomic_testing.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::atomics {
namespace {

// --------------------------------------------------------------------------
// Counting: every thread adds 1 to its group's word.
// --------------------------------------------------------------------------

template <class T>
__global__ void AddOne(Scope scope, T* words, T* olds) {
  olds[GridThreadId()] = ScopedAdd(scope, &words[WordIndex(scope)], T(1));
}

// Each group's word ends at the group's size, and the group's callers got
// back 0, 1, ..., size - 1, each once.
template <class T>
void CheckAddOne(Shape shape, Scope scope) {
  ManagedArray<T> words(shape.Groups(scope), T(0));
  ManagedArray<T> olds(shape.Total(), T(0));
  ASSERT_TRUE(words.ok() && olds.ok());
  AddOne<T><<<shape.blocks, shape.threads>>>(scope, words.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    EXPECT_EQ(words[g], static_cast<T>(ids.size())) << "group " << g;
    std::vector<long long> got;
    for (unsigned id : ids) got.push_back(static_cast<long long>(olds[id]));
    std::sort(got.begin(), got.end());
    std::vector<long long> expected(ids.size());
    for (size_t k = 0; k < expected.size(); ++k) expected[k] = k;
    EXPECT_EQ(got, expected) << "group " << g;
  }
}

const std::vector<TypedRun> kCountingTypes = {
    {"Int", &CheckAddOne<int>},
    {"Unsigned", &CheckAddOne<unsigned int>},
    {"UnsignedLongLong", &CheckAddOne<unsigned long long>},
    {"Uint64", &CheckAddOne<std::uint64_t>},
    {"Float", &CheckAddOne<float>},
    {"Double", &CheckAddOne<double>},
};

class AtomicAddCountTest : public ::testing::TestWithParam<TypedShapeScope> {};

TEST_P(AtomicAddCountTest, EveryCallerGetsADistinctOldValue) {
  MX_SPEC("lang.atomic.general.no-update-lost",
          "lang.atomic.general.returns-old-value",
          "lang.atomic.general.global-and-shared-memory",
          "lang.atomic.general.fixed-width-aliases",
          "lang.atomic.add.integer-overloads", "lang.atomic.add.float",
          "lang.atomic.add.double", "lang.atomic.scope.default-is-device",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.block-atomic-within-block",
          "lang.atomic.scope.system-variants-exist");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicAddCountTest,
                         AllCombinations(kCountingTypes), TypedShapeScopeName);

// --------------------------------------------------------------------------
// Operands: every thread adds its own operand; unsigned words wrap.
// --------------------------------------------------------------------------

template <class T>
__global__ void AddOperand(Scope scope, T* words, const T* operands, T* olds) {
  const unsigned id = GridThreadId();
  olds[id] = ScopedAdd(scope, &words[WordIndex(scope)], operands[id]);
}

// The initial word and thread `id`'s operand. Integer words start near
// their maximum so that the sum wraps; floating-point operands are
// multiples of a power of two, so every partial sum is exact and the order
// of the additions cannot change the result.
template <class T>
T InitialForSum() {
  if constexpr (std::is_floating_point_v<T>) {
    return T(0.5);
  } else if constexpr (std::is_signed_v<T>) {
    return T(1000);
  } else {
    return std::numeric_limits<T>::max() - T(1000);
  }
}

template <class T>
T OperandFor(unsigned id) {
  if constexpr (std::is_same_v<T, float>) {
    return (id % 7) * 0.25f - 0.5f;
  } else if constexpr (std::is_same_v<T, double>) {
    return id * 0.125 + 1.0 / 1024;
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(id % 13) - 6;
  } else {
    return static_cast<T>(id * 7919 % 1000 + 1);
  }
}

template <class T>
void CheckAddOperands(Shape shape, Scope scope) {
  ManagedArray<T> words(shape.Groups(scope), InitialForSum<T>());
  ManagedArray<T> operands(shape.Total());
  ManagedArray<T> olds(shape.Total());
  ASSERT_TRUE(words.ok() && operands.ok() && olds.ok());
  for (unsigned id = 0; id < shape.Total(); ++id)
    operands[id] = OperandFor<T>(id);
  AddOperand<T><<<shape.blocks, shape.threads>>>(scope, words.get(),
                                                 operands.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    T expected = InitialForSum<T>();
    for (unsigned id : ids) expected = static_cast<T>(expected + operands[id]);
    EXPECT_EQ(words[g], expected) << "group " << g;
    EXPECT_TRUE(IsTraceOfSequence(InitialForSum<T>(), Select(olds, ids),
                                  Select(operands, ids), words[g],
                                  [](T old, T val) { return old + val; }))
        << "group " << g;
  }
}

const std::vector<TypedRun> kOperandTypes = {
    {"Int", &CheckAddOperands<int>},
    {"Unsigned", &CheckAddOperands<unsigned int>},
    {"UnsignedLongLong", &CheckAddOperands<unsigned long long>},
    {"Uint64", &CheckAddOperands<std::uint64_t>},
    {"Float", &CheckAddOperands<float>},
    {"Double", &CheckAddOperands<double>},
};

class AtomicAddOperandTest : public ::testing::TestWithParam<TypedShapeScope> {
};

TEST_P(AtomicAddOperandTest, WordIsSumAndOldValuesTraceTheAdditions) {
  MX_SPEC("lang.atomic.general.indivisible-read-modify-write",
          "lang.atomic.general.returns-old-value",
          "lang.atomic.add.integer-overloads", "lang.atomic.add.float",
          "lang.atomic.add.double",
          "lang.atomic.add.floating-order-unspecified",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.system-variants-exist");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicAddOperandTest,
                         AllCombinations(kOperandTypes), TypedShapeScopeName);

// --------------------------------------------------------------------------
// Inexact floating-point additions: some order, each addition rounded.
// --------------------------------------------------------------------------

// Operands 1 and 2^-24 alternate: 1 + 2^-24 rounds back to 1 in float, so
// the result depends on the order; whatever the order, each old value plus
// its operand, rounded, must be another caller's old value or the result.
template <class T>
void CheckInexactAdds(Shape shape, Scope scope) {
  ManagedArray<T> words(shape.Groups(scope), T(1));
  ManagedArray<T> operands(shape.Total());
  ManagedArray<T> olds(shape.Total());
  ASSERT_TRUE(words.ok() && operands.ok() && olds.ok());
  const T tiny = std::ldexp(T(1), -std::numeric_limits<T>::digits);
  for (unsigned id = 0; id < shape.Total(); ++id) {
    operands[id] = id % 2 == 0 ? T(1) : tiny;
  }
  AddOperand<T><<<shape.blocks, shape.threads>>>(scope, words.get(),
                                                 operands.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    EXPECT_TRUE(IsTraceOfSequence(T(1), Select(olds, ids),
                                  Select(operands, ids), words[g],
                                  [](T old, T val) { return old + val; }))
        << "group " << g;
  }
}

const std::vector<TypedRun> kInexactTypes = {
    {"Float", &CheckInexactAdds<float>},
    {"Double", &CheckInexactAdds<double>},
};

class AtomicAddInexactTest : public ::testing::TestWithParam<TypedShapeScope> {
};

TEST_P(AtomicAddInexactTest, ResultIsSomeOrderOfRoundedAdditions) {
  MX_SPEC("lang.atomic.add.floating-order-unspecified", "lang.atomic.add.float",
          "lang.atomic.add.double");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(FloatingTypes, AtomicAddInexactTest,
                         AllCombinations(kInexactTypes), TypedShapeScopeName);

// The trace check itself must reject a broken trace: here the last caller's
// old value is off by one ulp, as if an update had been torn.
TEST(AtomicAddTraceCheck, RejectsATraceWithALostUpdate) {
  MX_SPEC("lang.atomic.general.no-update-lost");
  const std::vector<float> operands = {1.0f, 2.0f, 4.0f};
  EXPECT_TRUE(IsTraceOfSequence(0.0f, {0.0f, 1.0f, 3.0f}, operands, 7.0f,
                                [](float a, float b) { return a + b; }));
  EXPECT_FALSE(IsTraceOfSequence(0.0f, {0.0f, 1.0f, 1.0f}, operands, 5.0f,
                                 [](float a, float b) { return a + b; }));
}

// --------------------------------------------------------------------------
// 16-bit floating point: __half, __half2, bfloat16 and its pair.
// --------------------------------------------------------------------------

template <class T>
__global__ void AddNarrow(Scope scope, T* words, T val, T* olds) {
  olds[GridThreadId()] = ScopedAdd(scope, &words[WordIndex(scope)], val);
}

float ToFloat(__half value) { return __half2float(value); }
float ToFloat(__maca_bfloat16 value) { return __bfloat162float(value); }

// Each thread adds 1: the counts are exact to 256 in bfloat16.
template <class T>
void CheckNarrowCount(Shape shape, Scope scope) {
  ManagedArray<T> words(shape.Groups(scope), T(0.0f));
  ManagedArray<T> olds(shape.Total(), T(0.0f));
  ASSERT_TRUE(words.ok() && olds.ok());
  AddNarrow<T><<<shape.blocks, shape.threads>>>(scope, words.get(), T(1.0f),
                                                olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    EXPECT_EQ(ToFloat(words[g]), static_cast<float>(ids.size()));
    std::vector<float> got;
    for (unsigned id : ids) got.push_back(ToFloat(olds[id]));
    std::sort(got.begin(), got.end());
    for (size_t k = 0; k < got.size(); ++k) {
      ASSERT_EQ(got[k], static_cast<float>(k)) << "group " << g;
    }
  }
}

// Each thread adds (1, -2) to a pair: the lanes count separately.
template <class Pair>
void CheckNarrowPairCount(Shape shape, Scope scope) {
  using Lane = decltype(Pair().x);
  const Pair zero(Lane(0.0f), Lane(0.0f));
  ManagedArray<Pair> words(shape.Groups(scope), zero);
  ManagedArray<Pair> olds(shape.Total(), zero);
  ASSERT_TRUE(words.ok() && olds.ok());
  AddNarrow<Pair><<<shape.blocks, shape.threads>>>(
      scope, words.get(), Pair(Lane(1.0f), Lane(-2.0f)), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < shape.Groups(scope); ++g) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, scope, g);
    const float n = static_cast<float>(ids.size());
    EXPECT_EQ(ToFloat(words[g].x), n);
    EXPECT_EQ(ToFloat(words[g].y), -2 * n);
    std::vector<float> low;
    for (unsigned id : ids) {
      low.push_back(ToFloat(olds[id].x));
      // Each caller saw both lanes of one state of the pair.
      EXPECT_EQ(ToFloat(olds[id].y), -2 * ToFloat(olds[id].x));
    }
    std::sort(low.begin(), low.end());
    for (size_t k = 0; k < low.size(); ++k) {
      ASSERT_EQ(low[k], static_cast<float>(k)) << "group " << g;
    }
  }
}

const std::vector<TypedRun> kNarrowTypes = {
    {"Half", &CheckNarrowCount<__half>},
    {"Bfloat16", &CheckNarrowCount<__maca_bfloat16>},
    {"Half2", &CheckNarrowPairCount<__half2>},
    {"Bfloat162", &CheckNarrowPairCount<__maca_bfloat162>},
};

class AtomicAddNarrowTest : public ::testing::TestWithParam<TypedShapeScope> {};

TEST_P(AtomicAddNarrowTest, CountsExactlyAndReturnsOldValues) {
  MX_SPEC("lang.atomic.add.half", "lang.atomic.add.half2-per-element",
          "lang.atomic.add.bfloat16", "lang.atomic.add.bfloat162-per-element",
          "lang.atomic.general.no-update-lost",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.system-variants-exist");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(SixteenBitTypes, AtomicAddNarrowTest,
                         AllCombinations(kNarrowTypes, SmallShapes()),
                         TypedShapeScopeName);

// --------------------------------------------------------------------------
// Rounding of one addition.
// --------------------------------------------------------------------------

template <class T>
__global__ void AddOnce(T* word, T val, T* old) {
  *old = atomicAdd(word, val);
}

// Adds `val` to a word holding `initial` on one thread; returns the stored
// value, having checked the returned old value.
template <class T>
T StoredSum(T initial, T val) {
  ManagedArray<T> word(1, initial);
  ManagedArray<T> old(1);
  EXPECT_TRUE(word.ok() && old.ok());
  if (!word.ok() || !old.ok()) return initial;
  AddOnce<T><<<1, 1>>>(word.get(), val, old.get());
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(BitsOf(old[0]), BitsOf(initial));
  return word[0];
}

TEST(AtomicAddRounding, FloatSumIsRoundedToNearestEven) {
  MX_SPEC("lang.atomic.add.float");
  const float two24 = 16777216.0f;
  EXPECT_EQ(StoredSum(two24, 1.0f), two24);                // tie, to even
  EXPECT_EQ(StoredSum(two24, 3.0f), two24 + 4.0f);         // tie, to even
  EXPECT_EQ(StoredSum(two24 + 2.0f, 1.0f), two24 + 4.0f);  // tie, to even
  EXPECT_EQ(StoredSum(1.0f, 0.5f), 1.5f);                  // exact
}

TEST(AtomicAddRounding, DoubleSumIsRoundedToNearestEven) {
  MX_SPEC("lang.atomic.add.double");
  const double two53 = 9007199254740992.0;
  EXPECT_EQ(StoredSum(two53, 1.0), two53);
  EXPECT_EQ(StoredSum(two53, 3.0), two53 + 4.0);
  EXPECT_EQ(StoredSum(0.25, 0.5), 0.75);
}

TEST(AtomicAddRounding, HalfSumIsRoundedToNearestEven) {
  MX_SPEC("lang.atomic.add.half");
  // 2048 is the first __half whose neighbours are 2 apart.
  EXPECT_EQ(__half2float(StoredSum(__float2half(2048.0f), __float2half(1.0f))),
            2048.0f);
  EXPECT_EQ(__half2float(StoredSum(__float2half(2048.0f), __float2half(3.0f))),
            2052.0f);
  EXPECT_EQ(__half2float(StoredSum(__float2half(1.5f), __float2half(0.25f))),
            1.75f);
  // 65504 + 16 is a tie between 65504 and the overflow: it rounds to inf.
  EXPECT_TRUE(std::isinf(
      __half2float(StoredSum(__float2half(65504.0f), __float2half(16.0f)))));
}

TEST(AtomicAddRounding, Bfloat16SumIsRoundedToNearestEven) {
  MX_SPEC("lang.atomic.add.bfloat16");
  // 256 is the first bfloat16 whose neighbours are 2 apart.
  EXPECT_EQ(__bfloat162float(
                StoredSum(__float2bfloat16(256.0f), __float2bfloat16(1.0f))),
            256.0f);
  EXPECT_EQ(__bfloat162float(
                StoredSum(__float2bfloat16(256.0f), __float2bfloat16(3.0f))),
            260.0f);
  EXPECT_EQ(__bfloat162float(
                StoredSum(__float2bfloat16(-1.5f), __float2bfloat16(0.25f))),
            -1.25f);
}

TEST(AtomicAddRounding, PairLanesAreRoundedSeparately) {
  MX_SPEC("lang.atomic.add.half2-per-element",
          "lang.atomic.add.bfloat162-per-element");
  const __half2 half_sum = StoredSum(__floats2half2_rn(2048.0f, 0.5f),
                                     __floats2half2_rn(3.0f, 0.25f));
  EXPECT_EQ(__low2float(half_sum), 2052.0f);
  EXPECT_EQ(__high2float(half_sum), 0.75f);
  const __maca_bfloat162 bf_sum = StoredSum(
      __floats2bfloat162_rn(256.0f, -4.0f), __floats2bfloat162_rn(1.0f, 1.0f));
  EXPECT_EQ(__low2float(bf_sum), 256.0f);
  EXPECT_EQ(__high2float(bf_sum), -3.0f);
}

// The reference keeps subnormals: the smallest subnormal twice is exact.
// A backend that flushes them gives 0, which the clause also permits.
TEST(AtomicAddRounding, FloatSubnormalSumIsExactOrFlushed) {
  MX_SPEC("lang.atomic.add.float-subnormal-handling");
  const float tiny = std::numeric_limits<float>::denorm_min();
  const float sum = StoredSum(tiny, tiny);
  EXPECT_TRUE(sum == 2 * tiny || sum == 0.0f) << sum;
}

// --------------------------------------------------------------------------
// Plain overloads: the operand is converted.
// --------------------------------------------------------------------------

// The runtime guide's example: a float and a double member of an ordinary
// structure, with operands of the other type.
struct FloatAndDouble {
  float f;
  double d;
};

__global__ void AddConvertedOperands(FloatAndDouble* dst, double* olds) {
  olds[0] = atomicAdd(&dst->f, 1.23);  // float*, double
  olds[1] = atomicAdd(&dst->d, 20);    // double*, int
  olds[2] = atomicAdd_block(&dst->d, 1);
  olds[3] = atomicAdd_system(&dst->f, 2.0);
}

TEST(AtomicAddOverloads, OperandIsConvertedToTheWordType) {
  MX_SPEC("lang.atomic.general.plain-overloads-convert-operand",
          "lang.atomic.alignment.aligned-struct-members-work",
          "lang.atomic.add.float", "lang.atomic.add.double");
  ManagedArray<FloatAndDouble> dst(1, FloatAndDouble{0.5f, 0.25});
  ManagedArray<double> olds(4);
  ASSERT_TRUE(dst.ok() && olds.ok());
  AddConvertedOperands<<<1, 1>>>(dst.get(), olds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const float f_after_first = 0.5f + static_cast<float>(1.23);
  EXPECT_EQ(olds[0], 0.5);
  EXPECT_EQ(olds[1], 0.25);
  EXPECT_EQ(olds[2], 20.25);
  EXPECT_EQ(olds[3], static_cast<double>(f_after_first));
  EXPECT_EQ(dst[0].f, f_after_first + 2.0f);
  EXPECT_EQ(dst[0].d, 21.25);
}

__global__ void AddNegativeIntToUnsigned(unsigned int* word,
                                         unsigned long long* wide) {
  atomicAdd(word, -1);  // unsigned int*, int: adds 2^32 - 1
  atomicAdd(wide, 5);   // unsigned long long*, int
}

TEST(AtomicAddOverloads, IntOperandConvertsToUnsignedAndWraps) {
  MX_SPEC("lang.atomic.general.plain-overloads-convert-operand",
          "lang.atomic.add.integer-overloads");
  ManagedArray<unsigned int> word(1, 5u);
  ManagedArray<unsigned long long> wide(1, ~0ull);
  ASSERT_TRUE(word.ok() && wide.ok());
  AddNegativeIntToUnsigned<<<1, 1>>>(word.get(), wide.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(word[0], 4u);
  EXPECT_EQ(wide[0], 4ull);
}

}  // namespace
}  // namespace mxcts::conformance::atomics
