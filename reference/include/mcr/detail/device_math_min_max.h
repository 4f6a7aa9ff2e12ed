// Copyright mxcts authors.
//
// mcr/detail/device_math_min_max.h: `min` and `max` for every arithmetic
// pairing real programs pass, and the spelled-out integer forms `umin`,
// `umax`, `llmin`, `llmax`, `ullmin`, `ullmax`.
//
//   max(a, b)        // int, int -> int
//   min(n, 256u)     // int, unsigned -> unsigned, as C++ converts them
//   max(x, 0.5)      // float, double -> double
//   max(x, 0.0f)     // float, float -> float, as fmaxf
//
// Declared at global namespace scope as ordinary non-template functions, so
// an unqualified call prefers them to std::min and std::max when both are
// visible. A mixed signed and unsigned pair converts as the usual arithmetic
// conversions do (min(-1, 0u) is 0u, as in CUDA); the floating-point forms
// return the other operand when one is NaN, as fminf and fmaxf do.
//
// Part of the device math library (mcr/detail/device_math.h); usable in
// host and device code.
//
// Tested by conformance/language/math/min_max_test.cc.

#ifndef MCR_DETAIL_DEVICE_MATH_MIN_MAX_H_
#define MCR_DETAIL_DEVICE_MATH_MIN_MAX_H_

#include <math.h>

// [lang.math.minmax.integer] The smaller and the larger of two integers of
// one type after the usual arithmetic conversions. Each pairing of the list
// converts both operands to `R` first.
#define __MC_INTEGER_MIN_MAX(R, A, B)                                       \
  constexpr inline R min(A __a, B __b) {                                    \
    return static_cast<R>(__a) < static_cast<R>(__b) ? static_cast<R>(__a)  \
                                                     : static_cast<R>(__b); \
  }                                                                         \
  constexpr inline R max(A __a, B __b) {                                    \
    return static_cast<R>(__a) > static_cast<R>(__b) ? static_cast<R>(__a)  \
                                                     : static_cast<R>(__b); \
  }

__MC_INTEGER_MIN_MAX(int, int, int)
__MC_INTEGER_MIN_MAX(unsigned int, unsigned int, unsigned int)
__MC_INTEGER_MIN_MAX(unsigned int, int, unsigned int)
__MC_INTEGER_MIN_MAX(unsigned int, unsigned int, int)
__MC_INTEGER_MIN_MAX(long, long, long)
__MC_INTEGER_MIN_MAX(unsigned long, unsigned long, unsigned long)
__MC_INTEGER_MIN_MAX(unsigned long, long, unsigned long)
__MC_INTEGER_MIN_MAX(unsigned long, unsigned long, long)
__MC_INTEGER_MIN_MAX(long long, long long, long long)
__MC_INTEGER_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
__MC_INTEGER_MIN_MAX(unsigned long long, long long, unsigned long long)
__MC_INTEGER_MIN_MAX(unsigned long long, unsigned long long, long long)

#undef __MC_INTEGER_MIN_MAX

// [lang.math.minmax.named-integer] The same, named by type.
constexpr inline unsigned int umin(unsigned int __a, unsigned int __b) {
  return min(__a, __b);
}
constexpr inline unsigned int umax(unsigned int __a, unsigned int __b) {
  return max(__a, __b);
}
constexpr inline long long llmin(long long __a, long long __b) {
  return min(__a, __b);
}
constexpr inline long long llmax(long long __a, long long __b) {
  return max(__a, __b);
}
constexpr inline unsigned long long ullmin(unsigned long long __a,
                                           unsigned long long __b) {
  return min(__a, __b);
}
constexpr inline unsigned long long ullmax(unsigned long long __a,
                                           unsigned long long __b) {
  return max(__a, __b);
}

// [lang.math.minmax.floating] fminf/fmaxf and fmin/fmax; a float paired
// with a double is computed in double.
inline float min(float __a, float __b) { return fminf(__a, __b); }
inline float max(float __a, float __b) { return fmaxf(__a, __b); }
inline double min(double __a, double __b) { return fmin(__a, __b); }
inline double max(double __a, double __b) { return fmax(__a, __b); }
inline double min(float __a, double __b) { return fmin(__a, __b); }
inline double max(float __a, double __b) { return fmax(__a, __b); }
inline double min(double __a, float __b) { return fmin(__a, __b); }
inline double max(double __a, float __b) { return fmax(__a, __b); }

#endif  // MCR_DETAIL_DEVICE_MATH_MIN_MAX_H_
