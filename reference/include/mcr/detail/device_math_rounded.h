// Copyright mxcts authors.
//
// mcr/detail/device_math_rounded.h: floating-point arithmetic with an
// explicit rounding mode: `__fadd_rz`, `__fmul_ru`, `__fmaf_rd`,
// `__fsqrt_rn`, `__dadd_rn`, `__fma_rz`, ...
//
// Each function returns the exact result of its operation rounded once in
// the mode its suffix names (`_rn` nearest even, `_rz` toward zero, `_ru`
// toward +infinity, `_rd` toward -infinity), with IEEE 754 special values:
// NaN operands give a NaN, invalid operations (inf - inf, 0 * inf, 0 / 0,
// sqrt of a negative number) the default NaN, an exactly zero sum of
// operands of different signs +0 (-0 under _rd), overflow an infinity or
// the largest finite value as the mode says, underflow a subnormal or a
// zero. Denormal operands and results are kept.
// [lang.math.rounded.float-arithmetic]
//
// Every call rounds separately: the result is computed in integer
// arithmetic (mcr/detail/exact_arithmetic.h), so the compiler cannot fuse
// `__fmul_rn(a, b)` and a following `__fadd_rn` into one fused
// multiply-add. [lang.math.rounded.never-contracted]
//
//   __fadd_rz(1.0f, 0x1p-30f)       // 1.0f
//   __fadd_ru(1.0f, 0x1p-30f)       // 0x1.000002p+0f
//   __fmul_rn(a, b) + c             // the product is rounded first
//
// Part of the device math library (mcr/detail/device_math.h); usable in
// host and device code.
//
// Tested by conformance/language/math/rounded_arithmetic_test.cc.

#ifndef MCR_DETAIL_DEVICE_MATH_ROUNDED_H_
#define MCR_DETAIL_DEVICE_MATH_ROUNDED_H_

#include "mcr/detail/exact_arithmetic.h"

namespace __mc_math {

constexpr float FloatResult(unsigned long long bits) {
  return FloatFromBits(static_cast<unsigned>(bits));
}

}  // namespace __mc_math

// Four functions `prefix_rn/_rz/_ru/_rd(PARAMETERS)` returning
// `wrap(operation(ARGUMENTS, format, mode))`.
#define __MC_ROUNDED_FOUR_MODES(prefix, type, parameters, arguments,      \
                                operation, format, wrap)                  \
  inline type prefix##_rn parameters {                                    \
    return ::__mc_math::wrap(::__mc_math::operation(                      \
        arguments, ::__mc_math::format, ::__mc_math::kRoundNearestEven)); \
  }                                                                       \
  inline type prefix##_rz parameters {                                    \
    return ::__mc_math::wrap(::__mc_math::operation(                      \
        arguments, ::__mc_math::format, ::__mc_math::kRoundTowardZero));  \
  }                                                                       \
  inline type prefix##_ru parameters {                                    \
    return ::__mc_math::wrap(::__mc_math::operation(                      \
        arguments, ::__mc_math::format, ::__mc_math::kRoundUp));          \
  }                                                                       \
  inline type prefix##_rd parameters {                                    \
    return ::__mc_math::wrap(::__mc_math::operation(                      \
        arguments, ::__mc_math::format, ::__mc_math::kRoundDown));        \
  }

#define __MC_ARGUMENTS(...) __VA_ARGS__

// Single precision: x + y, x - y, x * y, x / y, 1 / x, sqrt(x), x * y + z.
__MC_ROUNDED_FOUR_MODES(__fadd, float, (float x, float y), __MC_ARGUMENTS(x, y),
                        RoundedAdd, kBinary32, FloatResult)
__MC_ROUNDED_FOUR_MODES(__fsub, float, (float x, float y),
                        __MC_ARGUMENTS(x, -static_cast<double>(y)), RoundedAdd,
                        kBinary32, FloatResult)
__MC_ROUNDED_FOUR_MODES(__fmul, float, (float x, float y), __MC_ARGUMENTS(x, y),
                        RoundedMul, kBinary32, FloatResult)
__MC_ROUNDED_FOUR_MODES(__fdiv, float, (float x, float y), __MC_ARGUMENTS(x, y),
                        RoundedDiv, kBinary32, FloatResult)
__MC_ROUNDED_FOUR_MODES(__frcp, float, (float x), __MC_ARGUMENTS(1.0, x),
                        RoundedDiv, kBinary32, FloatResult)
__MC_ROUNDED_FOUR_MODES(__fsqrt, float, (float x), __MC_ARGUMENTS(x),
                        RoundedSqrt, kBinary32, FloatResult)
__MC_ROUNDED_FOUR_MODES(__fmaf, float, (float x, float y, float z),
                        __MC_ARGUMENTS(x, y, z), RoundedFma, kBinary32,
                        FloatResult)

// Double precision: the same operations.
__MC_ROUNDED_FOUR_MODES(__dadd, double, (double x, double y),
                        __MC_ARGUMENTS(x, y), RoundedAdd, kBinary64,
                        DoubleFromBits)
__MC_ROUNDED_FOUR_MODES(__dsub, double, (double x, double y),
                        __MC_ARGUMENTS(x, -y), RoundedAdd, kBinary64,
                        DoubleFromBits)
__MC_ROUNDED_FOUR_MODES(__dmul, double, (double x, double y),
                        __MC_ARGUMENTS(x, y), RoundedMul, kBinary64,
                        DoubleFromBits)
__MC_ROUNDED_FOUR_MODES(__ddiv, double, (double x, double y),
                        __MC_ARGUMENTS(x, y), RoundedDiv, kBinary64,
                        DoubleFromBits)
__MC_ROUNDED_FOUR_MODES(__drcp, double, (double x), __MC_ARGUMENTS(1.0, x),
                        RoundedDiv, kBinary64, DoubleFromBits)
__MC_ROUNDED_FOUR_MODES(__dsqrt, double, (double x), __MC_ARGUMENTS(x),
                        RoundedSqrt, kBinary64, DoubleFromBits)
__MC_ROUNDED_FOUR_MODES(__fma, double, (double x, double y, double z),
                        __MC_ARGUMENTS(x, y, z), RoundedFma, kBinary64,
                        DoubleFromBits)

#undef __MC_ARGUMENTS
#undef __MC_ROUNDED_FOUR_MODES

#endif  // MCR_DETAIL_DEVICE_MATH_ROUNDED_H_
