// Copyright mxcts authors.
//
// mcr/detail/half_arithmetic.h: the arithmetic, comparisons, conversions
// and functions shared by the two 16-bit floating-point types, written once
// as templates over `__half` and `__maca_bfloat16`.
//
// maca_fp16.h and maca_bfloat16.h declare the public, non-template
// functions (`__hadd(__half, __half)`, `__hadd(__maca_bfloat16,
// __maca_bfloat16)`, ...) as one-line calls of these. The basic operations
// are exact and rounded once (mcr/detail/exact_arithmetic.h): a 16-bit value
// widens to double exactly and the result is rounded straight into the
// 16-bit format, so `__hadd` is the correctly rounded sum, `__hfma` rounds
// once, and nothing depends on the compiler contracting an expression
// ([lang.math.half.arithmetic], [lang.math.bfloat16.arithmetic]). The
// elementary functions (hexp, hsin, ...) evaluate the float function and
// round its result to nearest: within 1 ulp of the 16-bit result.
//
// Not for programs. Names live in namespace `__mc_math`.
//
// Tested by conformance/language/math/half_test.cc and bfloat16_test.cc.

#ifndef MCR_DETAIL_HALF_ARITHMETIC_H_
#define MCR_DETAIL_HALF_ARITHMETIC_H_

#include <math.h>

#include "mcr/detail/exact_arithmetic.h"
#include "mcr/detail/half_types.h"

namespace __mc_math {

// The binary format of each 16-bit type.
template <class Half>
struct HalfFormat;
template <>
struct HalfFormat<__half> {
  static constexpr Format Value() { return kBinary16; }
};
template <>
struct HalfFormat<__maca_bfloat16> {
  static constexpr Format Value() { return kBfloat16; }
};

template <class Half>
constexpr Half HalfFromBits(unsigned long long bits) {
  Half result{};
  result.__x = static_cast<unsigned short>(bits);
  return result;
}
template <class Half>
constexpr double HalfToDouble(Half value) {
  return static_cast<float>(value);
}
template <class Half>
constexpr Half HalfFromFloat(float value, int mode = kRoundNearestEven) {
  return HalfFromBits<Half>(ConvertFormat(FloatBits(value), kBinary32,
                                          HalfFormat<Half>::Value(), mode));
}
template <class Half>
constexpr bool HalfIsNan(Half value) {
  return (value.__x & 0x7fff) > InfinityBits(HalfFormat<Half>::Value());
}
template <class Half>
constexpr bool HalfIsInfinite(Half value) {
  return (value.__x & 0x7fff) == InfinityBits(HalfFormat<Half>::Value());
}

// The operations rounded once into the 16-bit format.
template <class Half>
constexpr Half HalfAdd(Half a, Half b, int mode = kRoundNearestEven) {
  return HalfFromBits<Half>(RoundedAdd(HalfToDouble(a), HalfToDouble(b),
                                       HalfFormat<Half>::Value(), mode));
}
template <class Half>
constexpr Half HalfSub(Half a, Half b, int mode = kRoundNearestEven) {
  return HalfFromBits<Half>(RoundedAdd(HalfToDouble(a), -HalfToDouble(b),
                                       HalfFormat<Half>::Value(), mode));
}
template <class Half>
constexpr Half HalfMul(Half a, Half b, int mode = kRoundNearestEven) {
  return HalfFromBits<Half>(RoundedMul(HalfToDouble(a), HalfToDouble(b),
                                       HalfFormat<Half>::Value(), mode));
}
template <class Half>
constexpr Half HalfDiv(Half a, Half b, int mode = kRoundNearestEven) {
  return HalfFromBits<Half>(RoundedDiv(HalfToDouble(a), HalfToDouble(b),
                                       HalfFormat<Half>::Value(), mode));
}
template <class Half>
constexpr Half HalfFma(Half a, Half b, Half c, int mode = kRoundNearestEven) {
  return HalfFromBits<Half>(RoundedFma(HalfToDouble(a), HalfToDouble(b),
                                       HalfToDouble(c),
                                       HalfFormat<Half>::Value(), mode));
}
template <class Half>
constexpr Half HalfSqrt(Half a) {
  return HalfFromBits<Half>(RoundedSqrt(
      HalfToDouble(a), HalfFormat<Half>::Value(), kRoundNearestEven));
}

// Sign manipulation: exact, NaN payloads kept.
template <class Half>
constexpr Half HalfNeg(Half a) {
  return HalfFromBits<Half>(a.__x ^ 0x8000u);
}
template <class Half>
constexpr Half HalfAbs(Half a) {
  return HalfFromBits<Half>(a.__x & 0x7fffu);
}

// `a` clamped to [+0, 1]; a NaN gives +0. [lang.math.half.arithmetic]
template <class Half>
constexpr Half HalfSaturate(Half a) {
  const double value = HalfToDouble(a);
  if (value > 0.0) return value < 1.0 ? a : HalfFromFloat<Half>(1.0f);
  return HalfFromBits<Half>(0);
}
// `a` with negative values and NaN replaced by +0 (the _relu forms).
template <class Half>
constexpr Half HalfRelu(Half a) {
  return HalfToDouble(a) > 0.0 ? a : HalfFromBits<Half>(0);
}

// The ordered relations are false when either operand is a NaN; the
// unordered ones true. [lang.math.half.comparisons]
enum Relation : int { kEq, kNe, kLt, kLe, kGt, kGe };
template <class Half>
constexpr bool HalfCompare(Half a, Half b, Relation relation, bool unordered) {
  const double x = HalfToDouble(a);
  const double y = HalfToDouble(b);
  if (HalfIsNan(a) || HalfIsNan(b)) return unordered;
  switch (relation) {
    case kEq:
      return x == y;
    case kNe:
      return x != y;
    case kLt:
      return x < y;
    case kLe:
      return x <= y;
    case kGt:
      return x > y;
    default:
      return x >= y;
  }
}

// Maximum and minimum: with one NaN operand, the other (or, for the _nan
// forms, a NaN); with two, a NaN. -0 and +0 compare equal.
template <class Half>
constexpr Half HalfMax(Half a, Half b, bool propagate_nan) {
  if (HalfIsNan(a) || HalfIsNan(b)) {
    if (propagate_nan || (HalfIsNan(a) && HalfIsNan(b))) {
      return HalfFromBits<Half>(DefaultNanBits(HalfFormat<Half>::Value()));
    }
    return HalfIsNan(a) ? b : a;
  }
  return HalfToDouble(a) >= HalfToDouble(b) ? a : b;
}
template <class Half>
constexpr Half HalfMin(Half a, Half b, bool propagate_nan) {
  if (HalfIsNan(a) || HalfIsNan(b)) {
    if (propagate_nan || (HalfIsNan(a) && HalfIsNan(b))) {
      return HalfFromBits<Half>(DefaultNanBits(HalfFormat<Half>::Value()));
    }
    return HalfIsNan(a) ? b : a;
  }
  return HalfToDouble(a) <= HalfToDouble(b) ? a : b;
}

// Integer conversions in `mode`. [lang.math.half.integer-conversions]
template <class Half>
constexpr Half HalfFromSigned(long long value, int mode) {
  return HalfFromBits<Half>(
      IntegerToFormat(value, HalfFormat<Half>::Value(), mode));
}
template <class Half>
constexpr Half HalfFromUnsigned(unsigned long long value, int mode) {
  return HalfFromBits<Half>(
      UnsignedToFormat(value, HalfFormat<Half>::Value(), mode));
}
template <class Integer, class Half>
constexpr Integer HalfToInteger(Half value, int mode) {
  constexpr bool kSigned = Integer(-1) < Integer(0);
  constexpr Integer kMaximum =
      kSigned ? Integer((1ull << (sizeof(Integer) * 8 - 1)) - 1) : Integer(-1);
  constexpr Integer kMinimum = kSigned ? Integer(-kMaximum - 1) : Integer(0);
  return DoubleToInteger<Integer>(DoubleBits(HalfToDouble(value)), mode,
                                  kMinimum, kMaximum);
}

// f applied to the float value of `a`, rounded to nearest.
template <class Half>
inline Half HalfFunction(float (*f)(float), Half a) {
  return HalfFromFloat<Half>(f(static_cast<float>(a)));
}
inline float Reciprocal(float x) { return 1.0f / x; }
inline float ReciprocalSqrt(float x) {
  return static_cast<float>(1.0 / sqrt(static_cast<double>(x)));
}
inline float Exp10(float x) { return exp10f(x); }

}  // namespace __mc_math

#endif  // MCR_DETAIL_HALF_ARITHMETIC_H_
