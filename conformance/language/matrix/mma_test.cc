// Conformance: mma_sync on 16 x 16 x 16 tiles (docs/spec/lang-matrix.md
// "mma_sync", "Shapes and element types", "load_matrix_sync",
// "store_matrix_sync").
//
// One wave loads A and B in their fragments' layouts and C with a layout
// argument, computes D = A x B + C and stores D; the host compares D with
// the product computed from the clauses. Parameterized over every type
// combination the spec requires (__half and __maca_bfloat16 multiplicands
// into float, __half into __half), both layouts of A and of B, both memory
// layouts of C and D and two leading dimensions. Small integer inputs make
// the result exact; random inputs check the error bounds.

#include <mc_runtime.h>

#include <cmath>
#include <string>
#include <tuple>

#include "conformance/language/matrix/matrix_testing.h"
#include "conformance/testing/spec.h"

namespace {

using matrix_test::Element;
using matrix_test::k16x16x16;
using matrix_test::Layout;
using matrix_test::MmaKind;
using matrix_test::MmaOptions;
using matrix_test::Tile;

const MmaKind kKinds[] = {
    MATRIX_TEST_MMA_LAYOUTS(k16x16x16, __half, float),
    MATRIX_TEST_MMA_LAYOUTS(k16x16x16, __maca_bfloat16, float),
    MATRIX_TEST_MMA_LAYOUTS(k16x16x16, __half, __half),
};

// Kinds with a float accumulator, and with a __half one.
const MmaKind kFloatKinds[] = {
    MATRIX_TEST_MMA_LAYOUTS(k16x16x16, __half, float),
    MATRIX_TEST_MMA_LAYOUTS(k16x16x16, __maca_bfloat16, float),
};
const MmaKind kHalfKinds[] = {
    MATRIX_TEST_MMA_LAYOUTS(k16x16x16, __half, __half),
};

// ---------------------------------------------------------------------------
// D = A x B + C, exactly, for every layout and leading dimension.
// ---------------------------------------------------------------------------

using matrix_test::ProductParam;

class MmaProduct : public testing::TestWithParam<ProductParam> {};

TEST_P(MmaProduct, EqualsProductPlusAccumulator) {
  MX_SPEC("lang.wmma.mma.computes-product-plus-accumulator",
          "lang.wmma.mma.float-accumulation-exact-case",
          "lang.wmma.load.row-major-addressing",
          "lang.wmma.load.col-major-addressing",
          "lang.wmma.load.multiplicand-layout-from-type",
          "lang.wmma.load.accumulator-layout-argument",
          "lang.wmma.store.layout-argument-required",
          "lang.wmma.fragment.tile-dimensions", "lang.wmma.fragment.use-roles",
          "lang.wmma.fragment.layout-meaning",
          "lang.wmma.header.available-without-include");
  const auto& [kind, c_layout, d_layout, pad_steps] = GetParam();
  if (kind.multiplicand == Element::kHalf) {
    MX_SPEC("lang.wmma.shape.half-16x16x16");
  } else {
    MX_SPEC("lang.wmma.shape.bfloat16-16x16x16");
  }
  if (kind.accumulator == Element::kFloat) {
    MX_SPEC("lang.wmma.shape.float-accumulator");
  } else {
    MX_SPEC("lang.wmma.shape.half-accumulator");
  }
  MmaOptions options;
  options.c_layout = c_layout;
  options.d_layout = d_layout;
  options.pad_steps = pad_steps;
  matrix_test::ExpectExactProduct(kind, options, /*seed=*/1, /*c_range=*/50);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, MmaProduct,
    testing::Combine(testing::ValuesIn(kKinds),
                     testing::Values(Layout::kRowMajor, Layout::kColMajor),
                     testing::Values(Layout::kRowMajor, Layout::kColMajor),
                     testing::Values(0u, 1u)),
    matrix_test::ProductParamName);

// ---------------------------------------------------------------------------
// In place, and through shared memory.
// ---------------------------------------------------------------------------

using matrix_test::PlaceParam;

class MmaInPlace : public testing::TestWithParam<PlaceParam> {};

TEST_P(MmaInPlace, AccumulatesIntoC) {
  MX_SPEC("lang.wmma.mma.in-place-accumulate",
          "lang.wmma.load.global-or-shared-source");
  const auto& [kind, shared] = GetParam();
  if (kind.multiplicand == Element::kHalf) {
    MX_SPEC("lang.wmma.shape.half-16x16x16");
  } else {
    MX_SPEC("lang.wmma.shape.bfloat16-16x16x16");
  }
  if (kind.accumulator == Element::kFloat) {
    MX_SPEC("lang.wmma.shape.float-accumulator");
  } else {
    MX_SPEC("lang.wmma.shape.half-accumulator");
  }
  MmaOptions options;
  options.in_place = true;
  options.shared = shared;
  matrix_test::ExpectExactProduct(kind, options, /*seed=*/4, /*c_range=*/100);
}

INSTANTIATE_TEST_SUITE_P(Kinds, MmaInPlace,
                         testing::Combine(testing::ValuesIn(kKinds),
                                          testing::Bool()),
                         matrix_test::PlaceParamName);

// ---------------------------------------------------------------------------
// Every layout combination gives one result; a layout misread does not.
// ---------------------------------------------------------------------------

struct TypeCombination {
  const char* name;
  const MmaKind* kinds;  // four layout combinations
};

const TypeCombination kCombinations[] = {
    {"HalfToFloat", &kKinds[0]},
    {"Bfloat16ToFloat", &kKinds[4]},
    {"HalfToHalf", &kKinds[8]},
};

class MmaLayoutCombinations : public testing::TestWithParam<TypeCombination> {};

TEST_P(MmaLayoutCombinations, AllGiveTheSameResult) {
  MX_SPEC("lang.wmma.mma.all-layout-combinations");
  const TypeCombination& combination = GetParam();
  const Tile a = matrix_test::SmallIntegers(16, 16, 7);
  const Tile b = matrix_test::SmallIntegers(16, 16, 8);
  const Tile c = matrix_test::SmallIntegers(16, 16, 9);
  Tile first;
  ASSERT_EQ(combination.kinds[0].run(a, b, c, MmaOptions(), &first), mcSuccess);
  for (int i = 1; i < 4; ++i) {
    Tile d;
    ASSERT_EQ(combination.kinds[i].run(a, b, c, MmaOptions(), &d), mcSuccess);
    EXPECT_EQ(matrix_test::FirstDifference(d, first), "")
        << combination.kinds[i].Name();
  }
}

// Control: the layout matters. A tile handed over transposed to a fragment
// of the other layout multiplies as the transpose.
TEST_P(MmaLayoutCombinations, TransposedTileMultipliesAsTranspose) {
  MX_SPEC("lang.wmma.mma.all-layout-combinations",
          "lang.wmma.fragment.layout-meaning");
  const TypeCombination& combination = GetParam();
  const Tile a = matrix_test::SmallIntegers(16, 16, 10);
  const Tile b = matrix_test::SmallIntegers(16, 16, 11);
  const Tile c(16, 16);
  Tile transposed(16, 16);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) transposed.at(i, j) = a.at(j, i);
  }
  Tile d;
  ASSERT_EQ(combination.kinds[0].run(transposed, b, c, MmaOptions(), &d),
            mcSuccess);
  EXPECT_EQ(matrix_test::FirstDifference(
                d, matrix_test::ExactProduct(transposed, b, c)),
            "");
  EXPECT_NE(matrix_test::FirstDifference(d, matrix_test::ExactProduct(a, b, c)),
            "");
}

INSTANTIATE_TEST_SUITE_P(
    Types, MmaLayoutCombinations, testing::ValuesIn(kCombinations),
    [](const testing::TestParamInfo<TypeCombination>& info) {
      return std::string(info.param.name);
    });

// ---------------------------------------------------------------------------
// Precision.
// ---------------------------------------------------------------------------

using RandomParam = std::tuple<MmaKind, int>;

std::string RandomName(const testing::TestParamInfo<RandomParam>& info) {
  return std::get<0>(info.param).Name() + "Seed" +
         std::to_string(std::get<1>(info.param));
}

class MmaFloatBound : public testing::TestWithParam<RandomParam> {};

TEST_P(MmaFloatBound, WithinTheBound) {
  MX_SPEC("lang.wmma.mma.float-accumulation-error-bound");
  const auto& [kind, seed] = GetParam();
  const Tile a = matrix_test::RandomValues(16, 16, kind.multiplicand, seed, 12);
  const Tile b =
      matrix_test::RandomValues(16, 16, kind.multiplicand, seed + 100, 12);
  const Tile c =
      matrix_test::RandomValues(16, 16, Element::kFloat, seed + 200, 20);
  Tile d;
  ASSERT_EQ(kind.run(a, b, c, MmaOptions(), &d), mcSuccess);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      const long double exact = matrix_test::ExactElement(a, b, c, i, j);
      const double bound = 16 * std::ldexp(1.0, -23) *
                           matrix_test::MagnitudeElement(a, b, c, i, j);
      EXPECT_LE(std::fabs(static_cast<double>(d.at(i, j) - exact)), bound)
          << "element (" << i << ", " << j << ")";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, MmaFloatBound,
                         testing::Combine(testing::ValuesIn(kFloatKinds),
                                          testing::Values(1, 2, 3)),
                         RandomName);

class MmaHalfRounding : public testing::TestWithParam<RandomParam> {};

TEST_P(MmaHalfRounding, WithinTheBoundPlusOneHalfRounding) {
  MX_SPEC("lang.wmma.mma.half-accumulator-rounding");
  const auto& [kind, seed] = GetParam();
  const Tile a = matrix_test::RandomValues(16, 16, Element::kHalf, seed, 3);
  const Tile b = matrix_test::RandomValues(16, 16, Element::kHalf, seed + 1, 3);
  const Tile c = matrix_test::RandomValues(16, 16, Element::kHalf, seed + 2, 4);
  Tile d;
  ASSERT_EQ(kind.run(a, b, c, MmaOptions(), &d), mcSuccess);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      const double exact =
          static_cast<double>(matrix_test::ExactElement(a, b, c, i, j));
      const double float_bound = 16 * std::ldexp(1.0, -23) *
                                 matrix_test::MagnitudeElement(a, b, c, i, j);
      // One rounding to __half: half a unit in the last place (2^-11
      // relative), at least half the smallest subnormal.
      const double half_rounding =
          std::ldexp(std::fabs(exact) + float_bound, -11) +
          std::ldexp(1.0, -25);
      EXPECT_LE(std::fabs(d.at(i, j) - exact), float_bound + half_rounding)
          << "element (" << i << ", " << j << ")";
      // Control: the result is a __half value.
      EXPECT_EQ(d.at(i, j), matrix_test::RoundTo(Element::kHalf, d.at(i, j)));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, MmaHalfRounding,
                         testing::Combine(testing::ValuesIn(kHalfKinds),
                                          testing::Values(1, 2, 3)),
                         RandomName);

// Integer inputs whose partial sums approach 2^24: exact with a float
// accumulator.
struct ExactCase {
  const char* name;
  const MmaKind* kind;
  double a, b, c;
  bool alternate;  // alternate the sign of the products
};

const ExactCase kExactCases[] = {
    {"HalfLargePositive", &kKinds[0], 1024, 511, 8000000, false},
    {"HalfLargeAlternating", &kKinds[0], 2048, 2047, 16000000, true},
    {"Bfloat16LargePositive", &kKinds[4], 256, 255, 15000000, false},
    {"Bfloat16LargeAlternating", &kKinds[4], 256, 255, -16000000, true},
};

class MmaExactCase : public testing::TestWithParam<ExactCase> {};

TEST_P(MmaExactCase, IntegerResultIsExact) {
  MX_SPEC("lang.wmma.mma.float-accumulation-exact-case");
  const ExactCase& exact = GetParam();
  Tile a(16, 16, exact.a);
  Tile b(16, 16, exact.b);
  Tile c(16, 16, exact.c);
  if (exact.alternate) {
    for (int p = 1; p < 16; p += 2) {
      for (int j = 0; j < 16; ++j) b.at(p, j) = -exact.b;
    }
  }
  // A distinct value per element: c - i - j.
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) c.at(i, j) = exact.c - i - 3 * j;
  }
  Tile d;
  ASSERT_EQ(exact.kind->run(a, b, c, MmaOptions(), &d), mcSuccess);
  EXPECT_EQ(matrix_test::FirstDifference(d, matrix_test::ExactProduct(a, b, c)),
            "");
}

INSTANTIATE_TEST_SUITE_P(Cases, MmaExactCase, testing::ValuesIn(kExactCases),
                         [](const testing::TestParamInfo<ExactCase>& info) {
                           return std::string(info.param.name);
                         });

// ---------------------------------------------------------------------------
// The reference's documented summation: products exact, added to c(i, j) in
// order of p in double precision, rounded once to float, subnormals kept.
// Another backend documents its own order and lists these as expected
// failures if it differs.
// ---------------------------------------------------------------------------

TEST(MmaSummationOrder, SmallProductsAreNotAbsorbedByALargeAccumulator) {
  MX_SPEC("lang.wmma.mma.summation-order");
  for (const MmaKind* kind : {&kKinds[0], &kKinds[4]}) {
    Tile a(16, 16, 1);
    Tile b(16, 16, 1);
    Tile c(16, 16, 16777216);  // 2^24: adding 1 in float would be lost
    Tile d;
    ASSERT_EQ(kind->run(a, b, c, MmaOptions(), &d), mcSuccess);
    EXPECT_EQ(d.at(0, 0), 16777232) << kind->Name();
    EXPECT_EQ(d.at(15, 15), 16777232) << kind->Name();
  }
}

TEST(MmaSummationOrder, CancellationKeepsTheSmallTerm) {
  MX_SPEC("lang.wmma.mma.summation-order");
  // bfloat16: 2^40 + 1 - 2^40, in order: 1 in double, 0 in float.
  Tile a(16, 16, 0);
  Tile b(16, 16, 0);
  Tile c(16, 16, 0);
  for (int i = 0; i < 16; ++i) {
    a.at(i, 0) = std::ldexp(1.0, 20);
    a.at(i, 1) = 1;
    a.at(i, 2) = -std::ldexp(1.0, 20);
  }
  for (int j = 0; j < 16; ++j) {
    b.at(0, j) = std::ldexp(1.0, 20);
    b.at(1, j) = 1;
    b.at(2, j) = std::ldexp(1.0, 20);
  }
  Tile d;
  ASSERT_EQ(kKinds[4].run(a, b, c, MmaOptions(), &d), mcSuccess);
  EXPECT_EQ(d.at(3, 7), 1);
}

TEST(MmaSummationOrder, SubnormalResultsAreKept) {
  MX_SPEC("lang.wmma.mma.summation-order");
  // 2^-64 * 2^-64 = 2^-128, a float subnormal, not flushed to zero.
  Tile a(16, 16, std::ldexp(1.0, -64));
  Tile b(16, 16, 0);
  for (int j = 0; j < 16; ++j) b.at(0, j) = std::ldexp(1.0, -64);
  Tile c(16, 16, 0);
  Tile d;
  ASSERT_EQ(kKinds[4].run(a, b, c, MmaOptions(), &d), mcSuccess);
  EXPECT_EQ(d.at(5, 5), std::ldexp(1.0, -128));
}

TEST(MmaSummationOrder, HalfAccumulatorRoundsTheFloatResult) {
  MX_SPEC("lang.wmma.mma.summation-order",
          "lang.wmma.mma.half-accumulator-rounding");
  // 2048 + 1 + 1 is 2050 in float; a __half accumulator holds 2050 exactly
  // (the spacing at 2048 is 2), where adding in __half would give 2048.
  Tile a(16, 16, 0);
  Tile b(16, 16, 0);
  for (int i = 0; i < 16; ++i) a.at(i, 0) = a.at(i, 1) = 1;
  for (int j = 0; j < 16; ++j) b.at(0, j) = b.at(1, j) = 1;
  Tile c(16, 16, 2048);
  Tile d;
  ASSERT_EQ(kHalfKinds[0].run(a, b, c, MmaOptions(), &d), mcSuccess);
  EXPECT_EQ(d.at(2, 9), 2050);
}

// ---------------------------------------------------------------------------
// The four-argument form does not saturate.
// ---------------------------------------------------------------------------

TEST(MmaFourArguments, HalfOverflowIsInfinity) {
  MX_SPEC("lang.wmma.mma.four-argument-form",
          "lang.wmma.mma.half-accumulator-rounding");
  Tile a(16, 16, 300);
  Tile b(16, 16, 300);  // 16 * 90000 > 65504
  Tile c(16, 16, 0);
  Tile d;
  ASSERT_EQ(kHalfKinds[0].run(a, b, c, MmaOptions(), &d), mcSuccess);
  EXPECT_TRUE(std::isinf(d.at(0, 0)) && d.at(0, 0) > 0);
  // Control: below the largest __half the result is finite.
  Tile small(16, 16, 60);  // 16 * 3600 = 57600
  ASSERT_EQ(kHalfKinds[0].run(small, small, c, MmaOptions(), &d), mcSuccess);
  EXPECT_EQ(d.at(0, 0), 57600);
}

TEST(MmaFourArguments, FloatOverflowIsInfinity) {
  MX_SPEC("lang.wmma.mma.four-argument-form");
  Tile a(16, 16, std::ldexp(1.0, 100));
  Tile b(16, 16, -std::ldexp(1.0, 100));
  Tile c(16, 16, 0);
  Tile d;
  ASSERT_EQ(kKinds[4].run(a, b, c, MmaOptions(), &d), mcSuccess);
  EXPECT_TRUE(std::isinf(d.at(0, 0)) && d.at(0, 0) < 0);
}

TEST(MmaFourArguments, NanPropagates) {
  MX_SPEC("lang.wmma.mma.four-argument-form");
  Tile a(16, 16, 1);
  Tile b(16, 16, 1);
  Tile c(16, 16, 0);
  c.at(0, 0) = NAN;
  Tile d;
  ASSERT_EQ(kKinds[0].run(a, b, c, MmaOptions(), &d), mcSuccess);
  EXPECT_TRUE(std::isnan(d.at(0, 0)));
  EXPECT_EQ(d.at(0, 1), 16);  // control: the other elements are numbers
}

}  // namespace
