// Copyright mxcts authors.
//
// A wave's matrix function runs in two steps once every lane has arrived.
//
// Checking. The spec leaves misuse undefined; the reference reports each
// kind it can see, in this order, so that the first broken rule is named:
// a partial last wave [lang.wmma.collective.partial-wave-undefined]; lanes
// that exited instead of calling [lang.wmma.collective.all-lanes-must-call];
// lanes at another call site or function (divergent branches); lanes with
// another fragment type, pointer, ldm or layout
// [lang.wmma.collective.uniform-arguments]; an invalid layout_t; a null or
// misaligned pointer [lang.wmma.load.pointer-alignment]
// [lang.wmma.store.pointer-alignment]; an ldm that is not a multiple of 16
// bytes' worth of elements [lang.wmma.load.ldm-multiple-of-16-bytes].
//
// Performing. The reference's element mapping (documented in
// __clang_maca_mma_functions.h): tile element number e, counted in
// row-major order of the tile, is x[e % num_elements] of lane
// e / num_elements. A load reads each element from memory into its lane's
// x[], a store writes it back; nothing but the tile's addresses is touched
// [lang.wmma.store.only-tile-elements-written]. mma_sync first reads A, B and
// C from every lane, then writes D, so that D may be C
// [lang.wmma.mma.in-place-accumulate]. Each product of two 16-bit inputs is
// exact in double precision; D(i, j) is c(i, j) + p_0 + ... + p_{k-1}, added
// in that order in double precision (to nearest, ties to even), rounded
// once to float, and for a __half accumulator that float rounded to __half
// [lang.wmma.mma.summation-order] [lang.wmma.mma.half-accumulator-rounding].
// The additions run with the processor's default environment (to nearest,
// no flushing, exceptions masked) and the conversions use the exact integer
// rounding of mcr/detail/float_rounding.h, so the result does not depend on
// the program's floating-point environment or the trap policy.
//
// Tested by conformance/language/matrix/*_test.cc.

#include "reference/device/collectives/matrix_operations.h"

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "mcr/detail/float_rounding.h"
#include "mcr/detail/half_types.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {
namespace {

constexpr unsigned kLanes = 64;
constexpr uint64_t kFullWave = ~uint64_t{0};
// [lang.wmma.load.pointer-alignment] 128 bits.
constexpr uintptr_t kPointerAlignment = 16;
// [lang.wmma.load.ldm-multiple-of-16-bytes]
constexpr unsigned kLeadingDimensionBytes = 16;

uint64_t Bit(unsigned lane) { return uint64_t{1} << lane; }

unsigned LowestLane(uint64_t lanes) {
  return static_cast<unsigned>(__builtin_ctzll(lanes));
}

// "0-31,40": the lanes of a mask.
std::string LaneList(uint64_t lanes) {
  std::string text;
  unsigned lane = 0;
  while (lane < kLanes) {
    if ((lanes & Bit(lane)) == 0) {
      ++lane;
      continue;
    }
    unsigned last = lane;
    while (last + 1 < kLanes && (lanes & Bit(last + 1)) != 0) ++last;
    if (!text.empty()) text += ',';
    absl::StrAppend(&text, lane);
    if (last > lane) absl::StrAppend(&text, "-", last);
    lane = last + 1;
  }
  return text.empty() ? "none" : text;
}

unsigned ElementBytes(int element) {
  return element == __MC_MATRIX_FLOAT ? 4 : 2;
}

const char* ElementName(int element) {
  switch (element) {
    case __MC_MATRIX_HALF:
      return "__half";
    case __MC_MATRIX_BFLOAT16:
      return "__maca_bfloat16";
    case __MC_MATRIX_FLOAT:
      return "float";
  }
  return "an invalid element type";
}

const char* UseName(int use) {
  switch (use) {
    case __MC_MATRIX_A:
      return "matrix_a";
    case __MC_MATRIX_B:
      return "matrix_b";
    case __MC_MATRIX_ACCUMULATOR:
      return "accumulator";
  }
  return "an invalid use";
}

const char* LayoutName(int layout) {
  switch (layout) {
    case __MC_MATRIX_ROW_MAJOR:
      return "row major";
    case __MC_MATRIX_COL_MAJOR:
      return "column major";
  }
  return "no layout";
}

std::string DescribeFragment(const __mc_matrix_fragment_ref& f) {
  return absl::StrFormat("fragment<%s, %d, %d, %d, %s%s>", UseName(f.use), f.m,
                         f.n, f.k, ElementName(f.element),
                         f.layout == __MC_MATRIX_NO_LAYOUT
                             ? ""
                             : absl::StrCat(", ", LayoutName(f.layout)));
}

bool SameType(const __mc_matrix_fragment_ref& a,
              const __mc_matrix_fragment_ref& b) {
  return a.use == b.use && a.m == b.m && a.n == b.n && a.k == b.k &&
         a.element == b.element && a.layout == b.layout &&
         a.num_elements == b.num_elements;
}

bool SameSite(const WaitSite& a, const WaitSite& b) {
  return a.line == b.line && std::strcmp(a.file, b.file) == 0;
}

// The rows and columns of a fragment's tile.
// [lang.wmma.fragment.tile-dimensions]
unsigned Rows(const __mc_matrix_fragment_ref& f) {
  return static_cast<unsigned>(f.use == __MC_MATRIX_B ? f.k : f.m);
}
unsigned Columns(const __mc_matrix_fragment_ref& f) {
  return static_cast<unsigned>(f.use == __MC_MATRIX_A ? f.k : f.n);
}

// Every __half value as a float, by its bits: a table built once, since a
// product reads 512 multiplicands.
const float* HalfValues() {
  static const float* const values = [] {
    float* table = new float[1 << 16];
    for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
      table[bits] =
          __mc_math::HalfBitsToFloat(static_cast<unsigned short>(bits));
    }
    return table;
  }();
  return values;
}

// The element value of `bits` (the low ElementBytes bytes) as a double,
// exactly.
double ToDouble(int element, uint32_t bits) {
  switch (element) {
    case __MC_MATRIX_HALF:
      return HalfValues()[bits & 0xffffu];
    case __MC_MATRIX_BFLOAT16:
      return __mc_math::Bfloat16BitsToFloat(static_cast<unsigned short>(bits));
  }
  return __mc_math::FloatFromBits(bits);
}

// `sum` rounded to float, then, for a __half element, to __half; the bits.
uint32_t RoundTo(int element, double sum) {
  const unsigned long long float_bits = __mc_math::ConvertFormat(
      __mc_math::DoubleBits(sum), __mc_math::kBinary64, __mc_math::kBinary32,
      __mc_math::kRoundNearestEven);
  if (element != __MC_MATRIX_HALF) return static_cast<uint32_t>(float_bits);
  return static_cast<uint32_t>(__mc_math::ConvertFormat(
      float_bits, __mc_math::kBinary32, __mc_math::kBinary16,
      __mc_math::kRoundNearestEven));
}

// Rounding to nearest, no flushing of subnormals and every exception
// masked while it lives, whatever the program or the trap policy set; the
// caller's control and flags come back afterwards. The summation of
// mma_sync is then the same in every environment, and raises no
// floating-point trap (its infinities and NaNs are results, not faults).
class DefaultFloatingPoint {
 public:
#if defined(__x86_64__)
  DefaultFloatingPoint() {
    __asm__ volatile("stmxcsr %0" : "=m"(saved_));
    // All six exceptions masked (bits 7-12), to nearest, no flush to zero
    // and no denormals-are-zero, no flags raised.
    const unsigned standard = 0x1f80;
    __asm__ volatile("ldmxcsr %0" : : "m"(standard));
  }
  ~DefaultFloatingPoint() { __asm__ volatile("ldmxcsr %0" : : "m"(saved_)); }

 private:
  unsigned saved_ = 0;
#endif
};

// One wave's call, checked and performed.
class WaveMatrixCall {
 public:
  explicit WaveMatrixCall(const MatrixWaveCall& call) : call_(call) {}

  void Run() {
    Check();
    const __mc_matrix_request& request = *call_.requests[0];
    switch (request.operation) {
      case __MC_MATRIX_FILL:
        return;  // each lane fills its own x[] on return
      case __MC_MATRIX_LOAD:
        return Load(request);
      case __MC_MATRIX_STORE:
        return Store(request);
      case __MC_MATRIX_MMA:
        return Mma();
    }
  }

 private:
  std::string ThreadName(unsigned lane) const {
    return "thread " +
           FormatIndex(call_.block->ThreadIndex(call_.first_thread + lane));
  }

  // "mxmaca::wmma::mma_sync() at k.cu:12": lane `lane`'s call.
  std::string CallOf(unsigned lane) const {
    return absl::StrFormat("%s at %s:%d",
                           MatrixFunctionName(call_.requests[lane]),
                           call_.sites[lane].file, call_.sites[lane].line);
  }

  [[noreturn]] void Fail(const std::string& message) const {
    Trap(mcErrorLaunchFailure,
         absl::StrFormat("wave %u: %s", call_.wave_index, message));
  }

  // Traps, naming the lanes that differ from lane 0 in `what`, unless
  // `same(lane)` holds for every lane. `describe(lane)` says what a lane
  // brought.
  template <typename Same, typename Describe>
  void CheckUniform(const char* what, Same same, Describe describe) const {
    uint64_t differing = 0;
    for (unsigned lane = 1; lane < kLanes; ++lane) {
      if (!same(lane)) differing |= Bit(lane);
    }
    if (differing == 0) return;
    const unsigned first = LowestLane(differing);
    uint64_t like_first = 0;
    for (unsigned lane = 1; lane < kLanes; ++lane) {
      if ((differing & Bit(lane)) != 0 && describe(lane) == describe(first)) {
        like_first |= Bit(lane);
      }
    }
    Fail(absl::StrFormat(
        "the lanes of a wave call %s with different %s: lanes %s (the first: "
        "%s) pass %s, while lane 0 (%s) passes %s; the arguments of a matrix "
        "function must be the same in every lane",
        CallOf(0), what, LaneList(like_first), ThreadName(first),
        describe(first), ThreadName(0), describe(0)));
  }

  void Check() const {
    const char* function = MatrixFunctionName(
        call_.requests[LowestLane(call_.arrived != 0 ? call_.arrived : 1)]);
    const unsigned first_arrived =
        call_.arrived != 0 ? LowestLane(call_.arrived) : 0;
    if (call_.lane_count < kLanes) {
      // [lang.wmma.collective.partial-wave-undefined]
      Fail(absl::StrFormat(
          "%s at %s:%d is called by a partial wave of %u lanes (%s to %s); "
          "a matrix function needs a full wave of 64 lanes, so the block "
          "size must be a multiple of 64",
          function, call_.sites[first_arrived].file,
          call_.sites[first_arrived].line, call_.lane_count, ThreadName(0),
          ThreadName(call_.lane_count - 1)));
    }
    if (call_.arrived != kFullWave) {
      // [lang.wmma.collective.all-lanes-must-call]
      const uint64_t missing = ~call_.arrived;
      Fail(absl::StrFormat(
          "lanes %s (the first: %s) exited without calling %s, which lanes "
          "%s called; every lane of the wave must call a matrix function",
          LaneList(missing), ThreadName(LowestLane(missing)),
          CallOf(first_arrived), LaneList(call_.arrived)));
    }
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      const __mc_matrix_request* request = call_.requests[lane];
      if (request == nullptr || request->operation < __MC_MATRIX_FILL ||
          request->operation > __MC_MATRIX_MMA ||
          (request->fragment_count != 1 && request->fragment_count != 4)) {
        Fail(
            absl::StrFormat("lane %u (%s) arrived with an invalid matrix "
                            "request at %s:%d",
                            lane, ThreadName(lane), call_.sites[lane].file,
                            call_.sites[lane].line));
      }
    }
    const __mc_matrix_request& first = *call_.requests[0];
    // [lang.wmma.collective.all-lanes-must-call] Lanes in different
    // branches call at different sites: the call is not the wave's.
    uint64_t elsewhere = 0;
    for (unsigned lane = 1; lane < kLanes; ++lane) {
      if (!SameSite(call_.sites[lane], call_.sites[0]) ||
          call_.requests[lane]->operation != first.operation) {
        elsewhere |= Bit(lane);
      }
    }
    if (elsewhere != 0) {
      const unsigned other = LowestLane(elsewhere);
      uint64_t with_other = 0;
      for (unsigned lane = 0; lane < kLanes; ++lane) {
        if (SameSite(call_.sites[lane], call_.sites[other]) &&
            call_.requests[lane]->operation ==
                call_.requests[other]->operation) {
          with_other |= Bit(lane);
        }
      }
      Fail(absl::StrFormat(
          "the lanes of a wave diverge at matrix functions: lanes %s (the "
          "first: %s) call %s, while lane 0 (%s) calls %s; every lane of the "
          "wave must make the same call",
          LaneList(with_other), ThreadName(other), CallOf(other), ThreadName(0),
          CallOf(0)));
    }
    // [lang.wmma.collective.uniform-arguments]
    for (int f = 0; f < first.fragment_count; ++f) {
      CheckUniform(
          "fragment types",
          [&](unsigned lane) {
            return call_.requests[lane]->fragment_count ==
                       first.fragment_count &&
                   SameType(call_.requests[lane]->fragments[f],
                            first.fragments[f]);
          },
          [&](unsigned lane) {
            return DescribeFragment(call_.requests[lane]->fragments[f]);
          });
    }
    if (first.operation != __MC_MATRIX_LOAD &&
        first.operation != __MC_MATRIX_STORE) {
      return;
    }
    CheckUniform(
        "pointers",
        [&](unsigned lane) {
          return call_.requests[lane]->memory == first.memory;
        },
        [&](unsigned lane) {
          return absl::StrFormat("%p", call_.requests[lane]->memory);
        });
    CheckUniform(
        "leading dimensions",
        [&](unsigned lane) { return call_.requests[lane]->ldm == first.ldm; },
        [&](unsigned lane) {
          return absl::StrCat("ldm ", call_.requests[lane]->ldm);
        });
    CheckUniform(
        "layouts",
        [&](unsigned lane) {
          return call_.requests[lane]->memory_layout == first.memory_layout;
        },
        [&](unsigned lane) {
          return std::string(LayoutName(call_.requests[lane]->memory_layout));
        });
    if (first.memory_layout != __MC_MATRIX_ROW_MAJOR &&
        first.memory_layout != __MC_MATRIX_COL_MAJOR) {
      Fail(absl::StrFormat("%s is called with an invalid layout_t value",
                           CallOf(0)));
    }
    const uintptr_t address = reinterpret_cast<uintptr_t>(first.memory);
    if (address == 0) {
      Fail(absl::StrFormat("%s is called with a null pointer", CallOf(0)));
    }
    if (address % kPointerAlignment != 0) {
      // [lang.wmma.load.pointer-alignment] [lang.wmma.store.pointer-alignment]
      Fail(absl::StrFormat(
          "%s is called with pointer %p, which is not aligned to 16 bytes "
          "(128 bits) as matrix loads and stores require",
          CallOf(0), first.memory));
    }
    const unsigned bytes = ElementBytes(first.fragments[0].element);
    const unsigned step = kLeadingDimensionBytes / bytes;
    if (first.ldm % step != 0) {
      // [lang.wmma.load.ldm-multiple-of-16-bytes]
      // [lang.wmma.store.pointer-alignment]
      Fail(absl::StrFormat(
          "%s is called with ldm %u, which is not a multiple of %u: ldm counts "
          "%s elements and must be a multiple of 16 bytes' worth of them",
          CallOf(0), first.ldm, step, ElementName(first.fragments[0].element)));
    }
  }

  // The address of tile element (i, j) in memory laid out as `request`
  // says. [lang.wmma.load.row-major-addressing]
  // [lang.wmma.load.col-major-addressing]
  // [lang.wmma.store.layout-argument-required]
  static size_t Offset(const __mc_matrix_request& request, unsigned i,
                       unsigned j) {
    const size_t ldm = request.ldm;
    return request.memory_layout == __MC_MATRIX_ROW_MAJOR ? i * ldm + j
                                                          : j * ldm + i;
  }

  // Calls `body(lane, t, i, j)` for every element of the tile of fragment
  // `f`: element (i, j) is lane's x[t].
  template <typename Body>
  void EachElement(const __mc_matrix_fragment_ref& f, Body body) const {
    const unsigned columns = Columns(f);
    const unsigned per_lane = static_cast<unsigned>(f.num_elements);
    const unsigned count = Rows(f) * columns;
    for (unsigned e = 0; e < count; ++e) {
      body(e / per_lane, e % per_lane, e / columns, e % columns);
    }
  }

  // Lane `lane`'s x[t] of fragment number `f` of the requests.
  unsigned char* ElementAt(int f, unsigned lane, unsigned t) const {
    const __mc_matrix_fragment_ref& ref = call_.requests[lane]->fragments[f];
    return static_cast<unsigned char*>(ref.elements) +
           size_t{t} * ElementBytes(ref.element);
  }

  void Load(const __mc_matrix_request& request) const {
    const __mc_matrix_fragment_ref& f = request.fragments[0];
    const unsigned bytes = ElementBytes(f.element);
    const auto* memory = static_cast<const unsigned char*>(request.memory);
    EachElement(f, [&](unsigned lane, unsigned t, unsigned i, unsigned j) {
      std::memcpy(ElementAt(0, lane, t), memory + Offset(request, i, j) * bytes,
                  bytes);
    });
  }

  void Store(const __mc_matrix_request& request) const {
    const __mc_matrix_fragment_ref& f = request.fragments[0];
    const unsigned bytes = ElementBytes(f.element);
    auto* memory =
        static_cast<unsigned char*>(const_cast<void*>(request.memory));
    EachElement(f, [&](unsigned lane, unsigned t, unsigned i, unsigned j) {
      std::memcpy(memory + Offset(request, i, j) * bytes, ElementAt(0, lane, t),
                  bytes);
    });
  }

  // Fragment number `f`'s tile as doubles, row-major.
  std::vector<double> ReadTile(int f) const {
    const __mc_matrix_fragment_ref& ref = call_.requests[0]->fragments[f];
    const unsigned bytes = ElementBytes(ref.element);
    std::vector<double> tile(Rows(ref) * Columns(ref));
    // Element number e of the tile is tile[e] (both row-major); the loads
    // have the element's width, so that no partial store is read back.
    const unsigned per_lane = static_cast<unsigned>(ref.num_elements);
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      const unsigned char* x = ElementAt(f, lane, 0);
      double* out = tile.data() + size_t{lane} * per_lane;
      for (unsigned t = 0; t < per_lane; ++t) {
        if (bytes == 2) {
          uint16_t bits;
          std::memcpy(&bits, x + 2 * t, 2);
          out[t] = ToDouble(ref.element, bits);
        } else {
          float value;
          std::memcpy(&value, x + 4 * t, 4);
          out[t] = value;
        }
      }
    }
    return tile;
  }

  // [lang.wmma.mma.computes-product-plus-accumulator]
  void Mma() const {
    const __mc_matrix_request& first = *call_.requests[0];
    const __mc_matrix_fragment_ref& d = first.fragments[__MC_MATRIX_MMA_D];
    const unsigned n = static_cast<unsigned>(d.n);
    const unsigned k = static_cast<unsigned>(d.k);
    const DefaultFloatingPoint environment;
    // Everything is read before anything is written: D may be C.
    const std::vector<double> a = ReadTile(__MC_MATRIX_MMA_A);
    const std::vector<double> b = ReadTile(__MC_MATRIX_MMA_B);
    const std::vector<double> c = ReadTile(__MC_MATRIX_MMA_C);
    const unsigned bytes = ElementBytes(d.element);
    EachElement(d, [&](unsigned lane, unsigned t, unsigned i, unsigned j) {
      double sum = c[i * n + j];
      for (unsigned p = 0; p < k; ++p) sum += a[i * k + p] * b[p * n + j];
      const uint32_t bits = RoundTo(d.element, sum);
      std::memcpy(ElementAt(__MC_MATRIX_MMA_D, lane, t), &bits, bytes);
    });
  }

  const MatrixWaveCall& call_;
};

}  // namespace

const char* MatrixFunctionName(const __mc_matrix_request* request) {
  if (request == nullptr || request->function == nullptr) {
    return "an mxmaca::wmma matrix function";
  }
  return request->function;
}

void PerformMatrixOperation(const MatrixWaveCall& call) {
  WaveMatrixCall(call).Run();
}

}  // namespace mxcts::device_internal
