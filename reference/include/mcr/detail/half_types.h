// Copyright mxcts authors.
//
// mcr/detail/half_types.h: the 16-bit floating-point types `__half`,
// `__half2`, `__maca_bfloat16`, `__maca_bfloat162` and their conversions
// from and to `float`.
//
// The public headers maca_fp16.h and maca_bfloat16.h add the arithmetic;
// the wave and atomic headers include this one for the types alone. Each
// type is a trivially copyable, standard-layout struct holding the bits
// (`__x`; the pairs hold two of them as `.x`, the low lane, and `.y`), so
// it can live in device memory, `__shared__` arrays and kernel parameters.
//
// Conversions are exact integer arithmetic (mcr/detail/float_rounding.h):
// the same result in the host and the device pass, whatever the floating
// point environment, and usable in constant expressions, so that
// `__constant__ __half k = 0.5f;` is constant-initialized. Everything here
// is `inline`: the header is seen by both passes and needs no qualifiers.
//
//   __half h = __float2half(1.0f / 3.0f);   // 0x3555, ties to even
//   float f = __half2float(h);              // 0.333251953125f, exact
//   __half2 p = __floats2half2_rn(1.0f, -2.0f);  // p.x = 1, p.y = -2
//
// Tested by conformance/language/math/half_test.cc, bfloat16_test.cc and
// headers_together_test.cc.

#ifndef MCR_DETAIL_HALF_TYPES_H_
#define MCR_DETAIL_HALF_TYPES_H_

#include "mcr/detail/float_rounding.h"

namespace __mc_math {

// float <-> binary16 and bfloat16 bit patterns, in `mode`.
constexpr unsigned short FloatToHalfBits(float value, int mode) {
  return static_cast<unsigned short>(
      ConvertFormat(FloatBits(value), kBinary32, kBinary16, mode));
}
constexpr unsigned short DoubleToHalfBits(double value, int mode) {
  return static_cast<unsigned short>(
      ConvertFormat(DoubleBits(value), kBinary64, kBinary16, mode));
}
constexpr float HalfBitsToFloat(unsigned short bits) {
  return FloatFromBits(static_cast<unsigned>(
      ConvertFormat(bits, kBinary16, kBinary32, kRoundNearestEven)));
}
constexpr unsigned short FloatToBfloat16Bits(float value, int mode) {
  return static_cast<unsigned short>(
      ConvertFormat(FloatBits(value), kBinary32, kBfloat16, mode));
}
constexpr unsigned short DoubleToBfloat16Bits(double value, int mode) {
  return static_cast<unsigned short>(
      ConvertFormat(DoubleBits(value), kBinary64, kBfloat16, mode));
}
constexpr float Bfloat16BitsToFloat(unsigned short bits) {
  return FloatFromBits(static_cast<unsigned>(bits) << 16);
}

}  // namespace __mc_math

// The raw bits of a __half, for programs that build one bit by bit.
struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x;
  unsigned short y;
};

// An IEEE 754 binary16 value: 1 sign bit, 5 exponent bits, 10 fraction
// bits; size 2, alignment 2. [lang.math.half.types]
// Converts implicitly from float, double and the integer types (to nearest,
// ties to even) and to float (exactly).
struct alignas(2) __half {
  __half() = default;
  constexpr __half(__half_raw raw) : __x(raw.x) {}
  constexpr __half(float value)
      : __x(__mc_math::FloatToHalfBits(value, __mc_math::kRoundNearestEven)) {}
  constexpr __half(double value)
      : __x(__mc_math::DoubleToHalfBits(value, __mc_math::kRoundNearestEven)) {}
  constexpr __half(short value) : __half(static_cast<long long>(value)) {}
  constexpr __half(int value) : __half(static_cast<long long>(value)) {}
  constexpr __half(long value) : __half(static_cast<long long>(value)) {}
  constexpr __half(long long value)
      : __x(static_cast<unsigned short>(__mc_math::IntegerToFormat(
            value, __mc_math::kBinary16, __mc_math::kRoundNearestEven))) {}
  constexpr __half(unsigned short value)
      : __half(static_cast<unsigned long long>(value)) {}
  constexpr __half(unsigned int value)
      : __half(static_cast<unsigned long long>(value)) {}
  constexpr __half(unsigned long value)
      : __half(static_cast<unsigned long long>(value)) {}
  constexpr __half(unsigned long long value)
      : __x(static_cast<unsigned short>(__mc_math::UnsignedToFormat(
            value, __mc_math::kBinary16, __mc_math::kRoundNearestEven))) {}

  constexpr operator float() const { return __mc_math::HalfBitsToFloat(__x); }
  constexpr operator __half_raw() const { return __half_raw{__x}; }

  unsigned short __x;  // the binary16 bits
};

// Two __half lanes: `.x` is the low lane (lane 0), `.y` the high lane;
// size 4, alignment 4. [lang.math.half.types]
struct alignas(4) __half2 {
  __half2() = default;
  constexpr __half2(__half low, __half high) : x(low), y(high) {}
  constexpr __half2(__half2_raw raw)
      : x(__half_raw{raw.x}), y(__half_raw{raw.y}) {}
  constexpr operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }

  __half x;
  __half y;
};

// The raw bits of a __maca_bfloat16.
struct __maca_bfloat16_raw {
  unsigned short x;
};
struct __maca_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

// A bfloat16 value: the upper 16 bits of an IEEE binary32 (1 sign bit, 8
// exponent bits, 7 fraction bits); size 2, alignment 2.
// [lang.math.bfloat16.types] Converts like __half.
struct alignas(2) __maca_bfloat16 {
  __maca_bfloat16() = default;
  constexpr __maca_bfloat16(__maca_bfloat16_raw raw) : __x(raw.x) {}
  constexpr __maca_bfloat16(float value)
      : __x(__mc_math::FloatToBfloat16Bits(value,
                                           __mc_math::kRoundNearestEven)) {}
  constexpr __maca_bfloat16(double value)
      : __x(__mc_math::DoubleToBfloat16Bits(value,
                                            __mc_math::kRoundNearestEven)) {}
  constexpr __maca_bfloat16(short value)
      : __maca_bfloat16(static_cast<long long>(value)) {}
  constexpr __maca_bfloat16(int value)
      : __maca_bfloat16(static_cast<long long>(value)) {}
  constexpr __maca_bfloat16(long value)
      : __maca_bfloat16(static_cast<long long>(value)) {}
  constexpr __maca_bfloat16(long long value)
      : __x(static_cast<unsigned short>(__mc_math::IntegerToFormat(
            value, __mc_math::kBfloat16, __mc_math::kRoundNearestEven))) {}
  constexpr __maca_bfloat16(unsigned short value)
      : __maca_bfloat16(static_cast<unsigned long long>(value)) {}
  constexpr __maca_bfloat16(unsigned int value)
      : __maca_bfloat16(static_cast<unsigned long long>(value)) {}
  constexpr __maca_bfloat16(unsigned long value)
      : __maca_bfloat16(static_cast<unsigned long long>(value)) {}
  constexpr __maca_bfloat16(unsigned long long value)
      : __x(static_cast<unsigned short>(__mc_math::UnsignedToFormat(
            value, __mc_math::kBfloat16, __mc_math::kRoundNearestEven))) {}

  constexpr operator float() const {
    return __mc_math::Bfloat16BitsToFloat(__x);
  }
  constexpr operator __maca_bfloat16_raw() const {
    return __maca_bfloat16_raw{__x};
  }

  unsigned short __x;  // the bfloat16 bits
};

// Two bfloat16 lanes: `.x` low, `.y` high; size 4, alignment 4.
struct alignas(4) __maca_bfloat162 {
  __maca_bfloat162() = default;
  constexpr __maca_bfloat162(__maca_bfloat16 low, __maca_bfloat16 high)
      : x(low), y(high) {}
  constexpr __maca_bfloat162(__maca_bfloat162_raw raw)
      : x(__maca_bfloat16_raw{raw.x}), y(__maca_bfloat16_raw{raw.y}) {}
  constexpr operator __maca_bfloat162_raw() const {
    return __maca_bfloat162_raw{x.__x, y.__x};
  }

  __maca_bfloat16 x;
  __maca_bfloat16 y;
};

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "binary16");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "half pair");
static_assert(sizeof(__maca_bfloat16) == 2 && alignof(__maca_bfloat16) == 2,
              "bfloat16");
static_assert(sizeof(__maca_bfloat162) == 4 && alignof(__maca_bfloat162) == 4,
              "bfloat16 pair");

// --------------------------------------------------------------------------
// __half <-> float. [lang.math.half.float-conversions]
// --------------------------------------------------------------------------

// `value` rounded to the nearest __half, ties to even; beyond 65520 in
// magnitude it is an infinity; NaN stays NaN.
constexpr inline __half __float2half(float value) {
  return __half_raw{
      __mc_math::FloatToHalfBits(value, __mc_math::kRoundNearestEven)};
}
// As __float2half.
constexpr inline __half __float2half_rn(float value) {
  return __float2half(value);
}
// `value` rounded toward zero (overflow gives +-65504).
constexpr inline __half __float2half_rz(float value) {
  return __half_raw{
      __mc_math::FloatToHalfBits(value, __mc_math::kRoundTowardZero)};
}
// `value` rounded toward +infinity.
constexpr inline __half __float2half_ru(float value) {
  return __half_raw{__mc_math::FloatToHalfBits(value, __mc_math::kRoundUp)};
}
// `value` rounded toward -infinity.
constexpr inline __half __float2half_rd(float value) {
  return __half_raw{__mc_math::FloatToHalfBits(value, __mc_math::kRoundDown)};
}
// The exact float value of `value` (NaN, infinities, signed zeros kept).
constexpr inline float __half2float(__half value) {
  return __mc_math::HalfBitsToFloat(value.__x);
}
// `value` rounded once (not through float) to the nearest __half.
constexpr inline __half __double2half(double value) {
  return __half_raw{
      __mc_math::DoubleToHalfBits(value, __mc_math::kRoundNearestEven)};
}

// --------------------------------------------------------------------------
// __half2 construction and lanes. [lang.math.half.half2-construction]
// --------------------------------------------------------------------------

// A pair with `low` in `.x` and `high` in `.y`.
constexpr inline __half2 __halves2half2(__half low, __half high) {
  return __half2(low, high);
}
// `value` in both lanes.
constexpr inline __half2 __half2half2(__half value) {
  return __half2(value, value);
}
// Two floats, each rounded to nearest even: `low` in `.x`, `high` in `.y`.
constexpr inline __half2 __floats2half2_rn(float low, float high) {
  return __half2(__float2half(low), __float2half(high));
}
// `value` rounded to nearest even, in both lanes.
constexpr inline __half2 __float2half2_rn(float value) {
  return __half2half2(__float2half(value));
}
// The low (`.x`) and high (`.y`) lanes.
constexpr inline __half __low2half(__half2 value) { return value.x; }
constexpr inline __half __high2half(__half2 value) { return value.y; }
// The exact float value of the low or high lane.
constexpr inline float __low2float(__half2 value) {
  return __half2float(value.x);
}
constexpr inline float __high2float(__half2 value) {
  return __half2float(value.y);
}

// --------------------------------------------------------------------------
// __maca_bfloat16 <-> float. [lang.math.bfloat16.float-conversions]
// --------------------------------------------------------------------------

// `value` rounded to the nearest bfloat16, ties to even; NaN stays NaN.
constexpr inline __maca_bfloat16 __float2bfloat16(float value) {
  return __maca_bfloat16_raw{
      __mc_math::FloatToBfloat16Bits(value, __mc_math::kRoundNearestEven)};
}
// As __float2bfloat16.
constexpr inline __maca_bfloat16 __float2bfloat16_rn(float value) {
  return __float2bfloat16(value);
}
// `value` truncated toward zero (its upper 16 bits, NaN kept a NaN).
constexpr inline __maca_bfloat16 __float2bfloat16_rz(float value) {
  return __maca_bfloat16_raw{
      __mc_math::FloatToBfloat16Bits(value, __mc_math::kRoundTowardZero)};
}
// `value` rounded toward +infinity.
constexpr inline __maca_bfloat16 __float2bfloat16_ru(float value) {
  return __maca_bfloat16_raw{
      __mc_math::FloatToBfloat16Bits(value, __mc_math::kRoundUp)};
}
// `value` rounded toward -infinity.
constexpr inline __maca_bfloat16 __float2bfloat16_rd(float value) {
  return __maca_bfloat16_raw{
      __mc_math::FloatToBfloat16Bits(value, __mc_math::kRoundDown)};
}
// The exact float value of `value`.
constexpr inline float __bfloat162float(__maca_bfloat16 value) {
  return __mc_math::Bfloat16BitsToFloat(value.__x);
}
// `value` rounded once to the nearest bfloat16.
constexpr inline __maca_bfloat16 __double2bfloat16(double value) {
  return __maca_bfloat16_raw{
      __mc_math::DoubleToBfloat16Bits(value, __mc_math::kRoundNearestEven)};
}

// A pair with `low` in `.x` and `high` in `.y`.
constexpr inline __maca_bfloat162 __halves2bfloat162(__maca_bfloat16 low,
                                                     __maca_bfloat16 high) {
  return __maca_bfloat162(low, high);
}
// `value` in both lanes.
constexpr inline __maca_bfloat162 __bfloat162bfloat162(__maca_bfloat16 value) {
  return __maca_bfloat162(value, value);
}
// Two floats rounded to nearest even: `low` in `.x`, `high` in `.y`.
constexpr inline __maca_bfloat162 __floats2bfloat162_rn(float low, float high) {
  return __maca_bfloat162(__float2bfloat16(low), __float2bfloat16(high));
}
// `value` rounded to nearest even, in both lanes.
constexpr inline __maca_bfloat162 __float2bfloat162_rn(float value) {
  return __bfloat162bfloat162(__float2bfloat16(value));
}
// The low (`.x`) and high (`.y`) lanes, and their exact float values.
constexpr inline __maca_bfloat16 __low2bfloat16(__maca_bfloat162 value) {
  return value.x;
}
constexpr inline __maca_bfloat16 __high2bfloat16(__maca_bfloat162 value) {
  return value.y;
}
constexpr inline float __low2float(__maca_bfloat162 value) {
  return __bfloat162float(value.x);
}
constexpr inline float __high2float(__maca_bfloat162 value) {
  return __bfloat162float(value.y);
}

// --------------------------------------------------------------------------
// Bit reinterpretation.
// --------------------------------------------------------------------------

constexpr inline unsigned short __half_as_ushort(__half value) {
  return value.__x;
}
constexpr inline short __half_as_short(__half value) {
  return static_cast<short>(value.__x);
}
constexpr inline __half __ushort_as_half(unsigned short bits) {
  return __half_raw{bits};
}
constexpr inline __half __short_as_half(short bits) {
  return __half_raw{static_cast<unsigned short>(bits)};
}
constexpr inline unsigned short __bfloat16_as_ushort(__maca_bfloat16 value) {
  return value.__x;
}
constexpr inline short __bfloat16_as_short(__maca_bfloat16 value) {
  return static_cast<short>(value.__x);
}
constexpr inline __maca_bfloat16 __ushort_as_bfloat16(unsigned short bits) {
  return __maca_bfloat16_raw{bits};
}
constexpr inline __maca_bfloat16 __short_as_bfloat16(short bits) {
  return __maca_bfloat16_raw{static_cast<unsigned short>(bits)};
}

#endif  // MCR_DETAIL_HALF_TYPES_H_
