// Copyright mxcts authors.
//
// mcr/detail/device_atomics_half.h: atomicAdd on the 16-bit floating-point
// types `__half` and `__maca_bfloat16` and on their pairs `__half2` and
// `__maca_bfloat162` (mcr/detail/half_types.h). Included by
// mcr/detail/device_atomics.h; not for programs to name.
//
// Each function exists unsuffixed, `_block` and `_system`
// [lang.atomic.scope.block-variants-exist]
// [lang.atomic.scope.system-variants-exist], returns the old value, and
// traps on a null address (mcErrorIllegalAddress) or on an address that is
// not a multiple of the type's size (mcErrorMisalignedAddress: 2 bytes for
// a single value, 4 for a pair) [lang.atomic.alignment.misaligned-16-bit-traps]
// [lang.atomic.alignment.misaligned-32-bit-traps].
//
// The sum is computed in float and rounded once to the 16-bit format. That
// is the correctly rounded 16-bit sum: float carries 24 significand bits,
// at least 2p + 2 for p = 11 (binary16) and p = 8 (bfloat16), so rounding
// the exact sum first to float and then to the narrow format gives the
// same result as rounding it to the narrow format directly.

#ifndef MCR_DETAIL_DEVICE_ATOMICS_HALF_H_
#define MCR_DETAIL_DEVICE_ATOMICS_HALF_H_

#include "mcr/detail/device_atomics_support.h"
#include "mcr/detail/half_types.h"

namespace __mc_atomic {

inline __half AddRounded(__half a, __half b) {
  return __float2half(__half2float(a) + __half2float(b));
}

inline __maca_bfloat16 AddRounded(__maca_bfloat16 a, __maca_bfloat16 b) {
  return __float2bfloat16(__bfloat162float(a) + __bfloat162float(b));
}

// `old + val` for a single 16-bit value.
template <class T>
inline T NarrowAdd(T* address, T val, const char* function) {
  CheckAddress(address, function);
  return Update(address, [val](T old) { return AddRounded(old, val); });
}

// `old + val` lane by lane for a pair. The reference updates the whole
// 32-bit pair at once, which is more than the per-lane atomicity the
// operation promises. [lang.atomic.add.half2-per-element]
template <class Pair>
inline Pair NarrowPairAdd(Pair* address, Pair val, const char* function) {
  CheckAddress(address, function);
  return Update(address, [val](Pair old) {
    Pair sum = old;
    sum.x = AddRounded(old.x, val.x);
    sum.y = AddRounded(old.y, val.y);
    return sum;
  });
}

}  // namespace __mc_atomic

// __half atomicAdd(__half* address, __half val);
//   Stores old + val rounded to __half; returns old.
//   [lang.atomic.add.half]
__MC_ATOMIC_BINARY(__half, atomicAdd, NarrowAdd)

// __half2 atomicAdd(__half2* address, __half2 val);
//   Adds the lanes separately (.x to .x, .y to .y), each rounded to
//   __half; returns the old pair. Each lane's update is atomic.
//   [lang.atomic.add.half2-per-element]
__MC_ATOMIC_BINARY(__half2, atomicAdd, NarrowPairAdd)

// __maca_bfloat16 atomicAdd(__maca_bfloat16* address, __maca_bfloat16 val);
//   Stores old + val rounded to bfloat16; returns old.
//   [lang.atomic.add.bfloat16]
__MC_ATOMIC_BINARY(__maca_bfloat16, atomicAdd, NarrowAdd)

// __maca_bfloat162 atomicAdd(__maca_bfloat162* address,
//                            __maca_bfloat162 val);
//   Adds the lanes separately, each rounded to bfloat16; returns the old
//   pair. [lang.atomic.add.bfloat162-per-element]
__MC_ATOMIC_BINARY(__maca_bfloat162, atomicAdd, NarrowPairAdd)

#endif  // MCR_DETAIL_DEVICE_ATOMICS_HALF_H_
