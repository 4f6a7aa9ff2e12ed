// Copyright mxcts authors.
//
// The loop reads the tiles through pointers the optimizer cannot see
// through (an empty asm names them), so every repetition does the whole
// product; the best of several timed runs of a few milliseconds each is
// kept, as for the other physical limits.
//
// Checked for sanity by the benchmark smoke test (it runs the matrix
// benchmark, which divides by this).

#include "perf/engine/tile_product_limit.h"

#include <algorithm>
#include <limits>

#include "perf/engine/physical_limits.h"

namespace mxcts::perf {
namespace {

constexpr int kTile = 16;
constexpr int kRepetitions = 5;

void TileProduct(const float* a, const float* b, const float* c, float* d) {
  for (int i = 0; i < kTile; ++i) {
    for (int j = 0; j < kTile; ++j) {
      float sum = c[i * kTile + j];
      for (int p = 0; p < kTile; ++p)
        sum += a[i * kTile + p] * b[p * kTile + j];
      d[i * kTile + j] = sum;
    }
  }
}

}  // namespace

double NativeTileProductNanoseconds() {
  float a[kTile * kTile], b[kTile * kTile], c[kTile * kTile], d[kTile * kTile];
  for (int e = 0; e < kTile * kTile; ++e) {
    a[e] = static_cast<float>(e % 7);
    b[e] = static_cast<float>(e % 5);
    c[e] = static_cast<float>(e % 3);
  }
  auto run = [&](long count) {
    for (long r = 0; r < count; ++r) {
      asm volatile("" : : "r"(a), "r"(b), "r"(c), "r"(d) : "memory");
      TileProduct(a, b, c, d);
    }
  };
  long count = 1;
  for (;;) {
    const double start = NowNanoseconds();
    run(count);
    if (NowNanoseconds() - start >= 2e6) break;
    count *= 2;
  }
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < kRepetitions; ++r) {
    const double start = NowNanoseconds();
    run(count);
    best = std::min(best, (NowNanoseconds() - start) / count);
  }
  return best;
}

}  // namespace mxcts::perf
