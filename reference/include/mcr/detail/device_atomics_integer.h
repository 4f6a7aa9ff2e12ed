// Copyright mxcts authors.
//
// mcr/detail/device_atomics_integer.h: the atomic functions on integer
// words. Included by mcr/detail/device_atomics.h; not for programs to name.
//
// Every function below exists as listed and with the suffixes `_block` and
// `_system` (`atomicAdd_block`, `atomicCAS_system`, ...), with the same
// overloads, operation and result [lang.atomic.scope.block-variants-exist]
// [lang.atomic.scope.system-variants-exist]. Every one of them, given a
// word `*address` that holds `old`:
//
// * stores its result as one indivisible read-modify-write and returns
//   `old` [lang.atomic.general.indivisible-read-modify-write]
//   [lang.atomic.general.returns-old-value];
// * works on global memory (device variables, mcMalloc and managed
//   allocations, mapped host memory) and on shared memory
//   [lang.atomic.general.global-and-shared-memory];
// * traps with mcErrorIllegalAddress when `address` is null, and with
//   mcErrorMisalignedAddress when it is not a multiple of the word's size
//   (4 bytes for int and unsigned int, 8 for the 64-bit types, 2 for
//   unsigned short), with a diagnostic naming the function and the address
//   [lang.atomic.address.invalid-address-traps]
//   [lang.atomic.alignment.misaligned-32-bit-traps]
//   [lang.atomic.alignment.misaligned-64-bit-traps]
//   [lang.atomic.alignment.misaligned-16-bit-traps].
//
// The 64-bit overloads on `unsigned long long` are also given for
// `unsigned long` (and those on `long long` for `long`), the types of
// `uint64_t` and `int64_t` on this platform, so that a `uint64_t*` works
// where an `unsigned long long*` does. There is no overload for other
// pointer types; a call with one does not compile
// [lang.atomic.general.unsupported-type-rejected].

#ifndef MCR_DETAIL_DEVICE_ATOMICS_INTEGER_H_
#define MCR_DETAIL_DEVICE_ATOMICS_INTEGER_H_

#include "mcr/detail/device_atomics_support.h"

// --------------------------------------------------------------------------
// atomicAdd, atomicSub
// --------------------------------------------------------------------------

// int atomicAdd(int* address, int val);
// unsigned int atomicAdd(unsigned int* address, unsigned int val);
// unsigned long long atomicAdd(unsigned long long* address,
//                              unsigned long long val);
// unsigned long atomicAdd(unsigned long* address, unsigned long val);
//   Stores old + val, wrapping modulo 2^32 or 2^64; returns old.
//   [lang.atomic.add.integer-overloads]
__MC_ATOMIC_BINARY(int, atomicAdd, FetchAdd)
__MC_ATOMIC_BINARY(unsigned int, atomicAdd, FetchAdd)
__MC_ATOMIC_BINARY(unsigned long long, atomicAdd, FetchAdd)
__MC_ATOMIC_BINARY(unsigned long, atomicAdd, FetchAdd)

// int atomicSub(int* address, int val);
// unsigned int atomicSub(unsigned int* address, unsigned int val);
//   Stores old - val, wrapping modulo 2^32; returns old.
//   [lang.atomic.sub.overloads]
__MC_ATOMIC_BINARY(int, atomicSub, FetchSub)
__MC_ATOMIC_BINARY(unsigned int, atomicSub, FetchSub)

// --------------------------------------------------------------------------
// atomicExch
// --------------------------------------------------------------------------

// int atomicExch(int* address, int val);
// unsigned int atomicExch(unsigned int* address, unsigned int val);
// unsigned long long atomicExch(unsigned long long* address,
//                               unsigned long long val);
// unsigned long atomicExch(unsigned long* address, unsigned long val);
//   Stores val; returns old. (The float overload is in
//   device_atomics_float.h.) [lang.atomic.exch.overloads]
__MC_ATOMIC_BINARY(int, atomicExch, Exchange)
__MC_ATOMIC_BINARY(unsigned int, atomicExch, Exchange)
__MC_ATOMIC_BINARY(unsigned long long, atomicExch, Exchange)
__MC_ATOMIC_BINARY(unsigned long, atomicExch, Exchange)

// --------------------------------------------------------------------------
// atomicMin, atomicMax
// --------------------------------------------------------------------------

// T atomicMin(T* address, T val) and T atomicMax(T* address, T val) for T
// in int, unsigned int, long long, unsigned long long, long, unsigned long.
//   Store the smaller (larger) of old and val, compared as signed integers
//   for the signed types and as unsigned for the unsigned ones; return old.
//   [lang.atomic.min.overloads] [lang.atomic.max.overloads]
//   [lang.atomic.minmax.signedness]
__MC_ATOMIC_BINARY(int, atomicMin, Minimum)
__MC_ATOMIC_BINARY(unsigned int, atomicMin, Minimum)
__MC_ATOMIC_BINARY(long long, atomicMin, Minimum)
__MC_ATOMIC_BINARY(unsigned long long, atomicMin, Minimum)
__MC_ATOMIC_BINARY(long, atomicMin, Minimum)
__MC_ATOMIC_BINARY(unsigned long, atomicMin, Minimum)

__MC_ATOMIC_BINARY(int, atomicMax, Maximum)
__MC_ATOMIC_BINARY(unsigned int, atomicMax, Maximum)
__MC_ATOMIC_BINARY(long long, atomicMax, Maximum)
__MC_ATOMIC_BINARY(unsigned long long, atomicMax, Maximum)
__MC_ATOMIC_BINARY(long, atomicMax, Maximum)
__MC_ATOMIC_BINARY(unsigned long, atomicMax, Maximum)

// --------------------------------------------------------------------------
// atomicInc, atomicDec: unsigned int only. [lang.atomic.incdec.unsigned-only]
// --------------------------------------------------------------------------

// unsigned int atomicInc(unsigned int* address, unsigned int val);
//   Stores (old >= val) ? 0 : old + 1; returns old. A counter incremented
//   with limit val counts 0, 1, ..., val, 0, ...
//   [lang.atomic.inc.wraps-at-limit] [lang.atomic.inc.ticket-pattern]
__MC_ATOMIC_BINARY(unsigned int, atomicInc, WrappingIncrement)

// unsigned int atomicDec(unsigned int* address, unsigned int val);
//   Stores (old == 0 || old > val) ? val : old - 1; returns old.
//   [lang.atomic.dec.wraps-at-zero]
__MC_ATOMIC_BINARY(unsigned int, atomicDec, WrappingDecrement)

// --------------------------------------------------------------------------
// atomicCAS
// --------------------------------------------------------------------------

// T atomicCAS(T* address, T compare, T val) for T in int, unsigned int,
// unsigned long long, unsigned long and unsigned short.
//   Stores (old == compare) ? val : old as one atomic operation; returns
//   old, so the caller's swap happened exactly when the result equals
//   compare. [lang.atomic.cas.semantics] [lang.atomic.cas.overloads]
//   [lang.atomic.cas.success-detected-by-return]
__MC_ATOMIC_CAS(int, atomicCAS)
__MC_ATOMIC_CAS(unsigned int, atomicCAS)
__MC_ATOMIC_CAS(unsigned long long, atomicCAS)
__MC_ATOMIC_CAS(unsigned long, atomicCAS)
__MC_ATOMIC_CAS(unsigned short, atomicCAS)

// --------------------------------------------------------------------------
// atomicAnd, atomicOr, atomicXor
// --------------------------------------------------------------------------

// T atomicAnd(T* address, T val), atomicOr and atomicXor, for T in int,
// unsigned int, unsigned long long and unsigned long.
//   Store old & val, old | val, old ^ val; return old. Each bit is updated
//   independently of the others, so concurrent calls on distinct bits
//   never undo each other. [lang.atomic.and.overloads]
//   [lang.atomic.or.overloads] [lang.atomic.xor.overloads]
//   [lang.atomic.bitwise.independent-bits]
__MC_ATOMIC_BINARY(int, atomicAnd, FetchAnd)
__MC_ATOMIC_BINARY(unsigned int, atomicAnd, FetchAnd)
__MC_ATOMIC_BINARY(unsigned long long, atomicAnd, FetchAnd)
__MC_ATOMIC_BINARY(unsigned long, atomicAnd, FetchAnd)

__MC_ATOMIC_BINARY(int, atomicOr, FetchOr)
__MC_ATOMIC_BINARY(unsigned int, atomicOr, FetchOr)
__MC_ATOMIC_BINARY(unsigned long long, atomicOr, FetchOr)
__MC_ATOMIC_BINARY(unsigned long, atomicOr, FetchOr)

__MC_ATOMIC_BINARY(int, atomicXor, FetchXor)
__MC_ATOMIC_BINARY(unsigned int, atomicXor, FetchXor)
__MC_ATOMIC_BINARY(unsigned long long, atomicXor, FetchXor)
__MC_ATOMIC_BINARY(unsigned long, atomicXor, FetchXor)

#endif  // MCR_DETAIL_DEVICE_ATOMICS_INTEGER_H_
