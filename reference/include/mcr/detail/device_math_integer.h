// Copyright mxcts authors.
//
// mcr/detail/device_math_integer.h: the integer intrinsics: bit counts
// (`__popc`, `__clz`, `__ffs`), bit reversal, 24-bit and high-half
// multiplication, sums of absolute differences, byte permutation, funnel
// shifts and overflow-free halving adds.
//
// All are exact and defined for every argument. They use only shifts,
// masks and multiplications that compile to inline instructions, so device
// images need no helper from the compiler's support library (a plain
// `__builtin_popcount` would call one on x86-64 without POPCNT).
//
//   __popc(0xF0F0u)             // 8
//   __clz(1)                    // 31
//   __ffs(0x18)                 // 4
//   __brev(1u)                  // 0x80000000u
//   __byte_perm(x, y, 0x3210)   // x
//   __funnelshift_l(lo, hi, 8)  // (hi << 8) | (lo >> 24)
//
// Part of the device math library (mcr/detail/device_math.h); usable in
// host and device code.
//
// Tested by conformance/language/math/integer_intrinsics_test.cc.

#ifndef MCR_DETAIL_DEVICE_MATH_INTEGER_H_
#define MCR_DETAIL_DEVICE_MATH_INTEGER_H_

// The number of bits set in the 32-bit `x` (0 to 32). [lang.math.int.popc]
constexpr inline int __popc(unsigned int x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
}

// The number of bits set in the 64-bit `x` (0 to 64). [lang.math.int.popc]
constexpr inline int __popcll(unsigned long long x) {
  return __popc(static_cast<unsigned int>(x)) +
         __popc(static_cast<unsigned int>(x >> 32));
}

// Leading zero bits of the 32-bit `x`, 32 for 0. [lang.math.int.clz]
constexpr inline int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x));
}

// Leading zero bits of the 64-bit `x`, 64 for 0. [lang.math.int.clz]
constexpr inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}

// The 1-based position of the lowest set bit of `x`, 0 for 0.
// [lang.math.int.ffs]
constexpr inline int __ffs(int x) {
  return x == 0 ? 0 : __builtin_ctz(static_cast<unsigned int>(x)) + 1;
}

// As __ffs for 64 bits (0 to 64). [lang.math.int.ffs]
constexpr inline int __ffsll(long long x) {
  return x == 0 ? 0 : __builtin_ctzll(static_cast<unsigned long long>(x)) + 1;
}

// `x` with its 32 bits in reverse order. [lang.math.int.brev]
constexpr inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
}

// `x` with its 64 bits in reverse order. [lang.math.int.brev]
constexpr inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x)))
          << 32) |
         __brev(static_cast<unsigned int>(x >> 32));
}

// The low 32 bits of the product of the signed 24-bit values in the low 24
// bits of `x` and `y` (their high 8 bits are ignored). [lang.math.int.mul24]
constexpr inline int __mul24(int x, int y) {
  const long long a = static_cast<int>(static_cast<unsigned int>(x) << 8) >> 8;
  const long long b = static_cast<int>(static_cast<unsigned int>(y) << 8) >> 8;
  return static_cast<int>(static_cast<unsigned int>(a * b));
}

// The low 32 bits of the product of the low 24 bits of `x` and `y`.
// [lang.math.int.mul24]
constexpr inline unsigned int __umul24(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>(
      static_cast<unsigned long long>(x & 0xFFFFFFu) * (y & 0xFFFFFFu));
}

// The high 32 bits of the 64-bit product x * y. [lang.math.int.mulhi]
constexpr inline int __mulhi(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) * y) >> 32);
}
constexpr inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >>
                                   32);
}

// The high 64 bits of the 128-bit product x * y. [lang.math.int.mulhi]
constexpr inline long long __mul64hi(long long x, long long y) {
  __extension__ typedef __int128 Int128;
  return static_cast<long long>((static_cast<Int128>(x) * y) >> 64);
}
constexpr inline unsigned long long __umul64hi(unsigned long long x,
                                               unsigned long long y) {
  __extension__ typedef unsigned __int128 Uint128;
  return static_cast<unsigned long long>((static_cast<Uint128>(x) * y) >> 64);
}

// |x - y| + z, the difference taken without overflow; the sum wraps modulo
// 2^32. [lang.math.int.sad]
constexpr inline unsigned int __sad(int x, int y, unsigned int z) {
  const long long difference = static_cast<long long>(x) - y;
  return static_cast<unsigned int>(difference < 0 ? -difference : difference) +
         z;
}
constexpr inline unsigned int __usad(unsigned int x, unsigned int y,
                                     unsigned int z) {
  return (x > y ? x - y : y - x) + z;
}

// Byte n (0-3) of the result is byte (s >> 4n) & 7 of the eight bytes
// y:x (bytes 0-3 from x, 4-7 from y). [lang.math.int.byte-perm]
constexpr inline unsigned int __byte_perm(unsigned int x, unsigned int y,
                                          unsigned int s) {
  const unsigned long long bytes =
      (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int result = 0;
  for (int n = 0; n < 4; ++n) {
    const unsigned int selector = (s >> (4 * n)) & 7u;
    result |= static_cast<unsigned int>((bytes >> (8 * selector)) & 0xFFu)
              << (8 * n);
  }
  return result;
}

// The high 32 bits of hi:lo shifted left by `shift & 31` (_l), or by
// min(shift, 32) (_lc). [lang.math.int.funnelshift]
constexpr inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi,
                                              unsigned int shift) {
  const unsigned long long value =
      (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((value << (shift & 31u)) >> 32);
}
constexpr inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi,
                                               unsigned int shift) {
  const unsigned long long value =
      (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((value << (shift < 32u ? shift : 32u)) >>
                                   32);
}

// The low 32 bits of hi:lo shifted right by `shift & 31` (_r), or by
// min(shift, 32) (_rc). [lang.math.int.funnelshift]
constexpr inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi,
                                              unsigned int shift) {
  const unsigned long long value =
      (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(value >> (shift & 31u));
}
constexpr inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi,
                                               unsigned int shift) {
  const unsigned long long value =
      (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(value >> (shift < 32u ? shift : 32u));
}

// (x + y) >> 1 and (x + y + 1) >> 1 without overflow; the signed forms
// shift arithmetically (round toward -infinity). [lang.math.int.hadd]
constexpr inline int __hadd(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) + y) >> 1);
}
constexpr inline int __rhadd(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1);
}
constexpr inline unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >>
                                   1);
}
constexpr inline unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>(
      (static_cast<unsigned long long>(x) + y + 1) >> 1);
}

#endif  // MCR_DETAIL_DEVICE_MATH_INTEGER_H_
