// Conformance: half precision, __half and __half2 from maca_fp16.h
// (docs/spec/lang-math.md "Half precision").
//
// The header is used in kernels and in host code of this file, so it is
// compiled by both passes. Expected values come from the host compiler's own
// binary16 type (_Float16), whose conversions round to nearest even:
// sums, products and quotients of halves are computed exactly (or, for
// quotients and square roots, harmlessly) in double and converted once.
// Directed roundings step from the nearest value toward the exact one.

#include <maca_fp16.h>
#include <mc_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>

#include "conformance/language/math/math_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::math_testing::Mode;
using ::mxcts::math_testing::ModeName;

constexpr Mode kModes[] = {Mode::kRn, Mode::kRz, Mode::kRu, Mode::kRd};

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "__half2");
static_assert(std::is_trivially_copyable<__half>::value, "copyable");
// Whether __half2 is trivially copyable is no part of the clause (CUDA's
// __half2 has a copy constructor of its own).
static_assert(std::is_standard_layout<__half2>::value, "layout");
static_assert(std::is_same<half, __half>::value, "typedef");

// ---------------------------------------------------------------------------
// Host reference helpers.
// ---------------------------------------------------------------------------

std::uint16_t Bits(_Float16 h) {
  std::uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
_Float16 FromBits(std::uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return h;
}
bool IsNanBits(std::uint16_t b) { return (b & 0x7FFF) > 0x7C00; }

// The binary16 neighbour of `b` one step up or down (toward +-inf).
std::uint16_t StepUp(std::uint16_t b) {
  if (b == 0x8000) return 0x0001;
  return (b & 0x8000) ? b - 1 : b + 1;
}
std::uint16_t StepDown(std::uint16_t b) {
  if (b == 0x0000) return 0x8001;
  return (b & 0x8000) ? b + 1 : b - 1;
}

// `exact` rounded to binary16 in `mode`: the host's nearest-even
// conversion, then one step toward `exact` when the mode requires it.
std::uint16_t HalfInMode(long double exact, Mode mode) {
  const std::uint16_t nearest =
      Bits(static_cast<_Float16>(static_cast<float>(exact)));
  if (std::isnan(exact)) return nearest;
  // The float conversion above is exact for every value it is used with
  // here except huge integers, which overflow binary16 anyway.
  const long double value = static_cast<float>(FromBits(nearest));
  if (value == exact || mode == Mode::kRn) return nearest;
  switch (mode) {
    case Mode::kRz:
      return std::fabs(value) > std::fabs(exact)
                 ? (value > 0 ? StepDown(nearest) : StepUp(nearest))
                 : nearest;
    case Mode::kRu:
      return value < exact ? StepUp(nearest) : nearest;
    default:
      return value > exact ? StepDown(nearest) : nearest;
  }
}

std::string Hex(std::uint16_t bits) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%04x", bits);
  return text;
}

// ---------------------------------------------------------------------------
// Types. [lang.math.half.types]
// ---------------------------------------------------------------------------

struct Layout {
  int half_size, half_align, half2_size, half2_align;
  std::uint16_t low_lane_bits, high_lane_bits;
  float constant_value;
};

// A __device__ variable of the type, set from host code (CUDA's __half,
// unlike the reference's, has no constexpr constructor from float, and the
// clause does not ask for one).
__device__ __half device_half;

__global__ void LayoutKernel(Layout* out) {
  out->half_size = sizeof(__half);
  out->half_align = alignof(__half);
  out->half2_size = sizeof(__half2);
  out->half2_align = alignof(__half2);
  __half2 pair = __halves2half2(__float2half(1.0f), __float2half(-2.0f));
  std::uint16_t words[2];
  std::memcpy(words, &pair, sizeof pair);
  out->low_lane_bits = words[0];
  out->high_lane_bits = words[1];
  out->constant_value = __half2float(device_half);
}

TEST(Half, TypesHaveBinary16LayoutInDeviceCode) {
  MX_SPEC("lang.math.half.types");
  Layout* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  const __half host_half = __float2half(1.5f);
  ASSERT_EQ(mcMemcpyToSymbol(device_half, &host_half, sizeof host_half),
            mcSuccess);
  LayoutKernel<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out->half_size, 2);
  EXPECT_EQ(out->half_align, 2);
  EXPECT_EQ(out->half2_size, 4);
  EXPECT_EQ(out->half2_align, 4);
  EXPECT_EQ(out->low_lane_bits, 0x3C00);   // .x, 1.0, at the lower address
  EXPECT_EQ(out->high_lane_bits, 0xC000);  // .y, -2.0
  EXPECT_EQ(out->constant_value, 1.5f);
  mcFree(out);
}

// ---------------------------------------------------------------------------
// float <-> half. [lang.math.half.float-conversions]
// ---------------------------------------------------------------------------

__global__ void AllHalvesToFloatKernel(float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __half2float(__ushort_as_half(static_cast<unsigned short>(i)));
}

TEST(Half, EveryHalfConvertsToFloatExactly) {
  MX_SPEC("lang.math.half.float-conversions");
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 65536 * sizeof(float)), mcSuccess);
  AllHalvesToFloatKernel<<<256, 256>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 65536; ++i) {
    const float expected = static_cast<float>(FromBits(i));
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(out[i])) << Hex(i);
    } else {
      ASSERT_EQ(::mxcts::math_testing::Bits(out[i]),
                ::mxcts::math_testing::Bits(expected))
          << Hex(i);
    }
  }
  mcFree(out);
}

__global__ void FloatsToHalfKernel(const float* in, std::uint16_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half_as_ushort(__float2half(in[i]));
}

TEST(Half, ManyFloatsRoundToNearestEven) {
  MX_SPEC("lang.math.half.float-conversions");
  constexpr int n = 1 << 16;
  float* in = nullptr;
  std::uint16_t* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&in, n * sizeof(float)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&out, n * sizeof(std::uint16_t)), mcSuccess);
  // Floats around every half, including the exact midpoints between them.
  for (int i = 0; i < n; ++i) {
    std::uint32_t bits = (static_cast<std::uint32_t>(i) << 14) ^ 0x1000u;
    if (i % 3 == 0) bits = (bits & ~0x1FFFu) | 0x1000u;  // a midpoint
    std::memcpy(&in[i], &bits, 4);
  }
  FloatsToHalfKernel<<<n / 256, 256>>>(in, out, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) {
    const std::uint16_t expected = Bits(static_cast<_Float16>(in[i]));
    if (IsNanBits(expected)) {
      ASSERT_TRUE(IsNanBits(out[i])) << in[i];
    } else {
      ASSERT_EQ(out[i], expected) << std::hexfloat << in[i];
    }
  }
  mcFree(in);
  mcFree(out);
}

struct FloatInput {
  const char* label;
  float value;
};

__global__ void FloatToHalfModeKernel(Mode mode, float x, std::uint16_t* out) {
  __half h;
  switch (mode) {
    case Mode::kRn:
      h = __float2half_rn(x);
      break;
    case Mode::kRz:
      h = __float2half_rz(x);
      break;
    case Mode::kRu:
      h = __float2half_ru(x);
      break;
    default:
      h = __float2half_rd(x);
      break;
  }
  *out = __half_as_ushort(h);
}

using FloatModeParam = std::tuple<Mode, FloatInput>;

class FloatToHalf : public ::testing::TestWithParam<FloatModeParam> {};

TEST_P(FloatToHalf, RoundsInMode) {
  MX_SPEC("lang.math.half.float-conversions");
  const auto [mode, input] = GetParam();
  std::uint16_t* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  FloatToHalfModeKernel<<<1, 1>>>(mode, input.value, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::uint16_t expected = HalfInMode(input.value, mode);
  if (IsNanBits(expected)) {
    EXPECT_TRUE(IsNanBits(*out)) << Hex(*out);
  } else {
    EXPECT_EQ(Hex(*out), Hex(expected))
        << "float2half_" << ModeName(mode) << "(" << input.value << ")";
  }
  mcFree(out);
}

const FloatInput kFloatInputs[] = {
    {"one", 1.0f},
    {"one_third", 1.0f / 3.0f},
    {"minus_one_third", -1.0f / 3.0f},
    {"tie_to_even_down", 1.0f + 0x1p-11f},
    {"tie_to_even_up", 1.0f + 3 * 0x1p-11f},
    {"max_half", 65504.0f},
    {"overflow_tie", 65520.0f},
    {"below_overflow_tie", 65519.0f},
    {"huge", 1e9f},
    {"minus_huge", -1e9f},
    {"smallest_subnormal", 0x1p-24f},
    {"half_smallest_subnormal", 0x1p-25f},
    {"tiny", 1e-30f},
    {"minus_tiny", -1e-30f},
    {"minus_zero", -0.0f},
    {"inf", std::numeric_limits<float>::infinity()},
    {"nan", std::numeric_limits<float>::quiet_NaN()},
};

INSTANTIATE_TEST_SUITE_P(
    Half, FloatToHalf,
    ::testing::Combine(::testing::ValuesIn(kModes),
                       ::testing::ValuesIn(kFloatInputs)),
    [](const ::testing::TestParamInfo<FloatModeParam>& info) {
      return std::string(ModeName(std::get<0>(info.param))) + "_" +
             std::get<1>(info.param).label;
    });

// ---------------------------------------------------------------------------
// Arithmetic. [lang.math.half.arithmetic]
// ---------------------------------------------------------------------------

enum class HalfOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kFma,
  kNeg,
  kAbs,
  kAddSat,
  kSubSat,
  kMulSat,
  kFmaSat,
  kFmaRelu,
  kMax,
  kMin,
  kMaxNan,
  kMinNan,
  kSqrt,
  kRcp,
};

const char* HalfOpName(HalfOp op) {
  static const char* const kNames[] = {
      "hadd", "hsub",     "hmul",     "hdiv",     "hfma",     "hneg",
      "habs", "hadd_sat", "hsub_sat", "hmul_sat", "hfma_sat", "hfma_relu",
      "hmax", "hmin",     "hmax_nan", "hmin_nan", "hsqrt",    "hrcp"};
  return kNames[static_cast<int>(op)];
}

__device__ __half ApplyHalf(HalfOp op, __half a, __half b, __half c) {
  switch (op) {
    case HalfOp::kAdd:
      return __hadd(a, b);
    case HalfOp::kSub:
      return __hsub(a, b);
    case HalfOp::kMul:
      return __hmul(a, b);
    case HalfOp::kDiv:
      return __hdiv(a, b);
    case HalfOp::kFma:
      return __hfma(a, b, c);
    case HalfOp::kNeg:
      return __hneg(a);
    case HalfOp::kAbs:
      return __habs(a);
    case HalfOp::kAddSat:
      return __hadd_sat(a, b);
    case HalfOp::kSubSat:
      return __hsub_sat(a, b);
    case HalfOp::kMulSat:
      return __hmul_sat(a, b);
    case HalfOp::kFmaSat:
      return __hfma_sat(a, b, c);
    case HalfOp::kFmaRelu:
      return __hfma_relu(a, b, c);
    case HalfOp::kMax:
      return __hmax(a, b);
    case HalfOp::kMin:
      return __hmin(a, b);
    case HalfOp::kMaxNan:
      return __hmax_nan(a, b);
    case HalfOp::kMinNan:
      return __hmin_nan(a, b);
    case HalfOp::kSqrt:
      return hsqrt(a);
    case HalfOp::kRcp:
      return hrcp(a);
  }
  return __half(0.0f);
}

__global__ void HalfOpKernel(HalfOp op, std::uint16_t a, std::uint16_t b,
                             std::uint16_t c, std::uint16_t* out) {
  *out = __half_as_ushort(ApplyHalf(op, __ushort_as_half(a),
                                    __ushort_as_half(b), __ushort_as_half(c)));
}

std::uint16_t Saturate(std::uint16_t bits) {
  if (IsNanBits(bits)) return 0;
  const float v = static_cast<float>(FromBits(bits));
  if (!(v > 0)) return 0;
  return v > 1 ? 0x3C00 : bits;
}

// The host's result of `op`, from exact (or harmlessly rounded) double or
// long double arithmetic converted once.
std::uint16_t ExpectedHalf(HalfOp op, std::uint16_t ab, std::uint16_t bb,
                           std::uint16_t cb) {
  const double a = static_cast<float>(FromBits(ab));
  const double b = static_cast<float>(FromBits(bb));
  const double c = static_cast<float>(FromBits(cb));
  const auto round = [](long double v) { return HalfInMode(v, Mode::kRn); };
  const bool a_nan = IsNanBits(ab), b_nan = IsNanBits(bb);
  switch (op) {
    case HalfOp::kAdd:
      return round(a + b);
    case HalfOp::kSub:
      return round(a - b);
    case HalfOp::kMul:
      return round(a * b);
    case HalfOp::kDiv:
      return round(a / b);
    case HalfOp::kFma:
      return round(static_cast<long double>(a) * b + c);
    case HalfOp::kNeg:
      return ab ^ 0x8000;
    case HalfOp::kAbs:
      return ab & 0x7FFF;
    case HalfOp::kAddSat:
      return Saturate(round(a + b));
    case HalfOp::kSubSat:
      return Saturate(round(a - b));
    case HalfOp::kMulSat:
      return Saturate(round(a * b));
    case HalfOp::kFmaSat:
      return Saturate(round(static_cast<long double>(a) * b + c));
    case HalfOp::kFmaRelu: {
      const std::uint16_t r = round(static_cast<long double>(a) * b + c);
      return IsNanBits(r) || !(static_cast<float>(FromBits(r)) > 0) ? 0 : r;
    }
    case HalfOp::kMax:
      if (a_nan) return bb;
      if (b_nan) return ab;
      return a >= b ? ab : bb;
    case HalfOp::kMin:
      if (a_nan) return bb;
      if (b_nan) return ab;
      return a <= b ? ab : bb;
    case HalfOp::kMaxNan:
      if (a_nan || b_nan) return 0x7E00;
      return a >= b ? ab : bb;
    case HalfOp::kMinNan:
      if (a_nan || b_nan) return 0x7E00;
      return a <= b ? ab : bb;
    case HalfOp::kSqrt:
      return round(std::sqrt(a));
    case HalfOp::kRcp:
      return round(1.0 / a);
  }
  return 0;
}

struct HalfOperands {
  const char* label;
  std::uint16_t a, b, c;
};

using HalfOpParam = std::tuple<HalfOp, HalfOperands>;

class HalfArithmetic : public ::testing::TestWithParam<HalfOpParam> {};

TEST_P(HalfArithmetic, MatchesCorrectlyRoundedResult) {
  MX_SPEC("lang.math.half.arithmetic");
  const auto [op, v] = GetParam();
  std::uint16_t* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  HalfOpKernel<<<1, 1>>>(op, v.a, v.b, v.c, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::uint16_t expected = ExpectedHalf(op, v.a, v.b, v.c);
  if (IsNanBits(expected)) {
    EXPECT_TRUE(IsNanBits(*out)) << HalfOpName(op) << ": got " << Hex(*out);
  } else {
    EXPECT_EQ(Hex(*out), Hex(expected))
        << HalfOpName(op) << "(" << Hex(v.a) << ", " << Hex(v.b) << ", "
        << Hex(v.c) << ")";
  }
  mcFree(out);
}

const HalfOperands kHalfOperands[] = {
    // 1.5, 0.333 (0x3555), 0.1 (0x2E66)
    {"ordinary", 0x3E00, 0x3555, 0x2E66},
    // 1 + 2^-10 and 2^-11: sums and products land on ties
    {"ties", 0x3C01, 0x1000, 0x1400},
    // 65504 * 2 overflows; -65504 in c
    {"overflow", 0x7BFF, 0x4000, 0xFBFF},
    // smallest subnormal and 0.5
    {"subnormal", 0x0001, 0x3800, 0x0003},
    // 0.75 and -0.75: exact cancellation and saturation below 0
    {"cancel", 0x3A00, 0xBA00, 0x3A00},
    // 0.875 + 0.25 exceeds 1 (saturates), negative third operand
    {"saturate", 0x3B00, 0x3400, 0xB400},
    // NaN first operand
    {"nan", 0x7E00, 0x3C00, 0x3C00},
    // -0 and +0
    {"zeros", 0x8000, 0x0000, 0x8000},
};

INSTANTIATE_TEST_SUITE_P(
    Half, HalfArithmetic,
    ::testing::Combine(
        ::testing::Values(HalfOp::kAdd, HalfOp::kSub, HalfOp::kMul,
                          HalfOp::kDiv, HalfOp::kFma, HalfOp::kNeg,
                          HalfOp::kAbs, HalfOp::kAddSat, HalfOp::kSubSat,
                          HalfOp::kMulSat, HalfOp::kFmaSat, HalfOp::kFmaRelu,
                          HalfOp::kMax, HalfOp::kMin, HalfOp::kMaxNan,
                          HalfOp::kMinNan, HalfOp::kSqrt, HalfOp::kRcp),
        ::testing::ValuesIn(kHalfOperands)),
    [](const ::testing::TestParamInfo<HalfOpParam>& info) {
      return std::string(HalfOpName(std::get<0>(info.param))) + "_" +
             std::get<1>(info.param).label;
    });

__global__ void AllPairsKernel(HalfOp op, const std::uint16_t* a,
                               const std::uint16_t* b, std::uint16_t* out,
                               int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = __half_as_ushort(ApplyHalf(op, __ushort_as_half(a[i]),
                                        __ushort_as_half(b[i]),
                                        __ushort_as_half(0)));
  }
}

class HalfArithmeticSweep : public ::testing::TestWithParam<HalfOp> {};

TEST_P(HalfArithmeticSweep, ManyOperandPairsMatch) {
  MX_SPEC("lang.math.half.arithmetic");
  const HalfOp op = GetParam();
  constexpr int n = 1 << 14;
  std::uint16_t *a, *b, *out;
  ASSERT_EQ(mcMallocManaged(&a, n * 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&b, n * 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&out, n * 2), mcSuccess);
  std::uint32_t state = 12345;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    a[i] = static_cast<std::uint16_t>(state >> 16);
    b[i] = static_cast<std::uint16_t>(state);
  }
  AllPairsKernel<<<n / 256, 256>>>(op, a, b, out, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) {
    const std::uint16_t expected = ExpectedHalf(op, a[i], b[i], 0);
    if (IsNanBits(expected)) {
      ASSERT_TRUE(IsNanBits(out[i])) << Hex(a[i]) << " " << Hex(b[i]);
    } else {
      ASSERT_EQ(Hex(out[i]), Hex(expected))
          << HalfOpName(op) << "(" << Hex(a[i]) << ", " << Hex(b[i]) << ")";
    }
  }
  mcFree(a);
  mcFree(b);
  mcFree(out);
}

INSTANTIATE_TEST_SUITE_P(Half, HalfArithmeticSweep,
                         ::testing::Values(HalfOp::kAdd, HalfOp::kSub,
                                           HalfOp::kMul, HalfOp::kDiv,
                                           HalfOp::kSqrt),
                         [](const ::testing::TestParamInfo<HalfOp>& info) {
                           return std::string(HalfOpName(info.param));
                         });

// ---------------------------------------------------------------------------
// Comparisons. [lang.math.half.comparisons]
// ---------------------------------------------------------------------------

enum class Relation { kEq, kNe, kLt, kLe, kGt, kGe };

struct Comparison {
  const char* name;
  Relation relation;
  bool unordered;
};

__device__ bool CompareOnDevice(int index, __half a, __half b) {
  switch (index) {
    case 0:
      return __heq(a, b);
    case 1:
      return __hne(a, b);
    case 2:
      return __hlt(a, b);
    case 3:
      return __hle(a, b);
    case 4:
      return __hgt(a, b);
    case 5:
      return __hge(a, b);
    case 6:
      return __hequ(a, b);
    case 7:
      return __hneu(a, b);
    case 8:
      return __hltu(a, b);
    case 9:
      return __hleu(a, b);
    case 10:
      return __hgtu(a, b);
    default:
      return __hgeu(a, b);
  }
}

const Comparison kComparisons[] = {
    {"heq", Relation::kEq, false}, {"hne", Relation::kNe, false},
    {"hlt", Relation::kLt, false}, {"hle", Relation::kLe, false},
    {"hgt", Relation::kGt, false}, {"hge", Relation::kGe, false},
    {"hequ", Relation::kEq, true}, {"hneu", Relation::kNe, true},
    {"hltu", Relation::kLt, true}, {"hleu", Relation::kLe, true},
    {"hgtu", Relation::kGt, true}, {"hgeu", Relation::kGe, true},
};

__global__ void CompareKernel(int index, float a, float b, bool* out) {
  *out = CompareOnDevice(index, __float2half(a), __float2half(b));
}

struct Pair {
  const char* label;
  float a, b;
};

bool ExpectedRelation(const Comparison& c, float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return c.unordered;
  switch (c.relation) {
    case Relation::kEq:
      return a == b;
    case Relation::kNe:
      return a != b;
    case Relation::kLt:
      return a < b;
    case Relation::kLe:
      return a <= b;
    case Relation::kGt:
      return a > b;
    default:
      return a >= b;
  }
}

using CompareParam = std::tuple<int, Pair>;

class HalfComparison : public ::testing::TestWithParam<CompareParam> {};

TEST_P(HalfComparison, OrderedAndUnorderedForms) {
  MX_SPEC("lang.math.half.comparisons");
  const auto [index, pair] = GetParam();
  bool* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  CompareKernel<<<1, 1>>>(index, pair.a, pair.b, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, ExpectedRelation(kComparisons[index], pair.a, pair.b));
  mcFree(out);
}

const Pair kPairs[] = {
    {"less", 1.0f, 2.0f},
    {"greater", 2.0f, -1.0f},
    {"equal", 0.5f, 0.5f},
    {"signed_zeros", -0.0f, 0.0f},
    {"nan", std::numeric_limits<float>::quiet_NaN(), 1.0f},
};

INSTANTIATE_TEST_SUITE_P(
    Half, HalfComparison,
    ::testing::Combine(::testing::Range(0, 12), ::testing::ValuesIn(kPairs)),
    [](const ::testing::TestParamInfo<CompareParam>& info) {
      return std::string(kComparisons[std::get<0>(info.param)].name) + "_" +
             std::get<1>(info.param).label;
    });

__global__ void ClassifyKernel(int* out) {
  out[0] = __hisnan(__ushort_as_half(0x7E00));
  out[1] = __hisnan(__ushort_as_half(0x7C00));
  out[2] = __hisinf(__ushort_as_half(0x7C00));
  out[3] = __hisinf(__ushort_as_half(0xFC00));
  out[4] = __hisinf(__ushort_as_half(0x7BFF));
}

TEST(Half, IsnanAndIsinfClassify) {
  MX_SPEC("lang.math.half.comparisons");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 5 * sizeof(int)), mcSuccess);
  ClassifyKernel<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_NE(out[0], 0);
  EXPECT_EQ(out[1], 0);  // control: infinity is not NaN
  EXPECT_EQ(out[2], 1);
  EXPECT_EQ(out[3], -1);
  EXPECT_EQ(out[4], 0);  // control: the largest finite half
  mcFree(out);
}

// ---------------------------------------------------------------------------
// __half2. [lang.math.half.half2-lanewise] [lang.math.half.half2-comparisons]
// [lang.math.half.half2-construction]
// ---------------------------------------------------------------------------

struct Half2Results {
  __half2 add, sub, mul, div, fma, neg, abs, add_sat, mul_sat, fma_sat, mul_rn,
      max, min;
  __half2 eq, lt, ge, neu;
  bool beq, blt, bge, bneu;
};

__global__ void Half2Kernel(__half2 a, __half2 b, __half2 c, Half2Results* r) {
  r->add = __hadd2(a, b);
  r->sub = __hsub2(a, b);
  r->mul = __hmul2(a, b);
  r->div = __h2div(a, b);
  r->fma = __hfma2(a, b, c);
  r->neg = __hneg2(a);
  r->abs = __habs2(a);
  r->add_sat = __hadd2_sat(a, b);
  r->mul_sat = __hmul2_sat(a, b);
  r->fma_sat = __hfma2_sat(a, b, c);
  r->mul_rn = __hmul2_rn(a, b);
  r->max = __hmax2(a, b);
  r->min = __hmin2(a, b);
  r->eq = __heq2(a, b);
  r->lt = __hlt2(a, b);
  r->ge = __hge2(a, b);
  r->neu = __hneu2(a, b);
  r->beq = __hbeq2(a, b);
  r->blt = __hblt2(a, b);
  r->bge = __hbge2(a, b);
  r->bneu = __hbneu2(a, b);
}

struct LaneCase {
  const char* label;
  float ax, ay, bx, by, cx, cy;
};

class Half2Lanewise : public ::testing::TestWithParam<LaneCase> {};

TEST_P(Half2Lanewise, EachLaneIsTheScalarOperation) {
  MX_SPEC("lang.math.half.half2-lanewise", "lang.math.half.half2-comparisons");
  const LaneCase& l = GetParam();
  Half2Results* r = nullptr;
  ASSERT_EQ(mcMallocManaged(&r, sizeof(*r)), mcSuccess);
  const __half2 a = __floats2half2_rn(l.ax, l.ay);
  const __half2 b = __floats2half2_rn(l.bx, l.by);
  const __half2 c = __floats2half2_rn(l.cx, l.cy);
  Half2Kernel<<<1, 1>>>(a, b, c, r);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::uint16_t ab[2] = {__half_as_ushort(a.x), __half_as_ushort(a.y)};
  const std::uint16_t bb[2] = {__half_as_ushort(b.x), __half_as_ushort(b.y)};
  const std::uint16_t cb[2] = {__half_as_ushort(c.x), __half_as_ushort(c.y)};
  const auto lane = [](__half2 v, int i) {
    return __half_as_ushort(i == 0 ? v.x : v.y);
  };
  bool all_eq = true, all_lt = true, all_ge = true, all_neu = true;
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i == 0 ? "lane x" : "lane y");
    EXPECT_EQ(Hex(lane(r->add, i)),
              Hex(ExpectedHalf(HalfOp::kAdd, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->sub, i)),
              Hex(ExpectedHalf(HalfOp::kSub, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->mul, i)),
              Hex(ExpectedHalf(HalfOp::kMul, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->mul_rn, i)),
              Hex(ExpectedHalf(HalfOp::kMul, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->div, i)),
              Hex(ExpectedHalf(HalfOp::kDiv, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->fma, i)),
              Hex(ExpectedHalf(HalfOp::kFma, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->neg, i)),
              Hex(ExpectedHalf(HalfOp::kNeg, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->abs, i)),
              Hex(ExpectedHalf(HalfOp::kAbs, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->add_sat, i)),
              Hex(ExpectedHalf(HalfOp::kAddSat, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->mul_sat, i)),
              Hex(ExpectedHalf(HalfOp::kMulSat, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->fma_sat, i)),
              Hex(ExpectedHalf(HalfOp::kFmaSat, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->max, i)),
              Hex(ExpectedHalf(HalfOp::kMax, ab[i], bb[i], cb[i])));
    EXPECT_EQ(Hex(lane(r->min, i)),
              Hex(ExpectedHalf(HalfOp::kMin, ab[i], bb[i], cb[i])));
    const float x = static_cast<float>(FromBits(ab[i]));
    const float y = static_cast<float>(FromBits(bb[i]));
    const bool eq = x == y, lt = x < y, ge = x >= y;
    const bool neu = !(x == y);
    EXPECT_EQ(lane(r->eq, i), eq ? 0x3C00 : 0x0000);
    EXPECT_EQ(lane(r->lt, i), lt ? 0x3C00 : 0x0000);
    EXPECT_EQ(lane(r->ge, i), ge ? 0x3C00 : 0x0000);
    EXPECT_EQ(lane(r->neu, i), neu ? 0x3C00 : 0x0000);
    all_eq &= eq, all_lt &= lt, all_ge &= ge, all_neu &= neu;
  }
  EXPECT_EQ(r->beq, all_eq);
  EXPECT_EQ(r->blt, all_lt);
  EXPECT_EQ(r->bge, all_ge);
  EXPECT_EQ(r->bneu, all_neu);
  mcFree(r);
}

INSTANTIATE_TEST_SUITE_P(
    Half, Half2Lanewise,
    ::testing::Values(
        LaneCase{"distinct_lanes", 1.5f, -2.0f, 0.25f, 3.0f, 0.5f, -0.5f},
        LaneCase{"one_lane_saturates", 0.75f, 0.25f, 0.5f, 0.25f, 0.0f, 0.0f},
        LaneCase{"equal_in_both", 2.0f, -7.0f, 2.0f, -7.0f, 1.0f, 1.0f},
        LaneCase{"equal_in_one", 2.0f, -7.0f, 2.0f, 7.0f, 1.0f, 1.0f},
        LaneCase{"nan_in_high_lane", 1.0f,
                 std::numeric_limits<float>::quiet_NaN(), 1.0f, 2.0f, 0.0f,
                 0.0f},
        LaneCase{"overflow_in_low_lane", 60000.0f, 1.0f, 2.0f, 1.0f, 0.0f,
                 0.0f}),
    [](const ::testing::TestParamInfo<LaneCase>& info) {
      return std::string(info.param.label);
    });

// a * b + c with a = b = 1 + 2^-6: a * b = 1 + 2^-5 + 2^-12 rounds (tie to
// even) to 1 + 2^-5, so the separate product and sum give 0 where the fused
// form keeps 2^-12.
__global__ void HalfContractionKernel(__half2 a, __half2 c, __half2* out) {
  out[0] = __hadd2(__hmul2_rn(a, a), c);
  out[1] = __hfma2(a, a, c);
}

TEST(Half, Hmul2RnIsNeverFused) {
  MX_SPEC("lang.math.half.half2-lanewise", "lang.math.half.arithmetic");
  __half2* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 2 * sizeof(*out)), mcSuccess);
  HalfContractionKernel<<<1, 1>>>(__float2half2_rn(1.0f + 0x1p-6f),
                                  __float2half2_rn(-(1.0f + 0x1p-5f)), out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(__half2float(out[0].x), 0.0f);
  EXPECT_EQ(__half2float(out[0].y), 0.0f);
  EXPECT_EQ(__half2float(out[1].x), 0x1p-12f);  // control: fused
  mcFree(out);
}

struct Construction {
  float halves_lo, halves_hi, floats_lo, floats_hi, both;
  float low, high, low_float, high_float;
  float dup_lo, dup_hi, lows_x, lows_y, highs_x, highs_y, swap_x, swap_y;
  float low2_x, low2_y, high2_x, high2_y;
};

__global__ void ConstructionKernel(Construction* c) {
  const __half2 p = __halves2half2(__float2half(1.0f), __float2half(2.0f));
  c->halves_lo = __half2float(p.x);
  c->halves_hi = __half2float(p.y);
  const __half2 q = __floats2half2_rn(3.0f, 1.0f / 3.0f);
  c->floats_lo = __low2float(q);
  c->floats_hi = __high2float(q);
  c->both = __high2float(__float2half2_rn(5.0f));
  c->low = __half2float(__low2half(p));
  c->high = __half2float(__high2half(p));
  c->low_float = __low2float(p);
  c->high_float = __high2float(p);
  const __half2 d = __half2half2(__float2half(-4.0f));
  c->dup_lo = __low2float(d);
  c->dup_hi = __high2float(d);
  const __half2 lows = __lows2half2(p, q);
  c->lows_x = __low2float(lows);
  c->lows_y = __high2float(lows);
  const __half2 highs = __highs2half2(p, q);
  c->highs_x = __low2float(highs);
  c->highs_y = __high2float(highs);
  const __half2 swapped = __lowhigh2highlow(p);
  c->swap_x = __low2float(swapped);
  c->swap_y = __high2float(swapped);
  c->low2_x = __low2float(__low2half2(p));
  c->low2_y = __high2float(__low2half2(p));
  c->high2_x = __low2float(__high2half2(p));
  c->high2_y = __high2float(__high2half2(p));
}

TEST(Half, Half2ConstructionAndLanes) {
  MX_SPEC("lang.math.half.half2-construction");
  Construction* c = nullptr;
  ASSERT_EQ(mcMallocManaged(&c, sizeof(*c)), mcSuccess);
  ConstructionKernel<<<1, 1>>>(c);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(c->halves_lo, 1.0f);
  EXPECT_EQ(c->halves_hi, 2.0f);
  EXPECT_EQ(c->floats_lo, 3.0f);
  EXPECT_EQ(c->floats_hi, static_cast<float>(static_cast<_Float16>(1.0f / 3)));
  EXPECT_EQ(c->both, 5.0f);
  EXPECT_EQ(c->low, 1.0f);
  EXPECT_EQ(c->high, 2.0f);
  EXPECT_EQ(c->low_float, 1.0f);
  EXPECT_EQ(c->high_float, 2.0f);
  EXPECT_EQ(c->dup_lo, -4.0f);
  EXPECT_EQ(c->dup_hi, -4.0f);
  EXPECT_EQ(c->lows_x, 1.0f);
  EXPECT_EQ(c->lows_y, 3.0f);
  EXPECT_EQ(c->highs_x, 2.0f);
  EXPECT_EQ(c->highs_y, c->floats_hi);
  EXPECT_EQ(c->swap_x, 2.0f);
  EXPECT_EQ(c->swap_y, 1.0f);
  EXPECT_EQ(c->low2_x, 1.0f);
  EXPECT_EQ(c->low2_y, 1.0f);
  EXPECT_EQ(c->high2_x, 2.0f);
  EXPECT_EQ(c->high2_y, 2.0f);
  mcFree(c);
}

// ---------------------------------------------------------------------------
// Integer conversions. [lang.math.half.integer-conversions]
// ---------------------------------------------------------------------------

enum class IntKind { kShort, kInt, kLl, kUshort, kUint, kUll };

const char* IntKindName(IntKind k) {
  static const char* const kNames[] = {"short",  "int",  "ll",
                                       "ushort", "uint", "ull"};
  return kNames[static_cast<int>(k)];
}

#define MC_HALF_MODES(prefix, mode, value)    \
  ((mode) == Mode::kRn   ? prefix##_rn(value) \
   : (mode) == Mode::kRz ? prefix##_rz(value) \
   : (mode) == Mode::kRu ? prefix##_ru(value) \
                         : prefix##_rd(value))

__global__ void IntToHalfKernel(IntKind k, Mode mode, long long v,
                                std::uint16_t* out) {
  __half h;
  switch (k) {
    case IntKind::kShort:
      h = MC_HALF_MODES(__short2half, mode, static_cast<short>(v));
      break;
    case IntKind::kInt:
      h = MC_HALF_MODES(__int2half, mode, static_cast<int>(v));
      break;
    case IntKind::kLl:
      h = MC_HALF_MODES(__ll2half, mode, v);
      break;
    case IntKind::kUshort:
      h = MC_HALF_MODES(__ushort2half, mode, static_cast<unsigned short>(v));
      break;
    case IntKind::kUint:
      h = MC_HALF_MODES(__uint2half, mode, static_cast<unsigned>(v));
      break;
    default:
      h = MC_HALF_MODES(__ull2half, mode, static_cast<unsigned long long>(v));
      break;
  }
  *out = __half_as_ushort(h);
}

__global__ void HalfToIntKernel(IntKind k, Mode mode, std::uint16_t bits,
                                long long* out) {
  const __half h = __ushort_as_half(bits);
  switch (k) {
    case IntKind::kShort:
      *out = MC_HALF_MODES(__half2short, mode, h);
      break;
    case IntKind::kInt:
      *out = MC_HALF_MODES(__half2int, mode, h);
      break;
    case IntKind::kLl:
      *out = MC_HALF_MODES(__half2ll, mode, h);
      break;
    case IntKind::kUshort:
      *out = MC_HALF_MODES(__half2ushort, mode, h);
      break;
    case IntKind::kUint:
      *out = MC_HALF_MODES(__half2uint, mode, h);
      break;
    default:
      *out = static_cast<long long>(MC_HALF_MODES(__half2ull, mode, h));
      break;
  }
}

#undef MC_HALF_MODES

// The value `v` has as the kind's type (what the kernel passes).
long double AsKind(IntKind k, long long v) {
  switch (k) {
    case IntKind::kShort:
      return static_cast<short>(v);
    case IntKind::kInt:
      return static_cast<int>(v);
    case IntKind::kLl:
      return v;
    case IntKind::kUshort:
      return static_cast<unsigned short>(v);
    case IntKind::kUint:
      return static_cast<unsigned>(v);
    default:
      return static_cast<unsigned long long>(v);
  }
}

void KindRange(IntKind k, long double* low, long double* high) {
  switch (k) {
    case IntKind::kShort:
      *low = -32768, *high = 32767;
      return;
    case IntKind::kInt:
      *low = -2147483648.0L, *high = 2147483647.0L;
      return;
    case IntKind::kLl:
      *low = -9223372036854775808.0L, *high = 9223372036854775807.0L;
      return;
    case IntKind::kUshort:
      *low = 0, *high = 65535;
      return;
    case IntKind::kUint:
      *low = 0, *high = 4294967295.0L;
      return;
    default:
      *low = 0, *high = 18446744073709551615.0L;
      return;
  }
}

struct IntValue {
  const char* label;
  long long value;
};

using IntToHalfParam = std::tuple<IntKind, Mode, IntValue>;

class IntegerToHalf : public ::testing::TestWithParam<IntToHalfParam> {};

TEST_P(IntegerToHalf, RoundsInMode) {
  MX_SPEC("lang.math.half.integer-conversions");
  const auto [kind, mode, input] = GetParam();
  std::uint16_t* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  IntToHalfKernel<<<1, 1>>>(kind, mode, input.value, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const long double exact = AsKind(kind, input.value);
  // Beyond 2^24 every value overflows binary16; a float holds the rest.
  const long double clamped =
      std::fabs(exact) > 1e6L ? (exact > 0 ? 1e6L : -1e6L) : exact;
  EXPECT_EQ(Hex(*out), Hex(HalfInMode(clamped, mode)))
      << IntKindName(kind) << "2half_" << ModeName(mode) << "("
      << static_cast<double>(exact) << ")";
  mcFree(out);
}

const IntValue kIntValues[] = {
    {"zero", 0},
    {"minus_one", -1},
    {"exact", 2048},
    {"tie_to_even_down", 2049},
    {"tie_to_even_up", 2051},
    {"not_a_tie", 4097},
    {"max_half", 65504},
    {"overflow", 70000},
    {"minus_overflow", -70000},
};

INSTANTIATE_TEST_SUITE_P(
    Half, IntegerToHalf,
    ::testing::Combine(::testing::Values(IntKind::kShort, IntKind::kInt,
                                         IntKind::kLl, IntKind::kUshort,
                                         IntKind::kUint, IntKind::kUll),
                       ::testing::ValuesIn(kModes),
                       ::testing::ValuesIn(kIntValues)),
    [](const ::testing::TestParamInfo<IntToHalfParam>& info) {
      return std::string(IntKindName(std::get<0>(info.param))) + "_" +
             ModeName(std::get<1>(info.param)) + "_" +
             std::get<2>(info.param).label;
    });

struct HalfValue {
  const char* label;
  std::uint16_t bits;
};

using HalfToIntParam = std::tuple<IntKind, Mode, HalfValue>;

class HalfToInteger : public ::testing::TestWithParam<HalfToIntParam> {};

TEST_P(HalfToInteger, RoundsInModeAndSaturates) {
  MX_SPEC("lang.math.half.integer-conversions",
          "lang.math.convert.out-of-range-integer");
  const auto [kind, mode, input] = GetParam();
  const float value = static_cast<float>(FromBits(input.bits));
  // A NaN or an out-of-range value converts as the implementation documents
  // [lang.math.convert.out-of-range-integer]; the expectation for them (0,
  // or the nearest representable value) is the reference's.
  bool chosen = std::isnan(value);
  long double expected = 0;
  if (!chosen) {
    switch (mode) {
      case Mode::kRn:
        expected = std::nearbyint(value);
        break;
      case Mode::kRz:
        expected = std::trunc(value);
        break;
      case Mode::kRu:
        expected = std::ceil(value);
        break;
      case Mode::kRd:
        expected = std::floor(value);
        break;
    }
    long double low = 0, high = 0;
    KindRange(kind, &low, &high);
    chosen = expected < low || expected > high;
    if (expected < low) expected = low;
    if (expected > high) expected = high;
  }
  if (chosen) MX_REQUIRE_CAPABILITY("reference_choices");
  long long* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  HalfToIntKernel<<<1, 1>>>(kind, mode, input.bits, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const long double got =
      kind == IntKind::kUll
          ? static_cast<long double>(static_cast<unsigned long long>(*out))
          : static_cast<long double>(*out);
  EXPECT_EQ(got, expected) << "half2" << IntKindName(kind) << "_"
                           << ModeName(mode) << "(" << value << ")";
  mcFree(out);
}

const HalfValue kHalfValues[] = {
    {"one_and_half", 0x3E00},
    {"two_and_half", 0x4100},
    {"minus_one_and_half", 0xBE00},
    {"minus_quarter", 0xB400},
    {"max_half", 0x7BFF},
    {"minus_max_half", 0xFBFF},
    {"inf", 0x7C00},
    {"nan", 0x7E00},
};

INSTANTIATE_TEST_SUITE_P(
    Half, HalfToInteger,
    ::testing::Combine(::testing::Values(IntKind::kShort, IntKind::kInt,
                                         IntKind::kLl, IntKind::kUshort,
                                         IntKind::kUint, IntKind::kUll),
                       ::testing::ValuesIn(kModes),
                       ::testing::ValuesIn(kHalfValues)),
    [](const ::testing::TestParamInfo<HalfToIntParam>& info) {
      return std::string(IntKindName(std::get<0>(info.param))) + "_" +
             ModeName(std::get<1>(info.param)) + "_" +
             std::get<2>(info.param).label;
    });

// ---------------------------------------------------------------------------
// Operators, in device and host code. [lang.math.half.operators]
// ---------------------------------------------------------------------------

struct Operators {
  __half sum, difference, product, quotient, negated, compound;
  bool eq, ne, lt, le, gt, ge, ne_nan;
  __half2 sum2, product2, negated2;
  bool eq2, ne2, lt2;
};

// Compiled in both passes: the kernel and the host test call it.
__host__ __device__ void ComputeOperators(__half a, __half b, __half2 p,
                                          __half2 q, Operators* o) {
  o->sum = a + b;
  o->difference = a - b;
  o->product = a * b;
  o->quotient = a / b;
  o->negated = -a;
  __half c = a;
  c += b;
  c *= b;
  c -= a;
  c /= b;
  o->compound = c;
  o->eq = a == b;
  o->ne = a != b;
  o->lt = a < b;
  o->le = a <= b;
  o->gt = a > b;
  o->ge = a >= b;
  const __half nan = __ushort_as_half(0x7E00);
  o->ne_nan = nan != nan;
  o->sum2 = p + q;
  o->product2 = p * q;
  o->negated2 = -p;
  o->eq2 = p == q;
  o->ne2 = p != q;
  o->lt2 = p < q;
}

__global__ void OperatorsKernel(__half a, __half b, __half2 p, __half2 q,
                                Operators* o) {
  ComputeOperators(a, b, p, q, o);
}

TEST(Half, OperatorsGiveIntrinsicResultsOnDeviceAndHost) {
  MX_SPEC("lang.math.half.operators");
  const __half a = __float2half(1.5f), b = __float2half(-0.375f);
  const __half2 p = __floats2half2_rn(1.0f, 2.0f);
  const __half2 q = __floats2half2_rn(3.0f, 4.0f);
  Operators* device = nullptr;
  ASSERT_EQ(mcMallocManaged(&device, sizeof(*device)), mcSuccess);
  OperatorsKernel<<<1, 1>>>(a, b, p, q, device);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  Operators host;
  ComputeOperators(a, b, p, q, &host);
  for (const Operators* o : {static_cast<const Operators*>(device),
                             static_cast<const Operators*>(&host)}) {
    SCOPED_TRACE(o == device ? "device" : "host");
    EXPECT_EQ(__half2float(o->sum), __half2float(__hadd(a, b)));
    EXPECT_EQ(__half2float(o->difference), 1.875f);
    EXPECT_EQ(__half2float(o->product), -0.5625f);
    EXPECT_EQ(__half2float(o->quotient), -4.0f);
    EXPECT_EQ(__half2float(o->negated), -1.5f);
    // ((1.5 - 0.375) * -0.375 - 1.5) / -0.375
    EXPECT_EQ(__half2float(o->compound), 5.125f);
    EXPECT_FALSE(o->eq);
    EXPECT_TRUE(o->ne);
    EXPECT_FALSE(o->lt);
    EXPECT_FALSE(o->le);
    EXPECT_TRUE(o->gt);
    EXPECT_TRUE(o->ge);
    EXPECT_TRUE(o->ne_nan);
    EXPECT_EQ(__low2float(o->sum2), 4.0f);
    EXPECT_EQ(__high2float(o->sum2), 6.0f);
    EXPECT_EQ(__high2float(o->product2), 8.0f);
    EXPECT_EQ(__low2float(o->negated2), -1.0f);
    EXPECT_FALSE(o->eq2);
    EXPECT_TRUE(o->ne2);
    EXPECT_TRUE(o->lt2);
  }
  mcFree(device);
}

// ---------------------------------------------------------------------------
// Functions and bit reinterpretation.
// ---------------------------------------------------------------------------

__global__ void HalfFunctionsKernel(const std::uint16_t* in, std::uint16_t* out,
                                    int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half h = __ushort_as_half(in[i]);
  const __half results[] = {hexp(h),  hlog(h),  hsin(h),   hcos(h),
                            hexp2(h), hlog2(h), hrsqrt(h), hfloor(h)};
  for (int k = 0; k < 8; ++k) out[8 * i + k] = __half_as_ushort(results[k]);
}

TEST(Half, ElementaryFunctionsAreWithinOneUlp) {
  MX_SPEC("lang.math.half.arithmetic");
  constexpr int n = 64;
  std::uint16_t *in, *out;
  ASSERT_EQ(mcMallocManaged(&in, n * 2), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&out, 8 * n * 2), mcSuccess);
  for (int i = 0; i < n; ++i) {
    in[i] = Bits(static_cast<_Float16>(0.125f + i * 0.09f));
  }
  HalfFunctionsKernel<<<1, n>>>(in, out, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) {
    const long double x = static_cast<float>(FromBits(in[i]));
    const long double exact[] = {expl(x),  logl(x),  sinl(x),      cosl(x),
                                 exp2l(x), log2l(x), 1 / sqrtl(x), floorl(x)};
    for (int k = 0; k < 8; ++k) {
      const long double got = static_cast<float>(FromBits(out[8 * i + k]));
      // One binary16 ulp at the exact value's magnitude.
      int exponent = 0;
      std::frexp(exact[k], &exponent);
      const long double ulp = std::ldexp(1.0L, std::max(exponent, -13) - 11);
      EXPECT_LE(std::fabs(got - exact[k]), ulp)
          << "function " << k << " at " << static_cast<double>(x);
    }
  }
  mcFree(in);
  mcFree(out);
}

__global__ void HalfBitsKernel(unsigned short* out) {
  out[0] = __half_as_ushort(__ushort_as_half(0x7E01));
  out[1] = static_cast<unsigned short>(__half_as_short(__short_as_half(-1)));
  out[2] = __half_as_ushort(__float2half(-0.0f));
}

TEST(Half, BitReinterpretationKeepsBits) {
  MX_SPEC("lang.math.half.bit-reinterpretation");
  unsigned short* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 3 * sizeof(*out)), mcSuccess);
  HalfBitsKernel<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 0x7E01);  // a NaN's payload
  EXPECT_EQ(out[1], 0xFFFF);
  EXPECT_EQ(out[2], 0x8000);  // -0
  mcFree(out);
}

}  // namespace
