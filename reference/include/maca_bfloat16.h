// Copyright mxcts authors.
//
// ==========================================================================
// maca_bfloat16.h: bfloat16 for host and device code
// ==========================================================================
//
// `__maca_bfloat16` holds one bfloat16 value (the upper half of an IEEE
// binary32: 8 exponent bits, 7 fraction bits), `__maca_bfloat162` two of
// them (`.x` the low lane, `.y` the high lane). This header gives them the
// arithmetic, comparisons, conversions, elementary functions and C++
// operators that maca_fp16.h gives `__half`, under the same names
// (`__hadd`, `__hfma2`, `__heq`, `hsqrt`, ...) overloaded for the bfloat16
// types; conversion names say `bfloat16` (`__float2bfloat16`,
// `__bfloat162float`, `__int2bfloat16_rn`, `__bfloat162int_rz`, ...). The
// types and their float conversions come from mcr/detail/half_types.h.
//
//   #include <maca_bfloat16.h>
//
//   __global__ void Scale(__maca_bfloat162* v, float s, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) v[i] = __hmul2(v[i], __float2bfloat162_rn(s));
//   }
//
// Contracts ([lang.math.bfloat16.arithmetic],
// [lang.math.bfloat16.conversions]):
// - `__hadd`, `__hsub`, `__hmul`, `__hdiv` return the exact result rounded
//   to the nearest bfloat16, ties to even; `__hfma` rounds `a * b + c` once.
//   The `_rn` forms are the same operations, never contracted into a fused
//   multiply-add; the `_sat` forms clamp the result to [+0, 1] (a NaN
//   becomes +0); the `_relu` forms replace a negative result or NaN by +0.
// - `__hneg` and `__habs` flip or clear the sign bit, exactly.
// - The `2` forms apply the operation to each lane independently.
// - Every function is usable in host and device code and computes the same
//   result in both.
//
// Everything here is inline and seen by both compilation passes.
//
// Tested by conformance/language/math/bfloat16_test.cc and
// headers_together_test.cc.

#ifndef MACA_BFLOAT16_H_
#define MACA_BFLOAT16_H_

#include "mcr/detail/half_arithmetic.h"
#include "mcr/detail/half_types.h"

// Short names for the types.
typedef __maca_bfloat16 maca_bfloat16;
typedef __maca_bfloat162 maca_bfloat162;

// --------------------------------------------------------------------------
// Arithmetic on __maca_bfloat16. [lang.math.bfloat16.arithmetic]
// --------------------------------------------------------------------------

// a + b, a - b, a * b, a / b, rounded to nearest even.
constexpr inline __maca_bfloat16 __hadd(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __mc_math::HalfAdd(a, b);
}
constexpr inline __maca_bfloat16 __hsub(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __mc_math::HalfSub(a, b);
}
constexpr inline __maca_bfloat16 __hmul(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __mc_math::HalfMul(a, b);
}
constexpr inline __maca_bfloat16 __hdiv(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __mc_math::HalfDiv(a, b);
}
// The same, never contracted into a fused multiply-add.
constexpr inline __maca_bfloat16 __hadd_rn(__maca_bfloat16 a,
                                           __maca_bfloat16 b) {
  return __hadd(a, b);
}
constexpr inline __maca_bfloat16 __hsub_rn(__maca_bfloat16 a,
                                           __maca_bfloat16 b) {
  return __hsub(a, b);
}
constexpr inline __maca_bfloat16 __hmul_rn(__maca_bfloat16 a,
                                           __maca_bfloat16 b) {
  return __hmul(a, b);
}
// The same, clamped to [+0, 1] (NaN gives +0).
constexpr inline __maca_bfloat16 __hadd_sat(__maca_bfloat16 a,
                                            __maca_bfloat16 b) {
  return __mc_math::HalfSaturate(__hadd(a, b));
}
constexpr inline __maca_bfloat16 __hsub_sat(__maca_bfloat16 a,
                                            __maca_bfloat16 b) {
  return __mc_math::HalfSaturate(__hsub(a, b));
}
constexpr inline __maca_bfloat16 __hmul_sat(__maca_bfloat16 a,
                                            __maca_bfloat16 b) {
  return __mc_math::HalfSaturate(__hmul(a, b));
}
// a * b + c with a single rounding; clamped (_sat) or with negative results
// and NaN replaced by +0 (_relu).
constexpr inline __maca_bfloat16 __hfma(__maca_bfloat16 a, __maca_bfloat16 b,
                                        __maca_bfloat16 c) {
  return __mc_math::HalfFma(a, b, c);
}
constexpr inline __maca_bfloat16 __hfma_sat(__maca_bfloat16 a,
                                            __maca_bfloat16 b,
                                            __maca_bfloat16 c) {
  return __mc_math::HalfSaturate(__hfma(a, b, c));
}
constexpr inline __maca_bfloat16 __hfma_relu(__maca_bfloat16 a,
                                             __maca_bfloat16 b,
                                             __maca_bfloat16 c) {
  return __mc_math::HalfRelu(__hfma(a, b, c));
}
// -a and |a|: exact.
constexpr inline __maca_bfloat16 __hneg(__maca_bfloat16 a) {
  return __mc_math::HalfNeg(a);
}
constexpr inline __maca_bfloat16 __habs(__maca_bfloat16 a) {
  return __mc_math::HalfAbs(a);
}
// The larger and smaller operand: a NaN operand is ignored (the other is
// returned), or propagated by the _nan forms.
constexpr inline __maca_bfloat16 __hmax(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __mc_math::HalfMax(a, b, false);
}
constexpr inline __maca_bfloat16 __hmin(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __mc_math::HalfMin(a, b, false);
}
constexpr inline __maca_bfloat16 __hmax_nan(__maca_bfloat16 a,
                                            __maca_bfloat16 b) {
  return __mc_math::HalfMax(a, b, true);
}
constexpr inline __maca_bfloat16 __hmin_nan(__maca_bfloat16 a,
                                            __maca_bfloat16 b) {
  return __mc_math::HalfMin(a, b, true);
}

// --------------------------------------------------------------------------
// Lane-wise arithmetic on __maca_bfloat162. [lang.math.bfloat16.arithmetic]
// --------------------------------------------------------------------------

constexpr inline __maca_bfloat162 __hadd2(__maca_bfloat162 a,
                                          __maca_bfloat162 b) {
  return __maca_bfloat162(__hadd(a.x, b.x), __hadd(a.y, b.y));
}
constexpr inline __maca_bfloat162 __hsub2(__maca_bfloat162 a,
                                          __maca_bfloat162 b) {
  return __maca_bfloat162(__hsub(a.x, b.x), __hsub(a.y, b.y));
}
constexpr inline __maca_bfloat162 __hmul2(__maca_bfloat162 a,
                                          __maca_bfloat162 b) {
  return __maca_bfloat162(__hmul(a.x, b.x), __hmul(a.y, b.y));
}
constexpr inline __maca_bfloat162 __h2div(__maca_bfloat162 a,
                                          __maca_bfloat162 b) {
  return __maca_bfloat162(__hdiv(a.x, b.x), __hdiv(a.y, b.y));
}
constexpr inline __maca_bfloat162 __hdiv2(__maca_bfloat162 a,
                                          __maca_bfloat162 b) {
  return __h2div(a, b);
}
constexpr inline __maca_bfloat162 __hadd2_rn(__maca_bfloat162 a,
                                             __maca_bfloat162 b) {
  return __hadd2(a, b);
}
constexpr inline __maca_bfloat162 __hsub2_rn(__maca_bfloat162 a,
                                             __maca_bfloat162 b) {
  return __hsub2(a, b);
}
constexpr inline __maca_bfloat162 __hmul2_rn(__maca_bfloat162 a,
                                             __maca_bfloat162 b) {
  return __hmul2(a, b);
}
constexpr inline __maca_bfloat162 __hadd2_sat(__maca_bfloat162 a,
                                              __maca_bfloat162 b) {
  return __maca_bfloat162(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y));
}
constexpr inline __maca_bfloat162 __hsub2_sat(__maca_bfloat162 a,
                                              __maca_bfloat162 b) {
  return __maca_bfloat162(__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y));
}
constexpr inline __maca_bfloat162 __hmul2_sat(__maca_bfloat162 a,
                                              __maca_bfloat162 b) {
  return __maca_bfloat162(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y));
}
constexpr inline __maca_bfloat162 __hfma2(__maca_bfloat162 a,
                                          __maca_bfloat162 b,
                                          __maca_bfloat162 c) {
  return __maca_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
constexpr inline __maca_bfloat162 __hfma2_sat(__maca_bfloat162 a,
                                              __maca_bfloat162 b,
                                              __maca_bfloat162 c) {
  return __maca_bfloat162(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
constexpr inline __maca_bfloat162 __hfma2_relu(__maca_bfloat162 a,
                                               __maca_bfloat162 b,
                                               __maca_bfloat162 c) {
  return __maca_bfloat162(__hfma_relu(a.x, b.x, c.x),
                          __hfma_relu(a.y, b.y, c.y));
}
constexpr inline __maca_bfloat162 __hneg2(__maca_bfloat162 a) {
  return __maca_bfloat162(__hneg(a.x), __hneg(a.y));
}
constexpr inline __maca_bfloat162 __habs2(__maca_bfloat162 a) {
  return __maca_bfloat162(__habs(a.x), __habs(a.y));
}
constexpr inline __maca_bfloat162 __hmax2(__maca_bfloat162 a,
                                          __maca_bfloat162 b) {
  return __maca_bfloat162(__hmax(a.x, b.x), __hmax(a.y, b.y));
}
constexpr inline __maca_bfloat162 __hmin2(__maca_bfloat162 a,
                                          __maca_bfloat162 b) {
  return __maca_bfloat162(__hmin(a.x, b.x), __hmin(a.y, b.y));
}
constexpr inline __maca_bfloat162 __hmax2_nan(__maca_bfloat162 a,
                                              __maca_bfloat162 b) {
  return __maca_bfloat162(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y));
}
constexpr inline __maca_bfloat162 __hmin2_nan(__maca_bfloat162 a,
                                              __maca_bfloat162 b) {
  return __maca_bfloat162(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y));
}

// --------------------------------------------------------------------------
// Comparisons. [lang.math.bfloat16.arithmetic]
// Ordered forms are false when either operand is a NaN; the `u` forms
// (unordered) are true then.
// --------------------------------------------------------------------------

#define __MC_BFLOAT16_COMPARISON(name, relation, unordered)              \
  constexpr inline bool name(__maca_bfloat16 a, __maca_bfloat16 b) {     \
    return __mc_math::HalfCompare(a, b, __mc_math::relation, unordered); \
  }
__MC_BFLOAT16_COMPARISON(__heq, kEq, false)
__MC_BFLOAT16_COMPARISON(__hne, kNe, false)
__MC_BFLOAT16_COMPARISON(__hlt, kLt, false)
__MC_BFLOAT16_COMPARISON(__hle, kLe, false)
__MC_BFLOAT16_COMPARISON(__hgt, kGt, false)
__MC_BFLOAT16_COMPARISON(__hge, kGe, false)
__MC_BFLOAT16_COMPARISON(__hequ, kEq, true)
__MC_BFLOAT16_COMPARISON(__hneu, kNe, true)
__MC_BFLOAT16_COMPARISON(__hltu, kLt, true)
__MC_BFLOAT16_COMPARISON(__hleu, kLe, true)
__MC_BFLOAT16_COMPARISON(__hgtu, kGt, true)
__MC_BFLOAT16_COMPARISON(__hgeu, kGe, true)
#undef __MC_BFLOAT16_COMPARISON

// Whether `a` is a NaN; whether it is infinite (-1 for -inf, 1 for +inf, 0
// otherwise).
constexpr inline bool __hisnan(__maca_bfloat16 a) {
  return __mc_math::HalfIsNan(a);
}
constexpr inline int __hisinf(__maca_bfloat16 a) {
  return __mc_math::HalfIsInfinite(a) ? ((a.__x & 0x8000u) ? -1 : 1) : 0;
}

// Lane-wise comparisons of __maca_bfloat162: __h<rel>2 returns a
// __maca_bfloat162 with 1.0 where the relation holds and 0.0 elsewhere;
// __hb<rel>2 returns true only when it holds in both lanes.
// [lang.math.bfloat16.arithmetic]
#define __MC_BFLOAT162_COMPARISON(relation)                                \
  constexpr inline __maca_bfloat162 __h##relation##2(__maca_bfloat162 a,   \
                                                     __maca_bfloat162 b) { \
    return __maca_bfloat162(                                               \
        __maca_bfloat16(__h##relation(a.x, b.x) ? 1.0f : 0.0f),            \
        __maca_bfloat16(__h##relation(a.y, b.y) ? 1.0f : 0.0f));           \
  }                                                                        \
  constexpr inline bool __hb##relation##2(__maca_bfloat162 a,              \
                                          __maca_bfloat162 b) {            \
    return __h##relation(a.x, b.x) && __h##relation(a.y, b.y);             \
  }
__MC_BFLOAT162_COMPARISON(eq)
__MC_BFLOAT162_COMPARISON(ne)
__MC_BFLOAT162_COMPARISON(lt)
__MC_BFLOAT162_COMPARISON(le)
__MC_BFLOAT162_COMPARISON(gt)
__MC_BFLOAT162_COMPARISON(ge)
__MC_BFLOAT162_COMPARISON(equ)
__MC_BFLOAT162_COMPARISON(neu)
__MC_BFLOAT162_COMPARISON(ltu)
__MC_BFLOAT162_COMPARISON(leu)
__MC_BFLOAT162_COMPARISON(gtu)
__MC_BFLOAT162_COMPARISON(geu)
#undef __MC_BFLOAT162_COMPARISON

// 1.0 in each lane that is a NaN, 0.0 elsewhere.
constexpr inline __maca_bfloat162 __hisnan2(__maca_bfloat162 a) {
  return __maca_bfloat162(__maca_bfloat16(__hisnan(a.x) ? 1.0f : 0.0f),
                          __maca_bfloat16(__hisnan(a.y) ? 1.0f : 0.0f));
}

// --------------------------------------------------------------------------
// Integer conversions, rounded in the suffix's mode (_rn nearest even, _rz
// toward zero, _ru up, _rd down). To an integer: out-of-range values
// saturate and NaN gives 0. [lang.math.bfloat16.conversions]
// --------------------------------------------------------------------------

#define __MC_BFLOAT16_FROM_INTEGER(prefix, type, convert)                     \
  constexpr inline __maca_bfloat16 prefix##_rn(type value) {                  \
    return __mc_math::convert<__maca_bfloat16>(value,                         \
                                               __mc_math::kRoundNearestEven); \
  }                                                                           \
  constexpr inline __maca_bfloat16 prefix##_rz(type value) {                  \
    return __mc_math::convert<__maca_bfloat16>(value,                         \
                                               __mc_math::kRoundTowardZero);  \
  }                                                                           \
  constexpr inline __maca_bfloat16 prefix##_ru(type value) {                  \
    return __mc_math::convert<__maca_bfloat16>(value, __mc_math::kRoundUp);   \
  }                                                                           \
  constexpr inline __maca_bfloat16 prefix##_rd(type value) {                  \
    return __mc_math::convert<__maca_bfloat16>(value, __mc_math::kRoundDown); \
  }
__MC_BFLOAT16_FROM_INTEGER(__short2bfloat16, short, HalfFromSigned)
__MC_BFLOAT16_FROM_INTEGER(__int2bfloat16, int, HalfFromSigned)
__MC_BFLOAT16_FROM_INTEGER(__ll2bfloat16, long long, HalfFromSigned)
__MC_BFLOAT16_FROM_INTEGER(__ushort2bfloat16, unsigned short, HalfFromUnsigned)
__MC_BFLOAT16_FROM_INTEGER(__uint2bfloat16, unsigned int, HalfFromUnsigned)
__MC_BFLOAT16_FROM_INTEGER(__ull2bfloat16, unsigned long long, HalfFromUnsigned)
#undef __MC_BFLOAT16_FROM_INTEGER

#define __MC_BFLOAT16_TO_INTEGER(prefix, type)                                 \
  constexpr inline type prefix##_rn(__maca_bfloat16 value) {                   \
    return __mc_math::HalfToInteger<type>(value,                               \
                                          __mc_math::kRoundNearestEven);       \
  }                                                                            \
  constexpr inline type prefix##_rz(__maca_bfloat16 value) {                   \
    return __mc_math::HalfToInteger<type>(value, __mc_math::kRoundTowardZero); \
  }                                                                            \
  constexpr inline type prefix##_ru(__maca_bfloat16 value) {                   \
    return __mc_math::HalfToInteger<type>(value, __mc_math::kRoundUp);         \
  }                                                                            \
  constexpr inline type prefix##_rd(__maca_bfloat16 value) {                   \
    return __mc_math::HalfToInteger<type>(value, __mc_math::kRoundDown);       \
  }
__MC_BFLOAT16_TO_INTEGER(__bfloat162short, short)
__MC_BFLOAT16_TO_INTEGER(__bfloat162int, int)
__MC_BFLOAT16_TO_INTEGER(__bfloat162ll, long long)
__MC_BFLOAT16_TO_INTEGER(__bfloat162ushort, unsigned short)
__MC_BFLOAT16_TO_INTEGER(__bfloat162uint, unsigned int)
__MC_BFLOAT16_TO_INTEGER(__bfloat162ull, unsigned long long)
#undef __MC_BFLOAT16_TO_INTEGER

// --------------------------------------------------------------------------
// Lane moves. [lang.math.bfloat16.conversions]
// (__halves2bfloat162, __bfloat162bfloat162, __floats2bfloat162_rn,
// __float2bfloat162_rn,
// __low2bfloat16, __high2bfloat16, __low2float and __high2float are in
// mcr/detail/half_types.h.)
// --------------------------------------------------------------------------

// The low (or high) lane of `a` in both lanes.
constexpr inline __maca_bfloat162 __low2bfloat162(__maca_bfloat162 a) {
  return __maca_bfloat162(a.x, a.x);
}
constexpr inline __maca_bfloat162 __high2bfloat162(__maca_bfloat162 a) {
  return __maca_bfloat162(a.y, a.y);
}
// The low lanes of `a` and `b` (as .x and .y); the high lanes.
constexpr inline __maca_bfloat162 __lows2bfloat162(__maca_bfloat162 a,
                                                   __maca_bfloat162 b) {
  return __maca_bfloat162(a.x, b.x);
}
constexpr inline __maca_bfloat162 __highs2bfloat162(__maca_bfloat162 a,
                                                    __maca_bfloat162 b) {
  return __maca_bfloat162(a.y, b.y);
}
// `a` with its lanes swapped.
constexpr inline __maca_bfloat162 __lowhigh2highlow(__maca_bfloat162 a) {
  return __maca_bfloat162(a.y, a.x);
}

// --------------------------------------------------------------------------
// Elementary functions: the float function of the value, rounded to the
// nearest __maca_bfloat16 (within 1 ulp of the exact result); hsqrt and hrcp
// are correctly rounded. h2<name> applies <name> to each lane.
// --------------------------------------------------------------------------

inline __maca_bfloat16 hsqrt(__maca_bfloat16 a) {
  return __mc_math::HalfSqrt(a);
}
inline __maca_bfloat16 hrcp(__maca_bfloat16 a) {
  return __hdiv(__maca_bfloat16(1.0f), a);
}
inline __maca_bfloat16 hrsqrt(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(__mc_math::ReciprocalSqrt, a);
}
inline __maca_bfloat16 hexp(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(expf, a);
}
inline __maca_bfloat16 hexp2(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(exp2f, a);
}
inline __maca_bfloat16 hexp10(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(__mc_math::Exp10, a);
}
inline __maca_bfloat16 hlog(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(logf, a);
}
inline __maca_bfloat16 hlog2(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(log2f, a);
}
inline __maca_bfloat16 hlog10(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(log10f, a);
}
inline __maca_bfloat16 hsin(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(sinf, a);
}
inline __maca_bfloat16 hcos(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(cosf, a);
}
inline __maca_bfloat16 hceil(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(ceilf, a);
}
inline __maca_bfloat16 hfloor(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(floorf, a);
}
inline __maca_bfloat16 htrunc(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(truncf, a);
}
inline __maca_bfloat16 hrint(__maca_bfloat16 a) {
  return __mc_math::HalfFunction(rintf, a);
}

#define __MC_BFLOAT162_FUNCTION(name)                    \
  inline __maca_bfloat162 h2##name(__maca_bfloat162 a) { \
    return __maca_bfloat162(h##name(a.x), h##name(a.y)); \
  }
__MC_BFLOAT162_FUNCTION(sqrt)
__MC_BFLOAT162_FUNCTION(rcp)
__MC_BFLOAT162_FUNCTION(rsqrt)
__MC_BFLOAT162_FUNCTION(exp)
__MC_BFLOAT162_FUNCTION(exp2)
__MC_BFLOAT162_FUNCTION(exp10)
__MC_BFLOAT162_FUNCTION(log)
__MC_BFLOAT162_FUNCTION(log2)
__MC_BFLOAT162_FUNCTION(log10)
__MC_BFLOAT162_FUNCTION(sin)
__MC_BFLOAT162_FUNCTION(cos)
__MC_BFLOAT162_FUNCTION(ceil)
__MC_BFLOAT162_FUNCTION(floor)
__MC_BFLOAT162_FUNCTION(trunc)
__MC_BFLOAT162_FUNCTION(rint)
#undef __MC_BFLOAT162_FUNCTION

// --------------------------------------------------------------------------
// Operators, with the results of the functions above.
// [lang.math.bfloat16.arithmetic]
// --------------------------------------------------------------------------

constexpr inline __maca_bfloat16 operator+(__maca_bfloat16 a,
                                           __maca_bfloat16 b) {
  return __hadd(a, b);
}
constexpr inline __maca_bfloat16 operator-(__maca_bfloat16 a,
                                           __maca_bfloat16 b) {
  return __hsub(a, b);
}
constexpr inline __maca_bfloat16 operator*(__maca_bfloat16 a,
                                           __maca_bfloat16 b) {
  return __hmul(a, b);
}
constexpr inline __maca_bfloat16 operator/(__maca_bfloat16 a,
                                           __maca_bfloat16 b) {
  return __hdiv(a, b);
}
constexpr inline __maca_bfloat16 operator+(__maca_bfloat16 a) { return a; }
constexpr inline __maca_bfloat16 operator-(__maca_bfloat16 a) {
  return __hneg(a);
}
constexpr inline __maca_bfloat16& operator+=(__maca_bfloat16& a,
                                             __maca_bfloat16 b) {
  return a = __hadd(a, b);
}
constexpr inline __maca_bfloat16& operator-=(__maca_bfloat16& a,
                                             __maca_bfloat16 b) {
  return a = __hsub(a, b);
}
constexpr inline __maca_bfloat16& operator*=(__maca_bfloat16& a,
                                             __maca_bfloat16 b) {
  return a = __hmul(a, b);
}
constexpr inline __maca_bfloat16& operator/=(__maca_bfloat16& a,
                                             __maca_bfloat16 b) {
  return a = __hdiv(a, b);
}
constexpr inline __maca_bfloat16& operator++(__maca_bfloat16& a) {
  return a = __hadd(a, __maca_bfloat16(1.0f));
}
constexpr inline __maca_bfloat16& operator--(__maca_bfloat16& a) {
  return a = __hsub(a, __maca_bfloat16(1.0f));
}
constexpr inline __maca_bfloat16 operator++(__maca_bfloat16& a, int) {
  const __maca_bfloat16 old = a;
  ++a;
  return old;
}
constexpr inline __maca_bfloat16 operator--(__maca_bfloat16& a, int) {
  const __maca_bfloat16 old = a;
  --a;
  return old;
}
// == and the orderings are ordered (false with a NaN); != is unordered.
constexpr inline bool operator==(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __heq(a, b);
}
constexpr inline bool operator!=(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __hneu(a, b);
}
constexpr inline bool operator<(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __hlt(a, b);
}
constexpr inline bool operator<=(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __hle(a, b);
}
constexpr inline bool operator>(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __hgt(a, b);
}
constexpr inline bool operator>=(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __hge(a, b);
}

constexpr inline __maca_bfloat162 operator+(__maca_bfloat162 a,
                                            __maca_bfloat162 b) {
  return __hadd2(a, b);
}
constexpr inline __maca_bfloat162 operator-(__maca_bfloat162 a,
                                            __maca_bfloat162 b) {
  return __hsub2(a, b);
}
constexpr inline __maca_bfloat162 operator*(__maca_bfloat162 a,
                                            __maca_bfloat162 b) {
  return __hmul2(a, b);
}
constexpr inline __maca_bfloat162 operator/(__maca_bfloat162 a,
                                            __maca_bfloat162 b) {
  return __h2div(a, b);
}
constexpr inline __maca_bfloat162 operator+(__maca_bfloat162 a) { return a; }
constexpr inline __maca_bfloat162 operator-(__maca_bfloat162 a) {
  return __hneg2(a);
}
constexpr inline __maca_bfloat162& operator+=(__maca_bfloat162& a,
                                              __maca_bfloat162 b) {
  return a = __hadd2(a, b);
}
constexpr inline __maca_bfloat162& operator-=(__maca_bfloat162& a,
                                              __maca_bfloat162 b) {
  return a = __hsub2(a, b);
}
constexpr inline __maca_bfloat162& operator*=(__maca_bfloat162& a,
                                              __maca_bfloat162 b) {
  return a = __hmul2(a, b);
}
constexpr inline __maca_bfloat162& operator/=(__maca_bfloat162& a,
                                              __maca_bfloat162 b) {
  return a = __h2div(a, b);
}
// True when the relation holds in both lanes (!= is __hbneu2: both lanes
// unequal or unordered).
constexpr inline bool operator==(__maca_bfloat162 a, __maca_bfloat162 b) {
  return __hbeq2(a, b);
}
constexpr inline bool operator!=(__maca_bfloat162 a, __maca_bfloat162 b) {
  return __hbneu2(a, b);
}
constexpr inline bool operator<(__maca_bfloat162 a, __maca_bfloat162 b) {
  return __hblt2(a, b);
}
constexpr inline bool operator<=(__maca_bfloat162 a, __maca_bfloat162 b) {
  return __hble2(a, b);
}
constexpr inline bool operator>(__maca_bfloat162 a, __maca_bfloat162 b) {
  return __hbgt2(a, b);
}
constexpr inline bool operator>=(__maca_bfloat162 a, __maca_bfloat162 b) {
  return __hbge2(a, b);
}

#endif  // MACA_BFLOAT16_H_
