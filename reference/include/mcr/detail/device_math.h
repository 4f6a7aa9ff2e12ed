// Copyright mxcts authors.
//
// ==========================================================================
// mcr/detail/device_math.h: the device math library
// ==========================================================================
//
// What device code gets, beyond the C library's <math.h> (which
// mc_runtime.h includes and device images link,
// [lang.math.library.available-in-device-code]):
//
//   mcr/detail/device_math_functions.h    rsqrtf, sinpif, normcdff, ...
//   mcr/detail/device_math_fast.h         __expf, __sinf, __fdividef, ...
//   mcr/detail/device_math_rounded.h      __fadd_rz, __fmaf_ru, __dsqrt_rd, ...
//   mcr/detail/device_math_conversions.h  __float2int_rn, __ll2float_rz,
//                                         __float_as_int, ...
//   mcr/detail/device_math_integer.h      __popc, __clz, __brev, __byte_perm,
//                                         __funnelshift_l, ...
//
// The 16-bit floating-point types and their arithmetic come with
// maca_fp16.h and maca_bfloat16.h.
//
//   #include <mc_runtime.h>
//
//   __global__ void Count(const unsigned* words, int* bits, float* out) {
//     int i = threadIdx.x;
//     bits[i] = __popc(words[i]);
//     out[i] = __fmul_rz(__int2float_rn(bits[i]), rsqrtf(2.0f));
//   }
//
// Accuracy of the C library functions in device code
// ([lang.math.accuracy.documented-ulp-bounds]). An error of n ulp means the
// result is at most n representable values away from the correctly rounded
// result (so |result - exact| < (n + 1/2) ulp); 0 means correctly rounded.
// The functions [lang.math.exact.rounding-and-selection] lists are exact.
// The bounds hold over each function's whole domain where the result is
// finite and normal (lgamma: outside [-11.0001, -2.2637], where it has
// zeros):
//
//   function             float  double     function       float  double
//   sqrt                     0       0     exp, exp2          2       1
//   sin, cos, sincos         2       2     exp10              2       2
//   tan                      4       2     expm1              1       1
//   asin, acos, atan         2       2     log, log2          1       1
//   atan2                    3       2     log10              2       1
//   sinh                     3       2     log1p              1       1
//   cosh                     2       2     pow                4       2
//   tanh                     3       2     cbrt               1       4
//   asinh                    3       3     hypot              3       2
//   acosh                    4       3     erf                2       2
//   atanh                    3       2     erfc               4       5
//   lgamma                   6       4     tgamma             8      10
//
// Every function is deterministic: the same arguments give the same result
// in every thread, block and kernel ([lang.math.accuracy.deterministic]).
// Denormals are never flushed to zero, in single or double precision, and
// mxcc has no option that changes that; a multiply and an add written
// separately are not contracted into a fused multiply-add unless the host
// compiler's own options (for example -mfma with -ffp-contract=fast) allow
// it, and the explicitly rounded intrinsics are never contracted
// ([lang.math.special.denormal-handling],
// [lang.math.contraction.implementation-defined]). Square root and division
// are correctly rounded in both precisions: mxcc has no option selecting
// approximate ones ([lang.math.exact.sqrt-correctly-rounded],
// [lang.math.exact.division-correctly-rounded]).
//
// Tested by the tests of conformance/language/math.

#ifndef MCR_DETAIL_DEVICE_MATH_H_
#define MCR_DETAIL_DEVICE_MATH_H_

#include "mcr/detail/device_math_conversions.h"
#include "mcr/detail/device_math_fast.h"
#include "mcr/detail/device_math_functions.h"
#include "mcr/detail/device_math_integer.h"
#include "mcr/detail/device_math_min_max.h"
#include "mcr/detail/device_math_rounded.h"

#endif  // MCR_DETAIL_DEVICE_MATH_H_
