// Copyright mxcts authors.
//
// mcr/detail/device_math_fast.h: the fast single-precision intrinsics
// (`__expf`, `__logf`, `__sinf`, `__powf`, `__fdividef`, ...) and
// `__saturatef`.
//
// On hardware these map to approximate instructions. The contract a program
// may rely on is the documented error bound of each intrinsic below
// ([lang.math.fast.intrinsics-available]); the reference computes every one
// of them with the accurate library function (error at most 1 ulp), which
// lies within each bound, so that a program that passes on the reference
// has not leaned on a particular approximation. Bounds are in ulp of the
// float result unless "absolute" is said (n ulp: at most n floats away from
// the correctly rounded result); x is the (first) argument.
//
//   intrinsic       documented bound
//   __expf(x)       2 + floor(|1.173 x|) ulp
//   __exp10f(x)     2 + floor(|2.97 x|) ulp
//   __logf(x)       absolute 2^-21.41 for x in [0.5, 2]; else 3 ulp
//   __log2f(x)      absolute 2^-22 for x in [0.5, 2]; else 2 ulp
//   __log10f(x)     absolute 2^-24 for x in [0.5, 2]; else 3 ulp
//   __sinf(x)       absolute 2^-21.41 for x in [-pi, pi]; none outside
//   __cosf(x)       absolute 2^-21.19 for x in [-pi, pi]; none outside
//   __sincosf(x)    as __sinf and __cosf
//   __tanf(x)       absolute 2^-20 for x in [-pi/4, pi/4]; none outside
//   __powf(x, y)    for x > 0: 2 + floor(|1.173 y log2(x)|) ulp;
//                   x <= 0 is outside the documented domain
//   __fdividef(x,y) 2 ulp for |y| in [2^-126, 2^126]
//
// In the "ulp" rows, special values follow the library function (expf(inf)
// is inf, logf(0) is -inf, ...). Whether a compiler option replaces the
// library functions by these intrinsics is implementation-defined: mxcc has
// no such option, so expf always means the library function
// ([lang.math.fast.fast-math-option]).
//
// These names are declared by the C library's <math.h> (as its internal
// aliases, with C linkage), so they are defined here with C linkage and the
// same exception specification; the C library does not export them, so
// the definitions do not interpose on anything.
//
// Part of the device math library (mcr/detail/device_math.h); usable in
// host and device code.
//
// Tested by conformance/language/math/fast_intrinsics_test.cc.

#ifndef MCR_DETAIL_DEVICE_MATH_FAST_H_
#define MCR_DETAIL_DEVICE_MATH_FAST_H_

#include <math.h>

extern "C" {

// e^x. [lang.math.fast.intrinsics-available]
inline float __expf(float x) noexcept { return expf(x); }

// 10^x.
inline float __exp10f(float x) noexcept { return exp10f(x); }

// Natural, base-2 and base-10 logarithms.
inline float __logf(float x) noexcept { return logf(x); }
inline float __log2f(float x) noexcept { return log2f(x); }
inline float __log10f(float x) noexcept { return log10f(x); }

// sin x, cos x, tan x, and both sine and cosine at once.
inline float __sinf(float x) noexcept { return sinf(x); }
inline float __cosf(float x) noexcept { return cosf(x); }
inline float __tanf(float x) noexcept { return tanf(x); }
inline void __sincosf(float x, float* sine, float* cosine) noexcept {
  *sine = sinf(x);
  *cosine = cosf(x);
}

// x^y.
inline float __powf(float x, float y) noexcept { return powf(x, y); }

}  // extern "C"

// x / y, within 2 ulp for |y| in [2^-126, 2^126]. For |y| above 2^126 (and
// finite) the result is a zero, or a NaN when x is infinite or a NaN.
// [lang.math.fast.fdividef-large-divisor]
inline float __fdividef(float x, float y) {
  const float magnitude = __builtin_fabsf(y);
  if (magnitude > 8.50705917e37f /* 2^126 */ && magnitude <= __FLT_MAX__) {
    if (__builtin_isinf(x) || __builtin_isnan(x)) return __builtin_nanf("");
    const bool negative = __builtin_signbit(x) != __builtin_signbit(y);
    return negative ? -0.0f : 0.0f;
  }
  return x / y;
}

// x / y, correctly rounded (the library spelling of the division).
inline float fdividef(float x, float y) { return x / y; }

// x clamped to [+0.0, 1.0]; -0.0 and a NaN give +0.0.
// [lang.math.fast.saturatef-clamps]
constexpr inline float __saturatef(float x) {
  return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}

#endif  // MCR_DETAIL_DEVICE_MATH_FAST_H_
