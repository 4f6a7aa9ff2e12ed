// Copyright mxcts authors.
//
// mcr/detail/exact_arithmetic.h: IEEE 754 addition, multiplication, fused
// multiply-add, division and square root of `double` operands, rounded once
// to any binary format (binary16, bfloat16, binary32, binary64) in any of
// the four rounding modes.
//
// The explicitly rounded intrinsics (`__fadd_rz`, `__dmul_ru`, `__fmaf_rd`,
// `__fsqrt_rn`, ...) and the half and bfloat16 arithmetic all reduce to
// these five operations: a float or half operand widens to double exactly,
// and one call here computes the exact result and rounds it once into the
// target format, so there is no double rounding and no dependence on the
// host's rounding mode, on constant folding or on the compiler contracting
// a multiply and an add ([lang.math.rounded.never-contracted]).
//
// How the exact result is found, in integer arithmetic:
// - sums and fused multiply-adds align two significands of at most 106
//   bits in a 128-bit integer; an addend far below the other collapses into
//   a sticky bit (subtracting it borrows one unit and sets the sticky bit);
// - products are one 53x53-bit integer multiplication;
// - quotients come from 64 steps of binary long division, the remainder
//   giving the sticky bit;
// - square roots from the bit-by-bit integer square root of a 126-bit
//   radicand, the remainder giving the sticky bit.
// The rounding itself is RoundToFormat (mcr/detail/float_rounding.h).
//
// Not for programs. Seen by both passes; everything is inline and uses no
// library function, so device images need nothing more.
//
// Tested by conformance/language/math/rounded_arithmetic_test.cc, half_test.cc
// and bfloat16_test.cc.

#ifndef MCR_DETAIL_EXACT_ARITHMETIC_H_
#define MCR_DETAIL_EXACT_ARITHMETIC_H_

#include "mcr/detail/float_rounding.h"

namespace __mc_math {

__extension__ typedef unsigned __int128 Uint128;

// A finite value (-1)^negative * magnitude * 2^exponent.
struct Exact {
  bool negative;
  Uint128 magnitude;
  int exponent;
};

constexpr int BitLength(Uint128 value) {
  const unsigned long long high = static_cast<unsigned long long>(value >> 64);
  if (high != 0) return 128 - __builtin_clzll(high);
  const unsigned long long low = static_cast<unsigned long long>(value);
  return low == 0 ? 0 : 64 - __builtin_clzll(low);
}

// The finite double `value` as an Exact (magnitude 0 for zeros).
constexpr Exact Unpack(double value) {
  const unsigned long long bits = DoubleBits(value);
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  const unsigned long long fraction = bits & ((1ull << 52) - 1);
  Exact result{(bits >> 63) != 0, fraction, -1074};
  if (field != 0) {
    result.magnitude = fraction | (1ull << 52);
    result.exponent = field - 1075;
  }
  return result;
}

constexpr bool IsNan(double value) {
  return (DoubleBits(value) & ~(1ull << 63)) > 0x7ff0000000000000ull;
}
constexpr bool IsInfinite(double value) {
  return (DoubleBits(value) & ~(1ull << 63)) == 0x7ff0000000000000ull;
}
constexpr bool SignBit(double value) { return (DoubleBits(value) >> 63) != 0; }

// Bits in `format` of a signed zero, a signed infinity, a NaN.
constexpr unsigned long long SignBitOf(Format format, bool negative) {
  return (negative ? 1ull : 0ull)
         << (format.exponent_bits + format.fraction_bits);
}
constexpr unsigned long long ZeroBits(Format format, bool negative) {
  return SignBitOf(format, negative);
}
constexpr unsigned long long SignedInfinityBits(Format format, bool negative) {
  return SignBitOf(format, negative) | InfinityBits(format);
}
// The NaN a NaN operand becomes (sign and leading payload kept, quiet).
constexpr unsigned long long NanBits(double nan, Format format) {
  return ConvertFormat(DoubleBits(nan), kBinary64, format, kRoundNearestEven);
}
// The default NaN an invalid operation produces.
constexpr unsigned long long DefaultNanBits(Format format) {
  return InfinityBits(format) | (1ull << (format.fraction_bits - 1));
}

// The sign of an exact zero sum of operands that are not both zeros of
// one sign: -0 when rounding down, +0 otherwise (IEEE 754 6.3).
constexpr bool ZeroSumIsNegative(int mode) { return mode == kRoundDown; }

// Rounds the nonzero `value` (plus a sticky fraction below its last bit) to
// `format` in `mode`; returns the bits with the sign.
constexpr unsigned long long RoundExact(Exact value, bool sticky, Format format,
                                        int mode) {
  const int length = BitLength(value.magnitude);
  Uint128 magnitude = value.magnitude;
  int exponent = value.exponent;
  if (length > 64) {
    const int drop = length - 64;
    if ((magnitude & ((Uint128(1) << drop) - 1)) != 0) sticky = true;
    magnitude >>= drop;
    exponent += drop;
  }
  return SignBitOf(format, value.negative) |
         RoundToFormat(value.negative,
                       static_cast<unsigned long long>(magnitude), exponent,
                       format, mode, sticky);
}

// The exact sum of two finite values whose magnitudes have at most 106
// bits, as an Exact plus a sticky flag. A zero result has magnitude 0.
struct ExactSum {
  Exact value;
  bool sticky;
};
constexpr ExactSum AddExact(Exact a, Exact b) {
  if (a.magnitude == 0) return {b, false};
  if (b.magnitude == 0) return {a, false};
  const int top_a = BitLength(a.magnitude) - 1 + a.exponent;
  const int top_b = BitLength(b.magnitude) - 1 + b.exponent;
  const Exact big = top_a >= top_b ? a : b;
  const Exact small = top_a >= top_b ? b : a;
  // The big operand's leading bit goes to bit 125; both fit below 2^126.
  const int big_shift = 125 - (BitLength(big.magnitude) - 1);
  const Uint128 big_aligned = big.magnitude << big_shift;
  const int base = big.exponent - big_shift;
  Uint128 small_aligned = 0;
  bool sticky = false;
  const int small_shift = small.exponent - base;
  if (small_shift >= 0) {
    small_aligned = small.magnitude << small_shift;
  } else if (small_shift > -128) {
    small_aligned = small.magnitude >> -small_shift;
    sticky = (small.magnitude & ((Uint128(1) << -small_shift) - 1)) != 0;
  } else {
    sticky = true;
  }
  if (big.negative == small.negative) {
    return {{big.negative, big_aligned + small_aligned, base}, sticky};
  }
  if (sticky) {
    // big - (t + s) = (big - t - 1) + (1 - s), 0 < 1 - s < 1; here the
    // small operand lies far below the big one, so no cancellation.
    return {{big.negative, big_aligned - small_aligned - 1, base}, true};
  }
  if (big_aligned >= small_aligned) {
    return {{big.negative, big_aligned - small_aligned, base}, false};
  }
  return {{small.negative, small_aligned - big_aligned, base}, false};
}

// x + y rounded to `format` in `mode`; the bits in `format`.
constexpr unsigned long long RoundedAdd(double x, double y, Format format,
                                        int mode) {
  if (IsNan(x)) return NanBits(x, format);
  if (IsNan(y)) return NanBits(y, format);
  if (IsInfinite(x) || IsInfinite(y)) {
    if (IsInfinite(x) && IsInfinite(y) && SignBit(x) != SignBit(y)) {
      return DefaultNanBits(format);
    }
    return SignedInfinityBits(format, IsInfinite(x) ? SignBit(x) : SignBit(y));
  }
  const ExactSum sum = AddExact(Unpack(x), Unpack(y));
  if (sum.value.magnitude == 0) {
    const bool both_same_zero = x == 0 && y == 0 && SignBit(x) == SignBit(y);
    return ZeroBits(format,
                    both_same_zero ? SignBit(x) : ZeroSumIsNegative(mode));
  }
  return RoundExact(sum.value, sum.sticky, format, mode);
}

// x * y rounded to `format` in `mode`.
constexpr unsigned long long RoundedMul(double x, double y, Format format,
                                        int mode) {
  if (IsNan(x)) return NanBits(x, format);
  if (IsNan(y)) return NanBits(y, format);
  const bool negative = SignBit(x) != SignBit(y);
  if (IsInfinite(x) || IsInfinite(y)) {
    if (x == 0 || y == 0) return DefaultNanBits(format);
    return SignedInfinityBits(format, negative);
  }
  if (x == 0 || y == 0) return ZeroBits(format, negative);
  const Exact a = Unpack(x);
  const Exact b = Unpack(y);
  return RoundExact(
      {negative, a.magnitude * b.magnitude, a.exponent + b.exponent}, false,
      format, mode);
}

// x * y + z computed exactly and rounded once to `format` in `mode`.
constexpr unsigned long long RoundedFma(double x, double y, double z,
                                        Format format, int mode) {
  if (IsNan(x)) return NanBits(x, format);
  if (IsNan(y)) return NanBits(y, format);
  const bool product_negative = SignBit(x) != SignBit(y);
  const bool product_infinite = IsInfinite(x) || IsInfinite(y);
  if (product_infinite && (x == 0 || y == 0)) return DefaultNanBits(format);
  if (IsNan(z)) return NanBits(z, format);
  if (product_infinite) {
    if (IsInfinite(z) && SignBit(z) != product_negative) {
      return DefaultNanBits(format);
    }
    return SignedInfinityBits(format, product_negative);
  }
  if (IsInfinite(z)) return SignedInfinityBits(format, SignBit(z));
  const Exact a = Unpack(x);
  const Exact b = Unpack(y);
  const Exact product{product_negative, a.magnitude * b.magnitude,
                      a.exponent + b.exponent};
  const ExactSum sum = AddExact(product, Unpack(z));
  if (sum.value.magnitude == 0) {
    const bool product_zero = x == 0 || y == 0;
    const bool both_same_zero =
        product_zero && z == 0 && product_negative == SignBit(z);
    return ZeroBits(format,
                    both_same_zero ? SignBit(z) : ZeroSumIsNegative(mode));
  }
  return RoundExact(sum.value, sum.sticky, format, mode);
}

// Shifts a nonzero Exact's magnitude so that its leading bit is bit 52.
constexpr Exact Normalize53(Exact value) {
  const int shift = 52 - (BitLength(value.magnitude) - 1);
  if (shift >= 0) {
    value.magnitude <<= shift;
  } else {
    value.magnitude >>= -shift;  // never drops bits: callers pass <= 53 bits
  }
  value.exponent -= shift;
  return value;
}

// x / y rounded to `format` in `mode`.
constexpr unsigned long long RoundedDiv(double x, double y, Format format,
                                        int mode) {
  if (IsNan(x)) return NanBits(x, format);
  if (IsNan(y)) return NanBits(y, format);
  const bool negative = SignBit(x) != SignBit(y);
  if (IsInfinite(x)) {
    if (IsInfinite(y)) return DefaultNanBits(format);
    return SignedInfinityBits(format, negative);
  }
  if (IsInfinite(y)) return ZeroBits(format, negative);
  if (y == 0) {
    if (x == 0) return DefaultNanBits(format);
    return SignedInfinityBits(format, negative);
  }
  if (x == 0) return ZeroBits(format, negative);
  const Exact a = Normalize53(Unpack(x));
  const Exact b = Normalize53(Unpack(y));
  const unsigned long long divisor =
      static_cast<unsigned long long>(b.magnitude);
  unsigned long long remainder = static_cast<unsigned long long>(a.magnitude);
  unsigned long long quotient = 0;
  // quotient = floor(a / b * 2^63), a / b in (1/2, 2).
  for (int step = 0; step < 64; ++step) {
    quotient <<= 1;
    if (remainder >= divisor) {
      remainder -= divisor;
      quotient |= 1;
    }
    remainder <<= 1;
  }
  return RoundExact({negative, quotient, a.exponent - b.exponent - 63},
                    remainder != 0, format, mode);
}

// sqrt(x) rounded to `format` in `mode`; sqrt(-0) is -0, a negative x NaN.
constexpr unsigned long long RoundedSqrt(double x, Format format, int mode) {
  if (IsNan(x)) return NanBits(x, format);
  if (x == 0) return ZeroBits(format, SignBit(x));
  if (SignBit(x)) return DefaultNanBits(format);
  if (IsInfinite(x)) return InfinityBits(format);
  Exact a = Normalize53(Unpack(x));
  if (a.exponent % 2 != 0) {  // an even exponent halves exactly
    a.magnitude <<= 1;
    a.exponent -= 1;
  }
  // radicand < 2^126, so its root < 2^63 keeps 62 or 63 bits.
  Uint128 radicand = a.magnitude << 72;
  Uint128 root = 0;
  Uint128 bit = Uint128(1) << 124;
  while (bit > radicand) bit >>= 2;
  while (bit != 0) {
    if (radicand >= root + bit) {
      radicand -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return RoundExact({false, root, (a.exponent - 72) / 2}, radicand != 0, format,
                    mode);
}

}  // namespace __mc_math

#endif  // MCR_DETAIL_EXACT_ARITHMETIC_H_
