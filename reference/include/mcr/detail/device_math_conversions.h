// Copyright mxcts authors.
//
// mcr/detail/device_math_conversions.h: the type conversion intrinsics with
// an explicit rounding mode and the bit reinterpretations.
//
// The suffix names the rounding: `_rn` to nearest, ties to even; `_rz`
// toward zero; `_ru` toward +infinity; `_rd` toward -infinity. Every result
// is exact: it is computed in integer arithmetic from the operand's bits
// (mcr/detail/float_rounding.h), never through the host's rounding mode.
//
//   __float2int_rd(-1.5f)          // -2
//   __float2int_rz(-1.5f)          // -1
//   __ll2float_ru(16777217LL)      // 16777218.0f (2^24 + 1 rounds up)
//   __double2float_rz(1.0 / 3.0)   // 0x1.555554p-2f
//   __float_as_uint(-0.0f)         // 0x80000000u
//
// Out of range: a float-to-integer conversion whose rounded value does not
// fit the result type saturates to the type's minimum or maximum, and a NaN
// converts to 0 (the reference's documented choice,
// [lang.math.convert.out-of-range-integer]).
//
// Part of the device math library (mcr/detail/device_math.h); usable in
// host and device code.
//
// Tested by conformance/language/math/rounding_conversions_test.cc.

#ifndef MCR_DETAIL_DEVICE_MATH_CONVERSIONS_H_
#define MCR_DETAIL_DEVICE_MATH_CONVERSIONS_H_

#include "mcr/detail/float_rounding.h"

namespace __mc_math {

// The double (or widened float) `value` rounded in `mode` to Integer.
template <class Integer>
constexpr Integer ToInteger(double value, int mode) {
  constexpr bool kSigned = Integer(-1) < Integer(0);
  constexpr Integer kMaximum =
      kSigned ? Integer((1ull << (sizeof(Integer) * 8 - 1)) - 1) : Integer(-1);
  constexpr Integer kMinimum = kSigned ? Integer(-kMaximum - 1) : Integer(0);
  return DoubleToInteger<Integer>(DoubleBits(value), mode, kMinimum, kMaximum);
}

constexpr float SignedToFloat(long long value, int mode) {
  return FloatFromBits(
      static_cast<unsigned>(IntegerToFormat(value, kBinary32, mode)));
}
constexpr float UnsignedToFloat(unsigned long long value, int mode) {
  return FloatFromBits(
      static_cast<unsigned>(UnsignedToFormat(value, kBinary32, mode)));
}
constexpr double SignedToDouble(long long value, int mode) {
  return DoubleFromBits(IntegerToFormat(value, kBinary64, mode));
}
constexpr double UnsignedToDouble(unsigned long long value, int mode) {
  return DoubleFromBits(UnsignedToFormat(value, kBinary64, mode));
}
constexpr float DoubleToFloat(double value, int mode) {
  return FloatFromBits(static_cast<unsigned>(
      ConvertFormat(DoubleBits(value), kBinary64, kBinary32, mode)));
}

}  // namespace __mc_math

// --------------------------------------------------------------------------
// Floating point to integer. [lang.math.convert.float-to-integer]
// `value` rounded to an integer in the suffix's mode; saturated when out of
// range, 0 for a NaN. [lang.math.convert.out-of-range-integer]
// --------------------------------------------------------------------------

#define __MC_TO_INTEGER(name, result, parameter, mode)               \
  constexpr inline result name(parameter value) {                    \
    return ::__mc_math::ToInteger<result>(value, ::__mc_math::mode); \
  }
#define __MC_TO_INTEGER_FOUR_MODES(prefix, result, parameter)        \
  __MC_TO_INTEGER(prefix##_rn, result, parameter, kRoundNearestEven) \
  __MC_TO_INTEGER(prefix##_rz, result, parameter, kRoundTowardZero)  \
  __MC_TO_INTEGER(prefix##_ru, result, parameter, kRoundUp)          \
  __MC_TO_INTEGER(prefix##_rd, result, parameter, kRoundDown)

// __float2int_rn/_rz/_ru/_rd(float) -> int, and so on for each pair.
__MC_TO_INTEGER_FOUR_MODES(__float2int, int, float)
__MC_TO_INTEGER_FOUR_MODES(__float2uint, unsigned int, float)
__MC_TO_INTEGER_FOUR_MODES(__float2ll, long long, float)
__MC_TO_INTEGER_FOUR_MODES(__float2ull, unsigned long long, float)
__MC_TO_INTEGER_FOUR_MODES(__double2int, int, double)
__MC_TO_INTEGER_FOUR_MODES(__double2uint, unsigned int, double)
__MC_TO_INTEGER_FOUR_MODES(__double2ll, long long, double)
__MC_TO_INTEGER_FOUR_MODES(__double2ull, unsigned long long, double)

#undef __MC_TO_INTEGER_FOUR_MODES
#undef __MC_TO_INTEGER

// --------------------------------------------------------------------------
// Integer to floating point. [lang.math.convert.integer-to-float]
// `value` rounded to the result type in the suffix's mode.
// --------------------------------------------------------------------------

#define __MC_FROM_INTEGER(name, result, parameter, convert, mode) \
  constexpr inline result name(parameter value) {                 \
    return ::__mc_math::convert(value, ::__mc_math::mode);        \
  }
#define __MC_FROM_INTEGER_FOUR_MODES(prefix, result, parameter, convert)       \
  __MC_FROM_INTEGER(prefix##_rn, result, parameter, convert,                   \
                    kRoundNearestEven)                                         \
  __MC_FROM_INTEGER(prefix##_rz, result, parameter, convert, kRoundTowardZero) \
  __MC_FROM_INTEGER(prefix##_ru, result, parameter, convert, kRoundUp)         \
  __MC_FROM_INTEGER(prefix##_rd, result, parameter, convert, kRoundDown)

// __int2float_rn/_rz/_ru/_rd(int) -> float, and so on for each pair.
__MC_FROM_INTEGER_FOUR_MODES(__int2float, float, int, SignedToFloat)
__MC_FROM_INTEGER_FOUR_MODES(__uint2float, float, unsigned int, UnsignedToFloat)
__MC_FROM_INTEGER_FOUR_MODES(__ll2float, float, long long, SignedToFloat)
__MC_FROM_INTEGER_FOUR_MODES(__ull2float, float, unsigned long long,
                             UnsignedToFloat)
__MC_FROM_INTEGER_FOUR_MODES(__ll2double, double, long long, SignedToDouble)
__MC_FROM_INTEGER_FOUR_MODES(__ull2double, double, unsigned long long,
                             UnsignedToDouble)

#undef __MC_FROM_INTEGER_FOUR_MODES
#undef __MC_FROM_INTEGER

// Every int and unsigned int is a double: these are exact.
constexpr inline double __int2double_rn(int value) { return value; }
constexpr inline double __uint2double_rn(unsigned int value) { return value; }

// --------------------------------------------------------------------------
// double to float. [lang.math.convert.double-to-float]
// `value` rounded to float in the suffix's mode; NaN stays NaN, infinities
// stay infinities, overflow gives an infinity or FLT_MAX as the mode says.
// --------------------------------------------------------------------------

constexpr inline float __double2float_rn(double value) {
  return ::__mc_math::DoubleToFloat(value, ::__mc_math::kRoundNearestEven);
}
constexpr inline float __double2float_rz(double value) {
  return ::__mc_math::DoubleToFloat(value, ::__mc_math::kRoundTowardZero);
}
constexpr inline float __double2float_ru(double value) {
  return ::__mc_math::DoubleToFloat(value, ::__mc_math::kRoundUp);
}
constexpr inline float __double2float_rd(double value) {
  return ::__mc_math::DoubleToFloat(value, ::__mc_math::kRoundDown);
}

// --------------------------------------------------------------------------
// Bit reinterpretation. [lang.math.convert.bit-reinterpretation]
// The argument's bits, unchanged, as the other type.
// --------------------------------------------------------------------------

constexpr inline int __float_as_int(float value) {
  return __builtin_bit_cast(int, value);
}
constexpr inline float __int_as_float(int bits) {
  return __builtin_bit_cast(float, bits);
}
constexpr inline unsigned int __float_as_uint(float value) {
  return __builtin_bit_cast(unsigned int, value);
}
constexpr inline float __uint_as_float(unsigned int bits) {
  return __builtin_bit_cast(float, bits);
}
constexpr inline long long __double_as_longlong(double value) {
  return __builtin_bit_cast(long long, value);
}
constexpr inline double __longlong_as_double(long long bits) {
  return __builtin_bit_cast(double, bits);
}
// The high (sign, exponent, top of the fraction) and low 32 bits of a
// double, and the double made of two such halves.
constexpr inline int __double2hiint(double value) {
  return static_cast<int>(__builtin_bit_cast(unsigned long long, value) >> 32);
}
constexpr inline int __double2loint(double value) {
  return static_cast<int>(
      static_cast<unsigned>(__builtin_bit_cast(unsigned long long, value)));
}
constexpr inline double __hiloint2double(int high, int low) {
  return __builtin_bit_cast(
      double,
      (static_cast<unsigned long long>(static_cast<unsigned>(high)) << 32) |
          static_cast<unsigned>(low));
}

#endif  // MCR_DETAIL_DEVICE_MATH_CONVERSIONS_H_
