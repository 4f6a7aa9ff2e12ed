// Conformance: the mathematical functions the device library adds to the C
// library: rsqrt, rcbrt, sinpi, cospi, sincospi, normcdf and its inverse,
// erfinv, erfcinv, rhypot and the 3- and 4-vector norms
// (docs/spec/lang-math.md "Availability and accuracy").
//
// Accuracy cases sample a range on the device and compare with the host's
// long double computation of the same mathematical function; the bounds are
// the reference's documented ones
// (reference/include/mcr/detail/device_math_functions.h). Special-value
// cases compare bit patterns.

#include <mc_runtime.h>

#include <cmath>
#include <limits>
#include <string>

#include "conformance/language/math/math_testing.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::math_testing::Describe;
using ::mxcts::math_testing::SameValue;
using ::mxcts::math_testing::UlpError;

enum class Extra {
  kRsqrtf,
  kRsqrt,
  kRcbrtf,
  kRcbrt,
  kSinpif,
  kSinpi,
  kCospif,
  kCospi,
  kSincospifSin,
  kSincospifCos,
  kSincospiSin,
  kSincospiCos,
  kNormcdff,
  kNormcdf,
  kNormcdfinvf,
  kErfinvf,
  kErfcinvf,
  kRhypotf,
  kNorm3df,
  kRnorm3df,
  kNorm4df,
  kRnorm4df,
};

bool IsSingle(Extra e) {
  switch (e) {
    case Extra::kRsqrt:
    case Extra::kRcbrt:
    case Extra::kSinpi:
    case Extra::kCospi:
    case Extra::kSincospiSin:
    case Extra::kSincospiCos:
    case Extra::kNormcdf:
      return false;
    default:
      return true;
  }
}

__device__ double EvaluateExtra(Extra e, double x, double y) {
  const float xf = static_cast<float>(x), yf = static_cast<float>(y);
  float sf = 0, cf = 0;
  double s = 0, c = 0;
  switch (e) {
    case Extra::kRsqrtf:
      return rsqrtf(xf);
    case Extra::kRsqrt:
      return rsqrt(x);
    case Extra::kRcbrtf:
      return rcbrtf(xf);
    case Extra::kRcbrt:
      return rcbrt(x);
    case Extra::kSinpif:
      return sinpif(xf);
    case Extra::kSinpi:
      return sinpi(x);
    case Extra::kCospif:
      return cospif(xf);
    case Extra::kCospi:
      return cospi(x);
    case Extra::kSincospifSin:
      sincospif(xf, &sf, &cf);
      return sf;
    case Extra::kSincospifCos:
      sincospif(xf, &sf, &cf);
      return cf;
    case Extra::kSincospiSin:
      sincospi(x, &s, &c);
      return s;
    case Extra::kSincospiCos:
      sincospi(x, &s, &c);
      return c;
    case Extra::kNormcdff:
      return normcdff(xf);
    case Extra::kNormcdf:
      return normcdf(x);
    case Extra::kNormcdfinvf:
      return normcdfinvf(xf);
    case Extra::kErfinvf:
      return erfinvf(xf);
    case Extra::kErfcinvf:
      return erfcinvf(xf);
    case Extra::kRhypotf:
      return rhypotf(xf, yf);
    case Extra::kNorm3df:
      return norm3df(xf, yf, xf - yf);
    case Extra::kRnorm3df:
      return rnorm3df(xf, yf, xf - yf);
    case Extra::kNorm4df:
      return norm4df(xf, yf, xf - yf, 2.0f);
    case Extra::kRnorm4df:
      return rnorm4df(xf, yf, xf - yf, 2.0f);
  }
  return 0;
}

// The exact x with erf(x) = y, by bisection in long double on erfl or erfcl
// (whichever keeps precision), for the host's expectation.
long double InverseErfc(long double z) {
  // erfc is decreasing: find x in [lo, hi] with erfc(x) = z.
  long double lo = -30, hi = 30;
  for (int i = 0; i < 200; ++i) {
    const long double mid = (lo + hi) / 2;
    const long double value = mid < 0 ? 2 - erfcl(-mid) : erfcl(mid);
    if (value > z) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return (lo + hi) / 2;
}

long double PiL() { return 3.141592653589793238462643383279502884L; }

// sin(pi x) and cos(pi x) with x reduced exactly to |a| <= 1/4 first, so
// that integers and half-integers give exact zeros.
long double SinPiL(long double x) {
  const long double r = remainderl(x, 2.0L);  // exact, in [-1, 1]
  long double a = fabsl(r);
  long double value = 0;
  if (a <= 0.25L) {
    value = sinl(PiL() * a);
  } else if (a <= 0.75L) {
    value = cosl(PiL() * (0.5L - a));
  } else {
    value = sinl(PiL() * (1.0L - a));
  }
  return r < 0 ? -value : value;
}
long double CosPiL(long double x) {
  const long double a = fabsl(remainderl(x, 2.0L));  // in [0, 1]
  if (a <= 0.25L) return cosl(PiL() * a);
  if (a <= 0.75L) return sinl(PiL() * (0.5L - a));
  return -cosl(PiL() * (1.0L - a));
}

long double Reference(Extra e, long double x, long double y) {
  switch (e) {
    case Extra::kRsqrtf:
    case Extra::kRsqrt:
      return 1 / sqrtl(x);
    case Extra::kRcbrtf:
    case Extra::kRcbrt:
      return 1 / cbrtl(x);
    case Extra::kSinpif:
    case Extra::kSinpi:
    case Extra::kSincospifSin:
    case Extra::kSincospiSin:
      return SinPiL(x);
    case Extra::kCospif:
    case Extra::kCospi:
    case Extra::kSincospifCos:
    case Extra::kSincospiCos:
      return CosPiL(x);
    case Extra::kNormcdff:
    case Extra::kNormcdf:
      return erfcl(-x / sqrtl(2.0L)) / 2;
    case Extra::kNormcdfinvf:
      return -sqrtl(2.0L) * InverseErfc(2 * x);
    case Extra::kErfinvf:
      return InverseErfc(1 - x);
    case Extra::kErfcinvf:
      return InverseErfc(x);
    case Extra::kRhypotf:
      return 1 / hypotl(x, y);
    case Extra::kNorm3df:
      return sqrtl(x * x + y * y + (x - y) * (x - y));
    case Extra::kRnorm3df:
      return 1 / sqrtl(x * x + y * y + (x - y) * (x - y));
    case Extra::kNorm4df:
      return sqrtl(x * x + y * y + (x - y) * (x - y) + 4);
    case Extra::kRnorm4df:
      return 1 / sqrtl(x * x + y * y + (x - y) * (x - y) + 4);
  }
  return 0;
}

__global__ void ExtraKernel(Extra e, const double* x, const double* y,
                            double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = EvaluateExtra(e, x[i], y[i]);
}

void OnDevice(Extra e, const double* x, const double* y, double* out, int n) {
  double *dx, *dy, *dout;
  ASSERT_EQ(mcMallocManaged(&dx, n * sizeof(double)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dy, n * sizeof(double)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dout, n * sizeof(double)), mcSuccess);
  for (int i = 0; i < n; ++i) dx[i] = x[i], dy[i] = y[i];
  ExtraKernel<<<(n + 63) / 64, 64>>>(e, dx, dy, dout, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) out[i] = dout[i];
  mcFree(dx);
  mcFree(dy);
  mcFree(dout);
}

struct ExtraAccuracy {
  const char* label;
  Extra e;
  double low, high;
  double low2, high2;
  double bound;  // ulp
};

std::ostream& operator<<(std::ostream& os, const ExtraAccuracy& a) {
  return os << a.label;
}

class ExtraFunctionBound : public ::testing::TestWithParam<ExtraAccuracy> {};

TEST_P(ExtraFunctionBound, EverySampledResultIsWithinDocumentedBound) {
  MX_SPEC("lang.math.library.available-in-device-code",
          "lang.math.library.extra-functions",
          "lang.math.accuracy.documented-ulp-bounds");
  const ExtraAccuracy& a = GetParam();
  constexpr int kSamples = 256;
  double x[kSamples], y[kSamples], got[kSamples];
  const bool single = IsSingle(a.e);
  for (int i = 0; i < kSamples; ++i) {
    const double t = (i + std::fmod(i * 0.6180339887498949, 1.0)) / kSamples;
    x[i] = a.low + (a.high - a.low) * t;
    y[i] = a.high2 - (a.high2 - a.low2) * t * t;
    if (single) {
      x[i] = static_cast<float>(x[i]);
      y[i] = static_cast<float>(y[i]);
    }
  }
  OnDevice(a.e, x, y, got, kSamples);
  for (int i = 0; i < kSamples; ++i) {
    const long double exact = Reference(a.e, x[i], y[i]);
    const double error =
        static_cast<double>(single ? UlpError(static_cast<float>(got[i]), exact)
                                   : UlpError(got[i], exact));
    // n ulp: at most n values away from the correctly rounded result.
    ASSERT_LE(error, a.bound + 0.5)
        << a.label << "(" << Describe(x[i]) << ", " << Describe(y[i])
        << ") = " << Describe(got[i]) << ", exact "
        << static_cast<double>(exact);
  }
}

INSTANTIATE_TEST_SUITE_P(
    DeviceFunctions, ExtraFunctionBound,
    ::testing::Values(
        ExtraAccuracy{"rsqrtf", Extra::kRsqrtf, 1e-30, 1e30, 0, 0, 1},
        ExtraAccuracy{"rsqrtf_denormal", Extra::kRsqrtf, 1e-45, 1e-38, 0, 0, 1},
        ExtraAccuracy{"rsqrt", Extra::kRsqrt, 1e-300, 1e300, 0, 0, 1},
        ExtraAccuracy{"rsqrt_near_one", Extra::kRsqrt, 0.5, 4, 0, 0, 1},
        ExtraAccuracy{"rcbrtf", Extra::kRcbrtf, -1e30, 1e30, 0, 0, 1},
        ExtraAccuracy{"rcbrt", Extra::kRcbrt, -1e300, 1e300, 0, 0, 1},
        ExtraAccuracy{"sinpif", Extra::kSinpif, -100, 100, 0, 0, 1},
        ExtraAccuracy{"sinpif_small", Extra::kSinpif, -1e-3, 1e-3, 0, 0, 1},
        ExtraAccuracy{"cospif", Extra::kCospif, -100, 100, 0, 0, 1},
        ExtraAccuracy{"sinpi", Extra::kSinpi, -1e6, 1e6, 0, 0, 2},
        ExtraAccuracy{"sinpi_unit", Extra::kSinpi, -1, 1, 0, 0, 2},
        ExtraAccuracy{"cospi", Extra::kCospi, -1e6, 1e6, 0, 0, 2},
        ExtraAccuracy{"cospi_unit", Extra::kCospi, -1, 1, 0, 0, 2},
        ExtraAccuracy{"sincospif_sine", Extra::kSincospifSin, -10, 10, 0, 0, 1},
        ExtraAccuracy{"sincospif_cosine", Extra::kSincospifCos, -10, 10, 0, 0,
                      1},
        ExtraAccuracy{"sincospi_sine", Extra::kSincospiSin, -10, 10, 0, 0, 2},
        ExtraAccuracy{"sincospi_cosine", Extra::kSincospiCos, -10, 10, 0, 0, 2},
        ExtraAccuracy{"normcdff", Extra::kNormcdff, -12, 8, 0, 0, 2},
        ExtraAccuracy{"normcdf", Extra::kNormcdf, -37, 8, 0, 0, 5},
        ExtraAccuracy{"normcdfinvf", Extra::kNormcdfinvf, 1e-6, 0.999999, 0, 0,
                      2},
        ExtraAccuracy{"erfinvf", Extra::kErfinvf, -0.999999, 0.999999, 0, 0, 2},
        ExtraAccuracy{"erfcinvf", Extra::kErfcinvf, 1e-30, 1.999999, 0, 0, 2},
        ExtraAccuracy{"erfcinvf_tiny", Extra::kErfcinvf, 1e-44, 1e-35, 0, 0, 2},
        ExtraAccuracy{"rhypotf", Extra::kRhypotf, -1e3, 1e3, 1e-3, 1e3, 1},
        ExtraAccuracy{"norm3df", Extra::kNorm3df, -1e3, 1e3, -5, 5, 1},
        ExtraAccuracy{"rnorm3df", Extra::kRnorm3df, -1e3, 1e3, 0.5, 5, 1},
        ExtraAccuracy{"norm4df", Extra::kNorm4df, -1e3, 1e3, -5, 5, 1},
        ExtraAccuracy{"rnorm4df", Extra::kRnorm4df, -1e3, 1e3, -5, 5, 1}),
    [](const ::testing::TestParamInfo<ExtraAccuracy>& info) {
      return std::string(info.param.label);
    });

// ---------------------------------------------------------------------------
// Special values.
// ---------------------------------------------------------------------------

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct ExtraSpecial {
  const char* label;
  Extra e;
  double x, y;
  double expected;  // bitwise; NaN matches any NaN
};

std::ostream& operator<<(std::ostream& os, const ExtraSpecial& s) {
  return os << s.label;
}

class ExtraFunctionSpecialValue
    : public ::testing::TestWithParam<ExtraSpecial> {};

TEST_P(ExtraFunctionSpecialValue, IsExact) {
  MX_SPEC("lang.math.library.extra-functions");
  const ExtraSpecial& s = GetParam();
  double got = 0;
  OnDevice(s.e, &s.x, &s.y, &got, 1);
  EXPECT_TRUE(SameValue(got, s.expected))
      << s.label << ": got " << Describe(got) << ", expected "
      << Describe(s.expected);
}

INSTANTIATE_TEST_SUITE_P(
    DeviceFunctions, ExtraFunctionSpecialValue,
    ::testing::Values(
        ExtraSpecial{"rsqrtf_zero", Extra::kRsqrtf, 0.0, 0, kInf},
        ExtraSpecial{"rsqrtf_minus_zero", Extra::kRsqrtf, -0.0, 0, -kInf},
        ExtraSpecial{"rsqrtf_inf", Extra::kRsqrtf, kInf, 0, 0.0},
        ExtraSpecial{"rsqrtf_negative", Extra::kRsqrtf, -4, 0, kNan},
        ExtraSpecial{"rsqrtf_four", Extra::kRsqrtf, 4, 0, 0.5},
        ExtraSpecial{"rsqrt_minus_zero", Extra::kRsqrt, -0.0, 0, -kInf},
        ExtraSpecial{"rsqrt_quarter", Extra::kRsqrt, 0.25, 0, 2.0},
        ExtraSpecial{"rcbrtf_minus_eight", Extra::kRcbrtf, -8, 0, -0.5},
        ExtraSpecial{"rcbrtf_minus_inf", Extra::kRcbrtf, -kInf, 0, -0.0},
        ExtraSpecial{"rcbrt_zero", Extra::kRcbrt, 0.0, 0, kInf},
        ExtraSpecial{"sinpif_integer", Extra::kSinpif, 3, 0, 0.0},
        ExtraSpecial{"sinpif_negative_integer", Extra::kSinpif, -3, 0, -0.0},
        ExtraSpecial{"sinpif_half", Extra::kSinpif, 0.5, 0, 1.0},
        ExtraSpecial{"sinpif_minus_half", Extra::kSinpif, -0.5, 0, -1.0},
        ExtraSpecial{"sinpif_large_integer", Extra::kSinpif, 16777216, 0, 0.0},
        ExtraSpecial{"sinpif_inf", Extra::kSinpif, kInf, 0, kNan},
        ExtraSpecial{"cospif_half_integer", Extra::kCospif, 2.5, 0, 0.0},
        ExtraSpecial{"cospif_odd_integer", Extra::kCospif, -3, 0, -1.0},
        ExtraSpecial{"cospif_nan", Extra::kCospif, kNan, 0, kNan},
        ExtraSpecial{"sinpi_minus_zero", Extra::kSinpi, -0.0, 0, -0.0},
        ExtraSpecial{"sinpi_two_pow_51_plus_half", Extra::kSinpi,
                     2251799813685248.5, 0, 1.0},
        ExtraSpecial{"sinpi_two_pow_51_minus_half", Extra::kSinpi,
                     2251799813685247.5, 0, -1.0},
        ExtraSpecial{"cospi_one", Extra::kCospi, 1, 0, -1.0},
        ExtraSpecial{"cospi_quarter_control", Extra::kCospi, 0.25, 0,
                     0x1.6a09e667f3bcdp-1},
        ExtraSpecial{"normcdff_zero", Extra::kNormcdff, 0, 0, 0.5},
        ExtraSpecial{"normcdff_inf", Extra::kNormcdff, kInf, 0, 1.0},
        ExtraSpecial{"normcdff_minus_inf", Extra::kNormcdff, -kInf, 0, 0.0},
        ExtraSpecial{"normcdfinvf_half", Extra::kNormcdfinvf, 0.5, 0, 0.0},
        ExtraSpecial{"normcdfinvf_zero", Extra::kNormcdfinvf, 0, 0, -kInf},
        ExtraSpecial{"normcdfinvf_one", Extra::kNormcdfinvf, 1, 0, kInf},
        ExtraSpecial{"erfinvf_zero", Extra::kErfinvf, 0.0, 0, 0.0},
        ExtraSpecial{"erfinvf_minus_zero", Extra::kErfinvf, -0.0, 0, -0.0},
        ExtraSpecial{"erfinvf_one", Extra::kErfinvf, 1, 0, kInf},
        ExtraSpecial{"erfinvf_minus_one", Extra::kErfinvf, -1, 0, -kInf},
        ExtraSpecial{"erfinvf_outside", Extra::kErfinvf, 1.5, 0, kNan},
        ExtraSpecial{"erfcinvf_zero", Extra::kErfcinvf, 0, 0, kInf},
        ExtraSpecial{"erfcinvf_two", Extra::kErfcinvf, 2, 0, -kInf},
        ExtraSpecial{"erfcinvf_one", Extra::kErfcinvf, 1, 0, 0.0},
        ExtraSpecial{"erfcinvf_negative", Extra::kErfcinvf, -0.5, 0, kNan},
        ExtraSpecial{"rhypotf_three_four", Extra::kRhypotf, 3, 4, 0.2f},
        ExtraSpecial{"norm3df_inf", Extra::kNorm3df, kInf, 1, kInf},
        ExtraSpecial{"rnorm3df_inf", Extra::kRnorm3df, 1, kInf, 0.0}),
    [](const ::testing::TestParamInfo<ExtraSpecial>& info) {
      return std::string(info.param.label);
    });

}  // namespace
