// Conformance: the C library functions in device code, single and double
// precision: their availability (also through std::), the exact ones, the
// documented ulp bounds of the others, and the special values of C99
// Annex F (docs/spec/lang-math.md "Availability and accuracy", "Special
// values").
//
// Accuracy cases evaluate a function at 256 points of a domain on the
// device and compare each result with the long double function of the
// host; the bound is the one the reference documents
// (reference/include/mcr/detail/device_math.h). Exact and special-value
// cases compare bit patterns (so the sign of a zero counts), NaN matching
// any NaN.

#include <mc_runtime.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "conformance/language/math/math_testing.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::math_testing::Describe;
using ::mxcts::math_testing::SameValue;
using ::mxcts::math_testing::UlpError;

// The functions of one and two arguments under test: X(name) for each.
// clang-format off
#define MC_UNARY_FUNCTIONS(X)                                          \
  X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh)         \
  X(tanh) X(asinh) X(acosh) X(atanh) X(exp) X(exp2) X(exp10) X(expm1)  \
  X(log) X(log2) X(log10) X(log1p) X(sqrt) X(cbrt) X(erf) X(erfc)      \
  X(lgamma) X(tgamma) X(fabs) X(ceil) X(floor) X(trunc) X(round)       \
  X(rint) X(nearbyint) X(logb)
#define MC_BINARY_FUNCTIONS(X)                                         \
  X(pow) X(atan2) X(hypot) X(fmod) X(remainder) X(fmin) X(fmax)        \
  X(fdim) X(copysign) X(nextafter)
// clang-format on

enum class Fn {
#define MC_ENUM(name) k_##name,
  MC_UNARY_FUNCTIONS(MC_ENUM) MC_BINARY_FUNCTIONS(MC_ENUM)
#undef MC_ENUM
};

const char* FnName(Fn fn) {
  switch (fn) {
#define MC_NAME(name) \
  case Fn::k_##name:  \
    return #name;
    MC_UNARY_FUNCTIONS(MC_NAME) MC_BINARY_FUNCTIONS(MC_NAME)
#undef MC_NAME
  }
  return "?";
}

// fn(x[, y]) in float (`single`) or double, widened to double.
__device__ double EvaluateOnDevice(Fn fn, bool single, double x, double y) {
  const float xf = static_cast<float>(x);
  const float yf = static_cast<float>(y);
  switch (fn) {
#define MC_UNARY_CASE(name) \
  case Fn::k_##name:        \
    return single ? name##f(xf) : name(x);
#define MC_BINARY_CASE(name) \
  case Fn::k_##name:         \
    return single ? name##f(xf, yf) : name(x, y);
    MC_UNARY_FUNCTIONS(MC_UNARY_CASE) MC_BINARY_FUNCTIONS(MC_BINARY_CASE)
#undef MC_UNARY_CASE
#undef MC_BINARY_CASE
  }
  return 0;
}

// The host's long double value of fn at the (already rounded) arguments.
long double Reference(Fn fn, long double x, long double y) {
  switch (fn) {
#define MC_UNARY_CASE(name) \
  case Fn::k_##name:        \
    return name##l(x);
#define MC_BINARY_CASE(name) \
  case Fn::k_##name:         \
    return name##l(x, y);
    MC_UNARY_FUNCTIONS(MC_UNARY_CASE) MC_BINARY_FUNCTIONS(MC_BINARY_CASE)
#undef MC_UNARY_CASE
#undef MC_BINARY_CASE
  }
  return 0;
}

__global__ void EvaluateKernel(Fn fn, bool single, const double* x,
                               const double* y, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = EvaluateOnDevice(fn, single, x[i], y[i]);
}

// Evaluates fn on the device at n argument pairs.
void OnDevice(Fn fn, bool single, const double* x, const double* y, double* out,
              int n) {
  double *dx, *dy, *dout;
  ASSERT_EQ(mcMallocManaged(&dx, n * sizeof(double)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dy, n * sizeof(double)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dout, n * sizeof(double)), mcSuccess);
  for (int i = 0; i < n; ++i) dx[i] = x[i], dy[i] = y[i];
  EvaluateKernel<<<(n + 63) / 64, 64>>>(fn, single, dx, dy, dout, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) out[i] = dout[i];
  mcFree(dx);
  mcFree(dy);
  mcFree(dout);
}

double OneOnDevice(Fn fn, bool single, double x, double y = 0) {
  double out = 0;
  OnDevice(fn, single, &x, &y, &out, 1);
  return out;
}

// ---------------------------------------------------------------------------
// Documented ulp bounds. [lang.math.accuracy.documented-ulp-bounds]
// ---------------------------------------------------------------------------

struct Accuracy {
  Fn fn;
  bool single;
  double low, high;    // x is sampled in [low, high]
  double low2, high2;  // y likewise (two-argument functions)
  double bound;        // the documented maximum error, in ulp
};

std::ostream& operator<<(std::ostream& os, const Accuracy& a) {
  return os << FnName(a.fn) << (a.single ? "f" : "");
}

std::string AccuracyName(const ::testing::TestParamInfo<Accuracy>& info) {
  return std::string(FnName(info.param.fn)) + (info.param.single ? "f" : "");
}

class DocumentedBound : public ::testing::TestWithParam<Accuracy> {};

TEST_P(DocumentedBound, EverySampledResultIsWithinBound) {
  MX_SPEC("lang.math.library.available-in-device-code",
          "lang.math.accuracy.documented-ulp-bounds");
  const Accuracy& a = GetParam();
  constexpr int kSamples = 256;
  double x[kSamples], y[kSamples], got[kSamples];
  for (int i = 0; i < kSamples; ++i) {
    // Evenly spread, offset by an irrational step so that the points are
    // not all simple fractions.
    const double t = (i + std::fmod(i * 0.6180339887498949, 1.0)) / kSamples;
    x[i] = a.low + (a.high - a.low) * t;
    y[i] = a.high2 - (a.high2 - a.low2) * t * t;
    if (a.single) {
      x[i] = static_cast<float>(x[i]);
      y[i] = static_cast<float>(y[i]);
    }
  }
  OnDevice(a.fn, a.single, x, y, got, kSamples);
  long double worst = 0;
  int worst_index = 0;
  for (int i = 0; i < kSamples; ++i) {
    const long double exact = Reference(a.fn, x[i], y[i]);
    const long double error = a.single
                                  ? UlpError(static_cast<float>(got[i]), exact)
                                  : UlpError(got[i], exact);
    if (error > worst) worst = error, worst_index = i;
  }
  // A bound of n ulp allows the result to be n floating-point values away
  // from the correctly rounded one: an error below n + 1/2 ulp.
  EXPECT_LE(static_cast<double>(worst), a.bound + 0.5)
      << FnName(a.fn) << (a.single ? "f" : "") << "("
      << Describe(x[worst_index]) << ", " << Describe(y[worst_index])
      << ") = " << Describe(got[worst_index]);
}

// The reference's documented bounds (device_math.h), over domains where the
// results are finite and normal.
INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, DocumentedBound,
    ::testing::Values(Accuracy{Fn::k_sin, true, -100, 100, 0, 0, 2},
                      Accuracy{Fn::k_sin, false, -100, 100, 0, 0, 2},
                      Accuracy{Fn::k_cos, true, -100, 100, 0, 0, 2},
                      Accuracy{Fn::k_cos, false, -100, 100, 0, 0, 2},
                      Accuracy{Fn::k_tan, true, -1.5, 1.5, 0, 0, 4},
                      Accuracy{Fn::k_tan, false, -1.5, 1.5, 0, 0, 2},
                      Accuracy{Fn::k_asin, true, -1, 1, 0, 0, 2},
                      Accuracy{Fn::k_asin, false, -1, 1, 0, 0, 2},
                      Accuracy{Fn::k_acos, true, -1, 1, 0, 0, 2},
                      Accuracy{Fn::k_acos, false, -1, 1, 0, 0, 2},
                      Accuracy{Fn::k_atan, true, -50, 50, 0, 0, 2},
                      Accuracy{Fn::k_atan, false, -50, 50, 0, 0, 2},
                      Accuracy{Fn::k_atan2, true, -5, 5, -3, 4, 3},
                      Accuracy{Fn::k_atan2, false, -5, 5, -3, 4, 2},
                      Accuracy{Fn::k_sinh, true, -80, 80, 0, 0, 3},
                      Accuracy{Fn::k_sinh, false, -700, 700, 0, 0, 2},
                      Accuracy{Fn::k_cosh, true, -80, 80, 0, 0, 2},
                      Accuracy{Fn::k_cosh, false, -700, 700, 0, 0, 2},
                      Accuracy{Fn::k_tanh, true, -10, 10, 0, 0, 3},
                      Accuracy{Fn::k_tanh, false, -20, 20, 0, 0, 2},
                      Accuracy{Fn::k_asinh, true, -1e5, 1e5, 0, 0, 3},
                      Accuracy{Fn::k_asinh, false, -1e5, 1e5, 0, 0, 3},
                      Accuracy{Fn::k_acosh, true, 1, 1e5, 0, 0, 4},
                      Accuracy{Fn::k_acosh, false, 1, 1e5, 0, 0, 3},
                      Accuracy{Fn::k_atanh, true, -0.999, 0.999, 0, 0, 3},
                      Accuracy{Fn::k_atanh, false, -0.999, 0.999, 0, 0, 2},
                      Accuracy{Fn::k_exp, true, -80, 80, 0, 0, 2},
                      Accuracy{Fn::k_exp, false, -700, 700, 0, 0, 1},
                      Accuracy{Fn::k_exp2, true, -120, 120, 0, 0, 2},
                      Accuracy{Fn::k_exp2, false, -1000, 1000, 0, 0, 1},
                      Accuracy{Fn::k_exp10, true, -35, 35, 0, 0, 2},
                      Accuracy{Fn::k_exp10, false, -300, 300, 0, 0, 2},
                      Accuracy{Fn::k_expm1, true, -10, 10, 0, 0, 1},
                      Accuracy{Fn::k_expm1, false, -10, 10, 0, 0, 1},
                      Accuracy{Fn::k_log, true, 1e-30, 1e30, 0, 0, 1},
                      Accuracy{Fn::k_log, false, 1e-300, 1e300, 0, 0, 1},
                      Accuracy{Fn::k_log2, true, 0.01, 1e5, 0, 0, 1},
                      Accuracy{Fn::k_log2, false, 0.01, 1e5, 0, 0, 1},
                      Accuracy{Fn::k_log10, true, 0.01, 1e5, 0, 0, 2},
                      Accuracy{Fn::k_log10, false, 0.01, 1e5, 0, 0, 1},
                      Accuracy{Fn::k_log1p, true, -0.9, 100, 0, 0, 1},
                      Accuracy{Fn::k_log1p, false, -0.9, 100, 0, 0, 1},
                      Accuracy{Fn::k_pow, true, 0.01, 10, -30, 30, 4},
                      Accuracy{Fn::k_pow, false, 0.01, 10, -300, 300, 2},
                      Accuracy{Fn::k_sqrt, true, 0, 1e30, 0, 0, 0},
                      Accuracy{Fn::k_sqrt, false, 0, 1e300, 0, 0, 0},
                      Accuracy{Fn::k_cbrt, true, -1e10, 1e10, 0, 0, 1},
                      Accuracy{Fn::k_cbrt, false, -1e10, 1e10, 0, 0, 4},
                      Accuracy{Fn::k_hypot, true, -1e3, 1e3, -1e3, 1e3, 3},
                      Accuracy{Fn::k_hypot, false, -1e3, 1e3, -1e3, 1e3, 2},
                      Accuracy{Fn::k_erf, true, -5, 5, 0, 0, 2},
                      Accuracy{Fn::k_erf, false, -5, 5, 0, 0, 2},
                      Accuracy{Fn::k_erfc, true, -5, 9, 0, 0, 4},
                      Accuracy{Fn::k_erfc, false, -5, 26, 0, 0, 5},
                      Accuracy{Fn::k_lgamma, true, 0.01, 30, 0, 0, 6},
                      Accuracy{Fn::k_lgamma, false, 0.01, 30, 0, 0, 4},
                      Accuracy{Fn::k_tgamma, true, 0.01, 30, 0, 0, 8},
                      Accuracy{Fn::k_tgamma, false, 0.01, 30, 0, 0, 10}),
    AccuracyName);

// ---------------------------------------------------------------------------
// Exact functions and special values: one call, one bit pattern.
// ---------------------------------------------------------------------------

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Exact {
  const char* label;
  Fn fn;
  double x, y;
  double expected;  // compared bitwise; any NaN matches a NaN
};

std::ostream& operator<<(std::ostream& os, const Exact& e) {
  return os << e.label;
}

// Checks e in double and, where the expected value is a float, in float.
void CheckExact(const Exact& e) {
  const double got = OneOnDevice(e.fn, false, e.x, e.y);
  EXPECT_TRUE(SameValue(got, e.expected))
      << FnName(e.fn) << "(" << Describe(e.x) << ", " << Describe(e.y)
      << "): got " << Describe(got) << ", expected " << Describe(e.expected);
  const auto is_float = [](double v) {
    return std::isnan(v) || static_cast<double>(static_cast<float>(v)) == v;
  };
  if (is_float(e.x) && is_float(e.y)) {
    const float expected = static_cast<float>(e.expected);
    const float got_single =
        static_cast<float>(OneOnDevice(e.fn, true, e.x, e.y));
    if (static_cast<double>(expected) == e.expected || std::isnan(e.expected)) {
      EXPECT_TRUE(SameValue(got_single, expected))
          << FnName(e.fn) << "f(" << Describe(e.x) << ", " << Describe(e.y)
          << "): got " << Describe(got_single) << ", expected "
          << Describe(expected);
    }
  }
}

std::string ExactName(const ::testing::TestParamInfo<Exact>& info) {
  return info.param.label;
}

class ExactFunction : public ::testing::TestWithParam<Exact> {};

TEST_P(ExactFunction, ReturnsExactResult) {
  MX_SPEC("lang.math.exact.rounding-and-selection");
  CheckExact(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, ExactFunction,
    ::testing::Values(
        Exact{"fabs_negative", Fn::k_fabs, -2.5, 0, 2.5},
        Exact{"fabs_minus_zero", Fn::k_fabs, -0.0, 0, 0.0},
        Exact{"ceil_positive", Fn::k_ceil, 1.25, 0, 2.0},
        Exact{"ceil_small_negative", Fn::k_ceil, -0.5, 0, -0.0},
        Exact{"floor_negative", Fn::k_floor, -1.25, 0, -2.0},
        Exact{"floor_denormal", Fn::k_floor, 1e-310, 0, 0.0},
        Exact{"trunc_negative", Fn::k_trunc, -1.75, 0, -1.0},
        Exact{"trunc_two_pow_52_plus_half", Fn::k_trunc, 4503599627370496.5, 0,
              4503599627370496.0},
        Exact{"fmin_ordered", Fn::k_fmin, 3, -4, -4},
        Exact{"fmax_ordered", Fn::k_fmax, 3, -4, 3},
        Exact{"copysign_negative", Fn::k_copysign, 3, -0.0, -3},
        Exact{"copysign_positive", Fn::k_copysign, -3, 1, 3},
        Exact{"fdim_positive", Fn::k_fdim, 5, 3, 2},
        Exact{"fdim_clamped", Fn::k_fdim, 3, 5, 0},
        Exact{"fmod_basic", Fn::k_fmod, 5.5, 2, 1.5},
        Exact{"fmod_negative", Fn::k_fmod, -5.5, 2, -1.5},
        Exact{"fmod_tiny_divisor", Fn::k_fmod, 1.0, 0x1p-1000, 0.0},
        Exact{"remainder_rounds_to_even", Fn::k_remainder, 5, 2, 1},
        Exact{"remainder_negative_result", Fn::k_remainder, 7, 2, -1},
        Exact{"logb_power_of_two", Fn::k_logb, 1024, 0, 10},
        Exact{"logb_fraction", Fn::k_logb, 0.75, 0, -1},
        Exact{"logb_denormal", Fn::k_logb, 0x1p-1074, 0, -1074},
        Exact{"nextafter_up", Fn::k_nextafter, 1, 2, 1.0 + 0x1p-52},
        Exact{"nextafter_down", Fn::k_nextafter, 1, 0, 1.0 - 0x1p-53},
        Exact{"nextafter_from_zero", Fn::k_nextafter, 0, -1, -0x1p-1074},
        Exact{"nextafter_equal", Fn::k_nextafter, 2, 2, 2}),
    ExactName);

class RoundingFunction : public ::testing::TestWithParam<Exact> {};

TEST_P(RoundingFunction, HalfwayCasesRoundAsSpecified) {
  MX_SPEC("lang.math.exact.round-half-away-from-zero",
          "lang.math.exact.rounding-and-selection");
  CheckExact(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, RoundingFunction,
    ::testing::Values(
        Exact{"round_half", Fn::k_round, 0.5, 0, 1.0},
        Exact{"round_two_and_half", Fn::k_round, 2.5, 0, 3.0},
        Exact{"round_minus_two_and_half", Fn::k_round, -2.5, 0, -3.0},
        Exact{"round_below_half", Fn::k_round, 0.49999999999999994, 0, 0.0},
        Exact{"round_minus_small", Fn::k_round, -0.25, 0, -0.0},
        Exact{"rint_half", Fn::k_rint, 0.5, 0, 0.0},
        Exact{"rint_one_and_half", Fn::k_rint, 1.5, 0, 2.0},
        Exact{"rint_two_and_half", Fn::k_rint, 2.5, 0, 2.0},
        Exact{"rint_minus_two_and_half", Fn::k_rint, -2.5, 0, -2.0},
        Exact{"nearbyint_half", Fn::k_nearbyint, 0.5, 0, 0.0},
        Exact{"nearbyint_three_and_half", Fn::k_nearbyint, 3.5, 0, 4.0},
        Exact{"nearbyint_minus_half", Fn::k_nearbyint, -0.5, 0, -0.0}),
    ExactName);

class FminFmaxNan : public ::testing::TestWithParam<Exact> {};

TEST_P(FminFmaxNan, OneNanGivesTheOtherArgument) {
  MX_SPEC("lang.math.exact.fmin-fmax-nan");
  CheckExact(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, FminFmaxNan,
    ::testing::Values(Exact{"fmin_nan_first", Fn::k_fmin, kNan, 2, 2},
                      Exact{"fmin_nan_second", Fn::k_fmin, -2, kNan, -2},
                      Exact{"fmax_nan_first", Fn::k_fmax, kNan, -7, -7},
                      Exact{"fmax_nan_second", Fn::k_fmax, 7, kNan, 7},
                      Exact{"fmin_both_nan", Fn::k_fmin, kNan, kNan, kNan},
                      Exact{"fmax_both_nan", Fn::k_fmax, kNan, kNan, kNan}),
    ExactName);

class NanPropagates : public ::testing::TestWithParam<Exact> {};

TEST_P(NanPropagates, NanArgumentGivesNan) {
  MX_SPEC("lang.math.special.nan-propagates");
  CheckExact(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, NanPropagates,
    ::testing::Values(Exact{"sin", Fn::k_sin, kNan, 0, kNan},
                      Exact{"exp", Fn::k_exp, kNan, 0, kNan},
                      Exact{"log", Fn::k_log, kNan, 0, kNan},
                      Exact{"sqrt", Fn::k_sqrt, kNan, 0, kNan},
                      Exact{"tanh", Fn::k_tanh, kNan, 0, kNan},
                      Exact{"pow_base", Fn::k_pow, kNan, 2, kNan},
                      Exact{"pow_exponent", Fn::k_pow, 2, kNan, kNan},
                      Exact{"atan2", Fn::k_atan2, 1, kNan, kNan},
                      Exact{"hypot_finite", Fn::k_hypot, 3, kNan, kNan},
                      // Annex F exception: hypot(inf, NaN) is inf.
                      Exact{"hypot_infinite_control", Fn::k_hypot, kInf, kNan,
                            kInf}),
    ExactName);

class DomainError : public ::testing::TestWithParam<Exact> {};

TEST_P(DomainError, ReturnsNan) {
  MX_SPEC("lang.math.special.domain-errors-return-nan");
  CheckExact(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, DomainError,
    ::testing::Values(Exact{"sqrt_negative", Fn::k_sqrt, -1, 0, kNan},
                      Exact{"log_negative", Fn::k_log, -1, 0, kNan},
                      Exact{"sin_inf", Fn::k_sin, kInf, 0, kNan},
                      Exact{"cos_minus_inf", Fn::k_cos, -kInf, 0, kNan},
                      Exact{"tan_inf", Fn::k_tan, kInf, 0, kNan},
                      Exact{"acos_above_one", Fn::k_acos, 1.5, 0, kNan},
                      Exact{"asin_below_minus_one", Fn::k_asin, -2, 0, kNan},
                      Exact{"fmod_zero_divisor", Fn::k_fmod, 1, 0, kNan},
                      Exact{"fmod_inf_dividend", Fn::k_fmod, kInf, 2, kNan},
                      // Control: at the domain's edge the result is a number.
                      Exact{"acos_one_control", Fn::k_acos, 1, 0, 0.0}),
    ExactName);

class Pole : public ::testing::TestWithParam<Exact> {};

TEST_P(Pole, ReturnsInfinity) {
  MX_SPEC("lang.math.special.poles-return-infinity");
  CheckExact(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, Pole,
    ::testing::Values(Exact{"log_zero", Fn::k_log, 0.0, 0, -kInf},
                      Exact{"log_minus_zero", Fn::k_log, -0.0, 0, -kInf},
                      Exact{"log2_zero", Fn::k_log2, 0.0, 0, -kInf},
                      Exact{"log10_minus_zero", Fn::k_log10, -0.0, 0, -kInf},
                      Exact{"pow_zero_odd", Fn::k_pow, 0.0, -3, kInf},
                      Exact{"pow_minus_zero_odd", Fn::k_pow, -0.0, -3, -kInf},
                      Exact{"pow_minus_zero_even", Fn::k_pow, -0.0, -2, kInf},
                      Exact{"lgamma_zero", Fn::k_lgamma, 0.0, 0, kInf},
                      Exact{"lgamma_minus_two", Fn::k_lgamma, -2, 0, kInf}),
    ExactName);

class PowIdentity : public ::testing::TestWithParam<Exact> {};

TEST_P(PowIdentity, ReturnsOne) {
  MX_SPEC("lang.math.special.pow-identities");
  CheckExact(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, PowIdentity,
    ::testing::Values(Exact{"nan_to_zero", Fn::k_pow, kNan, 0.0, 1},
                      Exact{"nan_to_minus_zero", Fn::k_pow, kNan, -0.0, 1},
                      Exact{"inf_to_zero", Fn::k_pow, kInf, 0.0, 1},
                      Exact{"one_to_nan", Fn::k_pow, 1, kNan, 1},
                      Exact{"one_to_inf", Fn::k_pow, 1, kInf, 1},
                      Exact{"minus_one_to_inf", Fn::k_pow, -1, kInf, 1},
                      Exact{"minus_one_to_minus_inf", Fn::k_pow, -1, -kInf, 1},
                      // Control: another base to a NaN power is a NaN.
                      Exact{"two_to_nan_control", Fn::k_pow, 2, kNan, kNan}),
    ExactName);

class SignedZero : public ::testing::TestWithParam<Exact> {};

TEST_P(SignedZero, OddFunctionKeepsSignOfZero) {
  MX_SPEC("lang.math.special.signed-zero-preserved");
  CheckExact(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, SignedZero,
    ::testing::Values(Exact{"sin", Fn::k_sin, -0.0, 0, -0.0},
                      Exact{"tan", Fn::k_tan, -0.0, 0, -0.0},
                      Exact{"asin", Fn::k_asin, -0.0, 0, -0.0},
                      Exact{"atan", Fn::k_atan, -0.0, 0, -0.0},
                      Exact{"sinh", Fn::k_sinh, -0.0, 0, -0.0},
                      Exact{"tanh", Fn::k_tanh, -0.0, 0, -0.0},
                      Exact{"cbrt", Fn::k_cbrt, -0.0, 0, -0.0},
                      Exact{"expm1", Fn::k_expm1, -0.0, 0, -0.0},
                      Exact{"log1p", Fn::k_log1p, -0.0, 0, -0.0},
                      Exact{"sqrt", Fn::k_sqrt, -0.0, 0, -0.0},
                      Exact{"trunc", Fn::k_trunc, -0.0, 0, -0.0},
                      Exact{"ceil", Fn::k_ceil, -0.0, 0, -0.0},
                      Exact{"floor", Fn::k_floor, -0.0, 0, -0.0},
                      Exact{"round", Fn::k_round, -0.0, 0, -0.0},
                      Exact{"sin_positive_control", Fn::k_sin, 0.0, 0, 0.0}),
    ExactName);

class InfinityResult : public ::testing::TestWithParam<Exact> {};

TEST_P(InfinityResult, IsExactlyAsSpecified) {
  MX_SPEC("lang.math.special.infinity-results");
  CheckExact(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    StandardFunctions, InfinityResult,
    ::testing::Values(
        Exact{"exp_inf", Fn::k_exp, kInf, 0, kInf},
        Exact{"exp_minus_inf", Fn::k_exp, -kInf, 0, 0.0},
        Exact{"atan_inf", Fn::k_atan, kInf, 0, 0x1.921fb54442d18p+0},
        Exact{"atan_minus_inf", Fn::k_atan, -kInf, 0, -0x1.921fb54442d18p+0},
        Exact{"sqrt_inf", Fn::k_sqrt, kInf, 0, kInf},
        Exact{"tanh_inf", Fn::k_tanh, kInf, 0, 1},
        Exact{"tanh_minus_inf", Fn::k_tanh, -kInf, 0, -1},
        Exact{"exp_overflow", Fn::k_exp, 1000, 0, kInf},
        Exact{"sinh_negative_overflow", Fn::k_sinh, -1000, 0, -kInf},
        Exact{"pow_overflow_negative", Fn::k_pow, -1e300, 3, -kInf}),
    ExactName);

// atanf(inf) is pi/2 rounded to float (not the double's value).
__global__ void AtanfInfKernel(float* out) { out[0] = atanf(__builtin_inff()); }

TEST(StandardFunctions, AtanfOfInfinityIsPiOverTwoRoundedToFloat) {
  MX_SPEC("lang.math.special.infinity-results");
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  AtanfInfKernel<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 0x1.921fb6p+0f);
  mcFree(out);
}

// ---------------------------------------------------------------------------
// The other functions of the list, through <cmath>'s std:: overloads too.
// ---------------------------------------------------------------------------

struct Misc {
  int ilogb_value;
  double frexp_fraction;
  int frexp_exponent;
  double ldexp_value;
  double scalbn_value;
  double modf_fraction;
  double modf_integer;
  double remquo_value;
  int remquo_quotient;
  long lrint_value;
  long lround_value;
  float sincos_sin, sincos_cos;
  float exp10_value;
  float std_sin;
  float std_pow;
  double std_fma;
  float std_abs;
  float std_sqrt;
  bool std_signbit;
  float fmaf_value;
};

__global__ void MiscKernel(Misc* out) {
  out->ilogb_value = ilogbf(40.0f);
  int exponent = 0;
  out->frexp_fraction = frexp(48.0, &exponent);
  out->frexp_exponent = exponent;
  out->ldexp_value = ldexp(0.75, 4);
  out->scalbn_value = scalbnf(3.0f, -2);
  double integer = 0;
  out->modf_fraction = modf(-3.25, &integer);
  out->modf_integer = integer;
  int quotient = 0;
  out->remquo_value = remquo(7.0, 2.0, &quotient);
  out->remquo_quotient = quotient & 7;
  out->lrint_value = lrintf(2.5f);
  out->lround_value = lroundf(2.5f);
  sincosf(0.0f, &out->sincos_sin, &out->sincos_cos);
  out->exp10_value = exp10f(2.0f);
  out->std_sin = std::sin(0.5f);
  out->std_pow = std::pow(2.0f, 10.0f);
  out->std_fma = std::fma(2.0, 3.0, 1.0);
  out->std_abs = std::abs(-4.5f);
  out->std_sqrt = std::sqrt(2.0f);
  out->std_signbit = std::signbit(-0.0f);
  out->fmaf_value = fmaf(2.0f, 3.0f, -1.0f);
}

TEST(StandardFunctions, RemainingFunctionsAndStdOverloadsWork) {
  MX_SPEC("lang.math.library.available-in-device-code",
          "lang.math.exact.rounding-and-selection");
  Misc* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  MiscKernel<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out->ilogb_value, 5);
  EXPECT_EQ(out->frexp_fraction, 0.75);
  EXPECT_EQ(out->frexp_exponent, 6);
  EXPECT_EQ(out->ldexp_value, 12.0);
  EXPECT_EQ(out->scalbn_value, 0.75);
  EXPECT_EQ(out->modf_fraction, -0.25);
  EXPECT_EQ(out->modf_integer, -3.0);
  EXPECT_EQ(out->remquo_value, -1.0);
  EXPECT_EQ(out->remquo_quotient, 4);
  EXPECT_EQ(out->lrint_value, 2);
  EXPECT_EQ(out->lround_value, 3);
  EXPECT_EQ(out->sincos_sin, 0.0f);
  EXPECT_EQ(out->sincos_cos, 1.0f);
  EXPECT_EQ(out->exp10_value, 100.0f);
  EXPECT_EQ(out->std_sin, sinf(0.5f));
  EXPECT_EQ(out->std_pow, 1024.0f);
  EXPECT_EQ(out->std_fma, 7.0);
  EXPECT_EQ(out->std_abs, 4.5f);
  EXPECT_EQ(out->std_sqrt, sqrtf(2.0f));
  EXPECT_TRUE(out->std_signbit);
  EXPECT_EQ(out->fmaf_value, 5.0f);
  mcFree(out);
}

// ---------------------------------------------------------------------------
// Correct rounding of sqrt and division, denormals, determinism.
// ---------------------------------------------------------------------------

__global__ void SqrtDivideKernel(const float* x, const double* y, float* fs,
                                 float* fq, double* ds, double* dq, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  fs[i] = sqrtf(x[i]);
  fq[i] = x[i] / (x[i] + 0.75f);
  ds[i] = sqrt(y[i]);
  dq[i] = y[i] / (y[i] + 0.75);
}

TEST(StandardFunctions, SqrtAndDivisionAreCorrectlyRounded) {
  MX_SPEC("lang.math.exact.sqrt-correctly-rounded",
          "lang.math.exact.division-correctly-rounded");
  constexpr int n = 512;
  float *x, *fs, *fq;
  double *y, *ds, *dq;
  ASSERT_EQ(mcMallocManaged(&x, n * sizeof(float)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&fs, n * sizeof(float)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&fq, n * sizeof(float)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&y, n * sizeof(double)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&ds, n * sizeof(double)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dq, n * sizeof(double)), mcSuccess);
  for (int i = 0; i < n; ++i) {
    x[i] = std::ldexp(1.0f + i / 512.0f, i % 40 - 20);
    y[i] = std::ldexp(1.0 + i / 511.0, i % 80 - 40);
  }
  SqrtDivideKernel<<<n / 64, 64>>>(x, y, fs, fq, ds, dq, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) {
    // The host's IEEE operations are correctly rounded.
    volatile float xf = x[i];
    volatile double yd = y[i];
    ASSERT_EQ(fs[i], std::sqrt(static_cast<float>(xf))) << x[i];
    ASSERT_EQ(fq[i], xf / (xf + 0.75f)) << x[i];
    ASSERT_EQ(ds[i], std::sqrt(static_cast<double>(yd))) << y[i];
    ASSERT_EQ(dq[i], yd / (yd + 0.75)) << y[i];
  }
  for (void* p : {static_cast<void*>(x), static_cast<void*>(fs),
                  static_cast<void*>(fq), static_cast<void*>(y),
                  static_cast<void*>(ds), static_cast<void*>(dq)}) {
    mcFree(p);
  }
}

__global__ void DenormalKernel(float tiny, double tiny_double, float* f,
                               double* d) {
  f[0] = tiny * 0.5f;          // 2^-127, a float denormal
  f[1] = tiny * 0x1p-23f;      // 2^-149, the smallest
  f[2] = sqrtf(0x1p-148f);     // denormal operand of a function
  d[0] = tiny_double * 0.5;    // 2^-1023
  d[1] = nextafter(0.0, 1.0);  // 2^-1074
}

TEST(StandardFunctions, DenormalsAreKeptInBothPrecisions) {
  MX_SPEC("lang.math.special.denormal-handling");
  float* f = nullptr;
  double* d = nullptr;
  ASSERT_EQ(mcMallocManaged(&f, 3 * sizeof(*f)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&d, 2 * sizeof(*d)), mcSuccess);
  DenormalKernel<<<1, 1>>>(0x1p-126f, 0x1p-1022, f, d);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // The reference documents that it never flushes denormals to zero.
  EXPECT_EQ(f[0], 0x1p-127f);
  EXPECT_EQ(f[1], 0x1p-149f);
  EXPECT_EQ(f[2], 0x1p-74f);
  EXPECT_EQ(d[0], 0x1p-1023);
  EXPECT_EQ(d[1], 0x1p-1074);
  EXPECT_NE(f[1], 0.0f);  // control: not flushed
  mcFree(f);
  mcFree(d);
}

// a * b + c written as two operations: whether the compiler contracts them
// is implementation-defined, so the result is rounded once or twice. The
// reference's mxcc documents that it does not contract them (the host
// compiler targets no fused multiply-add unless told to): there the
// product is rounded first.
__global__ void SeparateMultiplyAddKernel(float a, float c, float* out) {
  out[0] = a * a + c;
  out[1] = fmaf(a, a, c);
}

TEST(StandardFunctions, SeparateMultiplyAndAddRoundTwice) {
  MX_SPEC("lang.math.contraction.implementation-defined",
          "lang.math.exact.fma-single-rounding");
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 2 * sizeof(*out)), mcSuccess);
  SeparateMultiplyAddKernel<<<1, 1>>>(1.0f + 0x1p-12f, -(1.0f + 0x1p-11f), out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(out[0] == 0.0f || out[0] == 0x1p-24f) << out[0];
  if (mxcts::conformance::Claimed("reference_choices")) {
    EXPECT_EQ(out[0], 0.0f) << "the reference does not contract";
  }
  EXPECT_EQ(out[1], 0x1p-24f);  // control: fmaf rounds once
  mcFree(out);
}

__global__ void EveryThreadKernel(const double* x, double* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[3 * i] = sin(x[0]);
  out[3 * i + 1] = powf(static_cast<float>(x[0]), 1.7f);
  out[3 * i + 2] = lgamma(x[0]);
}

TEST(StandardFunctions, SameArgumentsGiveSameResultsEverywhere) {
  MX_SPEC("lang.math.accuracy.deterministic");
  const int blocks = 4, threads = 64, n = blocks * threads;
  double* x = nullptr;
  double* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&x, sizeof(*x)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&out, 3 * n * sizeof(*out)), mcSuccess);
  *x = 12.345;
  for (int launch = 0; launch < 2; ++launch) {
    EveryThreadKernel<<<blocks, threads>>>(x, out);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    static double first[3];
    if (launch == 0) std::copy(out, out + 3, first);
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < 3; ++k) {
        ASSERT_EQ(::mxcts::math_testing::Bits(out[3 * i + k]),
                  ::mxcts::math_testing::Bits(first[k]))
            << "thread " << i << " launch " << launch;
      }
    }
  }
  mcFree(x);
  mcFree(out);
}

}  // namespace
