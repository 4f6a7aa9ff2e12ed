// Copyright mxcts authors.
//
// mcr/detail/device_math_functions.h: the mathematical functions of the
// device library that the C library lacks: reciprocal roots, sin and cos of
// pi times x, the normal distribution and the inverse error functions,
// norms of small vectors.
//
// The C library provides the rest of
// [lang.math.library.available-in-device-code] (including `exp10f` and
// `sincosf`), and device images link it.
//
// Accuracy ([lang.math.accuracy.documented-ulp-bounds],
// [lang.math.library.extra-functions]), in ulp of the result (n ulp: at
// most n values away from the correctly rounded result) over the whole
// domain unless a range is given:
//
//   function                          bound
//   rsqrtf, rcbrtf, sinpif, cospif,   1
//   sincospif, rhypotf, norm3df,
//   rnorm3df, norm4df, rnorm4df
//   normcdff                          2
//   erfinvf, erfcinvf, normcdfinvf    2
//   rsqrt, rcbrt                      1
//   sinpi, cospi, sincospi            2
//   normcdf                           5 where the result is at least 2^-1022
//
// Special values: rsqrt(+-0) and rcbrt(+-0) are +-inf, rsqrt(+inf) and
// rcbrt(+-inf) are +-0, rsqrt of a negative number is NaN; sinpi(n) for an
// integer n is a zero with the sign of n, cospi(n + 0.5) is +0, sinpi and
// cospi of an infinity are NaN; erfinv(+-1) is +-inf, erfcinv(0) is +inf
// and erfcinv(2) -inf, normcdfinv(0) is -inf and normcdfinv(1) +inf, and
// arguments outside those domains give NaN.
//
// The float functions compute in double and round once; the double ones
// refine a double estimate in long double (x87, 64-bit significand), which
// is inline arithmetic on x86-64. Only the C library's float and double
// functions are called, which device images provide.
//
// Part of the device math library (mcr/detail/device_math.h); usable in
// host and device code.
//
// Tested by conformance/language/math/device_functions_test.cc and
// standard_functions_test.cc.

#ifndef MCR_DETAIL_DEVICE_MATH_FUNCTIONS_H_
#define MCR_DETAIL_DEVICE_MATH_FUNCTIONS_H_

#include <math.h>

namespace __mc_math {

// pi and sqrt(1/2) as double-double: kPi + kPiLow, kSqrtHalf + kSqrtHalfLow
// (decimal spellings of the doubles 0x1.921fb54442d18p+1,
// 0x1.1a62633145c07p-53, 0x1.6a09e667f3bcdp-1, -0x1.bdd3413b26456p-55; hex
// floating literals would need C++17), and 2 / sqrt(pi).
constexpr double kPi = 3.141592653589793;
constexpr double kPiLow = 1.2246467991473532e-16;
constexpr double kSqrtHalf = 0.7071067811865476;
constexpr double kSqrtHalfLow = -4.833646656726457e-17;
constexpr double kTwoOverSqrtPi = 1.1283791670955126;

// sin(pi * a) and cos(pi * a) for |a| <= 1/4: pi * a as a double-double
// hi + lo, then sin(hi + lo) ~ sin(hi) + lo cos(hi).
inline double SinPiReduced(double a) {
  const double hi = kPi * a;
  const double lo = fma(kPi, a, -hi) + kPiLow * a;
  return sin(hi) + lo * cos(hi);
}
inline double CosPiReduced(double a) {
  const double hi = kPi * a;
  const double lo = fma(kPi, a, -hi) + kPiLow * a;
  return cos(hi) - lo * sin(hi);
}

// sin(pi * x): the exact remainder of x modulo 2, folded into [0, 1/4].
inline double SinPi(double x) {
  if (__builtin_isinf(x) || __builtin_isnan(x)) return x - x;
  const double r = remainder(x, 2.0);  // exact, in [-1, 1]
  const double a = __builtin_fabs(r);
  if (a == 0.0 || a == 1.0) return __builtin_copysign(0.0, x);
  double s = 0.0;
  if (a <= 0.25) {
    s = SinPiReduced(a);
  } else if (a <= 0.75) {
    s = CosPiReduced(0.5 - a);  // 0.5 - a is exact here
  } else {
    s = SinPiReduced(1.0 - a);  // 1.0 - a is exact here
  }
  return r < 0 ? -s : s;
}

// cos(pi * x), folded the same way; cos(pi * (n + 1/2)) is +0.
inline double CosPi(double x) {
  if (__builtin_isinf(x) || __builtin_isnan(x)) return x - x;
  const double a = __builtin_fabs(remainder(x, 2.0));  // in [0, 1]
  if (a == 0.5) return 0.0;
  if (a <= 0.25) return CosPiReduced(a);
  if (a <= 0.75) return SinPiReduced(0.5 - a);
  return -CosPiReduced(1.0 - a);
}

// 1 / sqrt(x) and 1 / cbrt(x), refined by one Newton step in long double.
inline double Rsqrt(double x) {
  if (x == 0.0) return __builtin_copysign(__builtin_inf(), x);
  if (__builtin_isinf(x) && x > 0) return 0.0;
  if (!(x > 0.0)) return __builtin_nan("");
  const long double r = 1.0 / sqrt(x);
  const long double error = 1.0L - static_cast<long double>(x) * r * r;
  return static_cast<double>(r + r * error * 0.5L);
}
inline double Rcbrt(double x) {
  if (x == 0.0) return __builtin_copysign(__builtin_inf(), x);
  if (__builtin_isinf(x)) return __builtin_copysign(0.0, x);
  if (__builtin_isnan(x)) return x;
  const long double r = 1.0 / cbrt(x);
  const long double error = 1.0L - static_cast<long double>(x) * r * r * r;
  return static_cast<double>(r + r * error / 3.0L);
}

// The standard normal distribution function: erfc(-x / sqrt 2) / 2, with
// x / sqrt 2 as a double-double and erfc corrected to first order.
inline double NormCdf(double x) {
  const double hi = -x * kSqrtHalf;
  const double lo = fma(-x, kSqrtHalf, -hi) - x * kSqrtHalfLow;
  const double value = erfc(hi);
  if (__builtin_isinf(hi) || __builtin_isnan(hi)) return 0.5 * value;
  return 0.5 * (value - lo * kTwoOverSqrtPi * exp(-hi * hi));
}

// The x >= 0 with erfc(x) = z, for z in (0, 1]: Newton's method on
// log(erfc(x)) - log(z), which is close to quadratic in x.
inline double ErfcInverseSmall(double z) {
  const double target = log(z);
  double x = sqrt(-target) * 0.9;
  for (int step = 0; step < 100; ++step) {
    const double value = erfc(x);
    const double slope = -kTwoOverSqrtPi * exp(-x * x) / value;
    const double next = x - (log(value) - target) / slope;
    const double change = __builtin_fabs(next - x);
    x = next < 0.0 ? 0.0 : next;
    if (change <= 8.673617379884035e-19 * x) break;
  }
  return x;
}

// The x with erf(x) = y, for |y| <= 1/2: Newton's method on erf.
inline double ErfInverseSmall(double y) {
  double x = y * 0.886226925452758;  // sqrt(pi) / 2
  for (int step = 0; step < 100; ++step) {
    const double next = x - (erf(x) - y) / (kTwoOverSqrtPi * exp(-x * x));
    const double change = __builtin_fabs(next - x);
    x = next;
    if (change <= 8.673617379884035e-19 * __builtin_fabs(x)) break;
  }
  return x;
}

inline double ErfcInverse(double z) {
  if (__builtin_isnan(z) || z < 0.0 || z > 2.0) return __builtin_nan("");
  if (z == 0.0) return __builtin_inf();
  if (z == 2.0) return -__builtin_inf();
  if (z > 1.0) return -ErfcInverse(2.0 - z);      // exact difference
  if (z >= 0.5) return ErfInverseSmall(1.0 - z);  // exact difference
  return ErfcInverseSmall(z);
}

inline double ErfInverse(double y) {
  if (__builtin_isnan(y) || y < -1.0 || y > 1.0) return __builtin_nan("");
  if (y == 0.0) return y;
  const double a = __builtin_fabs(y);
  const double x = a <= 0.5 ? ErfInverseSmall(a) : ErfcInverse(1.0 - a);
  return y < 0 ? -x : x;
}

}  // namespace __mc_math

// C23 adds rsqrt, sinpi and cospi to <math.h> (glibc 2.41 and later declare
// some of them, with C linkage and `noexcept`), so these six are defined
// with C linkage and the same exception specification: the definitions then
// agree with any such declaration.
extern "C" {

// 1 / sqrt(x).
inline float rsqrtf(float x) noexcept {
  return static_cast<float>(::__mc_math::Rsqrt(x));
}
inline double rsqrt(double x) noexcept { return ::__mc_math::Rsqrt(x); }

// sin(pi x) and cos(pi x), with pi x not rounded first.
inline float sinpif(float x) noexcept {
  return static_cast<float>(::__mc_math::SinPi(x));
}
inline float cospif(float x) noexcept {
  return static_cast<float>(::__mc_math::CosPi(x));
}
inline double sinpi(double x) noexcept { return ::__mc_math::SinPi(x); }
inline double cospi(double x) noexcept { return ::__mc_math::CosPi(x); }

}  // extern "C"

// 1 / cbrt(x).
inline float rcbrtf(float x) {
  return static_cast<float>(::__mc_math::Rcbrt(x));
}
inline double rcbrt(double x) { return ::__mc_math::Rcbrt(x); }

// sin(pi x) and cos(pi x) at once.
inline void sincospif(float x, float* sine, float* cosine) {
  *sine = sinpif(x);
  *cosine = cospif(x);
}
inline void sincospi(double x, double* sine, double* cosine) {
  *sine = sinpi(x);
  *cosine = cospi(x);
}

// The standard normal cumulative distribution function and its inverse.
inline float normcdff(float x) {
  return static_cast<float>(::__mc_math::NormCdf(x));
}
inline double normcdf(double x) { return ::__mc_math::NormCdf(x); }
inline float normcdfinvf(float p) {
  const double x = ::__mc_math::ErfcInverse(2.0 * p);
  return x == 0.0 ? 0.0f : static_cast<float>(-1.4142135623730951 * x);
}

// The inverse error function and the inverse complementary error function.
inline float erfinvf(float y) {
  return static_cast<float>(::__mc_math::ErfInverse(y));
}
inline float erfcinvf(float z) {
  return static_cast<float>(::__mc_math::ErfcInverse(z));
}

// 1 / sqrt(x^2 + y^2), and the Euclidean norm of 3 and 4 values and its
// reciprocal, without overflow in the intermediate squares.
inline float rhypotf(float x, float y) {
  return static_cast<float>(1.0 / hypot(x, y));
}
inline float norm3df(float a, float b, float c) {
  const double sum = static_cast<double>(a) * a + static_cast<double>(b) * b +
                     static_cast<double>(c) * c;
  if (__builtin_isinf(a) || __builtin_isinf(b) || __builtin_isinf(c)) {
    return __builtin_inff();
  }
  return static_cast<float>(sqrt(sum));
}
inline float rnorm3df(float a, float b, float c) {
  if (__builtin_isinf(a) || __builtin_isinf(b) || __builtin_isinf(c)) {
    return 0.0f;
  }
  return static_cast<float>(::__mc_math::Rsqrt(static_cast<double>(a) * a +
                                               static_cast<double>(b) * b +
                                               static_cast<double>(c) * c));
}
inline float norm4df(float a, float b, float c, float d) {
  const double sum = static_cast<double>(a) * a + static_cast<double>(b) * b +
                     static_cast<double>(c) * c + static_cast<double>(d) * d;
  if (__builtin_isinf(a) || __builtin_isinf(b) || __builtin_isinf(c) ||
      __builtin_isinf(d)) {
    return __builtin_inff();
  }
  return static_cast<float>(sqrt(sum));
}
inline float rnorm4df(float a, float b, float c, float d) {
  if (__builtin_isinf(a) || __builtin_isinf(b) || __builtin_isinf(c) ||
      __builtin_isinf(d)) {
    return 0.0f;
  }
  return static_cast<float>(::__mc_math::Rsqrt(
      static_cast<double>(a) * a + static_cast<double>(b) * b +
      static_cast<double>(c) * c + static_cast<double>(d) * d));
}

#endif  // MCR_DETAIL_DEVICE_MATH_FUNCTIONS_H_
