// Copyright mxcts authors.
//
// ==========================================================================
// maca_fp16.h: half precision (IEEE binary16) for host and device code
// ==========================================================================
//
// `__half` holds one binary16 value, `__half2` two of them (`.x` the low
// lane, `.y` the high lane). This header gives them arithmetic, comparisons,
// conversions, elementary functions and C++ operators; the types and their
// float conversions come from mcr/detail/half_types.h.
//
//   #include <maca_fp16.h>
//
//   __global__ void Axpy(__half a, const __half2* x, __half2* y, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) y[i] = __hfma2(__half2half2(a), x[i], y[i]);
//   }
//
// Contracts ([lang.math.half.arithmetic] and the clauses cited below):
// - `__hadd`, `__hsub`, `__hmul`, `__hdiv` return the exact result rounded
//   to the nearest __half, ties to even; `__hfma` rounds `a * b + c` once.
//   The `_rn` forms are the same operations, never contracted into a fused
//   multiply-add; the `_sat` forms clamp the result to [+0, 1] (a NaN
//   becomes +0); the `_relu` forms replace a negative result or NaN by +0.
// - `__hneg` and `__habs` flip or clear the sign bit, exactly.
// - The `2` forms apply the operation to each lane independently
//   ([lang.math.half.half2-lanewise]).
// - Every function is usable in host and device code and computes the same
//   result in both.
//
// Everything here is inline and seen by both compilation passes.
//
// Tested by conformance/language/math/half_test.cc and
// headers_together_test.cc.

#ifndef MACA_FP16_H_
#define MACA_FP16_H_

#include "mcr/detail/half_arithmetic.h"
#include "mcr/detail/half_types.h"

// The names CUDA-style programs use for the types.
typedef __half half;
typedef __half2 half2;

// --------------------------------------------------------------------------
// Arithmetic on __half. [lang.math.half.arithmetic]
// --------------------------------------------------------------------------

// a + b, a - b, a * b, a / b, rounded to nearest even.
constexpr inline __half __hadd(__half a, __half b) {
  return __mc_math::HalfAdd(a, b);
}
constexpr inline __half __hsub(__half a, __half b) {
  return __mc_math::HalfSub(a, b);
}
constexpr inline __half __hmul(__half a, __half b) {
  return __mc_math::HalfMul(a, b);
}
constexpr inline __half __hdiv(__half a, __half b) {
  return __mc_math::HalfDiv(a, b);
}
// The same, never contracted into a fused multiply-add.
constexpr inline __half __hadd_rn(__half a, __half b) { return __hadd(a, b); }
constexpr inline __half __hsub_rn(__half a, __half b) { return __hsub(a, b); }
constexpr inline __half __hmul_rn(__half a, __half b) { return __hmul(a, b); }
// The same, clamped to [+0, 1] (NaN gives +0).
constexpr inline __half __hadd_sat(__half a, __half b) {
  return __mc_math::HalfSaturate(__hadd(a, b));
}
constexpr inline __half __hsub_sat(__half a, __half b) {
  return __mc_math::HalfSaturate(__hsub(a, b));
}
constexpr inline __half __hmul_sat(__half a, __half b) {
  return __mc_math::HalfSaturate(__hmul(a, b));
}
// a * b + c with a single rounding; clamped (_sat) or with negative results
// and NaN replaced by +0 (_relu).
constexpr inline __half __hfma(__half a, __half b, __half c) {
  return __mc_math::HalfFma(a, b, c);
}
constexpr inline __half __hfma_sat(__half a, __half b, __half c) {
  return __mc_math::HalfSaturate(__hfma(a, b, c));
}
constexpr inline __half __hfma_relu(__half a, __half b, __half c) {
  return __mc_math::HalfRelu(__hfma(a, b, c));
}
// -a and |a|: exact.
constexpr inline __half __hneg(__half a) { return __mc_math::HalfNeg(a); }
constexpr inline __half __habs(__half a) { return __mc_math::HalfAbs(a); }
// The larger and smaller operand: a NaN operand is ignored (the other is
// returned), or propagated by the _nan forms.
constexpr inline __half __hmax(__half a, __half b) {
  return __mc_math::HalfMax(a, b, false);
}
constexpr inline __half __hmin(__half a, __half b) {
  return __mc_math::HalfMin(a, b, false);
}
constexpr inline __half __hmax_nan(__half a, __half b) {
  return __mc_math::HalfMax(a, b, true);
}
constexpr inline __half __hmin_nan(__half a, __half b) {
  return __mc_math::HalfMin(a, b, true);
}

// --------------------------------------------------------------------------
// Lane-wise arithmetic on __half2. [lang.math.half.half2-lanewise]
// --------------------------------------------------------------------------

constexpr inline __half2 __hadd2(__half2 a, __half2 b) {
  return __half2(__hadd(a.x, b.x), __hadd(a.y, b.y));
}
constexpr inline __half2 __hsub2(__half2 a, __half2 b) {
  return __half2(__hsub(a.x, b.x), __hsub(a.y, b.y));
}
constexpr inline __half2 __hmul2(__half2 a, __half2 b) {
  return __half2(__hmul(a.x, b.x), __hmul(a.y, b.y));
}
constexpr inline __half2 __h2div(__half2 a, __half2 b) {
  return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y));
}
constexpr inline __half2 __hdiv2(__half2 a, __half2 b) { return __h2div(a, b); }
constexpr inline __half2 __hadd2_rn(__half2 a, __half2 b) {
  return __hadd2(a, b);
}
constexpr inline __half2 __hsub2_rn(__half2 a, __half2 b) {
  return __hsub2(a, b);
}
constexpr inline __half2 __hmul2_rn(__half2 a, __half2 b) {
  return __hmul2(a, b);
}
constexpr inline __half2 __hadd2_sat(__half2 a, __half2 b) {
  return __half2(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y));
}
constexpr inline __half2 __hsub2_sat(__half2 a, __half2 b) {
  return __half2(__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y));
}
constexpr inline __half2 __hmul2_sat(__half2 a, __half2 b) {
  return __half2(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y));
}
constexpr inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
constexpr inline __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
constexpr inline __half2 __hfma2_relu(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}
constexpr inline __half2 __hneg2(__half2 a) {
  return __half2(__hneg(a.x), __hneg(a.y));
}
constexpr inline __half2 __habs2(__half2 a) {
  return __half2(__habs(a.x), __habs(a.y));
}
constexpr inline __half2 __hmax2(__half2 a, __half2 b) {
  return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y));
}
constexpr inline __half2 __hmin2(__half2 a, __half2 b) {
  return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y));
}
constexpr inline __half2 __hmax2_nan(__half2 a, __half2 b) {
  return __half2(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y));
}
constexpr inline __half2 __hmin2_nan(__half2 a, __half2 b) {
  return __half2(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y));
}

// --------------------------------------------------------------------------
// Comparisons. [lang.math.half.comparisons]
// Ordered forms are false when either operand is a NaN; the `u` forms
// (unordered) are true then.
// --------------------------------------------------------------------------

#define __MC_HALF_COMPARISON(name, relation, unordered)                  \
  constexpr inline bool name(__half a, __half b) {                       \
    return __mc_math::HalfCompare(a, b, __mc_math::relation, unordered); \
  }
__MC_HALF_COMPARISON(__heq, kEq, false)
__MC_HALF_COMPARISON(__hne, kNe, false)
__MC_HALF_COMPARISON(__hlt, kLt, false)
__MC_HALF_COMPARISON(__hle, kLe, false)
__MC_HALF_COMPARISON(__hgt, kGt, false)
__MC_HALF_COMPARISON(__hge, kGe, false)
__MC_HALF_COMPARISON(__hequ, kEq, true)
__MC_HALF_COMPARISON(__hneu, kNe, true)
__MC_HALF_COMPARISON(__hltu, kLt, true)
__MC_HALF_COMPARISON(__hleu, kLe, true)
__MC_HALF_COMPARISON(__hgtu, kGt, true)
__MC_HALF_COMPARISON(__hgeu, kGe, true)
#undef __MC_HALF_COMPARISON

// Whether `a` is a NaN; whether it is infinite (-1 for -inf, 1 for +inf, 0
// otherwise).
constexpr inline bool __hisnan(__half a) { return __mc_math::HalfIsNan(a); }
constexpr inline int __hisinf(__half a) {
  return __mc_math::HalfIsInfinite(a) ? ((a.__x & 0x8000u) ? -1 : 1) : 0;
}

// Lane-wise comparisons of __half2: __h<rel>2 returns a __half2 with 1.0
// where the relation holds and 0.0 elsewhere; __hb<rel>2 returns true only
// when it holds in both lanes. [lang.math.half.half2-comparisons]
#define __MC_HALF2_COMPARISON(relation)                             \
  constexpr inline __half2 __h##relation##2(__half2 a, __half2 b) { \
    return __half2(__half(__h##relation(a.x, b.x) ? 1.0f : 0.0f),   \
                   __half(__h##relation(a.y, b.y) ? 1.0f : 0.0f));  \
  }                                                                 \
  constexpr inline bool __hb##relation##2(__half2 a, __half2 b) {   \
    return __h##relation(a.x, b.x) && __h##relation(a.y, b.y);      \
  }
__MC_HALF2_COMPARISON(eq)
__MC_HALF2_COMPARISON(ne)
__MC_HALF2_COMPARISON(lt)
__MC_HALF2_COMPARISON(le)
__MC_HALF2_COMPARISON(gt)
__MC_HALF2_COMPARISON(ge)
__MC_HALF2_COMPARISON(equ)
__MC_HALF2_COMPARISON(neu)
__MC_HALF2_COMPARISON(ltu)
__MC_HALF2_COMPARISON(leu)
__MC_HALF2_COMPARISON(gtu)
__MC_HALF2_COMPARISON(geu)
#undef __MC_HALF2_COMPARISON

// 1.0 in each lane that is a NaN, 0.0 elsewhere.
constexpr inline __half2 __hisnan2(__half2 a) {
  return __half2(__half(__hisnan(a.x) ? 1.0f : 0.0f),
                 __half(__hisnan(a.y) ? 1.0f : 0.0f));
}

// --------------------------------------------------------------------------
// Integer conversions, rounded in the suffix's mode (_rn nearest even, _rz
// toward zero, _ru up, _rd down). To an integer: out-of-range values
// saturate and NaN gives 0. [lang.math.half.integer-conversions]
// --------------------------------------------------------------------------

#define __MC_HALF_FROM_INTEGER(prefix, type, convert)                       \
  constexpr inline __half prefix##_rn(type value) {                         \
    return __mc_math::convert<__half>(value, __mc_math::kRoundNearestEven); \
  }                                                                         \
  constexpr inline __half prefix##_rz(type value) {                         \
    return __mc_math::convert<__half>(value, __mc_math::kRoundTowardZero);  \
  }                                                                         \
  constexpr inline __half prefix##_ru(type value) {                         \
    return __mc_math::convert<__half>(value, __mc_math::kRoundUp);          \
  }                                                                         \
  constexpr inline __half prefix##_rd(type value) {                         \
    return __mc_math::convert<__half>(value, __mc_math::kRoundDown);        \
  }
__MC_HALF_FROM_INTEGER(__short2half, short, HalfFromSigned)
__MC_HALF_FROM_INTEGER(__int2half, int, HalfFromSigned)
__MC_HALF_FROM_INTEGER(__ll2half, long long, HalfFromSigned)
__MC_HALF_FROM_INTEGER(__ushort2half, unsigned short, HalfFromUnsigned)
__MC_HALF_FROM_INTEGER(__uint2half, unsigned int, HalfFromUnsigned)
__MC_HALF_FROM_INTEGER(__ull2half, unsigned long long, HalfFromUnsigned)
#undef __MC_HALF_FROM_INTEGER

#define __MC_HALF_TO_INTEGER(prefix, type)                                     \
  constexpr inline type prefix##_rn(__half value) {                            \
    return __mc_math::HalfToInteger<type>(value,                               \
                                          __mc_math::kRoundNearestEven);       \
  }                                                                            \
  constexpr inline type prefix##_rz(__half value) {                            \
    return __mc_math::HalfToInteger<type>(value, __mc_math::kRoundTowardZero); \
  }                                                                            \
  constexpr inline type prefix##_ru(__half value) {                            \
    return __mc_math::HalfToInteger<type>(value, __mc_math::kRoundUp);         \
  }                                                                            \
  constexpr inline type prefix##_rd(__half value) {                            \
    return __mc_math::HalfToInteger<type>(value, __mc_math::kRoundDown);       \
  }
__MC_HALF_TO_INTEGER(__half2short, short)
__MC_HALF_TO_INTEGER(__half2int, int)
__MC_HALF_TO_INTEGER(__half2ll, long long)
__MC_HALF_TO_INTEGER(__half2ushort, unsigned short)
__MC_HALF_TO_INTEGER(__half2uint, unsigned int)
__MC_HALF_TO_INTEGER(__half2ull, unsigned long long)
#undef __MC_HALF_TO_INTEGER

// --------------------------------------------------------------------------
// Lane moves. [lang.math.half.half2-construction]
// (__halves2half2, __half2half2, __floats2half2_rn, __float2half2_rn,
// __low2half, __high2half, __low2float and __high2float are in
// mcr/detail/half_types.h.)
// --------------------------------------------------------------------------

// The low (or high) lane of `a` in both lanes.
constexpr inline __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
constexpr inline __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
// The low lanes of `a` and `b` (as .x and .y); the high lanes.
constexpr inline __half2 __lows2half2(__half2 a, __half2 b) {
  return __half2(a.x, b.x);
}
constexpr inline __half2 __highs2half2(__half2 a, __half2 b) {
  return __half2(a.y, b.y);
}
// `a` with its lanes swapped.
constexpr inline __half2 __lowhigh2highlow(__half2 a) {
  return __half2(a.y, a.x);
}

// --------------------------------------------------------------------------
// Elementary functions: the float function of the value, rounded to the
// nearest __half (within 1 ulp of the exact result); hsqrt and hrcp are
// correctly rounded. h2<name> applies <name> to each lane.
// --------------------------------------------------------------------------

inline __half hsqrt(__half a) { return __mc_math::HalfSqrt(a); }
inline __half hrcp(__half a) { return __hdiv(__half(1.0f), a); }
inline __half hrsqrt(__half a) {
  return __mc_math::HalfFunction(__mc_math::ReciprocalSqrt, a);
}
inline __half hexp(__half a) { return __mc_math::HalfFunction(expf, a); }
inline __half hexp2(__half a) { return __mc_math::HalfFunction(exp2f, a); }
inline __half hexp10(__half a) {
  return __mc_math::HalfFunction(__mc_math::Exp10, a);
}
inline __half hlog(__half a) { return __mc_math::HalfFunction(logf, a); }
inline __half hlog2(__half a) { return __mc_math::HalfFunction(log2f, a); }
inline __half hlog10(__half a) { return __mc_math::HalfFunction(log10f, a); }
inline __half hsin(__half a) { return __mc_math::HalfFunction(sinf, a); }
inline __half hcos(__half a) { return __mc_math::HalfFunction(cosf, a); }
inline __half hceil(__half a) { return __mc_math::HalfFunction(ceilf, a); }
inline __half hfloor(__half a) { return __mc_math::HalfFunction(floorf, a); }
inline __half htrunc(__half a) { return __mc_math::HalfFunction(truncf, a); }
inline __half hrint(__half a) { return __mc_math::HalfFunction(rintf, a); }

#define __MC_HALF2_FUNCTION(name)               \
  inline __half2 h2##name(__half2 a) {          \
    return __half2(h##name(a.x), h##name(a.y)); \
  }
__MC_HALF2_FUNCTION(sqrt)
__MC_HALF2_FUNCTION(rcp)
__MC_HALF2_FUNCTION(rsqrt)
__MC_HALF2_FUNCTION(exp)
__MC_HALF2_FUNCTION(exp2)
__MC_HALF2_FUNCTION(exp10)
__MC_HALF2_FUNCTION(log)
__MC_HALF2_FUNCTION(log2)
__MC_HALF2_FUNCTION(log10)
__MC_HALF2_FUNCTION(sin)
__MC_HALF2_FUNCTION(cos)
__MC_HALF2_FUNCTION(ceil)
__MC_HALF2_FUNCTION(floor)
__MC_HALF2_FUNCTION(trunc)
__MC_HALF2_FUNCTION(rint)
#undef __MC_HALF2_FUNCTION

// --------------------------------------------------------------------------
// Operators, with the results of the functions above.
// [lang.math.half.operators]
// --------------------------------------------------------------------------

constexpr inline __half operator+(__half a, __half b) { return __hadd(a, b); }
constexpr inline __half operator-(__half a, __half b) { return __hsub(a, b); }
constexpr inline __half operator*(__half a, __half b) { return __hmul(a, b); }
constexpr inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
constexpr inline __half operator+(__half a) { return a; }
constexpr inline __half operator-(__half a) { return __hneg(a); }
constexpr inline __half& operator+=(__half& a, __half b) {
  return a = __hadd(a, b);
}
constexpr inline __half& operator-=(__half& a, __half b) {
  return a = __hsub(a, b);
}
constexpr inline __half& operator*=(__half& a, __half b) {
  return a = __hmul(a, b);
}
constexpr inline __half& operator/=(__half& a, __half b) {
  return a = __hdiv(a, b);
}
constexpr inline __half& operator++(__half& a) {
  return a = __hadd(a, __half(1.0f));
}
constexpr inline __half& operator--(__half& a) {
  return a = __hsub(a, __half(1.0f));
}
constexpr inline __half operator++(__half& a, int) {
  const __half old = a;
  ++a;
  return old;
}
constexpr inline __half operator--(__half& a, int) {
  const __half old = a;
  --a;
  return old;
}
// == and the orderings are ordered (false with a NaN); != is unordered.
constexpr inline bool operator==(__half a, __half b) { return __heq(a, b); }
constexpr inline bool operator!=(__half a, __half b) { return __hneu(a, b); }
constexpr inline bool operator<(__half a, __half b) { return __hlt(a, b); }
constexpr inline bool operator<=(__half a, __half b) { return __hle(a, b); }
constexpr inline bool operator>(__half a, __half b) { return __hgt(a, b); }
constexpr inline bool operator>=(__half a, __half b) { return __hge(a, b); }

constexpr inline __half2 operator+(__half2 a, __half2 b) {
  return __hadd2(a, b);
}
constexpr inline __half2 operator-(__half2 a, __half2 b) {
  return __hsub2(a, b);
}
constexpr inline __half2 operator*(__half2 a, __half2 b) {
  return __hmul2(a, b);
}
constexpr inline __half2 operator/(__half2 a, __half2 b) {
  return __h2div(a, b);
}
constexpr inline __half2 operator+(__half2 a) { return a; }
constexpr inline __half2 operator-(__half2 a) { return __hneg2(a); }
constexpr inline __half2& operator+=(__half2& a, __half2 b) {
  return a = __hadd2(a, b);
}
constexpr inline __half2& operator-=(__half2& a, __half2 b) {
  return a = __hsub2(a, b);
}
constexpr inline __half2& operator*=(__half2& a, __half2 b) {
  return a = __hmul2(a, b);
}
constexpr inline __half2& operator/=(__half2& a, __half2 b) {
  return a = __h2div(a, b);
}
// True when the relation holds in both lanes (!= is __hbneu2: both lanes
// unequal or unordered).
constexpr inline bool operator==(__half2 a, __half2 b) { return __hbeq2(a, b); }
constexpr inline bool operator!=(__half2 a, __half2 b) {
  return __hbneu2(a, b);
}
constexpr inline bool operator<(__half2 a, __half2 b) { return __hblt2(a, b); }
constexpr inline bool operator<=(__half2 a, __half2 b) { return __hble2(a, b); }
constexpr inline bool operator>(__half2 a, __half2 b) { return __hbgt2(a, b); }
constexpr inline bool operator>=(__half2 a, __half2 b) { return __hbge2(a, b); }

#endif  // MACA_FP16_H_
