// Conformance: fragments and fill_fragment (docs/spec/lang-matrix.md
// "Types", "Fragment elements", "fill_fragment"), and one tile per wave.
//
// This file includes the matrix header explicitly, as some programs do;
// the other files of the chapter rely on the compiler making it available.

#include <__clang_maca_mma_functions.h>
#include <mc_runtime.h>

#include <cmath>
#include <set>
#include <string>
#include <tuple>

#include "conformance/language/matrix/matrix_testing.h"
#include "conformance/testing/spec.h"

namespace {

using matrix_test::Element;
using matrix_test::Layout;
using matrix_test::Managed;
using matrix_test::Tile;

// ---------------------------------------------------------------------------
// The names, by their qualified spelling.
// ---------------------------------------------------------------------------

// Uses every name of the chapter qualified, without a using-directive.
__global__ void QualifiedNames(float* out) {
  mxmaca::wmma::fragment<mxmaca::wmma::matrix_a, 16, 16, 16, __half,
                         mxmaca::wmma::row_major>
      a;
  mxmaca::wmma::fragment<mxmaca::wmma::matrix_b, 16, 16, 16, __half,
                         mxmaca::wmma::col_major>
      b;
  mxmaca::wmma::fragment<mxmaca::wmma::accumulator, 16, 16, 16, float> c;
  mxmaca::wmma::fill_fragment(a, __half(1.0f));
  mxmaca::wmma::fill_fragment(b, __half(2.0f));
  mxmaca::wmma::fill_fragment(c, 0.5f);
  mxmaca::wmma::mma_sync(c, a, b, c);
  const mxmaca::wmma::layout_t layout = mxmaca::wmma::mem_row_major;
  mxmaca::wmma::store_matrix_sync(out, c, 16, layout);
  mxmaca::wmma::load_matrix_sync(c, out, 16, mxmaca::wmma::mem_col_major);
  mxmaca::wmma::store_matrix_sync(out, c, 16, mxmaca::wmma::mem_row_major);
}

TEST(MatrixNames, QualifiedNamesAreUsable) {
  MX_SPEC("lang.wmma.namespace.mxmaca-wmma",
          "lang.wmma.header.available-without-include");
  Managed<float> out(256);
  QualifiedNames<<<1, 64>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int e = 0; e < 256; ++e) ASSERT_EQ(out[e], 32.5f) << "element " << e;
}

// ---------------------------------------------------------------------------
// num_elements and x[]: the tile spread over 64 lanes.
// ---------------------------------------------------------------------------

// Writes num_elements, the extent of x and the element size of fragment F.
template <typename F>
__global__ void FragmentLayoutKernel(int* out) {
  F f;
  if (threadIdx.x == 0) {
    out[0] = F::num_elements;
    out[1] = static_cast<int>(sizeof(f.x) / sizeof(f.x[0]));
    out[2] = static_cast<int>(sizeof(f.x[0]));
  }
}

struct FragmentKind {
  const char* name;
  void (*launch)(int* out);
  int tile_elements;
  int element_bytes;
};

template <typename F>
void LaunchFragmentLayout(int* out) {
  FragmentLayoutKernel<F><<<1, 64>>>(out);
}

namespace wmma = mxmaca::wmma;

#define FRAGMENT_KIND(NAME, USE, T, LAYOUT, ROWS, COLS)        \
  FragmentKind {                                               \
    NAME,                                                      \
        &LaunchFragmentLayout<                                 \
            wmma::fragment<wmma::USE, 16, 16, 16, T, LAYOUT>>, \
        (ROWS) * (COLS), static_cast<int>(sizeof(T))           \
  }

const FragmentKind kFragments[] = {
    FRAGMENT_KIND("MatrixAHalfRow", matrix_a, __half, wmma::row_major, 16, 16),
    FRAGMENT_KIND("MatrixAHalfCol", matrix_a, __half, wmma::col_major, 16, 16),
    FRAGMENT_KIND("MatrixBHalfRow", matrix_b, __half, wmma::row_major, 16, 16),
    FRAGMENT_KIND("MatrixBHalfCol", matrix_b, __half, wmma::col_major, 16, 16),
    FRAGMENT_KIND("MatrixABfloat16Row", matrix_a, __maca_bfloat16,
                  wmma::row_major, 16, 16),
    FRAGMENT_KIND("MatrixABfloat16Col", matrix_a, __maca_bfloat16,
                  wmma::col_major, 16, 16),
    FRAGMENT_KIND("MatrixBBfloat16Row", matrix_b, __maca_bfloat16,
                  wmma::row_major, 16, 16),
    FRAGMENT_KIND("MatrixBBfloat16Col", matrix_b, __maca_bfloat16,
                  wmma::col_major, 16, 16),
    FRAGMENT_KIND("AccumulatorFloat", accumulator, float, void, 16, 16),
    FRAGMENT_KIND("AccumulatorHalf", accumulator, __half, void, 16, 16),
};

class FragmentElements : public testing::TestWithParam<FragmentKind> {};

TEST_P(FragmentElements, NumElementsIsTheLaneShareOfTheTile) {
  MX_SPEC("lang.wmma.fragment.num-elements-and-x",
          "lang.wmma.fragment.spread-over-one-wave",
          "lang.wmma.fragment.tile-dimensions");
  const FragmentKind& kind = GetParam();
  Managed<int> out(3);
  kind.launch(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], out[1]);
  EXPECT_EQ(out[2], kind.element_bytes);
  // The lanes' shares together hold the tile (the reference: exactly).
  EXPECT_GE(out[0] * 64, kind.tile_elements);
  EXPECT_GT(out[0], 0);
}

INSTANTIATE_TEST_SUITE_P(Fragments, FragmentElements,
                         testing::ValuesIn(kFragments),
                         [](const testing::TestParamInfo<FragmentKind>& info) {
                           return std::string(info.param.name);
                         });

// ---------------------------------------------------------------------------
// fill_fragment.
// ---------------------------------------------------------------------------

// Fills an accumulator of T with `value` (each lane: lane_step * lane
// added) and stores it row-major.
template <typename T>
__global__ void FillKernel(float value, float lane_step, T* out) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;
  wmma::fill_fragment(f,
                      T(value + lane_step * static_cast<float>(threadIdx.x)));
  wmma::store_matrix_sync(out, f, 16, wmma::mem_row_major);
}

template <typename T>
Tile Fill(float value, float lane_step) {
  Managed<T> out(256);
  FillKernel<T><<<1, 64>>>(value, lane_step, out.get());
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  return matrix_test::Read(out.get(), 16, 16, Layout::kRowMajor, 16);
}

using FillParam = std::tuple<Element, float>;

class FillAccumulator : public testing::TestWithParam<FillParam> {};

TEST_P(FillAccumulator, SetsEveryElementToTheConvertedValue) {
  MX_SPEC("lang.wmma.fill.sets-every-element");
  const auto& [element, value] = GetParam();
  const Tile tile = element == Element::kFloat ? Fill<float>(value, 0)
                                               : Fill<__half>(value, 0);
  const double expected = matrix_test::RoundTo(element, value);
  for (int e = 0; e < 256; ++e) {
    ASSERT_EQ(tile.values[e], expected) << "element " << e;
  }
}

const float kFillValues[] = {0.0f, 1.0f, -2.5f, 65504.0f, 0.1f, 1e-7f};

std::string FillName(const testing::TestParamInfo<FillParam>& info) {
  static const char* const kNames[] = {"Zero",    "One",   "MinusTwoAndAHalf",
                                       "HalfMax", "Tenth", "Tiny"};
  int index = 0;
  while (kFillValues[index] != std::get<1>(info.param)) ++index;
  return std::string(matrix_test::ElementName(std::get<0>(info.param))) +
         kNames[index];
}

INSTANTIATE_TEST_SUITE_P(Values, FillAccumulator,
                         testing::Combine(testing::Values(Element::kFloat,
                                                          Element::kHalf),
                                          testing::ValuesIn(kFillValues)),
                         FillName);

class FillDiffering : public testing::TestWithParam<Element> {};

TEST_P(FillDiffering, EachElementHoldsOneLanesValue) {
  MX_SPEC("lang.wmma.fill.differing-values");
  const Element element = GetParam();
  // Lane l passes 100 + l.
  const Tile tile =
      element == Element::kFloat ? Fill<float>(100, 1) : Fill<__half>(100, 1);
  std::set<double> seen;
  for (int e = 0; e < 256; ++e) {
    const double v = tile.values[e];
    ASSERT_TRUE(v >= 100 && v <= 163 && v == std::floor(v))
        << "element " << e << " holds " << v;
    seen.insert(v);
  }
  // Control: the values differ, so the tile is not one lane's fill.
  EXPECT_GT(seen.size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Types, FillDiffering,
                         testing::Values(Element::kFloat, Element::kHalf),
                         [](const testing::TestParamInfo<Element>& info) {
                           return std::string(
                               matrix_test::ElementName(info.param));
                         });

// Fills A with `a` and B with `b` and computes A x B + 0.
template <typename Tab, typename LA, typename LB>
__global__ void FillMultiplicands(float a, float b, float* out) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, Tab, LA> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, Tab, LB> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fa, Tab(a));
  wmma::fill_fragment(fb, Tab(b));
  wmma::fill_fragment(fc, 0.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(out, fc, 16, wmma::mem_row_major);
}

struct MultiplicandFill {
  const char* name;
  void (*launch)(float a, float b, float* out);
};

template <typename Tab, typename LA, typename LB>
void LaunchFillMultiplicands(float a, float b, float* out) {
  FillMultiplicands<Tab, LA, LB><<<1, 64>>>(a, b, out);
}

const MultiplicandFill kMultiplicandFills[] = {
    {"HalfRowRow",
     &LaunchFillMultiplicands<__half, wmma::row_major, wmma::row_major>},
    {"HalfRowCol",
     &LaunchFillMultiplicands<__half, wmma::row_major, wmma::col_major>},
    {"HalfColRow",
     &LaunchFillMultiplicands<__half, wmma::col_major, wmma::row_major>},
    {"HalfColCol",
     &LaunchFillMultiplicands<__half, wmma::col_major, wmma::col_major>},
    {"Bfloat16RowRow",
     &LaunchFillMultiplicands<__maca_bfloat16, wmma::row_major,
                              wmma::row_major>},
    {"Bfloat16RowCol",
     &LaunchFillMultiplicands<__maca_bfloat16, wmma::row_major,
                              wmma::col_major>},
    {"Bfloat16ColRow",
     &LaunchFillMultiplicands<__maca_bfloat16, wmma::col_major,
                              wmma::row_major>},
    {"Bfloat16ColCol",
     &LaunchFillMultiplicands<__maca_bfloat16, wmma::col_major,
                              wmma::col_major>},
};

class FillMultiplicand : public testing::TestWithParam<MultiplicandFill> {};

TEST_P(FillMultiplicand, FilledTilesMultiply) {
  MX_SPEC("lang.wmma.fill.sets-every-element", "lang.wmma.fragment.use-roles");
  Managed<float> out(256);
  GetParam().launch(3, -0.5f, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int e = 0; e < 256; ++e) ASSERT_EQ(out[e], -24.0f) << "element " << e;
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, FillMultiplicand, testing::ValuesIn(kMultiplicandFills),
    [](const testing::TestParamInfo<MultiplicandFill>& info) {
      return std::string(info.param.name);
    });

// ---------------------------------------------------------------------------
// Element-wise operations on x[] and copies of fragments.
// ---------------------------------------------------------------------------

enum class Operation { kScale, kNegate, kAddOne, kCopyConstruct, kCopyAssign };

// Loads an accumulator of T from `in` (row-major), applies `operation` to
// every x[t] in every lane (or copies the fragment), stores the result.
template <typename T>
__global__ void ElementwiseKernel(int operation, const T* in, T* out) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;
  wmma::load_matrix_sync(f, in, 16, wmma::mem_row_major);
  if (operation == static_cast<int>(Operation::kCopyConstruct)) {
    const wmma::fragment<wmma::accumulator, 16, 16, 16, T> copy(f);
    wmma::fill_fragment(f, T(0.0f));
    wmma::store_matrix_sync(out, copy, 16, wmma::mem_row_major);
    return;
  }
  if (operation == static_cast<int>(Operation::kCopyAssign)) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, T> copy;
    wmma::fill_fragment(copy, T(0.0f));
    copy = f;
    wmma::fill_fragment(f, T(0.0f));
    wmma::store_matrix_sync(out, copy, 16, wmma::mem_row_major);
    return;
  }
  for (int t = 0; t < f.num_elements; ++t) {
    const float v = static_cast<float>(f.x[t]);
    if (operation == static_cast<int>(Operation::kScale)) {
      f.x[t] = T(v * 3.0f);
    } else if (operation == static_cast<int>(Operation::kNegate)) {
      f.x[t] = T(-v);
    } else {
      f.x[t] = T(v + 1.0f);
    }
  }
  wmma::store_matrix_sync(out, f, 16, wmma::mem_row_major);
}

template <typename T>
Tile Elementwise(Operation operation, const Tile& in) {
  Managed<T> in_memory(256);
  Managed<T> out(256);
  matrix_test::Place(in, Layout::kRowMajor, 16, in_memory.get(), 256);
  ElementwiseKernel<T>
      <<<1, 64>>>(static_cast<int>(operation), in_memory.get(), out.get());
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  return matrix_test::Read(out.get(), 16, 16, Layout::kRowMajor, 16);
}

using ElementwiseParam = std::tuple<Element, Operation>;

class FragmentElementwise : public testing::TestWithParam<ElementwiseParam> {};

TEST_P(FragmentElementwise, AppliesToTheWholeTile) {
  MX_SPEC("lang.wmma.fragment.uniform-elementwise-operation",
          "lang.wmma.fragment.copy-preserves-tile",
          "lang.wmma.fragment.num-elements-and-x");
  const auto& [element, operation] = GetParam();
  const Tile in = matrix_test::SmallIntegers(16, 16, 21, 100);
  const Tile out = element == Element::kFloat
                       ? Elementwise<float>(operation, in)
                       : Elementwise<__half>(operation, in);
  for (int e = 0; e < 256; ++e) {
    const double v = in.values[e];
    double expected = v;
    switch (operation) {
      case Operation::kScale:
        expected = 3 * v;
        break;
      case Operation::kNegate:
        expected = -v;
        break;
      case Operation::kAddOne:
        expected = v + 1;
        break;
      default:
        break;
    }
    ASSERT_EQ(out.values[e], expected) << "element " << e;
  }
}

std::string ElementwiseName(
    const testing::TestParamInfo<ElementwiseParam>& info) {
  static const char* const kNames[] = {"Scale", "Negate", "AddOne",
                                       "CopyConstruct", "CopyAssign"};
  return std::string(matrix_test::ElementName(std::get<0>(info.param))) +
         kNames[static_cast<int>(std::get<1>(info.param))];
}

INSTANTIATE_TEST_SUITE_P(
    Operations, FragmentElementwise,
    testing::Combine(testing::Values(Element::kFloat, Element::kHalf),
                     testing::Values(Operation::kScale, Operation::kNegate,
                                     Operation::kAddOne,
                                     Operation::kCopyConstruct,
                                     Operation::kCopyAssign)),
    ElementwiseName);

// Scales every x[t] of a loaded A by `alpha` and computes A x B.
template <typename Tab>
__global__ void ScaledMultiplicand(float alpha, const Tab* a, const Tab* b,
                                   float* out) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, Tab, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, Tab, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  const wmma::fragment<wmma::matrix_b, 16, 16, 16, Tab, wmma::col_major> copy =
      fb;
  for (int t = 0; t < fa.num_elements; ++t) {
    fa.x[t] = Tab(static_cast<float>(fa.x[t]) * alpha);
  }
  wmma::fill_fragment(fc, 0.0f);
  wmma::mma_sync(fc, fa, copy, fc);
  wmma::store_matrix_sync(out, fc, 16, wmma::mem_row_major);
}

template <typename Tab>
void CheckScaledMultiplicand() {
  const Tile a = matrix_test::SmallIntegers(16, 16, 31);
  const Tile b = matrix_test::SmallIntegers(16, 16, 32);
  Managed<Tab> ma(256);
  Managed<Tab> mb(256);
  Managed<float> out(256);
  matrix_test::Place(a, Layout::kRowMajor, 16, ma.get(), 256);
  matrix_test::Place(b, Layout::kColMajor, 16, mb.get(), 256);
  ScaledMultiplicand<Tab><<<1, 64>>>(-2.0f, ma.get(), mb.get(), out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  Tile scaled = a;
  for (double& v : scaled.values) v *= -2;
  const Tile expected = matrix_test::ExactProduct(scaled, b, Tile(16, 16));
  EXPECT_EQ(matrix_test::FirstDifference(
                matrix_test::Read(out.get(), 16, 16, Layout::kRowMajor, 16),
                expected),
            "");
}

TEST(FragmentElementwise, ScaledHalfMultiplicandMultipliesScaled) {
  MX_SPEC("lang.wmma.fragment.uniform-elementwise-operation",
          "lang.wmma.fragment.copy-preserves-tile");
  CheckScaledMultiplicand<__half>();
}

TEST(FragmentElementwise, ScaledBfloat16MultiplicandMultipliesScaled) {
  MX_SPEC("lang.wmma.fragment.uniform-elementwise-operation",
          "lang.wmma.fragment.copy-preserves-tile");
  CheckScaledMultiplicand<__maca_bfloat16>();
}

// ---------------------------------------------------------------------------
// One tile per wave: the waves of a block and the blocks of a grid work on
// their own tiles.
// ---------------------------------------------------------------------------

// Global wave g computes D_g = A_g x B + C_g; tiles are 256 elements apart.
__global__ void TilePerWave(const __half* a, const __half* b, const float* c,
                            float* d) {
  // [lang.wave.formation.consecutive-linear-ids] Waves are formed from
  // linear thread ids, whatever the block's shape.
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned linear =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned wave = (blockIdx.x * threads + linear) / 64;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a + wave * 256, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c + wave * 256, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d + wave * 256, fc, 16, wmma::mem_row_major);
}

// Every wave of `blocks` blocks of shape `block` computes its own tile.
void CheckTilePerWave(dim3 block, int blocks) {
  const int waves = static_cast<int>(block.x * block.y * block.z) / 64;
  const int tiles = waves * blocks;
  Managed<__half> a(256 * tiles);
  Managed<__half> b(256);
  Managed<float> c(256 * tiles);
  Managed<float> d(256 * tiles);
  const Tile tb = matrix_test::SmallIntegers(16, 16, 40);
  matrix_test::Place(tb, Layout::kRowMajor, 16, b.get(), 256);
  std::vector<Tile> ta, tc;
  for (int g = 0; g < tiles; ++g) {
    ta.push_back(matrix_test::SmallIntegers(16, 16, 41 + g));
    tc.push_back(matrix_test::SmallIntegers(16, 16, 1000 + g, 9));
    matrix_test::Place(ta[g], Layout::kRowMajor, 16, a.get() + 256 * g, 256);
    matrix_test::Place(tc[g], Layout::kRowMajor, 16, c.get() + 256 * g, 256);
  }
  TilePerWave<<<blocks, block>>>(a.get(), b.get(), c.get(), d.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int g = 0; g < tiles; ++g) {
    EXPECT_EQ(
        matrix_test::FirstDifference(
            matrix_test::Read(d.get() + 256 * g, 16, 16, Layout::kRowMajor, 16),
            matrix_test::ExactProduct(ta[g], tb, tc[g])),
        "")
        << "tile " << g;
  }
}

struct BlockShape {
  const char* name;
  unsigned x, y, z;
};

const BlockShape kBlockShapes[] = {
    {"Block8x8", 8, 8, 1},
    {"Block16x4x2", 16, 4, 2},
    {"Block32x8", 32, 8, 1},
    {"Block4x4x16", 4, 4, 16},
};

class TilePerWaveShapes : public testing::TestWithParam<BlockShape> {};

TEST_P(TilePerWaveShapes, WavesFollowLinearThreadIds) {
  MX_SPEC("lang.wmma.fragment.spread-over-one-wave");
  const BlockShape& shape = GetParam();
  CheckTilePerWave(dim3(shape.x, shape.y, shape.z), 2);
}

INSTANTIATE_TEST_SUITE_P(Blocks, TilePerWaveShapes,
                         testing::ValuesIn(kBlockShapes),
                         [](const testing::TestParamInfo<BlockShape>& info) {
                           return std::string(info.param.name);
                         });

using WavesParam = std::tuple<int, int>;  // waves per block, blocks

class TilePerWaveTest : public testing::TestWithParam<WavesParam> {};

TEST_P(TilePerWaveTest, EachWaveComputesItsOwnTile) {
  MX_SPEC("lang.wmma.fragment.spread-over-one-wave",
          "lang.wmma.mma.computes-product-plus-accumulator");
  const auto& [waves, blocks] = GetParam();
  CheckTilePerWave(dim3(waves * 64), blocks);
}

INSTANTIATE_TEST_SUITE_P(Shapes, TilePerWaveTest,
                         testing::Combine(testing::Values(1, 2, 4, 16),
                                          testing::Values(1, 3)),
                         [](const testing::TestParamInfo<WavesParam>& info) {
                           return "Waves" +
                                  std::to_string(std::get<0>(info.param)) +
                                  "Blocks" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
