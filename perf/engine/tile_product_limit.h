// Copyright mxcts authors.
//
// perf/engine/tile_product_limit.h: the host doing one wave's matrix
// product, D = A x B + C on a 16 x 16 x 16 tile, as a plain triple loop;
// the physical limit of the matrix benchmark (matrix_benchmark.cc),
// measured in the same run. Compiled by the host compiler, not by a
// backend.
//
//   const double native = perf::NativeTileProductNanoseconds();

#ifndef MXCTS_PERF_ENGINE_TILE_PRODUCT_LIMIT_H_
#define MXCTS_PERF_ENGINE_TILE_PRODUCT_LIMIT_H_

namespace mxcts::perf {

// Nanoseconds of one 16 x 16 x 16 product-accumulate of float tiles
// (`d[i][j] = c[i][j] + sum over p of a[i][p] * b[p][j]`) by a plain triple
// loop; the best of several repetitions.
double NativeTileProductNanoseconds();

}  // namespace mxcts::perf

#endif  // MXCTS_PERF_ENGINE_TILE_PRODUCT_LIMIT_H_
