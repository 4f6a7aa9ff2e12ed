// Conformance: bfloat16, __maca_bfloat16 and __maca_bfloat162 from
// maca_bfloat16.h (docs/spec/lang-math.md "bfloat16").
//
// The header is used in kernels and in host code of this file, so it is
// compiled by both passes. Expected values are computed on the host from
// the definition: a bfloat16 is the upper half of a binary32, and rounding
// to it keeps 8 significant bits, which the host does with nearbyint on the
// scaled significand of an exactly computed double or long double.

#include <maca_bfloat16.h>
#include <mc_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>

#include "conformance/language/math/math_testing.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::math_testing::Mode;
using ::mxcts::math_testing::ModeName;

constexpr Mode kModes[] = {Mode::kRn, Mode::kRz, Mode::kRu, Mode::kRd};

static_assert(sizeof(__maca_bfloat16) == 2 && alignof(__maca_bfloat16) == 2,
              "bfloat16");
static_assert(sizeof(__maca_bfloat162) == 4 && alignof(__maca_bfloat162) == 4,
              "bfloat16 pair");
static_assert(std::is_trivially_copyable<__maca_bfloat16>::value, "copyable");
static_assert(std::is_standard_layout<__maca_bfloat162>::value, "layout");

// ---------------------------------------------------------------------------
// Host reference.
// ---------------------------------------------------------------------------

float FloatOf(std::uint16_t bits) {
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}
std::uint16_t UpperBits(float f) {
  std::uint32_t wide;
  std::memcpy(&wide, &f, 4);
  return static_cast<std::uint16_t>(wide >> 16);
}
bool IsNanBits(std::uint16_t b) { return (b & 0x7FFF) > 0x7F80; }

std::string Hex(std::uint16_t bits) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%04x", bits);
  return text;
}

// `exact` rounded to bfloat16 (8 significant bits, binary32's exponent
// range) in `mode`.
std::uint16_t Bfloat16InMode(long double exact, Mode mode) {
  if (std::isnan(exact)) return 0x7FC0;
  if (exact == 0) return std::signbit(exact) ? 0x8000 : 0x0000;
  if (std::isinf(exact)) return exact > 0 ? 0x7F80 : 0xFF80;
  int exponent = 0;
  std::frexp(exact, &exponent);  // |exact| in [2^(exponent-1), 2^exponent)
  const int quantum = std::max(exponent - 8, -133);  // subnormals: 2^-133
  const long double scaled = std::ldexp(exact, -quantum);
  long double rounded = 0;
  switch (mode) {
    case Mode::kRn:
      rounded = std::nearbyint(scaled);
      break;
    case Mode::kRz:
      rounded = std::trunc(scaled);
      break;
    case Mode::kRu:
      rounded = std::ceil(scaled);
      break;
    case Mode::kRd:
      rounded = std::floor(scaled);
      break;
  }
  const long double value = std::ldexp(rounded, quantum);
  const long double max = FloatOf(0x7F7F);
  if (std::fabs(value) > max) {
    const bool to_infinity = mode == Mode::kRn ||
                             (mode == Mode::kRu && value > 0) ||
                             (mode == Mode::kRd && value < 0);
    const std::uint16_t sign = value < 0 ? 0x8000 : 0;
    return sign | (to_infinity ? 0x7F80 : 0x7F7F);
  }
  if (value == 0) return exact < 0 ? 0x8000 : 0x0000;
  return UpperBits(static_cast<float>(value));  // exact: 8 bits
}

// ---------------------------------------------------------------------------
// Types and float conversions. [lang.math.bfloat16.types]
// [lang.math.bfloat16.float-conversions]
// ---------------------------------------------------------------------------

// A __device__ variable of the type, set from host code (CUDA's bfloat16,
// unlike the reference's, has no constexpr constructor from float, and the
// clause does not ask for one).
__device__ __maca_bfloat16 device_bfloat16;

__global__ void LayoutKernel(int* sizes, std::uint16_t* lanes,
                             float* constant) {
  sizes[0] = sizeof(__maca_bfloat16);
  sizes[1] = alignof(__maca_bfloat16);
  sizes[2] = sizeof(__maca_bfloat162);
  sizes[3] = alignof(__maca_bfloat162);
  const __maca_bfloat162 pair = __floats2bfloat162_rn(1.0f, -2.0f);
  std::memcpy(lanes, &pair, sizeof pair);
  *constant = __bfloat162float(device_bfloat16);
}

TEST(Bfloat16, TypesAreUpperHalvesOfBinary32InDeviceCode) {
  MX_SPEC("lang.math.bfloat16.types");
  int* sizes = nullptr;
  std::uint16_t* lanes = nullptr;
  float* constant = nullptr;
  ASSERT_EQ(mcMallocManaged(&sizes, 4 * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&lanes, 2 * sizeof(std::uint16_t)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&constant, sizeof(float)), mcSuccess);
  const __maca_bfloat16 host_bfloat16 = __float2bfloat16(2.5f);
  ASSERT_EQ(
      mcMemcpyToSymbol(device_bfloat16, &host_bfloat16, sizeof host_bfloat16),
      mcSuccess);
  LayoutKernel<<<1, 1>>>(sizes, lanes, constant);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(sizes[0], 2);
  EXPECT_EQ(sizes[1], 2);
  EXPECT_EQ(sizes[2], 4);
  EXPECT_EQ(sizes[3], 4);
  EXPECT_EQ(lanes[0], 0x3F80);  // 1.0, low lane first
  EXPECT_EQ(lanes[1], 0xC000);  // -2.0
  EXPECT_EQ(*constant, 2.5f);
  mcFree(sizes);
  mcFree(lanes);
  mcFree(constant);
}

__global__ void AllToFloatKernel(float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] =
      __bfloat162float(__ushort_as_bfloat16(static_cast<unsigned short>(i)));
}

TEST(Bfloat16, EveryBfloat16ConvertsToFloatExactly) {
  MX_SPEC("lang.math.bfloat16.float-conversions");
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 65536 * sizeof(float)), mcSuccess);
  AllToFloatKernel<<<256, 256>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 65536; ++i) {
    ASSERT_EQ(::mxcts::math_testing::Bits(out[i]), static_cast<std::uint32_t>(i)
                                                       << 16)
        << Hex(i);
  }
  mcFree(out);
}

__global__ void FloatToBfloat16Kernel(Mode mode, const float* in,
                                      std::uint16_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __maca_bfloat16 b;
  switch (mode) {
    case Mode::kRn:
      b = i % 2 ? __float2bfloat16(in[i]) : __float2bfloat16_rn(in[i]);
      break;
    case Mode::kRz:
      b = __float2bfloat16_rz(in[i]);
      break;
    case Mode::kRu:
      b = __float2bfloat16_ru(in[i]);
      break;
    default:
      b = __float2bfloat16_rd(in[i]);
      break;
  }
  out[i] = __bfloat16_as_ushort(b);
}

class FloatToBfloat16 : public ::testing::TestWithParam<Mode> {};

TEST_P(FloatToBfloat16, ManyFloatsRoundInMode) {
  MX_SPEC("lang.math.bfloat16.float-conversions",
          "lang.math.bfloat16.conversions");
  const Mode mode = GetParam();
  constexpr int n = 1 << 16;
  float* in = nullptr;
  std::uint16_t* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&in, n * sizeof(float)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&out, n * sizeof(std::uint16_t)), mcSuccess);
  for (int i = 0; i < n; ++i) {
    // Every upper half, with a low half that is zero, a tie or neither.
    const std::uint32_t low[] = {0x0000u, 0x8000u, 0x7FFFu, 0x8001u};
    const std::uint32_t bits =
        (static_cast<std::uint32_t>(i) << 16) | low[(i * 7) % 4];
    std::memcpy(&in[i], &bits, 4);
  }
  FloatToBfloat16Kernel<<<n / 256, 256>>>(mode, in, out, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) {
    const std::uint16_t expected = Bfloat16InMode(in[i], mode);
    if (IsNanBits(expected)) {
      ASSERT_TRUE(IsNanBits(out[i])) << Hex(i);
    } else {
      ASSERT_EQ(Hex(out[i]), Hex(expected))
          << ModeName(mode) << " " << std::hexfloat << in[i];
    }
  }
  mcFree(in);
  mcFree(out);
}

INSTANTIATE_TEST_SUITE_P(Bfloat16, FloatToBfloat16, ::testing::ValuesIn(kModes),
                         [](const ::testing::TestParamInfo<Mode>& info) {
                           return std::string(ModeName(info.param));
                         });

// ---------------------------------------------------------------------------
// Arithmetic. [lang.math.bfloat16.arithmetic]
// ---------------------------------------------------------------------------

enum class Op {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kFma,
  kNeg,
  kAbs,
  kAddSat,
  kFmaRelu,
  kMax,
  kMinNan,
  kSqrt
};

const char* OpName(Op op) {
  static const char* const kNames[] = {
      "hadd", "hsub",     "hmul",      "hdiv", "hfma",     "hneg",
      "habs", "hadd_sat", "hfma_relu", "hmax", "hmin_nan", "hsqrt"};
  return kNames[static_cast<int>(op)];
}

__device__ __maca_bfloat16 Apply(Op op, __maca_bfloat16 a, __maca_bfloat16 b,
                                 __maca_bfloat16 c) {
  switch (op) {
    case Op::kAdd:
      return __hadd(a, b);
    case Op::kSub:
      return __hsub(a, b);
    case Op::kMul:
      return __hmul(a, b);
    case Op::kDiv:
      return __hdiv(a, b);
    case Op::kFma:
      return __hfma(a, b, c);
    case Op::kNeg:
      return __hneg(a);
    case Op::kAbs:
      return __habs(a);
    case Op::kAddSat:
      return __hadd_sat(a, b);
    case Op::kFmaRelu:
      return __hfma_relu(a, b, c);
    case Op::kMax:
      return __hmax(a, b);
    case Op::kMinNan:
      return __hmin_nan(a, b);
    case Op::kSqrt:
      return hsqrt(a);
  }
  return __maca_bfloat16(0.0f);
}

__global__ void OpKernel(Op op, const std::uint16_t* a, const std::uint16_t* b,
                         const std::uint16_t* c, std::uint16_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = __bfloat16_as_ushort(Apply(op, __ushort_as_bfloat16(a[i]),
                                        __ushort_as_bfloat16(b[i]),
                                        __ushort_as_bfloat16(c[i])));
  }
}

std::uint16_t Expected(Op op, std::uint16_t ab, std::uint16_t bb,
                       std::uint16_t cb) {
  const long double a = FloatOf(ab), b = FloatOf(bb), c = FloatOf(cb);
  const auto rn = [](long double v) { return Bfloat16InMode(v, Mode::kRn); };
  const bool nan = IsNanBits(ab) || IsNanBits(bb);
  switch (op) {
    case Op::kAdd:
      return rn(a + b);  // exact in long double for the operands used
    case Op::kSub:
      return rn(a - b);
    case Op::kMul:
      return rn(a * b);
    case Op::kDiv:
      return rn(static_cast<double>(a) / static_cast<double>(b));
    case Op::kFma:
      return rn(a * b + c);
    case Op::kNeg:
      return ab ^ 0x8000;
    case Op::kAbs:
      return ab & 0x7FFF;
    case Op::kAddSat: {
      const std::uint16_t r = rn(a + b);
      if (IsNanBits(r) || !(FloatOf(r) > 0)) return 0;
      return FloatOf(r) > 1 ? 0x3F80 : r;
    }
    case Op::kFmaRelu: {
      const std::uint16_t r = rn(a * b + c);
      return IsNanBits(r) || !(FloatOf(r) > 0) ? 0 : r;
    }
    case Op::kMax:
      if (IsNanBits(ab)) return bb;
      if (IsNanBits(bb)) return ab;
      return a >= b ? ab : bb;
    case Op::kMinNan:
      if (nan) return 0x7FC0;
      return a <= b ? ab : bb;
    case Op::kSqrt:
      return rn(std::sqrt(static_cast<double>(a)));
  }
  return 0;
}

struct Operands {
  const char* label;
  std::uint16_t a, b, c;
};

using OpParam = std::tuple<Op, Operands>;

class Bfloat16Arithmetic : public ::testing::TestWithParam<OpParam> {};

TEST_P(Bfloat16Arithmetic, MatchesCorrectlyRoundedResult) {
  MX_SPEC("lang.math.bfloat16.arithmetic");
  const auto [op, v] = GetParam();
  std::uint16_t *a, *b, *c, *out;
  ASSERT_EQ(mcMallocManaged(&a, 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&b, 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&c, 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&out, 2), mcSuccess);
  *a = v.a, *b = v.b, *c = v.c;
  OpKernel<<<1, 1>>>(op, a, b, c, out, 1);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::uint16_t expected = Expected(op, v.a, v.b, v.c);
  if (IsNanBits(expected)) {
    EXPECT_TRUE(IsNanBits(*out)) << OpName(op) << ": got " << Hex(*out);
  } else {
    EXPECT_EQ(Hex(*out), Hex(expected)) << OpName(op) << "(" << Hex(v.a) << ", "
                                        << Hex(v.b) << ", " << Hex(v.c) << ")";
  }
  for (void* p : {static_cast<void*>(a), static_cast<void*>(b),
                  static_cast<void*>(c), static_cast<void*>(out)}) {
    mcFree(p);
  }
}

const Operands kOperands[] = {
    // 1.5, 1/3 (0x3EAB), 0.1 (0x3DCD)
    {"ordinary", 0x3FC0, 0x3EAB, 0x3DCD},
    // 1 + 2^-7 and 2^-8: sums land on ties
    {"ties", 0x3F81, 0x3B80, 0x3C00},
    // the largest finite value doubled overflows
    {"overflow", 0x7F7F, 0x4000, 0xFF7F},
    // 0.75 and -0.75
    {"cancel", 0x3F40, 0xBF40, 0x3F40},
    {"nan", 0x7FC0, 0x3F80, 0x3F80},
    {"zeros", 0x8000, 0x0000, 0x8000},
};

INSTANTIATE_TEST_SUITE_P(
    Bfloat16, Bfloat16Arithmetic,
    ::testing::Combine(::testing::Values(Op::kAdd, Op::kSub, Op::kMul, Op::kDiv,
                                         Op::kFma, Op::kNeg, Op::kAbs,
                                         Op::kAddSat, Op::kFmaRelu, Op::kMax,
                                         Op::kMinNan, Op::kSqrt),
                       ::testing::ValuesIn(kOperands)),
    [](const ::testing::TestParamInfo<OpParam>& info) {
      return std::string(OpName(std::get<0>(info.param))) + "_" +
             std::get<1>(info.param).label;
    });

class Bfloat16ArithmeticSweep : public ::testing::TestWithParam<Op> {};

TEST_P(Bfloat16ArithmeticSweep, ManyOperandPairsMatch) {
  MX_SPEC("lang.math.bfloat16.arithmetic");
  const Op op = GetParam();
  constexpr int n = 1 << 14;
  std::uint16_t *a, *b, *c, *out;
  ASSERT_EQ(mcMallocManaged(&a, n * 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&b, n * 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&c, n * 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&out, n * 2), mcSuccess);
  std::uint32_t state = 777;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    // Exponents within 2^-20 .. 2^19, so that sums are exact in long double.
    const auto pick = [](std::uint32_t r) {
      const std::uint16_t exponent = 107 + (r >> 8) % 40;
      return static_cast<std::uint16_t>((r & 0x8000) | (exponent << 7) |
                                        (r & 0x7F));
    };
    a[i] = pick(state >> 8);
    b[i] = pick(state * 31u);
    c[i] = 0;
  }
  OpKernel<<<n / 256, 256>>>(op, a, b, c, out, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) {
    const std::uint16_t expected = Expected(op, a[i], b[i], 0);
    if (IsNanBits(expected)) {
      ASSERT_TRUE(IsNanBits(out[i]));
    } else {
      ASSERT_EQ(Hex(out[i]), Hex(expected))
          << OpName(op) << "(" << Hex(a[i]) << ", " << Hex(b[i]) << ")";
    }
  }
  for (void* p : {static_cast<void*>(a), static_cast<void*>(b),
                  static_cast<void*>(c), static_cast<void*>(out)}) {
    mcFree(p);
  }
}

INSTANTIATE_TEST_SUITE_P(Bfloat16, Bfloat16ArithmeticSweep,
                         ::testing::Values(Op::kAdd, Op::kSub, Op::kMul,
                                           Op::kDiv, Op::kSqrt),
                         [](const ::testing::TestParamInfo<Op>& info) {
                           return std::string(OpName(info.param));
                         });

// ---------------------------------------------------------------------------
// Pairs, comparisons, conversions and operators.
// ---------------------------------------------------------------------------

struct PairResults {
  float add_x, add_y, fma_x, fma_y, mul_rn_x, mul_rn_y;
  float eq_x, eq_y, lt_x, lt_y;
  bool beq, blt, heq, hlt, hgtu_nan, hgt_nan;
  float lows_x, lows_y, both_x, both_y, swap_x, swap_y, low, high;
};

__global__ void PairKernel(PairResults* r) {
  const __maca_bfloat162 a = __floats2bfloat162_rn(1.5f, -2.0f);
  const __maca_bfloat162 b =
      __halves2bfloat162(__float2bfloat16(1.5f), __float2bfloat16(3.0f));
  const __maca_bfloat162 c = __float2bfloat162_rn(0.25f);
  const __maca_bfloat162 add = __hadd2(a, b);
  const __maca_bfloat162 fma = __hfma2(a, b, c);
  const __maca_bfloat162 mul = __hmul2_rn(a, b);
  const __maca_bfloat162 eq = __heq2(a, b);
  const __maca_bfloat162 lt = __hlt2(a, b);
  r->add_x = __low2float(add), r->add_y = __high2float(add);
  r->fma_x = __low2float(fma), r->fma_y = __high2float(fma);
  r->mul_rn_x = __low2float(mul), r->mul_rn_y = __high2float(mul);
  r->eq_x = __low2float(eq), r->eq_y = __high2float(eq);
  r->lt_x = __low2float(lt), r->lt_y = __high2float(lt);
  r->beq = __hbeq2(a, b);
  r->blt = __hblt2(a, b);
  r->heq = __heq(__low2bfloat16(a), __low2bfloat16(b));
  r->hlt = __hlt(__high2bfloat16(a), __high2bfloat16(b));
  const __maca_bfloat16 nan = __ushort_as_bfloat16(0x7FC0);
  r->hgtu_nan = __hgtu(nan, __float2bfloat16(1.0f));
  r->hgt_nan = __hgt(nan, __float2bfloat16(1.0f));
  const __maca_bfloat162 lows = __lows2bfloat162(a, b);
  r->lows_x = __low2float(lows), r->lows_y = __high2float(lows);
  const __maca_bfloat162 both = __bfloat162bfloat162(__float2bfloat16(7.0f));
  r->both_x = __low2float(both), r->both_y = __high2float(both);
  const __maca_bfloat162 swapped = __lowhigh2highlow(a);
  r->swap_x = __low2float(swapped), r->swap_y = __high2float(swapped);
  r->low = __bfloat162float(__low2bfloat16(b));
  r->high = __bfloat162float(__high2bfloat16(b));
}

TEST(Bfloat16, PairsAreLanewiseAndComparisonsAreOrdered) {
  MX_SPEC("lang.math.bfloat16.arithmetic", "lang.math.bfloat16.conversions");
  PairResults* r = nullptr;
  ASSERT_EQ(mcMallocManaged(&r, sizeof(*r)), mcSuccess);
  PairKernel<<<1, 1>>>(r);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(r->add_x, 3.0f);
  EXPECT_EQ(r->add_y, 1.0f);
  EXPECT_EQ(r->fma_x, 2.5f);
  EXPECT_EQ(r->fma_y, -5.75f);
  EXPECT_EQ(r->mul_rn_x, 2.25f);
  EXPECT_EQ(r->mul_rn_y, -6.0f);
  EXPECT_EQ(r->eq_x, 1.0f);
  EXPECT_EQ(r->eq_y, 0.0f);
  EXPECT_EQ(r->lt_x, 0.0f);
  EXPECT_EQ(r->lt_y, 1.0f);
  EXPECT_FALSE(r->beq);  // equal in one lane only
  EXPECT_FALSE(r->blt);
  EXPECT_TRUE(r->heq);
  EXPECT_TRUE(r->hlt);
  EXPECT_TRUE(r->hgtu_nan);
  EXPECT_FALSE(r->hgt_nan);
  EXPECT_EQ(r->lows_x, 1.5f);
  EXPECT_EQ(r->lows_y, 1.5f);
  EXPECT_EQ(r->both_x, 7.0f);
  EXPECT_EQ(r->both_y, 7.0f);
  EXPECT_EQ(r->swap_x, -2.0f);
  EXPECT_EQ(r->swap_y, 1.5f);
  EXPECT_EQ(r->low, 1.5f);
  EXPECT_EQ(r->high, 3.0f);
  mcFree(r);
}

struct IntegerCase {
  const char* label;
  long long value;
};

using IntegerParam = std::tuple<Mode, IntegerCase>;

__global__ void IntegerKernel(Mode mode, long long v, std::uint16_t* from_int,
                              long long* to_int) {
  __maca_bfloat16 b;
  long long back = 0;
  const __maca_bfloat16 x = __float2bfloat16(static_cast<float>(v) + 0.5f);
  switch (mode) {
    case Mode::kRn:
      b = __ll2bfloat16_rn(v);
      back = __bfloat162ll_rn(x);
      break;
    case Mode::kRz:
      b = __ll2bfloat16_rz(v);
      back = __bfloat162ll_rz(x);
      break;
    case Mode::kRu:
      b = __ll2bfloat16_ru(v);
      back = __bfloat162ll_ru(x);
      break;
    default:
      b = __ll2bfloat16_rd(v);
      back = __bfloat162ll_rd(x);
      break;
  }
  *from_int = __bfloat16_as_ushort(b);
  *to_int = back;
}

class Bfloat16Integer : public ::testing::TestWithParam<IntegerParam> {};

TEST_P(Bfloat16Integer, ConvertsInMode) {
  MX_SPEC("lang.math.bfloat16.conversions");
  const auto [mode, input] = GetParam();
  std::uint16_t* from_int = nullptr;
  long long* to_int = nullptr;
  ASSERT_EQ(mcMallocManaged(&from_int, 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&to_int, sizeof(long long)), mcSuccess);
  IntegerKernel<<<1, 1>>>(mode, input.value, from_int, to_int);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(Hex(*from_int),
            Hex(Bfloat16InMode(static_cast<long double>(input.value), mode)));
  // The reverse: v + 0.5 rounded to bfloat16 (nearest), then to an integer.
  const float x = FloatOf(Bfloat16InMode(
      static_cast<long double>(static_cast<float>(input.value) + 0.5f),
      Mode::kRn));
  const long double expected = mode == Mode::kRn   ? std::nearbyint(x)
                               : mode == Mode::kRz ? std::trunc(x)
                               : mode == Mode::kRu ? std::ceil(x)
                                                   : std::floor(x);
  EXPECT_EQ(static_cast<long double>(*to_int), expected) << x;
  mcFree(from_int);
  mcFree(to_int);
}

INSTANTIATE_TEST_SUITE_P(
    Bfloat16, Bfloat16Integer,
    ::testing::Combine(::testing::ValuesIn(kModes),
                       ::testing::Values(IntegerCase{"zero", 0},
                                         IntegerCase{"small", 3},
                                         IntegerCase{"tie", 257},
                                         IntegerCase{"tie_up", 259},
                                         IntegerCase{"negative", -261},
                                         IntegerCase{"large", 123456789})),
    [](const ::testing::TestParamInfo<IntegerParam>& info) {
      return std::string(ModeName(std::get<0>(info.param))) + "_" +
             std::get<1>(info.param).label;
    });

struct OperatorResults {
  float sum, product, quotient, negated, compound;
  bool lt, ne, eq2;
};

// Compiled in both passes: the kernel and the host test call it.
__host__ __device__ void ComputeOperators(__maca_bfloat16 a, __maca_bfloat16 b,
                                          OperatorResults* o) {
  o->sum = __bfloat162float(a + b);
  o->product = __bfloat162float(a * b);
  o->quotient = __bfloat162float(a / b);
  o->negated = __bfloat162float(-a);
  __maca_bfloat16 c = a;
  c += b;
  c *= b;
  o->compound = __bfloat162float(c);
  o->lt = a < b;
  o->ne = a != b;
  const __maca_bfloat162 p(a, b);
  o->eq2 = p == p;
}

__global__ void OperatorKernel(__maca_bfloat16 a, __maca_bfloat16 b,
                               OperatorResults* o) {
  ComputeOperators(a, b, o);
}

TEST(Bfloat16, OperatorsWorkOnDeviceAndHost) {
  MX_SPEC("lang.math.bfloat16.arithmetic");
  const __maca_bfloat16 a = __float2bfloat16(3.0f), b = __float2bfloat16(0.5f);
  OperatorResults* device = nullptr;
  ASSERT_EQ(mcMallocManaged(&device, sizeof(*device)), mcSuccess);
  OperatorKernel<<<1, 1>>>(a, b, device);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  OperatorResults host;
  ComputeOperators(a, b, &host);
  for (const OperatorResults* o :
       {static_cast<const OperatorResults*>(device),
        static_cast<const OperatorResults*>(&host)}) {
    SCOPED_TRACE(o == device ? "device" : "host");
    EXPECT_EQ(o->sum, 3.5f);
    EXPECT_EQ(o->product, 1.5f);
    EXPECT_EQ(o->quotient, 6.0f);
    EXPECT_EQ(o->negated, -3.0f);
    EXPECT_EQ(o->compound, 1.75f);
    EXPECT_FALSE(o->lt);
    EXPECT_TRUE(o->ne);
    EXPECT_TRUE(o->eq2);
  }
  mcFree(device);
}

__global__ void BitsKernel(unsigned short* out) {
  out[0] = __bfloat16_as_ushort(__ushort_as_bfloat16(0x7FC1));
  out[1] =
      static_cast<unsigned short>(__bfloat16_as_short(__short_as_bfloat16(-2)));
  out[2] = __bfloat16_as_ushort(__float2bfloat16(-0.0f));
}

TEST(Bfloat16, BitReinterpretationKeepsBits) {
  MX_SPEC("lang.math.half.bit-reinterpretation");
  unsigned short* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 3 * sizeof(*out)), mcSuccess);
  BitsKernel<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 0x7FC1);
  EXPECT_EQ(out[1], 0xFFFE);
  EXPECT_EQ(out[2], 0x8000);
  mcFree(out);
}

}  // namespace
