// Copyright mxcts authors.
//
// mcr/detail/device_atomics_float.h: the atomic functions on `float` and
// `double` words. Included by mcr/detail/device_atomics.h; not for
// programs to name.
//
// Each function exists unsuffixed, `_block` and `_system`, with the same
// overloads and result [lang.atomic.scope.block-variants-exist]
// [lang.atomic.scope.system-variants-exist]; each returns the word's old
// value and traps on a null (mcErrorIllegalAddress) or misaligned
// (mcErrorMisalignedAddress: 4 bytes for float, 8 for double) address, as
// the integer functions do (device_atomics_integer.h).
//
// Being plain overloads, they convert the operand: `atomicAdd(&d, 20)` on a
// `double d` adds 20.0, and `atomicAdd(&f, 1.23)` on a `float f` adds
// 1.23 rounded to float [lang.atomic.general.plain-overloads-convert-operand].
//
// Floating-point additions are performed one at a time, each rounded to
// nearest even in the word's format; concurrent additions take effect in
// the order the threads reach them, which the program cannot choose
// [lang.atomic.add.floating-order-unspecified]. The reference neither
// flushes subnormal operands nor subnormal results to zero
// [lang.atomic.add.float-subnormal-handling].

#ifndef MCR_DETAIL_DEVICE_ATOMICS_FLOAT_H_
#define MCR_DETAIL_DEVICE_ATOMICS_FLOAT_H_

#include "mcr/detail/device_atomics_support.h"

// float atomicAdd(float* address, float val);
//   Stores old + val rounded to float; returns old. [lang.atomic.add.float]
__MC_ATOMIC_BINARY(float, atomicAdd, FloatingAdd)

// double atomicAdd(double* address, double val);
//   Stores old + val rounded to double; returns old.
//   [lang.atomic.add.double]
__MC_ATOMIC_BINARY(double, atomicAdd, FloatingAdd)

// float atomicExch(float* address, float val);
//   Stores val and returns old, both bit for bit: NaN payloads and the sign
//   of zero are kept. [lang.atomic.exch.overloads]
//   [lang.atomic.exch.float-bits-preserved]
__MC_ATOMIC_BINARY(float, atomicExch, Exchange)

#endif  // MCR_DETAIL_DEVICE_ATOMICS_FLOAT_H_
