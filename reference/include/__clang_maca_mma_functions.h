// Copyright mxcts authors.
//
// ==========================================================================
// __clang_maca_mma_functions.h: the wave matrix functions, mxmaca::wmma
// ==========================================================================
//
// One 64-lane wave computes a tile product-accumulate D = A x B + C. A tile
// lives in a `fragment`, whose elements are spread over the lanes of the
// wave (each lane holds `num_elements` of them in `x[]`); fragments are
// filled with `fill_fragment` or `load_matrix_sync`, multiplied with
// `mma_sync` and written back with `store_matrix_sync`. mxcc makes this
// header available to every MXMACA source without an include, as the
// vendor's compiler does with its resource header of the same name; an
// explicit `#include <__clang_maca_mma_functions.h>` is harmless. The rules
// are docs/spec/lang-matrix.md's.
//
//   using namespace mxmaca;
//   __global__ void Gemm16(const __half* a, const __half* b, float* c) {
//     wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
//     wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
//     wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
//     wmma::fill_fragment(acc, 0.0f);
//     wmma::load_matrix_sync(fa, a, 16);
//     wmma::load_matrix_sync(fb, b, 16);
//     wmma::mma_sync(acc, fa, fb, acc);
//     wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
//   }
//   // launched with one wave: Gemm16<<<1, 64>>>(a, b, c);
//
// The combinations defined (every other one is an undefined template, so
// declaring it does not compile
// [lang.wmma.fragment.unsupported-combination-rejected]):
//   shapes m x n x k: 16x16x16, 32x8x16, 8x32x16;
//   matrix_a (m x k) and matrix_b (k x n): __half or __maca_bfloat16,
//     row_major or col_major (never float
//     [lang.wmma.fragment.float-multiplicands-rejected], never without a layout
//     [lang.wmma.fragment.layout-required-for-multiplicands]);
//   accumulator (m x n), Layout void: float in every shape, __half in
//     16x16x16 [lang.wmma.shape.half-accumulator].
// mma_sync takes a float accumulator with either multiplicand type and a
// __half accumulator with __half multiplicands; C and D have one type.
//
// Contracts common to the functions: every lane of a full wave calls them
// together, from one call site, with the same pointer, ldm and layout
// [lang.wmma.collective.all-lanes-must-call]
// [lang.wmma.collective.uniform-arguments]; memory pointers are 16-byte
// aligned and ldm is a multiple of 16 bytes' worth of elements
// [lang.wmma.load.pointer-alignment] [lang.wmma.load.ldm-multiple-of-16-bytes].
// On the reference a call that breaks one of them traps with
// mcErrorLaunchFailure and a diagnostic naming the kernel, block, thread,
// lanes and call sites. Each function takes its call site as defaulted
// trailing arguments, which callers never write.
//
// Element mapping of the reference
// [lang.wmma.fragment.element-mapping-unspecified]: number the tile's elements
// in row-major order of the tile (element (i, j) of an r x c tile is number i *
// c + j, whatever the fragment's layout); lane l holds numbers l * num_elements
// to l * num_elements + num_elements - 1, in that order, in x[0] to
// x[num_elements - 1].

#ifndef __CLANG_MACA_MMA_FUNCTIONS_H__
#define __CLANG_MACA_MMA_FUNCTIONS_H__

#include <stdint.h>

#include "mcr/detail/device_abi.h"
#include "mcr/detail/device_matrix_abi.h"
#include "mcr/detail/half_types.h"

namespace mxmaca {
namespace wmma {

// Uses. [lang.wmma.fragment.use-roles]
struct matrix_a {};
struct matrix_b {};
struct accumulator {};

// Layouts of multiplicand fragments. [lang.wmma.fragment.layout-meaning]
struct row_major {};
struct col_major {};

// Element types named by tag rather than by a C++ type. The vendor's header
// declares `precision::tf32`; no fragment of it is defined, so one does not
// compile [lang.wmma.fragment.unsupported-combination-rejected].
namespace precision {
struct tf32 {};
}  // namespace precision

// Memory layouts of accumulator loads and stores.
// [lang.wmma.load.accumulator-layout-argument]
enum layout_t { mem_row_major, mem_col_major };

// A tile of use `Use`: matrix_a holds m x k, matrix_b k x n, accumulator
// m x n elements of type T [lang.wmma.fragment.tile-dimensions]. Defined
// only for the combinations listed at the top of this header.
template <typename Use, int m, int n, int k, typename T, typename Layout = void>
class fragment;

}  // namespace wmma
}  // namespace mxmaca

namespace __mc_wmma {

// The lanes that share a tile. [lang.wmma.fragment.spread-over-one-wave]
inline constexpr int kWaveLanes = 64;

// The calling lane's share of a tile of `tile_elements` elements.
// [lang.wmma.fragment.num-elements-and-x]
template <typename T, int TileElements>
struct FragmentStorage {
  static_assert(TileElements % kWaveLanes == 0, "a tile spreads evenly");
  typedef T element_type;
  static constexpr int num_elements = TileElements / kWaveLanes;
  T x[num_elements];
};

// T itself, keeping T out of deduction.
template <typename T>
struct Identity {
  typedef T type;
};

template <typename T>
struct ElementCode;
template <>
struct ElementCode<__half> {
  static constexpr int value = __MC_MATRIX_HALF;
};
template <>
struct ElementCode<__maca_bfloat16> {
  static constexpr int value = __MC_MATRIX_BFLOAT16;
};
template <>
struct ElementCode<float> {
  static constexpr int value = __MC_MATRIX_FLOAT;
};

template <typename Use>
struct UseCode;
template <>
struct UseCode<mxmaca::wmma::matrix_a> {
  static constexpr int value = __MC_MATRIX_A;
};
template <>
struct UseCode<mxmaca::wmma::matrix_b> {
  static constexpr int value = __MC_MATRIX_B;
};
template <>
struct UseCode<mxmaca::wmma::accumulator> {
  static constexpr int value = __MC_MATRIX_ACCUMULATOR;
};

template <typename Layout>
struct LayoutCode {
  static constexpr int value = __MC_MATRIX_NO_LAYOUT;
};
template <>
struct LayoutCode<mxmaca::wmma::row_major> {
  static constexpr int value = __MC_MATRIX_ROW_MAJOR;
};
template <>
struct LayoutCode<mxmaca::wmma::col_major> {
  static constexpr int value = __MC_MATRIX_COL_MAJOR;
};

// Whether mma_sync multiplies Multiplicand fragments into Accumulator ones.
template <typename Multiplicand, typename Accumulator>
struct MmaSupported {
  static constexpr bool value = false;
};
template <>
struct MmaSupported<__half, float> {
  static constexpr bool value = true;
};
template <>
struct MmaSupported<__maca_bfloat16, float> {
  static constexpr bool value = true;
};
template <>
struct MmaSupported<__half, __half> {
  static constexpr bool value = true;
};

template <typename T>
struct AlwaysFalse {
  static constexpr bool value = false;
};

// The engine's description of a fragment of the calling lane.
template <typename Use, int M, int N, int K, typename T, typename Layout>
inline __mc_matrix_fragment_ref Describe(
    const mxmaca::wmma::fragment<Use, M, N, K, T, Layout>& fragment) {
  __mc_matrix_fragment_ref ref;
  ref.use = UseCode<Use>::value;
  ref.m = M;
  ref.n = N;
  ref.k = K;
  ref.element = ElementCode<T>::value;
  ref.layout = LayoutCode<Layout>::value;
  ref.num_elements = fragment.num_elements;
  ref.elements = const_cast<T*>(fragment.x);
  return ref;
}

// A request for `function` with no fragments yet.
inline __mc_matrix_request Request(int operation, const char* function) {
  __mc_matrix_request request = {};
  request.operation = operation;
  request.function = function;
  return request;
}

// The calling lane's arrival at the wave's rendezvous with `request`;
// returns when the engine has performed the operation for the whole wave.
inline void Collective(const __mc_matrix_request& request, const char* file,
                       int line) {
  const __mc_wave_request wave = {
      __MC_WAVE_MATRIX,
      0,
      0,
      sizeof(void*),
      ~0ull,
      static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(&request)),
      0,
      file,
      line,
      /*group=*/nullptr};
  __mc_dev_wave_collective(&wave);
}

template <typename Fragment>
inline void LoadOrStore(int operation, const char* function,
                        const Fragment& fragment, const void* memory,
                        unsigned ldm, int memory_layout, const char* file,
                        int line) {
  __mc_matrix_request request = Request(operation, function);
  request.fragment_count = 1;
  request.fragments[0] = Describe(fragment);
  request.memory = memory;
  request.ldm = ldm;
  request.memory_layout = memory_layout;
  Collective(request, file, line);
}

inline int MemoryLayout(mxmaca::wmma::layout_t layout) {
  return layout == mxmaca::wmma::mem_row_major ? __MC_MATRIX_ROW_MAJOR
         : layout == mxmaca::wmma::mem_col_major
             ? __MC_MATRIX_COL_MAJOR
             : __MC_MATRIX_NO_LAYOUT;  // the engine traps on it
}

}  // namespace __mc_wmma

namespace mxmaca {
namespace wmma {

// The defined fragments. [lang.wmma.shape.half-16x16x16]
// [lang.wmma.shape.bfloat16-16x16x16] [lang.wmma.shape.float-accumulator]
// [lang.wmma.shape.half-accumulator]
// [lang.wmma.shape.further-combinations-implementation-defined]
#define __MC_WMMA_FRAGMENT(USE, M, N, K, T, LAYOUT, ROWS, COLS) \
  template <>                                                   \
  class fragment<USE, M, N, K, T, LAYOUT>                       \
      : public __mc_wmma::FragmentStorage<T, (ROWS) * (COLS)> {};
#define __MC_WMMA_MULTIPLICANDS(M, N, K, T)                 \
  __MC_WMMA_FRAGMENT(matrix_a, M, N, K, T, row_major, M, K) \
  __MC_WMMA_FRAGMENT(matrix_a, M, N, K, T, col_major, M, K) \
  __MC_WMMA_FRAGMENT(matrix_b, M, N, K, T, row_major, K, N) \
  __MC_WMMA_FRAGMENT(matrix_b, M, N, K, T, col_major, K, N)
#define __MC_WMMA_SHAPE(M, N, K)                    \
  __MC_WMMA_MULTIPLICANDS(M, N, K, __half)          \
  __MC_WMMA_MULTIPLICANDS(M, N, K, __maca_bfloat16) \
  __MC_WMMA_FRAGMENT(accumulator, M, N, K, float, void, M, N)

__MC_WMMA_SHAPE(16, 16, 16)
__MC_WMMA_SHAPE(32, 8, 16)
__MC_WMMA_SHAPE(8, 32, 16)
__MC_WMMA_FRAGMENT(accumulator, 16, 16, 16, __half, void, 16, 16)

#undef __MC_WMMA_SHAPE
#undef __MC_WMMA_MULTIPLICANDS
#undef __MC_WMMA_FRAGMENT

// Sets every element of `a`'s tile to `v` [lang.wmma.fill.sets-every-element].
// Each lane sets its own x[]; lanes that pass different values leave the
// tile with each lane's value in that lane's elements
// [lang.wmma.fill.differing-values]. Requires the whole wave to call.
template <typename Use, int M, int N, int K, typename T, typename Layout>
inline void fill_fragment(fragment<Use, M, N, K, T, Layout>& a,
                          const typename __mc_wmma::Identity<T>::type& v,
                          const char* __file = __builtin_FILE(),
                          int __line = __builtin_LINE()) {
  __mc_matrix_request request =
      __mc_wmma::Request(__MC_MATRIX_FILL, "mxmaca::wmma::fill_fragment()");
  request.fragment_count = 1;
  request.fragments[0] = __mc_wmma::Describe(a);
  __mc_wmma::Collective(request, __file, __line);
  for (int t = 0; t < a.num_elements; ++t) a.x[t] = v;
}

// Loads a multiplicand tile from `mptr`, in the fragment's layout
// [lang.wmma.load.multiplicand-layout-from-type]: element (i, j) from
// mptr[i * ldm + j] (row_major) or mptr[j * ldm + i] (col_major)
// [lang.wmma.load.row-major-addressing] [lang.wmma.load.col-major-addressing].
// `mptr` points into global or shared memory, 16-byte aligned; `ldm` counts
// elements. Waits for the whole wave [lang.wmma.collective.waits-for-wave].
template <int M, int N, int K, typename T, typename Layout>
inline void load_matrix_sync(fragment<matrix_a, M, N, K, T, Layout>& a,
                             const typename __mc_wmma::Identity<T>::type* mptr,
                             unsigned ldm,
                             const char* __file = __builtin_FILE(),
                             int __line = __builtin_LINE()) {
  __mc_wmma::LoadOrStore(__MC_MATRIX_LOAD, "mxmaca::wmma::load_matrix_sync()",
                         a, mptr, ldm, __mc_wmma::LayoutCode<Layout>::value,
                         __file, __line);
}
template <int M, int N, int K, typename T, typename Layout>
inline void load_matrix_sync(fragment<matrix_b, M, N, K, T, Layout>& a,
                             const typename __mc_wmma::Identity<T>::type* mptr,
                             unsigned ldm,
                             const char* __file = __builtin_FILE(),
                             int __line = __builtin_LINE()) {
  __mc_wmma::LoadOrStore(__MC_MATRIX_LOAD, "mxmaca::wmma::load_matrix_sync()",
                         a, mptr, ldm, __mc_wmma::LayoutCode<Layout>::value,
                         __file, __line);
}

// An accumulator is loaded with a layout argument; the three-argument form
// does not compile [lang.wmma.load.accumulator-without-layout-rejected].
template <int M, int N, int K, typename T>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& a,
                             const typename __mc_wmma::Identity<T>::type* mptr,
                             unsigned ldm,
                             const char* __file = __builtin_FILE(),
                             int __line = __builtin_LINE()) {
  static_assert(__mc_wmma::AlwaysFalse<T>::value,
                "an accumulator fragment is loaded with a layout_t argument: "
                "load_matrix_sync(frag, ptr, ldm, mem_row_major)");
}

// Loads an accumulator tile from `mptr` with the memory layout `layout`
// [lang.wmma.load.accumulator-layout-argument]; otherwise as above.
template <int M, int N, int K, typename T>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& a,
                             const typename __mc_wmma::Identity<T>::type* mptr,
                             unsigned ldm, layout_t layout,
                             const char* __file = __builtin_FILE(),
                             int __line = __builtin_LINE()) {
  __mc_wmma::LoadOrStore(__MC_MATRIX_LOAD, "mxmaca::wmma::load_matrix_sync()",
                         a, mptr, ldm, __mc_wmma::MemoryLayout(layout), __file,
                         __line);
}

// Stores an accumulator tile to `mptr`: element (i, j) to mptr[i * ldm + j]
// (mem_row_major) or mptr[j * ldm + i] (mem_col_major), and nothing else
// [lang.wmma.store.layout-argument-required]
// [lang.wmma.store.only-tile-elements-written]. `mptr` is 16-byte aligned;
// `ldm` counts elements. Waits for the whole wave.
template <int M, int N, int K, typename T>
inline void store_matrix_sync(typename __mc_wmma::Identity<T>::type* mptr,
                              const fragment<accumulator, M, N, K, T>& a,
                              unsigned ldm, layout_t layout,
                              const char* __file = __builtin_FILE(),
                              int __line = __builtin_LINE()) {
  __mc_wmma::LoadOrStore(__MC_MATRIX_STORE, "mxmaca::wmma::store_matrix_sync()",
                         a, mptr, ldm, __mc_wmma::MemoryLayout(layout), __file,
                         __line);
}

// d = a x b + c [lang.wmma.mma.computes-product-plus-accumulator], for
// fragments of one shape [lang.wmma.mma.shapes-must-match]; `d` may be `c`
// [lang.wmma.mma.in-place-accumulate]. Four arguments only: the reference
// has no `satf` form [lang.wmma.mma.satf-availability]. The reference forms
// each product exactly, adds c(i, j) and then the k products in order of
// p in double precision, and rounds the sum once to float (to nearest,
// ties to even, subnormals kept); a __half accumulator gets that float
// rounded to __half [lang.wmma.mma.summation-order]
// [lang.wmma.mma.half-accumulator-rounding]. Waits for the whole wave.
template <int M, int N, int K, typename Tab, typename LayoutA, typename LayoutB,
          typename Tacc>
inline void mma_sync(fragment<accumulator, M, N, K, Tacc>& d,
                     const fragment<matrix_a, M, N, K, Tab, LayoutA>& a,
                     const fragment<matrix_b, M, N, K, Tab, LayoutB>& b,
                     const fragment<accumulator, M, N, K, Tacc>& c,
                     const char* __file = __builtin_FILE(),
                     int __line = __builtin_LINE()) {
  static_assert(__mc_wmma::MmaSupported<Tab, Tacc>::value,
                "mma_sync multiplies __half or __maca_bfloat16 fragments into "
                "float accumulators, or __half fragments into __half "
                "accumulators");
  __mc_matrix_request request =
      __mc_wmma::Request(__MC_MATRIX_MMA, "mxmaca::wmma::mma_sync()");
  request.fragment_count = 4;
  request.fragments[__MC_MATRIX_MMA_D] = __mc_wmma::Describe(d);
  request.fragments[__MC_MATRIX_MMA_A] = __mc_wmma::Describe(a);
  request.fragments[__MC_MATRIX_MMA_B] = __mc_wmma::Describe(b);
  request.fragments[__MC_MATRIX_MMA_C] = __mc_wmma::Describe(c);
  __mc_wmma::Collective(request, __file, __line);
}

}  // namespace wmma
}  // namespace mxmaca

#endif  // __CLANG_MACA_MMA_FUNCTIONS_H__
