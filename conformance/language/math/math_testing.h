// Host-side support for the math conformance tests: rounding modes and
// their names, references computed by the host's own floating-point unit
// under a given rounding mode, bitwise comparison of floating-point values,
// and distances in ulp from a long double reference.
//
// The references here never use the device math library: a directed
// conversion or operation is done by the host's hardware after fesetround,
// with volatile operands so that the compiler cannot fold it at the default
// mode. Not a GoogleTest source: tests include it.

#ifndef MXCTS_CONFORMANCE_LANGUAGE_MATH_MATH_TESTING_H_
#define MXCTS_CONFORMANCE_LANGUAGE_MATH_MATH_TESTING_H_

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

namespace mxcts::math_testing {

// The four rounding modes of the suffixes _rn, _rz, _ru, _rd.
enum class Mode { kRn, kRz, kRu, kRd };

inline const char* ModeName(Mode mode) {
  switch (mode) {
    case Mode::kRn:
      return "rn";
    case Mode::kRz:
      return "rz";
    case Mode::kRu:
      return "ru";
    case Mode::kRd:
      return "rd";
  }
  return "?";
}

inline int FenvMode(Mode mode) {
  switch (mode) {
    case Mode::kRz:
      return FE_TOWARDZERO;
    case Mode::kRu:
      return FE_UPWARD;
    case Mode::kRd:
      return FE_DOWNWARD;
    default:
      return FE_TONEAREST;
  }
}

// Calls `compute` with the host's rounding mode set to `mode`, then
// restores round-to-nearest. `compute` must read its operands through
// volatile objects.
template <class Compute>
auto UnderMode(Mode mode, Compute compute) -> decltype(compute()) {
  std::fesetround(FenvMode(mode));
  auto result = compute();
  std::fesetround(FE_TONEAREST);
  return result;
}

inline std::uint32_t Bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
inline std::uint64_t Bits(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Equal bit patterns, or both NaN (any payload).
template <class Float>
bool SameValue(Float a, Float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return Bits(a) == Bits(b);
}

// "0x1.8p+0 (bits 3fc00000)": how failures show a value.
template <class Float>
std::string Describe(Float value) {
  char text[64];
  std::snprintf(text, sizeof text, "%a (bits %llx)", static_cast<double>(value),
                static_cast<unsigned long long>(Bits(value)));
  return text;
}

// The size of one ulp of `Float` at the magnitude of `exact` (the spacing
// of Float values in exact's binade; subnormal spacing below the normal
// range).
template <class Float>
long double UlpAt(long double exact) {
  constexpr int kDigits = std::numeric_limits<Float>::digits;
  constexpr int kMinExponent = std::numeric_limits<Float>::min_exponent;
  int exponent = 0;
  std::frexp(exact, &exponent);
  if (exact == 0 || exponent < kMinExponent) exponent = kMinExponent;
  return std::ldexp(1.0L, exponent - kDigits);
}

// |got - exact| in ulp of Float at exact's magnitude; 0 when both are the
// same infinity or both NaN, infinity when only one is.
template <class Float>
long double UlpError(Float got, long double exact) {
  if (std::isnan(got) || std::isnan(exact)) {
    return std::isnan(got) && std::isnan(exact)
               ? 0
               : std::numeric_limits<long double>::infinity();
  }
  if (std::isinf(got) || std::isinf(exact)) {
    return static_cast<long double>(got) == exact
               ? 0
               : std::numeric_limits<long double>::infinity();
  }
  return std::fabs(static_cast<long double>(got) - exact) / UlpAt<Float>(exact);
}

}  // namespace mxcts::math_testing

#endif  // MXCTS_CONFORMANCE_LANGUAGE_MATH_MATH_TESTING_H_
