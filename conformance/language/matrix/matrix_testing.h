// Conformance: what the matrix function tests share
// (docs/spec/lang-matrix.md): element types and layouts as run-time values,
// host tiles and their placement in memory, kernels templated on the
// fragment types, and type-erased runners that the parameterized tests
// pick from a table.
//
// Tiles travel as row-major vectors of doubles whose values the element
// type represents exactly; the runners place them in managed memory in the
// layout and leading dimension asked for, launch one kernel and read the
// result back as doubles. Expected values are computed on the host from the
// clauses.
//
//   const matrix_test::MmaRunner run = matrix_test::FindMma(kind);
//   matrix_test::Tile d;
//   ASSERT_EQ(run(a, b, c, options, &d), mcSuccess);

#ifndef MXCTS_CONFORMANCE_LANGUAGE_MATRIX_MATRIX_TESTING_H_
#define MXCTS_CONFORMANCE_LANGUAGE_MATRIX_MATRIX_TESTING_H_

#include <gtest/gtest.h>
#include <maca_bfloat16.h>
#include <maca_fp16.h>
#include <mc_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace matrix_test {

namespace wmma = mxmaca::wmma;

constexpr unsigned kWaveLanes = 64;

// Element types as values.
enum class Element { kHalf, kBfloat16, kFloat };

inline const char* ElementName(Element element) {
  switch (element) {
    case Element::kHalf:
      return "Half";
    case Element::kBfloat16:
      return "Bfloat16";
    case Element::kFloat:
      return "Float";
  }
  return "?";
}

inline unsigned ElementBytes(Element element) {
  return element == Element::kFloat ? 4 : 2;
}

template <typename T>
struct ElementOf;
template <>
struct ElementOf<__half> {
  static constexpr Element value = Element::kHalf;
};
template <>
struct ElementOf<__maca_bfloat16> {
  static constexpr Element value = Element::kBfloat16;
};
template <>
struct ElementOf<float> {
  static constexpr Element value = Element::kFloat;
};

// The nearest value of `element` to `value` (ties to even).
inline double RoundTo(Element element, double value) {
  switch (element) {
    case Element::kHalf:
      return static_cast<float>(__half(value));
    case Element::kBfloat16:
      return static_cast<float>(__maca_bfloat16(value));
    case Element::kFloat:
      return static_cast<float>(value);
  }
  return value;
}

// Memory layouts: how a tile lies in memory.
enum class Layout { kRowMajor, kColMajor };

inline const char* LayoutName(Layout layout) {
  return layout == Layout::kRowMajor ? "Row" : "Col";
}

template <typename L>
struct LayoutOf;
template <>
struct LayoutOf<wmma::row_major> {
  static constexpr Layout value = Layout::kRowMajor;
};
template <>
struct LayoutOf<wmma::col_major> {
  static constexpr Layout value = Layout::kColMajor;
};

__host__ __device__ inline wmma::layout_t MemoryLayout(int layout) {
  return layout == static_cast<int>(Layout::kRowMajor) ? wmma::mem_row_major
                                                       : wmma::mem_col_major;
}

// A tile shape m x n x k.
struct Shape {
  const char* name;
  int m, n, k;
};
constexpr Shape k16x16x16 = {"16x16x16", 16, 16, 16};
constexpr Shape k32x8x16 = {"32x8x16", 32, 8, 16};
constexpr Shape k8x32x16 = {"8x32x16", 8, 32, 16};

// A host tile: rows x cols values, row-major.
struct Tile {
  int rows = 0;
  int cols = 0;
  std::vector<double> values;

  Tile() = default;
  Tile(int r, int c, double fill = 0) : rows(r), cols(c), values(r * c, fill) {}
  double& at(int i, int j) { return values[i * cols + j]; }
  double at(int i, int j) const { return values[i * cols + j]; }
};

// The smallest leading dimension of a rows x cols tile in `layout`, plus
// `pad` elements.
inline unsigned LeadingDimension(const Tile& tile, Layout layout,
                                 unsigned pad) {
  return (layout == Layout::kRowMajor ? tile.cols : tile.rows) + pad;
}

// The offset of element (i, j) in memory of `layout` with `ld`.
inline size_t Offset(Layout layout, unsigned ld, int i, int j) {
  return layout == Layout::kRowMajor
             ? size_t{static_cast<unsigned>(i)} * ld + j
             : size_t{static_cast<unsigned>(j)} * ld + i;
}

// The elements a rows x cols tile with `ld` spans in `layout`.
inline size_t Span(int rows, int cols, Layout layout, unsigned ld) {
  return layout == Layout::kRowMajor
             ? size_t{static_cast<unsigned>(rows - 1)} * ld + cols
             : size_t{static_cast<unsigned>(cols - 1)} * ld + rows;
}

// Managed memory for `count` elements of T, zero-filled; freed on
// destruction.
template <typename T>
class Managed {
 public:
  explicit Managed(size_t count) : count_(count) {
    EXPECT_EQ(mcMallocManaged(&data_, count * sizeof(T) + 64), mcSuccess);
    if (data_ != nullptr)
      std::memset(static_cast<void*>(data_), 0, count * sizeof(T));
  }
  ~Managed() { mcFree(data_); }
  Managed(const Managed&) = delete;
  Managed& operator=(const Managed&) = delete;

  T* get() { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  size_t size() const { return count_; }

 private:
  size_t count_;
  T* data_ = nullptr;
};

// `tile` placed in memory of `layout` with `ld`; other elements hold
// `filler`.
template <typename T>
void Place(const Tile& tile, Layout layout, unsigned ld, T* memory, size_t span,
           double filler = 0) {
  for (size_t e = 0; e < span; ++e) memory[e] = T(filler);
  for (int i = 0; i < tile.rows; ++i) {
    for (int j = 0; j < tile.cols; ++j) {
      memory[Offset(layout, ld, i, j)] = T(tile.at(i, j));
    }
  }
}

// The rows x cols tile read from memory of `layout` with `ld`.
template <typename T>
Tile Read(const T* memory, int rows, int cols, Layout layout, unsigned ld) {
  Tile tile(rows, cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      tile.at(i, j) = static_cast<float>(memory[Offset(layout, ld, i, j)]);
    }
  }
  return tile;
}

// ---------------------------------------------------------------------------
// D = A x B + C.
// ---------------------------------------------------------------------------

// Where the runner puts C, D and the multiplicands.
struct MmaOptions {
  Layout c_layout = Layout::kRowMajor;
  Layout d_layout = Layout::kRowMajor;
  unsigned pad_steps = 0;  // 16-byte steps added to every leading dimension
  bool in_place = false;   // mma_sync(c, a, b, c), then store c
  bool shared = false;     // stage A and B through shared memory
};

// Every lane of one wave loads A, B (in the fragments' layouts) and C, calls
// mma_sync, and stores D.
template <int M, int N, int K, typename Tab, typename LA, typename LB,
          typename Tacc>
__global__ void MmaKernel(const Tab* a, unsigned lda, const Tab* b,
                          unsigned ldb, const Tacc* c, unsigned ldc,
                          int c_layout, Tacc* d, unsigned ldd, int d_layout,
                          int in_place, int shared) {
  __shared__ __align__(16) Tab staged_a[M * K];
  __shared__ __align__(16) Tab staged_b[K * N];
  wmma::fragment<wmma::matrix_a, M, N, K, Tab, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Tab, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Tacc> fc;
  if (shared) {
    // [lang.wmma.load.global-or-shared-source] Packed copies, tight ldm.
    const bool a_rows = LayoutOf<LA>::value == Layout::kRowMajor;
    const bool b_rows = LayoutOf<LB>::value == Layout::kRowMajor;
    for (int e = threadIdx.x; e < M * K; e += blockDim.x) {
      const int i = e / K, p = e % K;
      staged_a[a_rows ? i * K + p : p * M + i] =
          a[a_rows ? i * lda + p : p * lda + i];
    }
    for (int e = threadIdx.x; e < K * N; e += blockDim.x) {
      const int p = e / N, j = e % N;
      staged_b[b_rows ? p * N + j : j * K + p] =
          b[b_rows ? p * ldb + j : j * ldb + p];
    }
    __syncthreads();
    wmma::load_matrix_sync(fa, staged_a, a_rows ? K : M);
    wmma::load_matrix_sync(fb, staged_b, b_rows ? N : K);
  } else {
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
  }
  wmma::load_matrix_sync(fc, c, ldc, MemoryLayout(c_layout));
  if (in_place) {
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, ldd, MemoryLayout(d_layout));
  } else {
    wmma::fragment<wmma::accumulator, M, N, K, Tacc> fd;
    wmma::mma_sync(fd, fa, fb, fc);
    wmma::store_matrix_sync(d, fd, ldd, MemoryLayout(d_layout));
  }
}

// Runs one mma_sync of A (m x k), B (k x n) and C (m x n) on the backend;
// `d` gets the result. Returns the launch's error.
using MmaRunner = mcError_t (*)(const Tile& a, const Tile& b, const Tile& c,
                                const MmaOptions& options, Tile* d);

template <int M, int N, int K, typename Tab, typename LA, typename LB,
          typename Tacc>
mcError_t RunMma(const Tile& a, const Tile& b, const Tile& c,
                 const MmaOptions& options, Tile* d) {
  constexpr Layout la = LayoutOf<LA>::value;
  constexpr Layout lb = LayoutOf<LB>::value;
  const unsigned ab_pad = options.pad_steps * (16 / sizeof(Tab));
  const unsigned acc_pad = options.pad_steps * (16 / sizeof(Tacc));
  const unsigned lda = LeadingDimension(a, la, ab_pad);
  const unsigned ldb = LeadingDimension(b, lb, ab_pad);
  const unsigned ldc = LeadingDimension(c, options.c_layout, acc_pad);
  const unsigned ldd = LeadingDimension(c, options.d_layout, acc_pad);
  Managed<Tab> ma(Span(M, K, la, lda));
  Managed<Tab> mb(Span(K, N, lb, ldb));
  Managed<Tacc> mc(Span(M, N, options.c_layout, ldc));
  Managed<Tacc> md(Span(M, N, options.d_layout, ldd));
  Place(a, la, lda, ma.get(), ma.size());
  Place(b, lb, ldb, mb.get(), mb.size());
  Place(c, options.c_layout, ldc, mc.get(), mc.size());
  MmaKernel<M, N, K, Tab, LA, LB, Tacc>
      <<<1, kWaveLanes>>>(ma.get(), lda, mb.get(), ldb, mc.get(), ldc,
                          static_cast<int>(options.c_layout), md.get(), ldd,
                          static_cast<int>(options.d_layout),
                          options.in_place ? 1 : 0, options.shared ? 1 : 0);
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) {
    *d = Read(md.get(), M, N, options.d_layout, ldd);
  }
  return error;
}

// One combination of fragment types that mma_sync takes.
struct MmaKind {
  Shape shape;
  Element multiplicand;
  Element accumulator;
  Layout a_layout;
  Layout b_layout;
  MmaRunner run;

  std::string Name() const {
    return std::string("M") + shape.name + ElementName(multiplicand) + "To" +
           ElementName(accumulator) + "A" + LayoutName(a_layout) + "B" +
           LayoutName(b_layout);
  }
  // The capability manifest's word for the combination.
  std::string ManifestWord() const {
    auto word = [](Element e) {
      return e == Element::kHalf       ? "half"
             : e == Element::kBfloat16 ? "bfloat16"
                                       : "float";
    };
    return std::string(shape.name) + ":" + word(multiplicand) + ":" +
           word(accumulator);
  }
};

#define MATRIX_TEST_MMA_KIND(SHAPE, TAB, LA, LB, TACC)                       \
  ::matrix_test::MmaKind {                                                   \
    SHAPE, ::matrix_test::ElementOf<TAB>::value,                             \
        ::matrix_test::ElementOf<TACC>::value,                               \
        ::matrix_test::LayoutOf<::mxmaca::wmma::LA>::value,                  \
        ::matrix_test::LayoutOf<::mxmaca::wmma::LB>::value,                  \
        &::matrix_test::RunMma<SHAPE.m, SHAPE.n, SHAPE.k, TAB,               \
                               ::mxmaca::wmma::LA, ::mxmaca::wmma::LB, TACC> \
  }

// The four layout combinations of one type combination.
#define MATRIX_TEST_MMA_LAYOUTS(SHAPE, TAB, TACC)                   \
  MATRIX_TEST_MMA_KIND(SHAPE, TAB, row_major, row_major, TACC),     \
      MATRIX_TEST_MMA_KIND(SHAPE, TAB, row_major, col_major, TACC), \
      MATRIX_TEST_MMA_KIND(SHAPE, TAB, col_major, row_major, TACC), \
      MATRIX_TEST_MMA_KIND(SHAPE, TAB, col_major, col_major, TACC)

// ---------------------------------------------------------------------------
// Accumulator loads and stores.
// ---------------------------------------------------------------------------

// Every lane loads an accumulator from `src` and stores it to `dst`, each
// with its own layout and ldm; with `shared`, through shared memory (loaded
// from and stored to a shared copy).
// `src_count` and `dst_count` elements, at most kStagedElements each.
constexpr int kStagedElements = 2048;
template <int M, int N, int K, typename T>
__global__ void CopyKernel(const T* src, unsigned lds, int src_layout,
                           int src_count, T* dst, unsigned ldd, int dst_layout,
                           int dst_count, int shared) {
  __shared__ __align__(16) T staged_src[kStagedElements];
  __shared__ __align__(16) T staged_dst[kStagedElements];
  wmma::fragment<wmma::accumulator, M, N, K, T> f;
  if (shared) {
    // [lang.wmma.load.global-or-shared-source]
    for (int e = threadIdx.x; e < src_count; e += blockDim.x) {
      staged_src[e] = src[e];
    }
    for (int e = threadIdx.x; e < dst_count; e += blockDim.x) {
      staged_dst[e] = dst[e];
    }
    __syncthreads();
    wmma::load_matrix_sync(f, staged_src, lds, MemoryLayout(src_layout));
    wmma::store_matrix_sync(staged_dst, f, ldd, MemoryLayout(dst_layout));
    __syncthreads();
    for (int e = threadIdx.x; e < dst_count; e += blockDim.x) {
      dst[e] = staged_dst[e];
    }
  } else {
    wmma::load_matrix_sync(f, src, lds, MemoryLayout(src_layout));
    wmma::store_matrix_sync(dst, f, ldd, MemoryLayout(dst_layout));
  }
}

// The raw bytes of one element as 32 bits.
template <typename T>
uint32_t BitsOf(const T& value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <typename T>
T FromBits(uint32_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// Copies memory of `src_ld`/`src_layout` holding `src_bits` (one element
// each, the whole span) to memory of `dst_ld`/`dst_layout` first filled
// with `dst_bits`; `dst_bits` gets what the kernel left there.
struct CopyOptions {
  Layout src_layout = Layout::kRowMajor;
  unsigned src_ld = 0;
  Layout dst_layout = Layout::kRowMajor;
  unsigned dst_ld = 0;
  bool shared = false;
};
using CopyRunner = mcError_t (*)(const CopyOptions& options,
                                 const std::vector<uint32_t>& src_bits,
                                 std::vector<uint32_t>* dst_bits);

template <int M, int N, int K, typename T>
mcError_t RunCopy(const CopyOptions& options,
                  const std::vector<uint32_t>& src_bits,
                  std::vector<uint32_t>* dst_bits) {
  Managed<T> src(src_bits.size());
  Managed<T> dst(dst_bits->size());
  for (size_t e = 0; e < src_bits.size(); ++e)
    src[e] = FromBits<T>(src_bits[e]);
  for (size_t e = 0; e < dst_bits->size(); ++e) {
    dst[e] = FromBits<T>((*dst_bits)[e]);
  }
  CopyKernel<M, N, K, T><<<1, kWaveLanes>>>(
      src.get(), options.src_ld, static_cast<int>(options.src_layout),
      static_cast<int>(src_bits.size()), dst.get(), options.dst_ld,
      static_cast<int>(options.dst_layout), static_cast<int>(dst_bits->size()),
      options.shared ? 1 : 0);
  const mcError_t error = mcDeviceSynchronize();
  for (size_t e = 0; e < dst_bits->size(); ++e) (*dst_bits)[e] = BitsOf(dst[e]);
  return error;
}

// One accumulator type.
struct AccumulatorKind {
  Shape shape;
  Element element;
  CopyRunner copy;

  std::string Name() const {
    return std::string("M") + shape.name + ElementName(element);
  }
};

#define MATRIX_TEST_ACCUMULATOR_KIND(SHAPE, T)                \
  ::matrix_test::AccumulatorKind {                            \
    SHAPE, ::matrix_test::ElementOf<T>::value,                \
        &::matrix_test::RunCopy<SHAPE.m, SHAPE.n, SHAPE.k, T> \
  }

// ---------------------------------------------------------------------------
// Values.
// ---------------------------------------------------------------------------

// A rows x cols tile of small integers (|v| <= range), exact in every
// element type; a different tile per seed.
inline Tile SmallIntegers(int rows, int cols, int seed, int range = 4) {
  Tile tile(rows, cols);
  std::mt19937 random(static_cast<unsigned>(seed));
  std::uniform_int_distribution<int> value(-range, range);
  for (double& v : tile.values) v = value(random);
  return tile;
}

// A rows x cols tile of values of `element` with magnitudes between
// 2^-scale and 2^scale and random signs.
inline Tile RandomValues(int rows, int cols, Element element, int seed,
                         int scale) {
  Tile tile(rows, cols);
  std::mt19937 random(static_cast<unsigned>(seed));
  std::uniform_real_distribution<double> exponent(-scale, scale);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::bernoulli_distribution negative(0.5);
  for (double& v : tile.values) {
    v = RoundTo(element, std::ldexp(mantissa(random),
                                    static_cast<int>(exponent(random))) *
                             (negative(random) ? -1 : 1));
  }
  return tile;
}

// The identity of size n.
inline Tile Identity(int n) {
  Tile tile(n, n);
  for (int i = 0; i < n; ++i) tile.at(i, i) = 1;
  return tile;
}

// c(i, j) + sum over p of a(i, p) * b(p, j), in long double.
inline long double ExactElement(const Tile& a, const Tile& b, const Tile& c,
                                int i, int j) {
  long double sum = c.at(i, j);
  for (int p = 0; p < a.cols; ++p) {
    sum += static_cast<long double>(a.at(i, p)) * b.at(p, j);
  }
  return sum;
}

// |c(i, j)| + sum over p of |a(i, p) * b(p, j)|.
inline double MagnitudeElement(const Tile& a, const Tile& b, const Tile& c,
                               int i, int j) {
  double sum = std::fabs(c.at(i, j));
  for (int p = 0; p < a.cols; ++p) sum += std::fabs(a.at(i, p) * b.at(p, j));
  return sum;
}

// A x B + C computed exactly (the inputs of the exact tests keep every
// partial sum exact in double).
inline Tile ExactProduct(const Tile& a, const Tile& b, const Tile& c) {
  Tile d(c.rows, c.cols);
  for (int i = 0; i < c.rows; ++i) {
    for (int j = 0; j < c.cols; ++j) {
      d.at(i, j) = static_cast<double>(ExactElement(a, b, c, i, j));
    }
  }
  return d;
}

// The first element where `actual` differs from `expected`, or "" if none.
inline std::string FirstDifference(const Tile& actual, const Tile& expected) {
  for (int i = 0; i < expected.rows; ++i) {
    for (int j = 0; j < expected.cols; ++j) {
      if (actual.at(i, j) != expected.at(i, j) &&
          !(std::isnan(actual.at(i, j)) && std::isnan(expected.at(i, j)))) {
        return "element (" + std::to_string(i) + ", " + std::to_string(j) +
               "): " + std::to_string(actual.at(i, j)) + ", expected " +
               std::to_string(expected.at(i, j));
      }
    }
  }
  return "";
}

// Runs `kind` with `options` on small-integer tiles of its shape (A from
// `seed`, B from seed + 1, C from seed + 2 with values below `c_range`) and
// expects D to equal A x B + C exactly.
inline void ExpectExactProduct(const MmaKind& kind, const MmaOptions& options,
                               int seed, int c_range) {
  const int m = kind.shape.m, n = kind.shape.n, k = kind.shape.k;
  const Tile a = SmallIntegers(m, k, seed);
  const Tile b = SmallIntegers(k, n, seed + 1);
  const Tile c = SmallIntegers(m, n, seed + 2, c_range);
  Tile d;
  ASSERT_EQ(kind.run(a, b, c, options, &d), mcSuccess);
  EXPECT_EQ(FirstDifference(d, ExactProduct(a, b, c)), "");
}

// The parameters of a product test: the kind, the layouts of C and D, and
// how many steps the leading dimension is padded by.
using ProductParam = std::tuple<MmaKind, Layout, Layout, unsigned>;

inline std::string ProductParamName(
    const testing::TestParamInfo<ProductParam>& info) {
  return std::get<0>(info.param).Name() + "C" +
         LayoutName(std::get<1>(info.param)) + "D" +
         LayoutName(std::get<2>(info.param)) + "Pad" +
         std::to_string(std::get<3>(info.param));
}

// The parameters of an in-place test: the kind, and whether the tiles pass
// through shared memory.
using PlaceParam = std::tuple<MmaKind, bool>;

inline std::string PlaceParamName(
    const testing::TestParamInfo<PlaceParam>& info) {
  return std::get<0>(info.param).Name() +
         (std::get<1>(info.param) ? "Shared" : "Global");
}

}  // namespace matrix_test

#endif  // MXCTS_CONFORMANCE_LANGUAGE_MATRIX_MATRIX_TESTING_H_
