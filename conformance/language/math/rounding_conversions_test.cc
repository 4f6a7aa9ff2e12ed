// Conformance: the conversion intrinsics with a rounding-mode suffix and
// the bit reinterpretations (docs/spec/lang-math.md "Explicitly rounded
// arithmetic and conversions").
//
// Each case converts one value on the device in one mode. The expected
// value comes from the host, independently of the device library:
// float-to-integer cases round with nearbyint/trunc/ceil/floor and then
// saturate (the reference's documented out-of-range behaviour), the others
// let the host's floating-point unit convert under fesetround.

#include <mc_runtime.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>

#include "conformance/language/math/math_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::math_testing::Describe;
using ::mxcts::math_testing::Mode;
using ::mxcts::math_testing::ModeName;
using ::mxcts::math_testing::SameValue;
using ::mxcts::math_testing::UnderMode;

constexpr Mode kModes[] = {Mode::kRn, Mode::kRz, Mode::kRu, Mode::kRd};

// A labelled input value.
struct Input {
  const char* label;
  double value;
};
struct IntegerInput {
  const char* label;
  std::uint64_t bits;  // the integer's bits (signed inputs sign-extended)
};

// ---------------------------------------------------------------------------
// Floating point to integer. [lang.math.convert.float-to-integer]
// ---------------------------------------------------------------------------

enum class ToInt {
  kFloat2Int,
  kFloat2Uint,
  kFloat2Ll,
  kFloat2Ull,
  kDouble2Int,
  kDouble2Uint,
  kDouble2Ll,
  kDouble2Ull,
};

const char* ToIntName(ToInt op) {
  static const char* const kNames[] = {"float2int", "float2uint", "float2ll",
                                       "float2ull", "double2int", "double2uint",
                                       "double2ll", "double2ull"};
  return kNames[static_cast<int>(op)];
}

bool FromFloat(ToInt op) { return op <= ToInt::kFloat2Ull; }

// The result type's range, as long double bounds.
void Range(ToInt op, long double* low, long double* high) {
  switch (op) {
    case ToInt::kFloat2Int:
    case ToInt::kDouble2Int:
      *low = INT_MIN, *high = INT_MAX;
      return;
    case ToInt::kFloat2Uint:
    case ToInt::kDouble2Uint:
      *low = 0, *high = UINT_MAX;
      return;
    case ToInt::kFloat2Ll:
    case ToInt::kDouble2Ll:
      *low = LLONG_MIN, *high = LLONG_MAX;
      return;
    default:
      *low = 0, *high = ULLONG_MAX;
      return;
  }
}

// Macro-free dispatch: the conversion `op` of `x` in `mode`, as the bits of
// the result zero- or sign-extended to 64.
template <class Result, class Argument>
__device__ std::uint64_t Extend(Result (*rn)(Argument), Result (*rz)(Argument),
                                Result (*ru)(Argument), Result (*rd)(Argument),
                                Mode mode, Argument x) {
  Result r = mode == Mode::kRn   ? rn(x)
             : mode == Mode::kRz ? rz(x)
             : mode == Mode::kRu ? ru(x)
                                 : rd(x);
  return static_cast<std::uint64_t>(r);
}

__global__ void ToIntKernel(ToInt op, Mode mode, double x, std::uint64_t* out) {
  const float f = static_cast<float>(x);
  switch (op) {
    case ToInt::kFloat2Int:
      *out = Extend(__float2int_rn, __float2int_rz, __float2int_ru,
                    __float2int_rd, mode, f);
      break;
    case ToInt::kFloat2Uint:
      *out = Extend(__float2uint_rn, __float2uint_rz, __float2uint_ru,
                    __float2uint_rd, mode, f);
      break;
    case ToInt::kFloat2Ll:
      *out = Extend(__float2ll_rn, __float2ll_rz, __float2ll_ru, __float2ll_rd,
                    mode, f);
      break;
    case ToInt::kFloat2Ull:
      *out = Extend(__float2ull_rn, __float2ull_rz, __float2ull_ru,
                    __float2ull_rd, mode, f);
      break;
    case ToInt::kDouble2Int:
      *out = Extend(__double2int_rn, __double2int_rz, __double2int_ru,
                    __double2int_rd, mode, x);
      break;
    case ToInt::kDouble2Uint:
      *out = Extend(__double2uint_rn, __double2uint_rz, __double2uint_ru,
                    __double2uint_rd, mode, x);
      break;
    case ToInt::kDouble2Ll:
      *out = Extend(__double2ll_rn, __double2ll_rz, __double2ll_ru,
                    __double2ll_rd, mode, x);
      break;
    case ToInt::kDouble2Ull:
      *out = Extend(__double2ull_rn, __double2ull_rz, __double2ull_ru,
                    __double2ull_rd, mode, x);
      break;
  }
}

// The host's expectation: round with the C library, then saturate; NaN
// gives 0. Saturation and NaN are the reference's choices
// ([lang.math.convert.out-of-range-integer], implementation-defined):
// `*chosen` says whether the expectation is one.
std::uint64_t ExpectedToInt(ToInt op, Mode mode, double x, bool* chosen) {
  const long double value =
      FromFloat(op) ? static_cast<float>(x) : static_cast<long double>(x);
  *chosen = std::isnan(value);
  if (*chosen) return 0;
  long double rounded = 0;
  switch (mode) {
    case Mode::kRn:
      rounded = std::nearbyint(value);
      break;
    case Mode::kRz:
      rounded = std::trunc(value);
      break;
    case Mode::kRu:
      rounded = std::ceil(value);
      break;
    case Mode::kRd:
      rounded = std::floor(value);
      break;
  }
  long double low = 0, high = 0;
  Range(op, &low, &high);
  *chosen = rounded < low || rounded > high;
  if (rounded < low) rounded = low;
  if (rounded > high) rounded = high;
  if (rounded < 0) {
    return static_cast<std::uint64_t>(static_cast<long long>(rounded));
  }
  const std::uint64_t magnitude = static_cast<std::uint64_t>(rounded);
  // Signed results come back sign-extended; positive ones are the same.
  return magnitude;
}

using ToIntParam = std::tuple<ToInt, Mode, Input>;

class FloatToInteger : public ::testing::TestWithParam<ToIntParam> {};

TEST_P(FloatToInteger, RoundsInModeAndSaturates) {
  MX_SPEC("lang.math.convert.float-to-integer",
          "lang.math.convert.out-of-range-integer");
  const auto [op, mode, input] = GetParam();
  bool chosen = false;
  std::uint64_t expected = ExpectedToInt(op, mode, input.value, &chosen);
  // A NaN or an out-of-range value converts as the implementation
  // documents; the expectation is the reference's.
  if (chosen) MX_REQUIRE_CAPABILITY("reference_choices");
  std::uint64_t* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  ToIntKernel<<<1, 1>>>(op, mode, input.value, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::uint64_t got = *out;
  mcFree(out);
  // 32-bit results: compare the low 32 bits (signed ones were extended).
  if (op == ToInt::kFloat2Int || op == ToInt::kDouble2Int ||
      op == ToInt::kFloat2Uint || op == ToInt::kDouble2Uint) {
    got &= 0xFFFFFFFFull;
    expected &= 0xFFFFFFFFull;
  }
  EXPECT_EQ(got, expected) << ToIntName(op) << "_" << ModeName(mode) << "("
                           << Describe(input.value) << ")";
}

const Input kToIntInputs[] = {
    {"zero", 0.0},
    {"minus_zero", -0.0},
    {"half", 0.5},
    {"one_and_half", 1.5},
    {"two_and_half", 2.5},
    {"minus_one_and_half", -1.5},
    {"minus_two_and_half", -2.5},
    {"below_half", 0.49999997f},
    {"minus_point_seven", -0.7},
    {"denormal", 1e-40},
    {"two_pow_24_plus_one_half", 16777216.5},
    {"int_max_plus_half", 2147483647.5},
    {"two_pow_31", 2147483648.0},
    {"below_int_min", -2147483904.0},
    {"two_pow_32", 4294967296.0},
    {"two_pow_63", 9223372036854775808.0},
    {"huge", 1e30},
    {"minus_huge", -1e30},
    {"nan", std::numeric_limits<double>::quiet_NaN()},
    {"inf", std::numeric_limits<double>::infinity()},
    {"minus_inf", -std::numeric_limits<double>::infinity()},
};

INSTANTIATE_TEST_SUITE_P(
    RoundingConversions, FloatToInteger,
    ::testing::Combine(::testing::Values(ToInt::kFloat2Int, ToInt::kFloat2Uint,
                                         ToInt::kFloat2Ll, ToInt::kFloat2Ull,
                                         ToInt::kDouble2Int,
                                         ToInt::kDouble2Uint, ToInt::kDouble2Ll,
                                         ToInt::kDouble2Ull),
                       ::testing::ValuesIn(kModes),
                       ::testing::ValuesIn(kToIntInputs)),
    [](const ::testing::TestParamInfo<ToIntParam>& info) {
      return std::string(ToIntName(std::get<0>(info.param))) + "_" +
             ModeName(std::get<1>(info.param)) + "_" +
             std::get<2>(info.param).label;
    });

// ---------------------------------------------------------------------------
// Integer to floating point. [lang.math.convert.integer-to-float]
// ---------------------------------------------------------------------------

enum class FromInt {
  kInt2Float,
  kUint2Float,
  kLl2Float,
  kUll2Float,
  kLl2Double,
  kUll2Double,
};

const char* FromIntName(FromInt op) {
  static const char* const kNames[] = {"int2float", "uint2float", "ll2float",
                                       "ull2float", "ll2double",  "ull2double"};
  return kNames[static_cast<int>(op)];
}

bool ToDouble(FromInt op) {
  return op == FromInt::kLl2Double || op == FromInt::kUll2Double;
}

template <class Result, class Argument>
__device__ Result Pick(Result (*rn)(Argument), Result (*rz)(Argument),
                       Result (*ru)(Argument), Result (*rd)(Argument),
                       Mode mode, Argument x) {
  return mode == Mode::kRn   ? rn(x)
         : mode == Mode::kRz ? rz(x)
         : mode == Mode::kRu ? ru(x)
                             : rd(x);
}

// The result as a double (every float is one).
__global__ void FromIntKernel(FromInt op, Mode mode, std::uint64_t bits,
                              double* out) {
  const long long s = static_cast<long long>(bits);
  switch (op) {
    case FromInt::kInt2Float:
      *out = Pick(__int2float_rn, __int2float_rz, __int2float_ru,
                  __int2float_rd, mode, static_cast<int>(s));
      break;
    case FromInt::kUint2Float:
      *out = Pick(__uint2float_rn, __uint2float_rz, __uint2float_ru,
                  __uint2float_rd, mode, static_cast<unsigned>(bits));
      break;
    case FromInt::kLl2Float:
      *out = Pick(__ll2float_rn, __ll2float_rz, __ll2float_ru, __ll2float_rd,
                  mode, s);
      break;
    case FromInt::kUll2Float:
      *out = Pick(__ull2float_rn, __ull2float_rz, __ull2float_ru,
                  __ull2float_rd, mode, static_cast<unsigned long long>(bits));
      break;
    case FromInt::kLl2Double:
      *out = Pick(__ll2double_rn, __ll2double_rz, __ll2double_ru,
                  __ll2double_rd, mode, s);
      break;
    case FromInt::kUll2Double:
      *out = Pick(__ull2double_rn, __ull2double_rz, __ull2double_ru,
                  __ull2double_rd, mode, static_cast<unsigned long long>(bits));
      break;
  }
}

// The host's conversion of the exact integer (a long double holds every
// 64-bit integer) under `mode`.
double ExpectedFromInt(FromInt op, Mode mode, std::uint64_t bits) {
  long double exact = 0;
  switch (op) {
    case FromInt::kInt2Float:
      exact = static_cast<int>(bits);
      break;
    case FromInt::kUint2Float:
      exact = static_cast<unsigned>(bits);
      break;
    case FromInt::kLl2Float:
    case FromInt::kLl2Double:
      exact = static_cast<long long>(bits);
      break;
    default:
      exact = bits;
      break;
  }
  volatile long double operand = exact;
  if (ToDouble(op)) {
    return UnderMode(mode, [&] {
      volatile double r = static_cast<double>(operand);
      return static_cast<double>(r);
    });
  }
  return UnderMode(mode, [&] {
    volatile float r = static_cast<float>(operand);
    return static_cast<double>(r);
  });
}

using FromIntParam = std::tuple<FromInt, Mode, IntegerInput>;

class IntegerToFloat : public ::testing::TestWithParam<FromIntParam> {};

TEST_P(IntegerToFloat, RoundsInMode) {
  MX_SPEC("lang.math.convert.integer-to-float");
  const auto [op, mode, input] = GetParam();
  double* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  FromIntKernel<<<1, 1>>>(op, mode, input.bits, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const double got = *out;
  mcFree(out);
  const double expected = ExpectedFromInt(op, mode, input.bits);
  EXPECT_TRUE(SameValue(got, expected))
      << FromIntName(op) << "_" << ModeName(mode) << "(" << input.label
      << "): got " << Describe(got) << ", expected " << Describe(expected);
}

const IntegerInput kFromIntInputs[] = {
    {"zero", 0},
    {"one", 1},
    {"minus_one", ~0ull},
    {"two_pow_24_plus_one", (1ull << 24) + 1},
    {"two_pow_24_plus_three", (1ull << 24) + 3},
    {"minus_two_pow_24_minus_one",
     static_cast<std::uint64_t>(-(1ll << 24) - 1)},
    {"two_pow_25_plus_two", (1ull << 25) + 2},
    {"int_max", INT_MAX},
    {"int_min", static_cast<std::uint64_t>(static_cast<long long>(INT_MIN))},
    {"uint_max", UINT_MAX},
    {"two_pow_53_plus_one", (1ull << 53) + 1},
    {"two_pow_53_plus_three", (1ull << 53) + 3},
    {"llong_max", static_cast<std::uint64_t>(LLONG_MAX)},
    {"llong_min", 1ull << 63},
};

INSTANTIATE_TEST_SUITE_P(
    RoundingConversions, IntegerToFloat,
    ::testing::Combine(
        ::testing::Values(FromInt::kInt2Float, FromInt::kUint2Float,
                          FromInt::kLl2Float, FromInt::kUll2Float,
                          FromInt::kLl2Double, FromInt::kUll2Double),
        ::testing::ValuesIn(kModes), ::testing::ValuesIn(kFromIntInputs)),
    [](const ::testing::TestParamInfo<FromIntParam>& info) {
      return std::string(FromIntName(std::get<0>(info.param))) + "_" +
             ModeName(std::get<1>(info.param)) + "_" +
             std::get<2>(info.param).label;
    });

// Every int and unsigned int is exactly a double.
__global__ void IntToDoubleKernel(int i, unsigned u, double* out) {
  out[0] = __int2double_rn(i);
  out[1] = __uint2double_rn(u);
}

TEST(RoundingConversions, IntAndUintToDoubleAreExact) {
  MX_SPEC("lang.math.convert.integer-to-float");
  double* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 2 * sizeof(*out)), mcSuccess);
  IntToDoubleKernel<<<1, 1>>>(INT_MIN, UINT_MAX, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], -2147483648.0);
  EXPECT_EQ(out[1], 4294967295.0);
  mcFree(out);
}

// ---------------------------------------------------------------------------
// double to float. [lang.math.convert.double-to-float]
// ---------------------------------------------------------------------------

__global__ void DoubleToFloatKernel(Mode mode, double x, float* out) {
  *out = Pick(__double2float_rn, __double2float_rz, __double2float_ru,
              __double2float_rd, mode, x);
}

using ToFloatParam = std::tuple<Mode, Input>;

class DoubleToFloat : public ::testing::TestWithParam<ToFloatParam> {};

TEST_P(DoubleToFloat, RoundsInMode) {
  MX_SPEC("lang.math.convert.double-to-float");
  const auto [mode, input] = GetParam();
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  DoubleToFloatKernel<<<1, 1>>>(mode, input.value, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const float got = *out;
  mcFree(out);
  volatile double operand = input.value;
  const float expected = UnderMode(mode, [&] {
    volatile float r = static_cast<float>(operand);
    return static_cast<float>(r);
  });
  EXPECT_TRUE(SameValue(got, expected))
      << "double2float_" << ModeName(mode) << "(" << Describe(input.value)
      << "): got " << Describe(got) << ", expected " << Describe(expected);
}

const Input kToFloatInputs[] = {
    {"one_third", 1.0 / 3.0},
    {"minus_one_third", -1.0 / 3.0},
    {"point_one", 0.1},
    {"exact", 1.5},
    {"tie_above_one", 1.0 + 0x1p-24},
    {"tie_above_one_and_ulp", 1.0 + 0x1p-23 + 0x1p-24},
    {"tie_at_two_pow_24", 16777217.0},
    {"subnormal_tie", 0x1.8p-149},
    {"below_smallest_subnormal", 0x1p-151},
    {"minus_tiny", -1e-50},
    {"above_flt_max", 0x1.fffffffp+127},
    {"overflow", 1e300},
    {"minus_overflow", -1e300},
    {"minus_zero", -0.0},
    {"nan", std::numeric_limits<double>::quiet_NaN()},
    {"minus_inf", -std::numeric_limits<double>::infinity()},
};

INSTANTIATE_TEST_SUITE_P(
    RoundingConversions, DoubleToFloat,
    ::testing::Combine(::testing::ValuesIn(kModes),
                       ::testing::ValuesIn(kToFloatInputs)),
    [](const ::testing::TestParamInfo<ToFloatParam>& info) {
      return std::string(ModeName(std::get<0>(info.param))) + "_" +
             std::get<1>(info.param).label;
    });

// ---------------------------------------------------------------------------
// Controls: the modes are told apart.
// ---------------------------------------------------------------------------

__global__ void ModeControlsKernel(long long* ints, float* floats) {
  ints[0] = __float2int_rz(-1.5f);
  ints[1] = __float2int_rd(-1.5f);
  ints[2] = __float2int_rn(2.5f);
  ints[3] = __float2int_ru(2.5f);
  floats[0] = __ll2float_rz((1ll << 24) + 1);
  floats[1] = __ll2float_ru((1ll << 24) + 1);
  floats[2] = __double2float_rz(1.0 / 3.0);
  floats[3] = __double2float_ru(1.0 / 3.0);
}

TEST(RoundingConversions, ModesGiveDifferentResultsWhereTheyShould) {
  MX_SPEC("lang.math.convert.float-to-integer",
          "lang.math.convert.integer-to-float",
          "lang.math.convert.double-to-float");
  long long* ints = nullptr;
  float* floats = nullptr;
  ASSERT_EQ(mcMallocManaged(&ints, 4 * sizeof(*ints)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&floats, 4 * sizeof(*floats)), mcSuccess);
  ModeControlsKernel<<<1, 1>>>(ints, floats);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(ints[0], -1);
  EXPECT_EQ(ints[1], -2);
  EXPECT_EQ(ints[2], 2);  // ties to even
  EXPECT_EQ(ints[3], 3);
  EXPECT_EQ(floats[0], 16777216.0f);
  EXPECT_EQ(floats[1], 16777218.0f);
  EXPECT_LT(floats[2], floats[3]);
  EXPECT_EQ(floats[3], std::nextafter(floats[2], 1.0f));
  mcFree(ints);
  mcFree(floats);
}

// ---------------------------------------------------------------------------
// Bit reinterpretation. [lang.math.convert.bit-reinterpretation]
// ---------------------------------------------------------------------------

struct Reinterpreted {
  int float_as_int;
  unsigned float_as_uint;
  float int_as_float;
  float uint_as_float;
  long long double_as_longlong;
  double longlong_as_double;
  int hi, lo;
  double hilo;
};

__global__ void ReinterpretKernel(float f, int i, double d, long long l,
                                  Reinterpreted* out) {
  out->float_as_int = __float_as_int(f);
  out->float_as_uint = __float_as_uint(f);
  out->int_as_float = __int_as_float(i);
  out->uint_as_float = __uint_as_float(static_cast<unsigned>(i));
  out->double_as_longlong = __double_as_longlong(d);
  out->longlong_as_double = __longlong_as_double(l);
  out->hi = __double2hiint(d);
  out->lo = __double2loint(d);
  out->hilo = __hiloint2double(__double2hiint(d), __double2loint(d));
}

TEST(RoundingConversions, BitReinterpretationKeepsBits) {
  MX_SPEC("lang.math.convert.bit-reinterpretation");
  Reinterpreted* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  // -0.0f, a NaN pattern as an int, and -2.0 as a double.
  ReinterpretKernel<<<1, 1>>>(-0.0f, 0x7FC00001, -2.0, 0x3FF0000000000000ll,
                              out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out->float_as_int, INT_MIN);
  EXPECT_EQ(out->float_as_uint, 0x80000000u);
  EXPECT_TRUE(std::isnan(out->int_as_float));
  EXPECT_EQ(::mxcts::math_testing::Bits(out->int_as_float), 0x7FC00001u);
  EXPECT_EQ(::mxcts::math_testing::Bits(out->uint_as_float), 0x7FC00001u);
  EXPECT_EQ(out->double_as_longlong,
            static_cast<long long>(0xC000000000000000ull));
  EXPECT_EQ(out->longlong_as_double, 1.0);
  EXPECT_EQ(out->hi, static_cast<int>(0xC0000000u));
  EXPECT_EQ(out->lo, 0);
  EXPECT_EQ(out->hilo, -2.0);
  mcFree(out);
}

}  // namespace
