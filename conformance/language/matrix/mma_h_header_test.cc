// Conformance: the `<mma.h>` include spelling of the matrix functions
// (docs/spec/lang-matrix.md, lang.wmma.header.mma-h-spelling).
//
// This file includes <mma.h> twice and the matrix header as well; a
// product computed through those names must equal the one a host loop
// computes, and the control computes a different product to show that the
// comparison can fail.

#include <__clang_maca_mma_functions.h>
#include <mc_runtime.h>
#include <mma.h>
#include <mma.h>  // a second inclusion changes nothing

#include "conformance/language/matrix/matrix_testing.h"
#include "conformance/testing/spec.h"

namespace {

using matrix_test::Managed;

// D = A x B + C for one 16x16x16 tile, names qualified by mxmaca::wmma.
__global__ void TileProduct(const __half* a, const __half* b, float* d,
                            float c_value) {
  using namespace mxmaca;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::fill_fragment(acc, c_value);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// Small integers, so every product and sum is exact in float.
float AValue(int row, int k) { return static_cast<float>((row + k) % 5); }
float BValue(int k, int col) { return static_cast<float>((k * 3 + col) % 4); }

struct Product {
  Managed<__half> a{256};
  Managed<__half> b{256};
  Managed<float> d{256};
};

void FillInputs(Product& p) {
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      p.a[i * 16 + j] = __half(AValue(i, j));
      p.b[i * 16 + j] = __half(BValue(i, j));
    }
  }
}

float Expected(int row, int col, float c_value) {
  float sum = c_value;
  for (int k = 0; k < 16; ++k) sum += AValue(row, k) * BValue(k, col);
  return sum;
}

int CountMismatches(Product& p, float c_value) {
  int mismatches = 0;
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      if (p.d[i * 16 + j] != Expected(i, j, c_value)) ++mismatches;
    }
  }
  return mismatches;
}

TEST(MmaHeader, NamesThroughMmaHComputeTheProduct) {
  MX_SPEC("lang.wmma.header.mma-h-spelling");
  Product p;
  FillInputs(p);
  TileProduct<<<1, 64>>>(p.a.get(), p.b.get(), p.d.get(), 2.0f);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(CountMismatches(p, 2.0f), 0);
}

// Control: the comparison notices a product computed with another C.
TEST(MmaHeader, ControlAnotherAccumulatorIsNoticed) {
  MX_SPEC("lang.wmma.header.mma-h-spelling");
  Product p;
  FillInputs(p);
  TileProduct<<<1, 64>>>(p.a.get(), p.b.get(), p.d.get(), 3.0f);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(CountMismatches(p, 2.0f), 256);
}

}  // namespace
