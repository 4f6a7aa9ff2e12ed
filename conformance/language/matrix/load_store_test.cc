// Conformance: load_matrix_sync and store_matrix_sync of 16 x 16 x 16
// accumulators (docs/spec/lang-matrix.md "load_matrix_sync",
// "store_matrix_sync"), and what a store makes visible to the wave and the
// block.
//
// A wave loads an accumulator from memory of one layout and leading
// dimension and stores it to memory of another; the host checks every
// address of the destination: tile elements at their place, bit for bit,
// everything between rows or columns untouched. Parameterized over the
// accumulator types, both layouts on each side, three leading dimensions
// and global or shared memory.

#include <mc_runtime.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/language/matrix/matrix_testing.h"
#include "conformance/testing/spec.h"

namespace {

using matrix_test::AccumulatorKind;
using matrix_test::CopyOptions;
using matrix_test::Element;
using matrix_test::k16x16x16;
using matrix_test::Layout;

const AccumulatorKind kAccumulators[] = {
    MATRIX_TEST_ACCUMULATOR_KIND(k16x16x16, float),
    MATRIX_TEST_ACCUMULATOR_KIND(k16x16x16, __half),
};

// Distinct finite bit patterns for the elements of `element`: every
// element of a span gets its own; none is a NaN.
std::vector<uint32_t> Patterns(Element element, size_t count, uint32_t seed) {
  std::vector<uint32_t> bits(count);
  for (size_t e = 0; e < count; ++e) {
    uint32_t v = static_cast<uint32_t>(e * 2654435761u + seed * 40503u);
    if (element == Element::kFloat) {
      // Keep the exponent below all ones: no infinity or NaN.
      v &= 0xbf7fffffu;
    } else {
      v &= 0xbbffu;  // exponent below 0x1f
    }
    bits[e] = v;
  }
  return bits;
}

constexpr uint32_t kSentinel = 0x3c00;  // 1.0 as __half, tiny as float

using CopyParam = std::tuple<AccumulatorKind, Layout, Layout, unsigned, bool>;

class AccumulatorCopy : public testing::TestWithParam<CopyParam> {};

TEST_P(AccumulatorCopy, MovesEveryElementToItsPlaceAndNothingElse) {
  MX_SPEC("lang.wmma.load.accumulator-layout-argument",
          "lang.wmma.load.row-major-addressing",
          "lang.wmma.load.col-major-addressing",
          "lang.wmma.store.layout-argument-required",
          "lang.wmma.store.only-tile-elements-written",
          "lang.wmma.load.global-or-shared-source");
  const auto& [kind, src_layout, dst_layout, pad_steps, shared] = GetParam();
  const int rows = kind.shape.m;
  const int cols = kind.shape.n;
  const unsigned step = 16 / matrix_test::ElementBytes(kind.element);
  CopyOptions options;
  options.src_layout = src_layout;
  options.dst_layout = dst_layout;
  options.src_ld =
      (src_layout == Layout::kRowMajor ? cols : rows) + pad_steps * step;
  // The destination's padding differs from the source's.
  options.dst_ld =
      (dst_layout == Layout::kRowMajor ? cols : rows) + (3 - pad_steps) * step;
  options.shared = shared;
  const std::vector<uint32_t> src =
      Patterns(kind.element,
               matrix_test::Span(rows, cols, src_layout, options.src_ld), 1);
  std::vector<uint32_t> dst(
      matrix_test::Span(rows, cols, dst_layout, options.dst_ld), kSentinel);
  ASSERT_EQ(kind.copy(options, src, &dst), mcSuccess);
  std::vector<bool> in_tile(dst.size(), false);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      const size_t to = matrix_test::Offset(dst_layout, options.dst_ld, i, j);
      const size_t from = matrix_test::Offset(src_layout, options.src_ld, i, j);
      in_tile[to] = true;
      ASSERT_EQ(dst[to], src[from]) << "element (" << i << ", " << j << ")";
    }
  }
  for (size_t e = 0; e < dst.size(); ++e) {
    if (!in_tile[e]) {
      ASSERT_EQ(dst[e], kSentinel) << "address " << e << " outside the tile";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, AccumulatorCopy,
    testing::Combine(testing::ValuesIn(kAccumulators),
                     testing::Values(Layout::kRowMajor, Layout::kColMajor),
                     testing::Values(Layout::kRowMajor, Layout::kColMajor),
                     testing::Values(0u, 1u, 3u), testing::Bool()),
    [](const testing::TestParamInfo<CopyParam>& info) {
      return std::get<0>(info.param).Name() + "From" +
             matrix_test::LayoutName(std::get<1>(info.param)) + "To" +
             matrix_test::LayoutName(std::get<2>(info.param)) + "Pad" +
             std::to_string(std::get<3>(info.param)) +
             (std::get<4>(info.param) ? "Shared" : "Global");
    });

// ---------------------------------------------------------------------------
// A round trip in one layout reproduces the bits, special values included.
// ---------------------------------------------------------------------------

using RoundTripParam = std::tuple<AccumulatorKind, Layout, unsigned>;

class AccumulatorRoundTrip : public testing::TestWithParam<RoundTripParam> {};

TEST_P(AccumulatorRoundTrip, ReproducesTheBits) {
  MX_SPEC("lang.wmma.store.round-trip");
  const auto& [kind, layout, pad_steps] = GetParam();
  const int rows = kind.shape.m;
  const int cols = kind.shape.n;
  const unsigned step = 16 / matrix_test::ElementBytes(kind.element);
  CopyOptions options;
  options.src_layout = options.dst_layout = layout;
  options.src_ld = options.dst_ld =
      (layout == Layout::kRowMajor ? cols : rows) + pad_steps * step;
  const size_t span = matrix_test::Span(rows, cols, layout, options.src_ld);
  std::vector<uint32_t> src = Patterns(kind.element, span, 7);
  // Infinities, signed zeros, subnormals and the largest values.
  const bool is_float = kind.element == Element::kFloat;
  const uint32_t specials[] = {
      is_float ? 0x7f800000u : 0x7c00u, is_float ? 0xff800000u : 0xfc00u,
      is_float ? 0x80000000u : 0x8000u, is_float ? 0x00000001u : 0x0001u,
      is_float ? 0x007fffffu : 0x03ffu, is_float ? 0x7f7fffffu : 0x7bffu};
  for (size_t s = 0; s < sizeof(specials) / sizeof(specials[0]); ++s) {
    src[matrix_test::Offset(layout, options.src_ld, static_cast<int>(s),
                            static_cast<int>(s))] = specials[s];
  }
  std::vector<uint32_t> dst = src;
  std::vector<uint32_t> expected = src;
  ASSERT_EQ(kind.copy(options, src, &dst), mcSuccess);
  EXPECT_EQ(dst, expected);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, AccumulatorRoundTrip,
    testing::Combine(testing::ValuesIn(kAccumulators),
                     testing::Values(Layout::kRowMajor, Layout::kColMajor),
                     testing::Values(0u, 1u, 2u)),
    [](const testing::TestParamInfo<RoundTripParam>& info) {
      return std::get<0>(info.param).Name() +
             matrix_test::LayoutName(std::get<1>(info.param)) + "Pad" +
             std::to_string(std::get<2>(info.param));
    });

// Control of the round trip: storing in the other layout transposes a
// tile that is not symmetric.
TEST(AccumulatorRoundTrip, OtherLayoutTransposes) {
  MX_SPEC("lang.wmma.store.round-trip",
          "lang.wmma.store.layout-argument-required");
  CopyOptions options;
  options.src_layout = Layout::kRowMajor;
  options.dst_layout = Layout::kColMajor;
  options.src_ld = options.dst_ld = 16;
  const std::vector<uint32_t> src = Patterns(Element::kFloat, 256, 3);
  std::vector<uint32_t> dst(256, 0);
  ASSERT_EQ(kAccumulators[0].copy(options, src, &dst), mcSuccess);
  EXPECT_NE(dst, src);
  EXPECT_EQ(dst[1 * 16 + 0], src[0 * 16 + 1]);
}

// Copies `in` through the block's dynamic shared memory: every thread
// stores its part, the wave loads the tile from there, scales it by 2 and
// stores it back to dynamic shared memory, which the threads copy out.
__global__ void ThroughDynamicShared(const float* in, float* out) {
  extern __shared__ __align__(16) float staged[];
  namespace wmma = matrix_test::wmma;
  for (unsigned e = threadIdx.x; e < 256; e += blockDim.x) staged[e] = in[e];
  __syncthreads();
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
  wmma::load_matrix_sync(f, staged, 16, wmma::mem_col_major);
  for (int t = 0; t < f.num_elements; ++t) f.x[t] *= 2;
  wmma::store_matrix_sync(staged + 256, f, 16, wmma::mem_col_major);
  __syncthreads();
  for (unsigned e = threadIdx.x; e < 256; e += blockDim.x) {
    out[e] = staged[256 + e];
  }
}

TEST(MatrixMemory, DynamicSharedMemoryIsASourceAndADestination) {
  MX_SPEC("lang.wmma.load.global-or-shared-source",
          "lang.wmma.store.round-trip");
  matrix_test::Managed<float> in(256);
  matrix_test::Managed<float> out(256);
  for (int e = 0; e < 256; ++e) in[e] = static_cast<float>(e - 100);
  ThroughDynamicShared<<<1, 64, 512 * sizeof(float)>>>(in.get(), out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int e = 0; e < 256; ++e) ASSERT_EQ(out[e], 2 * in[e]) << "element " << e;
}

// ---------------------------------------------------------------------------
// Loads wait for the whole wave; stores are visible after a wave or block
// barrier.
// ---------------------------------------------------------------------------

// Each lane writes its own four elements of a shared tile and loads the
// tile at once, without a barrier of its own: the load waits for every
// lane's arrival. Lane 0 writes last in lane order.
__global__ void WriteThenLoad(float* out) {
  __shared__ __align__(16) float tile[256];
  const unsigned lane = threadIdx.x;
  for (int t = 0; t < 4; ++t) {
    const unsigned e = (lane * 4 + t + 128) % 256;
    tile[e] = static_cast<float>(e);
  }
  matrix_test::wmma::fragment<matrix_test::wmma::accumulator, 16, 16, 16, float>
      f;
  matrix_test::wmma::load_matrix_sync(f, tile, 16,
                                      matrix_test::wmma::mem_row_major);
  matrix_test::wmma::store_matrix_sync(out, f, 16,
                                       matrix_test::wmma::mem_row_major);
}

TEST(MatrixCollective, LoadWaitsForEveryLane) {
  MX_SPEC("lang.wmma.collective.waits-for-wave");
  matrix_test::Managed<float> out(256);
  WriteThenLoad<<<1, 64>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int e = 0; e < 256; ++e) ASSERT_EQ(out[e], e) << "element " << e;
}

// Wave 0 of the block stores a tile to shared memory. Its own lanes read
// all of it after __syncwave(); with `block_barrier`, the lanes of wave 1
// read it after __syncthreads(). Each reading thread writes the sum.
__global__ void StoreThenRead(int block_barrier, float* sums) {
  __shared__ __align__(16) float tile[256];
  namespace wmma = matrix_test::wmma;
  const unsigned wave = threadIdx.x / 64;
  if (wave == 0) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
    wmma::fill_fragment(f, 2.0f);
    wmma::store_matrix_sync(tile, f, 16, wmma::mem_col_major);
    __syncwave();
    float sum = 0;
    for (int e = 0; e < 256; ++e) sum += tile[e];
    sums[threadIdx.x] = sum;
  }
  if (block_barrier) {
    __syncthreads();
    if (wave == 1) {
      float sum = 0;
      for (int e = 0; e < 256; ++e) sum += tile[e];
      sums[threadIdx.x] = sum;
    }
  }
}

TEST(MatrixStoreVisibility, WaveReadsItsStoreAfterSyncwave) {
  MX_SPEC("lang.wmma.store.visible-after-wave-sync");
  matrix_test::Managed<float> sums(64);
  StoreThenRead<<<1, 64>>>(0, sums.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(sums[t], 512) << "thread " << t;
}

TEST(MatrixStoreVisibility, BlockReadsTheStoreAfterSyncthreads) {
  MX_SPEC("lang.wmma.store.visible-after-wave-sync");
  matrix_test::Managed<float> sums(128);
  StoreThenRead<<<1, 128>>>(1, sums.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int t = 0; t < 128; ++t) EXPECT_EQ(sums[t], 512) << "thread " << t;
}

}  // namespace
