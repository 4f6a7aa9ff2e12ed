// Conformance: the shapes 32 x 8 x 16 and 8 x 32 x 16, which the spec
// leaves to the implementation and the reference supports with __half and
// __maca_bfloat16 multiplicands and float accumulators
// (docs/spec/lang-matrix.md "Shapes and element types"). Every test runs
// only where the capability manifest's matrix_shapes lists its
// combination; a backend without these shapes cannot compile this file and
// lists the target in its expectations.

#include <mc_runtime.h>

#include <string>
#include <tuple>
#include <vector>

#include "conformance/language/matrix/matrix_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using matrix_test::AccumulatorKind;
using matrix_test::CopyOptions;
using matrix_test::k32x8x16;
using matrix_test::k8x32x16;
using matrix_test::Layout;
using matrix_test::MmaKind;
using matrix_test::MmaOptions;
using matrix_test::Tile;

const MmaKind kKinds[] = {
    MATRIX_TEST_MMA_LAYOUTS(k32x8x16, __half, float),
    MATRIX_TEST_MMA_LAYOUTS(k32x8x16, __maca_bfloat16, float),
    MATRIX_TEST_MMA_LAYOUTS(k8x32x16, __half, float),
    MATRIX_TEST_MMA_LAYOUTS(k8x32x16, __maca_bfloat16, float),
};

using matrix_test::ProductParam;

class FurtherShapeProduct : public testing::TestWithParam<ProductParam> {};

TEST_P(FurtherShapeProduct, EqualsProductPlusAccumulator) {
  MX_SPEC("lang.wmma.shape.further-combinations-implementation-defined",
          "lang.wmma.mma.computes-product-plus-accumulator",
          "lang.wmma.fragment.tile-dimensions",
          "lang.wmma.load.row-major-addressing",
          "lang.wmma.load.col-major-addressing");
  const auto& [kind, c_layout, d_layout, pad_steps] = GetParam();
  MX_REQUIRE_CAPABILITY_VALUE("matrix_shapes", kind.ManifestWord());
  MmaOptions options;
  options.c_layout = c_layout;
  options.d_layout = d_layout;
  options.pad_steps = pad_steps;
  matrix_test::ExpectExactProduct(kind, options, /*seed=*/51, /*c_range=*/30);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, FurtherShapeProduct,
    testing::Combine(testing::ValuesIn(kKinds),
                     testing::Values(Layout::kRowMajor, Layout::kColMajor),
                     testing::Values(Layout::kRowMajor, Layout::kColMajor),
                     testing::Values(0u, 2u)),
    matrix_test::ProductParamName);

using matrix_test::PlaceParam;

class FurtherShapeInPlace : public testing::TestWithParam<PlaceParam> {};

TEST_P(FurtherShapeInPlace, AccumulatesIntoC) {
  MX_SPEC("lang.wmma.shape.further-combinations-implementation-defined",
          "lang.wmma.mma.in-place-accumulate",
          "lang.wmma.load.global-or-shared-source");
  const auto& [kind, shared] = GetParam();
  MX_REQUIRE_CAPABILITY_VALUE("matrix_shapes", kind.ManifestWord());
  MmaOptions options;
  options.in_place = true;
  options.shared = shared;
  matrix_test::ExpectExactProduct(kind, options, /*seed=*/61, /*c_range=*/100);
}

INSTANTIATE_TEST_SUITE_P(Kinds, FurtherShapeInPlace,
                         testing::Combine(testing::ValuesIn(kKinds),
                                          testing::Bool()),
                         matrix_test::PlaceParamName);

const AccumulatorKind kAccumulators[] = {
    MATRIX_TEST_ACCUMULATOR_KIND(k32x8x16, float),
    MATRIX_TEST_ACCUMULATOR_KIND(k8x32x16, float),
};

using CopyParam = std::tuple<AccumulatorKind, Layout, Layout, unsigned>;

class FurtherShapeCopy : public testing::TestWithParam<CopyParam> {};

TEST_P(FurtherShapeCopy, MovesEveryElementToItsPlace) {
  MX_SPEC("lang.wmma.shape.further-combinations-implementation-defined",
          "lang.wmma.load.accumulator-layout-argument",
          "lang.wmma.store.layout-argument-required",
          "lang.wmma.store.only-tile-elements-written");
  const auto& [kind, src_layout, dst_layout, pad_steps] = GetParam();
  MX_REQUIRE_CAPABILITY_VALUE("matrix_shapes",
                              std::string(kind.shape.name) + ":half:float");
  const int rows = kind.shape.m, cols = kind.shape.n;
  CopyOptions options;
  options.src_layout = src_layout;
  options.dst_layout = dst_layout;
  options.src_ld =
      (src_layout == Layout::kRowMajor ? cols : rows) + 4 * pad_steps;
  options.dst_ld = (dst_layout == Layout::kRowMajor ? cols : rows) + 4;
  std::vector<uint32_t> src(
      matrix_test::Span(rows, cols, src_layout, options.src_ld));
  for (size_t e = 0; e < src.size(); ++e) {
    src[e] = matrix_test::BitsOf(static_cast<float>(e) + 0.5f);
  }
  const uint32_t sentinel = matrix_test::BitsOf(-1.0f);
  std::vector<uint32_t> dst(
      matrix_test::Span(rows, cols, dst_layout, options.dst_ld), sentinel);
  ASSERT_EQ(kind.copy(options, src, &dst), mcSuccess);
  std::vector<bool> in_tile(dst.size(), false);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      const size_t to = matrix_test::Offset(dst_layout, options.dst_ld, i, j);
      in_tile[to] = true;
      ASSERT_EQ(dst[to],
                src[matrix_test::Offset(src_layout, options.src_ld, i, j)])
          << "element (" << i << ", " << j << ")";
    }
  }
  for (size_t e = 0; e < dst.size(); ++e) {
    if (!in_tile[e]) {
      ASSERT_EQ(dst[e], sentinel) << "address " << e;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, FurtherShapeCopy,
    testing::Combine(testing::ValuesIn(kAccumulators),
                     testing::Values(Layout::kRowMajor, Layout::kColMajor),
                     testing::Values(Layout::kRowMajor, Layout::kColMajor),
                     testing::Values(0u, 1u, 3u)),
    [](const testing::TestParamInfo<CopyParam>& info) {
      return std::get<0>(info.param).Name() + "From" +
             matrix_test::LayoutName(std::get<1>(info.param)) + "To" +
             matrix_test::LayoutName(std::get<2>(info.param)) + "Pad" +
             std::to_string(std::get<3>(info.param));
    });

// num_elements of each further fragment: the tile over 64 lanes.
template <typename F>
__global__ void NumElements(int* out) {
  if (threadIdx.x == 0) out[0] = F::num_elements;
}

TEST(FurtherShapeFragments, NumElementsSpreadTheTileOverTheWave) {
  MX_SPEC("lang.wmma.shape.further-combinations-implementation-defined",
          "lang.wmma.fragment.num-elements-and-x",
          "lang.wmma.fragment.tile-dimensions");
  MX_REQUIRE_CAPABILITY_VALUE("matrix_shapes", "32x8x16:half:float");
  MX_REQUIRE_CAPABILITY_VALUE("matrix_shapes", "8x32x16:half:float");
  namespace wmma = mxmaca::wmma;
  matrix_test::Managed<int> out(1);
  const struct {
    void (*launch)(int*);
    int tile;
  } kinds[] = {
      {[](int* o) {
         NumElements<
             wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::row_major>>
             <<<1, 64>>>(o);
       },
       32 * 16},
      {[](int* o) {
         NumElements<
             wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major>>
             <<<1, 64>>>(o);
       },
       16 * 8},
      {[](int* o) {
         NumElements<wmma::fragment<wmma::accumulator, 32, 8, 16, float>>
             <<<1, 64>>>(o);
       },
       32 * 8},
      {[](int* o) {
         NumElements<
             wmma::fragment<wmma::matrix_a, 8, 32, 16, __half, wmma::col_major>>
             <<<1, 64>>>(o);
       },
       8 * 16},
      {[](int* o) {
         NumElements<
             wmma::fragment<wmma::matrix_b, 8, 32, 16, __half, wmma::col_major>>
             <<<1, 64>>>(o);
       },
       16 * 32},
      {[](int* o) {
         NumElements<wmma::fragment<wmma::accumulator, 8, 32, 16, float>>
             <<<1, 64>>>(o);
       },
       8 * 32},
  };
  for (const auto& kind : kinds) {
    kind.launch(out.get());
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_GE(out[0] * 64, kind.tile);
    EXPECT_GT(out[0], 0);
  }
}

}  // namespace
