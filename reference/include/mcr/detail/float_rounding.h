// Copyright mxcts authors.
//
// mcr/detail/float_rounding.h: rounding an exact binary value to a binary
// floating-point format in an explicit rounding mode, in integer arithmetic.
//
// Every conversion and explicitly rounded operation of the device math
// library (`__float2half_rz`, `__double2float_ru`, `__ll2float_rd`,
// `__fmul_rz`, ...) reduces to one question: given an exact value
// `magnitude * 2^exponent` (plus, optionally, a sticky bit below it), which
// bit pattern of the target format does the mode select? Answering it with
// integer arithmetic makes the result exact and independent of the host's
// floating-point environment and of constant folding (the current rounding
// mode is never consulted), and lets the same code run in constant
// expressions, so that `__device__ __half h = 1.5f;` is constant-initialized.
//
// Not for programs. Names live in namespace `__mc_math` and are reserved.
// Seen by the host and the device pass alike: everything here is inline.
//
// Tested by conformance/language/math/rounding_conversions_test.cc,
// half_test.cc and bfloat16_test.cc.

#ifndef MCR_DETAIL_FLOAT_ROUNDING_H_
#define MCR_DETAIL_FLOAT_ROUNDING_H_

namespace __mc_math {

// The four IEEE 754 rounding directions named by the intrinsics' suffixes.
enum RoundingMode : int {
  kRoundNearestEven = 0,  // _rn
  kRoundTowardZero = 1,   // _rz
  kRoundUp = 2,           // _ru, toward +infinity
  kRoundDown = 3,         // _rd, toward -infinity
};

// A binary interchange format: `fraction_bits` stored fraction bits and
// `exponent_bits` exponent bits, bias 2^(exponent_bits-1) - 1.
struct Format {
  int fraction_bits;
  int exponent_bits;
};
constexpr Format kBinary16 = {10, 5};
constexpr Format kBfloat16 = {7, 8};
constexpr Format kBinary32 = {23, 8};
constexpr Format kBinary64 = {52, 11};

// The bits of +infinity in `format`.
constexpr unsigned long long InfinityBits(Format format) {
  return ((1ull << format.exponent_bits) - 1) << format.fraction_bits;
}

// Where an exact value lies relative to the value its kept bits denote:
// exactly on it, less than half a unit above, exactly half, more than half.
enum Remainder : int {
  kExact = 0,
  kBelowHalf = 1,
  kHalf = 2,
  kAboveHalf = 3,
};

// Whether the mode moves a magnitude whose discarded part is `remainder`
// one unit away from zero, given the kept bits (for ties to even) and the
// sign of the value.
constexpr bool RoundsAway(int mode, Remainder remainder,
                          unsigned long long kept, bool negative) {
  switch (mode) {
    case kRoundNearestEven:
      return remainder == kAboveHalf || (remainder == kHalf && (kept & 1));
    case kRoundUp:
      return remainder != kExact && !negative;
    case kRoundDown:
      return remainder != kExact && negative;
    default:
      return false;
  }
}

// The bits (without the sign bit) of the value
//   (-1)^negative * (magnitude + s) * 2^exponent,  0 <= s < 1,
// rounded to `format` in `mode`, where s > 0 exactly when `sticky`.
// Requires magnitude != 0. Overflow gives infinity, or the largest finite
// magnitude where the mode rounds toward zero; tiny values round to
// subnormals or zero as IEEE 754 prescribes.
constexpr unsigned long long RoundToFormat(bool negative,
                                           unsigned long long magnitude,
                                           int exponent, Format format,
                                           int mode, bool sticky = false) {
  const int bias = (1 << (format.exponent_bits - 1)) - 1;
  const int top = 63 - __builtin_clzll(magnitude);
  const int unbiased = top + exponent;
  const int biased = unbiased + bias;
  // The exponent of one unit in the last place of the result.
  const int quantum =
      (biased >= 1 ? unbiased : 1 - bias) - format.fraction_bits;
  const int shift = quantum - exponent;  // low bits of magnitude to drop
  unsigned long long kept = 0;
  Remainder remainder = kExact;
  if (shift <= 0) {
    kept = magnitude << -shift;
    remainder = sticky ? kBelowHalf : kExact;
  } else if (shift > 64) {
    remainder = kBelowHalf;
  } else {
    const unsigned long long dropped =
        shift == 64 ? magnitude : magnitude & ((1ull << shift) - 1);
    const unsigned long long half = 1ull << (shift - 1);
    kept = shift == 64 ? 0 : magnitude >> shift;
    if (dropped == 0) {
      remainder = sticky ? kBelowHalf : kExact;
    } else if (dropped < half) {
      remainder = kBelowHalf;
    } else if (dropped == half) {
      remainder = sticky ? kAboveHalf : kHalf;
    } else {
      remainder = kAboveHalf;
    }
  }
  // A normal result's kept bits include the implicit leading one, which
  // adds one to the exponent field; a carry out of the fraction does too.
  unsigned long long bits =
      (biased >= 1
           ? static_cast<unsigned long long>(biased - 1) << format.fraction_bits
           : 0) +
      kept;
  if (RoundsAway(mode, remainder, kept, negative)) ++bits;
  const unsigned long long infinity = InfinityBits(format);
  if (bits >= infinity) {
    const bool to_infinity = mode == kRoundNearestEven ||
                             (mode == kRoundUp && !negative) ||
                             (mode == kRoundDown && negative);
    return to_infinity ? infinity : infinity - 1;
  }
  return bits;
}

// Rounds the signed integer `value` to `format` in `mode`; returns the bits
// including the sign bit.
constexpr unsigned long long IntegerToFormat(long long value, Format format,
                                             int mode) {
  if (value == 0) return 0;
  const bool negative = value < 0;
  const unsigned long long magnitude =
      negative ? 0ull - static_cast<unsigned long long>(value)
               : static_cast<unsigned long long>(value);
  const unsigned long long sign =
      (negative ? 1ull : 0ull) << (format.exponent_bits + format.fraction_bits);
  return sign | RoundToFormat(negative, magnitude, 0, format, mode);
}

// Rounds the unsigned integer `value` to `format` in `mode`.
constexpr unsigned long long UnsignedToFormat(unsigned long long value,
                                              Format format, int mode) {
  if (value == 0) return 0;
  return RoundToFormat(false, value, 0, format, mode);
}

// Rounds the value with bits `bits` in format `from` (any value: NaN,
// infinity, zero, subnormal, normal) to format `to` in `mode`; returns the
// bits in `to`. A NaN stays a NaN (quiet, with the sign and the leading
// payload bits kept); infinities and zeros keep their sign.
constexpr unsigned long long ConvertFormat(unsigned long long bits, Format from,
                                           Format to, int mode) {
  const int from_width = from.exponent_bits + from.fraction_bits;
  const int to_width = to.exponent_bits + to.fraction_bits;
  const bool negative = (bits >> from_width) & 1;
  const unsigned long long sign = (negative ? 1ull : 0ull) << to_width;
  const unsigned long long fraction_mask = (1ull << from.fraction_bits) - 1;
  const unsigned long long fraction = bits & fraction_mask;
  const int field = static_cast<int>((bits >> from.fraction_bits) &
                                     ((1ull << from.exponent_bits) - 1));
  const int max_field = (1 << from.exponent_bits) - 1;
  if (field == max_field) {
    if (fraction == 0) return sign | InfinityBits(to);
    // NaN: quiet, keeping the leading payload bits that fit.
    const unsigned long long payload =
        from.fraction_bits >= to.fraction_bits
            ? fraction >> (from.fraction_bits - to.fraction_bits)
            : fraction << (to.fraction_bits - from.fraction_bits);
    return sign | InfinityBits(to) | payload | (1ull << (to.fraction_bits - 1));
  }
  if (field == 0 && fraction == 0) return sign;
  const int bias = (1 << (from.exponent_bits - 1)) - 1;
  const unsigned long long magnitude =
      field == 0 ? fraction : fraction | (1ull << from.fraction_bits);
  const int exponent = (field == 0 ? 1 : field) - bias - from.fraction_bits;
  return sign | RoundToFormat(negative, magnitude, exponent, to, mode);
}

// The double `value` rounded to an integer in `mode`, saturated to
// [minimum, maximum]; a NaN gives 0. [lang.math.convert.float-to-integer]
// [lang.math.convert.out-of-range-integer]
template <class Integer>
constexpr Integer DoubleToInteger(unsigned long long bits, int mode,
                                  Integer minimum, Integer maximum) {
  const bool negative = (bits >> 63) != 0;
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  const unsigned long long fraction = bits & ((1ull << 52) - 1);
  if (field == 0x7ff) {
    if (fraction != 0) return 0;  // NaN
    return negative ? minimum : maximum;
  }
  if (field == 0 && fraction == 0) return 0;
  const unsigned long long significand =
      field == 0 ? fraction : fraction | (1ull << 52);
  const int exponent = (field == 0 ? 1 : field) - 1075;
  unsigned long long magnitude = 0;
  bool overflow = false;
  if (exponent >= 0) {
    // significand has 53 bits: any shift past 11 leaves 64 bits.
    if (exponent > 11) {
      overflow = true;
    } else {
      magnitude = significand << exponent;
    }
  } else {
    const int shift = -exponent;
    unsigned long long kept = 0;
    Remainder remainder = kBelowHalf;
    if (shift <= 64) {
      const unsigned long long dropped =
          shift == 64 ? significand : significand & ((1ull << shift) - 1);
      const unsigned long long half = 1ull << (shift - 1);
      kept = shift == 64 ? 0 : significand >> shift;
      remainder = dropped == 0      ? kExact
                  : dropped < half  ? kBelowHalf
                  : dropped == half ? kHalf
                                    : kAboveHalf;
    }
    magnitude = kept + (RoundsAway(mode, remainder, kept, negative) ? 1 : 0);
  }
  if (negative) {
    const unsigned long long limit =
        0ull - static_cast<unsigned long long>(static_cast<long long>(minimum));
    if (overflow || magnitude > limit) return minimum;
    return static_cast<Integer>(0ull - magnitude);
  }
  if (overflow || magnitude > static_cast<unsigned long long>(maximum)) {
    return maximum;
  }
  return static_cast<Integer>(magnitude);
}

// Bit access to float and double, usable in constant expressions.
constexpr unsigned FloatBits(float value) {
  return __builtin_bit_cast(unsigned, value);
}
constexpr float FloatFromBits(unsigned bits) {
  return __builtin_bit_cast(float, bits);
}
constexpr unsigned long long DoubleBits(double value) {
  return __builtin_bit_cast(unsigned long long, value);
}
constexpr double DoubleFromBits(unsigned long long bits) {
  return __builtin_bit_cast(double, bits);
}

}  // namespace __mc_math

#endif  // MCR_DETAIL_FLOAT_ROUNDING_H_
