// Conformance: __match_any_sync and __match_all_sync
// (docs/spec/lang-wave-collectives.md "Matches").
//
// Each participant passes a value chosen by a key (all equal, all
// distinct, three classes by lane, or one lane different); values with
// different keys have different bits. The host groups the participants by
// key to get the expected masks.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/language/wave_collectives/wave_test_support.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using wave_test::FromBits;
using wave_test::kFullMask;
using wave_test::Managed;
using wave_test::NamedMask;
using wave_test::Pattern;
using wave_test::Shape;
using wave_test::ValueType;

enum class Values { kAllEqual, kAllDistinct, kThreeClasses, kOneDiffers };

const char* ValuesName(Values values) {
  switch (values) {
    case Values::kAllEqual:
      return "AllEqual";
    case Values::kAllDistinct:
      return "AllDistinct";
    case Values::kThreeClasses:
      return "ThreeClasses";
    case Values::kOneDiffers:
      return "OneDiffers";
  }
  return "Unknown";
}

// The key of thread `id`'s value; `odd_lane` is the lane that differs for
// kOneDiffers.
__host__ __device__ inline unsigned ValueKey(int values, unsigned id,
                                             unsigned odd_lane) {
  const unsigned lane = id % 64;
  switch (static_cast<Values>(values)) {
    case Values::kAllEqual:
      return 0;
    case Values::kAllDistinct:
      return id + 1;
    case Values::kThreeClasses:
      return lane % 3 + 1;
    case Values::kOneDiffers:
      return lane == odd_lane ? 1 : 0;
  }
  return 0;
}

enum class Match { kAny, kAll };

template <class T>
__global__ void MatchKernel(int match, unsigned long mask, int values,
                            unsigned odd_lane, unsigned long* out, int* preds) {
  const unsigned id = wave_test::LinearId();
  if ((mask >> wave_test::Lane() & 1ul) == 0) {
    out[id] = 0xdeadul;
    return;
  }
  const T value = FromBits<T>(Pattern(ValueKey(values, id, odd_lane), 77));
  if (static_cast<Match>(match) == Match::kAny) {
    out[id] = __match_any_sync(mask, value);
  } else {
    int pred = -1;
    out[id] = __match_all_sync(mask, value, &pred);
    preds[id] = pred;
  }
}

struct MatchCase {
  Match match = Match::kAny;
  Shape shape = {"Threads64", 64, 1, 1};
  unsigned long mask = kFullMask;
  Values values = Values::kThreeClasses;
};

template <class T>
void CheckMatchOf(const MatchCase& c) {
  const unsigned threads = c.shape.threads();
  const unsigned odd_lane = 63 - static_cast<unsigned>(__builtin_clzl(c.mask));
  Managed<unsigned long> out(threads);
  Managed<int> preds(threads);
  MatchKernel<T><<<1, c.shape.dims()>>>(static_cast<int>(c.match), c.mask,
                                        static_cast<int>(c.values), odd_lane,
                                        out.get(), preds.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int participants = 0;
  for (unsigned id = 0; id < threads; ++id) {
    const unsigned lane = id % 64;
    const unsigned first = id - lane;
    const unsigned long taking_part = c.mask & c.shape.ExistingLanesOf(id);
    if ((taking_part >> lane & 1ul) == 0) continue;
    ++participants;
    const unsigned key = ValueKey(static_cast<int>(c.values), id, odd_lane);
    unsigned long equal = 0;
    for (unsigned other = 0; other < 64; ++other) {
      if ((taking_part >> other & 1ul) != 0 &&
          ValueKey(static_cast<int>(c.values), first + other, odd_lane) ==
              key) {
        equal |= 1ul << other;
      }
    }
    if (c.match == Match::kAny) {
      EXPECT_EQ(out[id], equal) << "thread " << id;
      EXPECT_NE(out[id] >> lane & 1ul, 0u) << "own bit, thread " << id;
    } else {
      const bool uniform = equal == taking_part;
      EXPECT_EQ(out[id], uniform ? c.mask : 0ul) << "thread " << id;
      EXPECT_EQ(preds[id], uniform ? 1 : 0) << "thread " << id;
    }
  }
  EXPECT_GT(participants, 0);
}

void CheckMatch(ValueType type, const MatchCase& c) {
  switch (type) {
    case ValueType::kInt:
      return CheckMatchOf<int>(c);
    case ValueType::kUnsigned:
      return CheckMatchOf<unsigned>(c);
    case ValueType::kLong:
      return CheckMatchOf<long>(c);
    case ValueType::kUnsignedLong:
      return CheckMatchOf<unsigned long>(c);
    case ValueType::kLongLong:
      return CheckMatchOf<long long>(c);
    case ValueType::kUnsignedLongLong:
      return CheckMatchOf<unsigned long long>(c);
    case ValueType::kFloat:
      return CheckMatchOf<float>(c);
    case ValueType::kDouble:
      return CheckMatchOf<double>(c);
    default:
      FAIL() << "no match for this type";
  }
}

// ---------------------------------------------------------------------------
// Types x value patterns.
// ---------------------------------------------------------------------------

using TypeParam = std::tuple<ValueType, Values>;

std::string TypeParamName(const testing::TestParamInfo<TypeParam>& info) {
  return std::string(wave_test::TypeName(std::get<0>(info.param))) +
         ValuesName(std::get<1>(info.param));
}

class MatchAnyTypes : public testing::TestWithParam<TypeParam> {};

TEST_P(MatchAnyTypes, ReturnsTheLanesWithEqualValues) {
  MX_SPEC("lang.wave.match-any.returns-equal-value-lanes",
          "lang.wave.match.value-types");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MatchCase c;
  c.values = std::get<1>(GetParam());
  c.shape = {"Threads128", 128, 1, 1};
  CheckMatch(std::get<0>(GetParam()), c);
}

INSTANTIATE_TEST_SUITE_P(
    TypesAndValues, MatchAnyTypes,
    testing::Combine(testing::ValuesIn(wave_test::kMatchTypes),
                     testing::Values(Values::kAllEqual, Values::kAllDistinct,
                                     Values::kThreeClasses)),
    TypeParamName);

class MatchAllTypes : public testing::TestWithParam<TypeParam> {};

TEST_P(MatchAllTypes, ReturnsTheMaskOnlyForUniformValues) {
  MX_SPEC("lang.wave.match-all.uniform-returns-mask",
          "lang.wave.match-all.differing-returns-zero",
          "lang.wave.match.value-types");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MatchCase c;
  c.match = Match::kAll;
  c.values = std::get<1>(GetParam());
  CheckMatch(std::get<0>(GetParam()), c);
}

INSTANTIATE_TEST_SUITE_P(
    TypesAndValues, MatchAllTypes,
    testing::Combine(testing::ValuesIn(wave_test::kMatchTypes),
                     testing::Values(Values::kAllEqual, Values::kOneDiffers)),
    TypeParamName);

// ---------------------------------------------------------------------------
// Masks and block shapes.
// ---------------------------------------------------------------------------

using MaskParam = std::tuple<NamedMask, Match>;

class MatchMasks : public testing::TestWithParam<MaskParam> {};

TEST_P(MatchMasks, ComparesOnlyNamedLanes) {
  MX_SPEC("lang.wave.match-any.returns-equal-value-lanes",
          "lang.wave.match-all.uniform-returns-mask",
          "lang.wave.match-all.differing-returns-zero",
          "lang.wave.mask.is-64-bit");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MatchCase c;
  c.mask = std::get<0>(GetParam()).mask;
  c.match = std::get<1>(GetParam());
  // One differing lane among several makes match_all fail; three classes
  // give match_any several groups.
  c.values = c.match == Match::kAny            ? Values::kThreeClasses
             : __builtin_popcountl(c.mask) > 1 ? Values::kOneDiffers
                                               : Values::kAllEqual;
  CheckMatch(ValueType::kUnsigned, c);
}

INSTANTIATE_TEST_SUITE_P(
    AllMasks, MatchMasks,
    testing::Combine(testing::ValuesIn(wave_test::kMasks),
                     testing::Values(Match::kAny, Match::kAll)),
    [](const testing::TestParamInfo<MaskParam>& info) {
      return std::string(std::get<0>(info.param).name) +
             (std::get<1>(info.param) == Match::kAny ? "Any" : "All");
    });

class MatchShapes : public testing::TestWithParam<Shape> {};

TEST_P(MatchShapes, EachWaveMatchesItsExistingLanes) {
  MX_SPEC("lang.wave.match-any.returns-equal-value-lanes",
          "lang.wave.formation.partial-last-wave",
          "lang.wave.mask.absent-lanes-count-as-exited");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MatchCase c;
  c.shape = GetParam();
  CheckMatch(ValueType::kLongLong, c);
}

INSTANTIATE_TEST_SUITE_P(AllShapes, MatchShapes,
                         testing::ValuesIn(wave_test::kShapes),
                         wave_test::ParamName());

// ---------------------------------------------------------------------------
// Floating values compare by their bits.
// ---------------------------------------------------------------------------

// Lanes pass +0.0 (even) or -0.0 (odd), or the same NaN everywhere.
template <class T>
__global__ void MatchFloatingBits(bool nan, unsigned long* zeros) {
  const unsigned lane = wave_test::Lane();
  T value = lane % 2 == 0 ? static_cast<T>(0) : -static_cast<T>(0);
  if (nan) value = __builtin_nan("0x123");
  zeros[lane] = __match_any_sync(kFullMask, value);
}

template <class T>
void CheckFloatingBits() {
  Managed<unsigned long> zeros(64);
  MatchFloatingBits<T><<<1, 64>>>(false, zeros.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned lane = 0; lane < 64; ++lane) {
    // +0 and -0 compare equal as numbers but not as bits.
    EXPECT_EQ(zeros[lane],
              lane % 2 == 0 ? 0x5555555555555555ul : 0xaaaaaaaaaaaaaaaaul)
        << lane;
  }
  MatchFloatingBits<T><<<1, 64>>>(true, zeros.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // A NaN never equals itself as a number, but its bits do.
  for (unsigned lane = 0; lane < 64; ++lane) EXPECT_EQ(zeros[lane], kFullMask);
}

TEST(MatchFloating, FloatComparesBitPatterns) {
  MX_SPEC("lang.wave.match.value-types");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  CheckFloatingBits<float>();
}

TEST(MatchFloating, DoubleComparesBitPatterns) {
  MX_SPEC("lang.wave.match.value-types");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  CheckFloatingBits<double>();
}

}  // namespace
