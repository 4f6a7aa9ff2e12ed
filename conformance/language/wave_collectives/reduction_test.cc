// Conformance: __reduce_add_sync, __reduce_min_sync, __reduce_max_sync,
// __reduce_and_sync, __reduce_or_sync, __reduce_xor_sync, with 64-bit and
// 32-bit masks (docs/spec/lang-wave-collectives.md "Reductions").
//
// Every thread contributes a 32-bit value (random bits, so that sums wrap
// and signs differ; one bit per lane for OR and AND); the host folds the values
// of each participant's group (the named lanes of its wave, or of its 32-lane
// half for a 32-bit mask).

#include <mc_runtime.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "conformance/language/wave_collectives/wave_test_support.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using wave_test::kFullMask;
using wave_test::Managed;
using wave_test::NamedMask;
using wave_test::Pattern;
using wave_test::Shape;

enum class Reduction {
  kAddInt,
  kAddUnsigned,
  kMinInt,
  kMinUnsigned,
  kMaxInt,
  kMaxUnsigned,
  kAnd,
  kOr,
  kXor,
};

constexpr Reduction kReductions[] = {
    Reduction::kAddInt,      Reduction::kAddUnsigned, Reduction::kMinInt,
    Reduction::kMinUnsigned, Reduction::kMaxInt,      Reduction::kMaxUnsigned,
    Reduction::kAnd,         Reduction::kOr,          Reduction::kXor,
};

const char* ReductionName(Reduction reduction) {
  switch (reduction) {
    case Reduction::kAddInt:
      return "AddInt";
    case Reduction::kAddUnsigned:
      return "AddUnsigned";
    case Reduction::kMinInt:
      return "MinInt";
    case Reduction::kMinUnsigned:
      return "MinUnsigned";
    case Reduction::kMaxInt:
      return "MaxInt";
    case Reduction::kMaxUnsigned:
      return "MaxUnsigned";
    case Reduction::kAnd:
      return "And";
    case Reduction::kOr:
      return "Or";
    case Reduction::kXor:
      return "Xor";
  }
  return "Unknown";
}

// How threads pick their values: random bits (sums wrap, signs differ),
// one bit per lane (OR tells which lanes took part), or all bits but one
// (AND tells likewise).
enum class Values { kRandom, kOneHot, kOneCold };

// Thread `id`'s value.
__host__ __device__ inline unsigned ValueOf(unsigned id, int values) {
  switch (static_cast<Values>(values)) {
    case Values::kRandom:
      return static_cast<unsigned>(Pattern(id, 5));
    case Values::kOneHot:
      return 1u << (id % 32);
    case Values::kOneCold:
      return ~(1u << (id % 32));
  }
  return 0;
}

// The reduction `reduction` of `value` with `mask` (a 64-bit or 32-bit
// mask type), as its 32 result bits.
template <class Mask>
__device__ unsigned Reduce(int reduction, Mask mask, unsigned value) {
  const int as_int = static_cast<int>(value);
  switch (static_cast<Reduction>(reduction)) {
    case Reduction::kAddInt:
      return static_cast<unsigned>(__reduce_add_sync(mask, as_int));
    case Reduction::kAddUnsigned:
      return __reduce_add_sync(mask, value);
    case Reduction::kMinInt:
      return static_cast<unsigned>(__reduce_min_sync(mask, as_int));
    case Reduction::kMinUnsigned:
      return __reduce_min_sync(mask, value);
    case Reduction::kMaxInt:
      return static_cast<unsigned>(__reduce_max_sync(mask, as_int));
    case Reduction::kMaxUnsigned:
      return __reduce_max_sync(mask, value);
    case Reduction::kAnd:
      return __reduce_and_sync(mask, value);
    case Reduction::kOr:
      return __reduce_or_sync(mask, value);
    case Reduction::kXor:
      return __reduce_xor_sync(mask, value);
  }
  return 0;
}

// Threads named by the mask reduce; `halves`: the 32-bit mask `mask32`
// names lanes of each thread's half, else `mask64` names lanes of the wave.
__global__ void ReduceKernel(int reduction, bool halves, unsigned long mask64,
                             unsigned mask32, int values, unsigned* out) {
  const unsigned id = wave_test::LinearId();
  const unsigned lane = wave_test::Lane();
  const bool named =
      halves ? (mask32 >> (lane % 32) & 1u) != 0 : (mask64 >> lane & 1ul) != 0;
  if (!named) {
    out[id] = 0xdeadu;
    return;
  }
  const unsigned value = ValueOf(id, values);
  out[id] = halves ? Reduce(reduction, mask32, value)
                   : Reduce(reduction, mask64, value);
}

unsigned Combine(Reduction reduction, unsigned a, unsigned b) {
  const int sa = static_cast<int>(a), sb = static_cast<int>(b);
  switch (reduction) {
    case Reduction::kAddInt:
    case Reduction::kAddUnsigned:
      return a + b;  // modulo 2^32
    case Reduction::kMinInt:
      return static_cast<unsigned>(std::min(sa, sb));
    case Reduction::kMinUnsigned:
      return std::min(a, b);
    case Reduction::kMaxInt:
      return static_cast<unsigned>(std::max(sa, sb));
    case Reduction::kMaxUnsigned:
      return std::max(a, b);
    case Reduction::kAnd:
      return a & b;
    case Reduction::kOr:
      return a | b;
    case Reduction::kXor:
      return a ^ b;
  }
  return 0;
}

struct ReduceCase {
  Reduction reduction = Reduction::kAddInt;
  Shape shape = {"Threads64", 64, 1, 1};
  bool halves = false;
  unsigned long mask64 = kFullMask;
  unsigned mask32 = 0xffffffffu;
  Values values = Values::kRandom;
};

void CheckReduction(const ReduceCase& c) {
  const unsigned threads = c.shape.threads();
  Managed<unsigned> out(threads);
  ReduceKernel<<<1, c.shape.dims()>>>(static_cast<int>(c.reduction), c.halves,
                                      c.mask64, c.mask32,
                                      static_cast<int>(c.values), out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int participants = 0;
  for (unsigned id = 0; id < threads; ++id) {
    const unsigned lane = id % 64;
    // The lanes of this thread's group that exist.
    unsigned long group = c.halves ? static_cast<unsigned long>(c.mask32)
                                         << (lane / 32 * 32)
                                   : c.mask64;
    group &= c.shape.ExistingLanesOf(id);
    if ((group >> lane & 1ul) == 0) continue;
    ++participants;
    bool first = true;
    unsigned expected = 0;
    for (unsigned other = 0; other < 64; ++other) {
      if ((group >> other & 1ul) == 0) continue;
      const unsigned value =
          ValueOf(id - lane + other, static_cast<int>(c.values));
      expected = first ? value : Combine(c.reduction, expected, value);
      first = false;
    }
    EXPECT_EQ(out[id], expected) << "thread " << id;
  }
  EXPECT_GT(participants, 0);
}

// Values that make each reduction's result depend on which lanes took
// part: random AND and OR results would be 0 and ~0 whatever the lanes.
Values ValuesFor(Reduction reduction) {
  switch (reduction) {
    case Reduction::kAnd:
      return Values::kOneCold;
    case Reduction::kOr:
      return Values::kOneHot;
    default:
      return Values::kRandom;
  }
}

// ---------------------------------------------------------------------------
// 64-bit masks.
// ---------------------------------------------------------------------------

using Mask64Param = std::tuple<Reduction, NamedMask>;

class ReduceMask64 : public testing::TestWithParam<Mask64Param> {};

TEST_P(ReduceMask64, CombinesTheNamedLanesOfTheWave) {
  MX_SPEC("lang.wave.reduce.add-result", "lang.wave.reduce.min-result",
          "lang.wave.reduce.max-result", "lang.wave.reduce.and-result",
          "lang.wave.reduce.or-result", "lang.wave.reduce.xor-result",
          "lang.wave.reduce.same-result-for-participants",
          "lang.wave.reduce.mask-64-whole-wave");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  ReduceCase c;
  c.reduction = std::get<0>(GetParam());
  c.mask64 = std::get<1>(GetParam()).mask;
  c.values = ValuesFor(c.reduction);
  CheckReduction(c);
}

INSTANTIATE_TEST_SUITE_P(AllReductions, ReduceMask64,
                         testing::Combine(testing::ValuesIn(kReductions),
                                          testing::ValuesIn(wave_test::kMasks)),
                         [](const testing::TestParamInfo<Mask64Param>& info) {
                           return std::string(
                                      ReductionName(std::get<0>(info.param))) +
                                  std::get<1>(info.param).name;
                         });

// ---------------------------------------------------------------------------
// 32-bit masks: each half of the wave reduces by itself.
// ---------------------------------------------------------------------------

struct NamedMask32 {
  const char* name;
  unsigned mask;
};

constexpr NamedMask32 kMasks32[] = {
    {"Full32", 0xffffffffu},     {"Even32", 0x55555555u},
    {"High16Of32", 0xffff0000u}, {"Lane0Of32", 0x1u},
    {"Lane31Of32", 0x80000000u},
};

using Mask32Param = std::tuple<Reduction, NamedMask32>;

class ReduceMask32 : public testing::TestWithParam<Mask32Param> {};

TEST_P(ReduceMask32, CombinesTheNamedLanesOfTheCallersHalf) {
  MX_SPEC("lang.wave.reduce.mask-32-half-wave", "lang.wave.reduce.add-result",
          "lang.wave.reduce.min-result", "lang.wave.reduce.max-result",
          "lang.wave.reduce.and-result", "lang.wave.reduce.or-result",
          "lang.wave.reduce.xor-result",
          "lang.wave.reduce.same-result-for-participants");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  ReduceCase c;
  c.reduction = std::get<0>(GetParam());
  c.halves = true;
  c.mask32 = std::get<1>(GetParam()).mask;
  c.values = ValuesFor(c.reduction);
  c.shape = {"Threads128", 128, 1, 1};
  CheckReduction(c);
}

INSTANTIATE_TEST_SUITE_P(AllReductions, ReduceMask32,
                         testing::Combine(testing::ValuesIn(kReductions),
                                          testing::ValuesIn(kMasks32)),
                         [](const testing::TestParamInfo<Mask32Param>& info) {
                           return std::string(
                                      ReductionName(std::get<0>(info.param))) +
                                  std::get<1>(info.param).name;
                         });

// ---------------------------------------------------------------------------
// Block shapes: partial waves reduce over their existing lanes.
// ---------------------------------------------------------------------------

using ShapeParam = std::tuple<Reduction, Shape>;

class ReduceShapes : public testing::TestWithParam<ShapeParam> {};

TEST_P(ReduceShapes, EachWaveReducesItsExistingLanes) {
  MX_SPEC("lang.wave.reduce.mask-64-whole-wave",
          "lang.wave.formation.partial-last-wave",
          "lang.wave.mask.absent-lanes-count-as-exited",
          "lang.wave.reduce.add-result", "lang.wave.reduce.max-result");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  ReduceCase c;
  c.reduction = std::get<0>(GetParam());
  c.shape = std::get<1>(GetParam());
  c.values = ValuesFor(c.reduction);
  CheckReduction(c);
}

INSTANTIATE_TEST_SUITE_P(
    AllShapes, ReduceShapes,
    testing::Combine(testing::Values(Reduction::kAddUnsigned,
                                     Reduction::kMaxInt),
                     testing::ValuesIn(wave_test::kShapes)),
    [](const testing::TestParamInfo<ShapeParam>& info) {
      return std::string(ReductionName(std::get<0>(info.param))) +
             std::get<1>(info.param).name;
    });

// ---------------------------------------------------------------------------
// The mask's type selects the form.
// ---------------------------------------------------------------------------

__global__ void CountLanesBothWays(int* half_counts, int* wave_counts) {
  const unsigned id = wave_test::LinearId();
  // An unsuffixed 0xFFFFFFFF is an unsigned int: the 32-bit form.
  half_counts[id] = __reduce_add_sync(0xFFFFFFFF, 1);
  wave_counts[id] = __reduce_add_sync(~0ul, 1);
}

TEST(ReduceMaskType, UnsignedIntLiteralReducesHalvesAndUnsignedLongTheWave) {
  MX_SPEC("lang.wave.reduce.inexact-mask-type",
          "lang.wave.reduce.mask-32-half-wave",
          "lang.wave.reduce.mask-64-whole-wave");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  // Which form an unsuffixed literal selects is the reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  Managed<int> halves(64);
  Managed<int> waves(64);
  CountLanesBothWays<<<1, 64>>>(halves.get(), waves.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int id = 0; id < 64; ++id) {
    EXPECT_EQ(halves[id], 32) << id;
    EXPECT_EQ(waves[id], 64) << id;
  }
}

__global__ void SumLargeValues(unsigned* sums, int* int_sums) {
  sums[wave_test::LinearId()] = __reduce_add_sync(kFullMask, 0x80000001u);
  int_sums[wave_test::LinearId()] = __reduce_add_sync(kFullMask, 0x7fffffff);
}

TEST(ReduceAdd, WrapsModuloTwoToThe32) {
  MX_SPEC("lang.wave.reduce.add-result");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<unsigned> sums(64);
  Managed<int> int_sums(64);
  SumLargeValues<<<1, 64>>>(sums.get(), int_sums.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // 64 * 0x80000001 = 0x20_0000_0040 -> 0x40; 64 * 0x7fffffff -> -64.
  for (int id = 0; id < 64; ++id) {
    EXPECT_EQ(sums[id], 0x40u) << id;
    EXPECT_EQ(int_sums[id], -64) << id;
  }
}

}  // namespace
