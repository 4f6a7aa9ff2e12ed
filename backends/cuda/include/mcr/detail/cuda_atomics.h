// Copyright mxcts authors.
//
// mcr/detail/cuda_atomics.h of the CUDA backend: the atomic overloads
// MXMACA has and CUDA lacks (the 16-bit floating-point adds in the block
// and system scopes are at the end). MXMACA gives every atomic on unsigned long
// long (long long) also for the platform's other 64-bit integer type, so
// that an atomic on a uint64_t * (int64_t *) compiles
// [lang.atomic.general.fixed-width-aliases]; on an LP64 host that type is
// unsigned long (long), which CUDA has no overloads for. Each overload
// here forwards to CUDA's on the same 64 bits.
//
// Included by mc_runtime.h in CUDA compilations; not for programs.

#ifndef MXCTS_CUDA_MCR_DETAIL_CUDA_ATOMICS_H_
#define MXCTS_CUDA_MCR_DETAIL_CUDA_ATOMICS_H_

#if defined(__CUDACC__) && defined(__cplusplus)

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>

static_assert(sizeof(unsigned long) == sizeof(unsigned long long),
              "the overloads are for LP64 hosts, where long is 64 bits");

// name(unsigned long *, unsigned long) in the three scopes.
#define MXCTS_CUDA_ATOMIC_UNSIGNED_LONG(name)                  \
  __device__ inline unsigned long name(unsigned long* address, \
                                       unsigned long value) {  \
    return static_cast<unsigned long>(                         \
        name(reinterpret_cast<unsigned long long*>(address),   \
             static_cast<unsigned long long>(value)));         \
  }
// name(long *, long).
#define MXCTS_CUDA_ATOMIC_LONG(name)                                     \
  __device__ inline long name(long* address, long value) {               \
    return static_cast<long>(name(reinterpret_cast<long long*>(address), \
                                  static_cast<long long>(value)));       \
  }
#define MXCTS_CUDA_ATOMIC_SCOPES(form, name) \
  form(name) form(name##_block) form(name##_system)

// CUDA's unsigned long long forms: add, exchange, min, max, and, or, xor.
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_UNSIGNED_LONG, atomicAdd)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_UNSIGNED_LONG, atomicExch)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_UNSIGNED_LONG, atomicMin)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_UNSIGNED_LONG, atomicMax)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_UNSIGNED_LONG, atomicAnd)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_UNSIGNED_LONG, atomicOr)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_UNSIGNED_LONG, atomicXor)
// CUDA's long long forms: min, max, and, or, xor.
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_LONG, atomicMin)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_LONG, atomicMax)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_LONG, atomicAnd)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_LONG, atomicOr)
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_LONG, atomicXor)

// Compare-and-swap takes three values.
#define MXCTS_CUDA_ATOMIC_CAS_UNSIGNED_LONG(name)                           \
  __device__ inline unsigned long name(                                     \
      unsigned long* address, unsigned long compare, unsigned long value) { \
    return static_cast<unsigned long>(                                      \
        name(reinterpret_cast<unsigned long long*>(address),                \
             static_cast<unsigned long long>(compare),                      \
             static_cast<unsigned long long>(value)));                      \
  }
MXCTS_CUDA_ATOMIC_SCOPES(MXCTS_CUDA_ATOMIC_CAS_UNSIGNED_LONG, atomicCAS)

// A 16-bit compare-and-swap in the block and system scopes, which CUDA
// has in the device scope only (atomicCAS on unsigned short). The same
// PTX instruction as CUDA's, with the scope named.
__device__ inline unsigned short atomicCAS_block(unsigned short* address,
                                                 unsigned short compare,
                                                 unsigned short value) {
  unsigned short old;
  asm volatile("atom.cta.cas.b16 %0, [%1], %2, %3;"
               : "=h"(old)
               : "l"(address), "h"(compare), "h"(value)
               : "memory");
  return old;
}
__device__ inline unsigned short atomicCAS_system(unsigned short* address,
                                                  unsigned short compare,
                                                  unsigned short value) {
  unsigned short old;
  asm volatile("atom.sys.cas.b16 %0, [%1], %2, %3;"
               : "=h"(old)
               : "l"(address), "h"(compare), "h"(value)
               : "memory");
  return old;
}

// atomicAdd on __half, __half2, __maca_bfloat16 and __maca_bfloat162 in
// the block and system scopes, which CUDA has in the device scope only
// [lang.atomic.scope.block-variants-exist,
// lang.atomic.scope.system-variants-exist]: the PTX add CUDA uses for its
// device-scope forms, with the scope named. The bfloat16 adds need sm_90,
// the architecture mxcc builds for by default.
namespace mxcts_cuda_detail {
// The bits of a 16- or 32-bit value, and the value of such bits.
template <class Bits, class T>
__device__ inline Bits BitsOf(T value) {
  static_assert(sizeof(Bits) == sizeof(T), "a value's bits have its size");
  Bits bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}
template <class T, class Bits>
__device__ inline T ValueOf(Bits bits) {
  static_assert(sizeof(Bits) == sizeof(T), "a value's bits have its size");
  T value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}
}  // namespace mxcts_cuda_detail

// name(type *, type) adding with "atom.<scope>.add.noftz.<ptx_type>";
// `bits` is the unsigned type of the value's size, `reg` its register
// constraint ("h" for 16 bits, "r" for 32).
#define MXCTS_CUDA_ATOMIC_ADD_FLOAT16(name, scope, type, ptx_type, bits, reg) \
  __device__ inline type name(type* address, type value) {                    \
    bits old;                                                                 \
    asm volatile("atom." scope ".add.noftz." ptx_type " %0, [%1], %2;"        \
                 : "=" reg(old)                                               \
                 : "l"(address), reg(mxcts_cuda_detail::BitsOf<bits>(value))  \
                 : "memory");                                                 \
    return mxcts_cuda_detail::ValueOf<type>(old);                             \
  }
#define MXCTS_CUDA_ATOMIC_ADD_FLOAT16_SCOPES(type, ptx_type, bits, reg)        \
  MXCTS_CUDA_ATOMIC_ADD_FLOAT16(atomicAdd_block, "cta", type, ptx_type, bits,  \
                                reg)                                           \
  MXCTS_CUDA_ATOMIC_ADD_FLOAT16(atomicAdd_system, "sys", type, ptx_type, bits, \
                                reg)
MXCTS_CUDA_ATOMIC_ADD_FLOAT16_SCOPES(__half, "f16", unsigned short, "h")
MXCTS_CUDA_ATOMIC_ADD_FLOAT16_SCOPES(__half2, "f16x2", unsigned int, "r")
MXCTS_CUDA_ATOMIC_ADD_FLOAT16_SCOPES(__nv_bfloat16, "bf16", unsigned short, "h")
MXCTS_CUDA_ATOMIC_ADD_FLOAT16_SCOPES(__nv_bfloat162, "bf16x2", unsigned int,
                                     "r")

#undef MXCTS_CUDA_ATOMIC_ADD_FLOAT16_SCOPES
#undef MXCTS_CUDA_ATOMIC_ADD_FLOAT16
#undef MXCTS_CUDA_ATOMIC_CAS_UNSIGNED_LONG
#undef MXCTS_CUDA_ATOMIC_SCOPES
#undef MXCTS_CUDA_ATOMIC_LONG
#undef MXCTS_CUDA_ATOMIC_UNSIGNED_LONG

#endif  // __CUDACC__ && __cplusplus

#endif  // MXCTS_CUDA_MCR_DETAIL_CUDA_ATOMICS_H_
