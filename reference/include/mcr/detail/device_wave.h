// Copyright mxcts authors.
//
// ==========================================================================
// mcr/detail/device_wave.h: wave collectives and lane queries
// ==========================================================================
//
// The functions by which the 64 lanes of a wave exchange values and
// synchronize: `__syncwave`/`__syncwarp`, the shuffles (`__shfl_sync`,
// `_up`, `_down`, `_xor`, and the legacy mask-less forms), the votes
// (`__ballot_sync`, `__any_sync`, `__all_sync`, `__activemask`), the matches,
// the integer reductions (`__reduce_*_sync`), and the lane queries
// (`__lane_id`, `__lanemask64_*`). mc_runtime.h includes this header; the
// chapter docs/spec/lang-wave-collectives.md states every rule cited here.
//
//   __global__ void WaveSum(const int* in, int* out) {
//     int v = in[blockIdx.x * blockDim.x + threadIdx.x];
//     for (int offset = 32; offset > 0; offset >>= 1)
//       v += __shfl_xor_sync(~0ul, v, offset);   // every lane: the wave's sum
//     if (__lane_id() == 0) out[threadIdx.x / warpSize] = v;
//   }
//
// Masks are 64-bit: bit i names lane i of the caller's wave
// [lang.wave.mask.is-64-bit]. A `*_sync` call returns once every lane its
// mask names has made the same call with the same mask or has exited
// [lang.wave.mask.waits-for-named-lanes]; the caller's own bit must be set.
// On the reference, misuse (a caller outside its mask, overlapping but
// different masks, lanes of one mask at different collectives, an invalid
// shuffle width) stops the grid with mcErrorLaunchFailure and a diagnostic
// naming the lanes, masks and call sites. Every function takes the call
// site as defaulted trailing arguments, which callers never write.
//
// Every call goes through __mc_dev_wave_collective (mcr/detail/device_abi.h)
// with one __mc_wave_request; values travel as their bytes, zero-extended
// to 64 bits, so that a shuffle returns the source's exact bits.

#ifndef MCR_DETAIL_DEVICE_WAVE_H_
#define MCR_DETAIL_DEVICE_WAVE_H_

#include "mc_common.h"
#include "mcr/detail/device_abi.h"
#include "mcr/detail/half_types.h"

namespace __mc_wave {

// Every lane of a wave.
inline constexpr unsigned long kFullMask = ~0ul;

// One collective call of the calling lane; returns its result bits.
inline unsigned long long Call(int operation, unsigned flags, int width,
                               unsigned value_bytes, unsigned long long mask,
                               unsigned long long value, long long operand,
                               const char* file, int line) {
  // A negative width becomes a huge one, which the engine rejects.
  const __mc_wave_request request = {
      operation,   flags, static_cast<unsigned>(width),
      value_bytes, mask,  value,
      operand,     file,  line,
      nullptr};
  return __mc_dev_wave_collective(&request);
}

// The bytes of `value`, zero-extended to 64 bits.
template <class T>
inline unsigned long long Bits(const T& value) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "at most 8 bytes");
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &value, sizeof(T));
  return bits;
}

// The T whose bytes are the low bytes of `bits`.
template <class T>
inline T FromBits(unsigned long long bits) {
  T value;
  __builtin_memcpy(&value, &bits, sizeof(T));
  return value;
}

template <class T>
inline T Shuffle(int operation, unsigned long mask, const T& var,
                 long long operand, int width, const char* file, int line) {
  return FromBits<T>(Call(operation, 0, width, sizeof(T), mask, Bits(var),
                          operand, file, line));
}

template <class T>
inline unsigned long Match(int operation, unsigned long mask, const T& value,
                           const char* file, int line) {
  return static_cast<unsigned long>(
      Call(operation, 0, 0, sizeof(T), mask, Bits(value), 0, file, line));
}

// A reduction of 32-bit `value` bits; `halves`: a 32-bit mask.
inline unsigned Reduce(int operation, bool halves, unsigned long long mask,
                       unsigned value, const char* file, int line) {
  return static_cast<unsigned>(
      Call(operation, halves ? __MC_WAVE_FLAG_HALVES : 0u, 0, sizeof(unsigned),
           mask, value, 0, file, line));
}

// The calling thread's linear id in its block.
inline unsigned LinearThreadId() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

}  // namespace __mc_wave

// --------------------------------------------------------------------------
// Lane queries. [lang.wave.formation.lane-is-linear-id-mod-64]
// --------------------------------------------------------------------------

// The calling lane's index in its wave: its linear thread id modulo 64.
// [lang.wave.lane-id.value]
inline unsigned int __lane_id() {
  return __mc_wave::LinearThreadId() % static_cast<unsigned>(warpSize);
}

// The lanes below the caller. [lang.wave.lanemask.lt]
inline unsigned long __lanemask64_lt() { return (1ul << __lane_id()) - 1; }
// The caller's own lane. [lang.wave.lanemask.eq]
inline unsigned long __lanemask64_eq() { return 1ul << __lane_id(); }
// The lanes up to and including the caller. [lang.wave.lanemask.le]
inline unsigned long __lanemask64_le() {
  return __lanemask64_lt() | __lanemask64_eq();
}
// The lanes from the caller up. [lang.wave.lanemask.ge]
inline unsigned long __lanemask64_ge() { return ~__lanemask64_lt(); }
// The lanes above the caller. [lang.wave.lanemask.gt]
inline unsigned long __lanemask64_gt() { return ~__lanemask64_le(); }

// --------------------------------------------------------------------------
// The wave barrier. [lang.sync.syncwave.waits-for-named-lanes]
// --------------------------------------------------------------------------

// Returns once every non-exited lane named in `mask` (64 bits; default: the
// whole wave, the reference's choice) has called __syncwave/__syncwarp with the
// same mask; memory accesses before the call are visible to the participants
// after it. [lang.sync.syncwave.default-mask] [lang.sync.syncwave.mask-width]
// [lang.sync.syncwave.memory-ordering]
inline void __syncwave(unsigned long __mask = __mc_wave::kFullMask,
                       const char* __file = __builtin_FILE(),
                       int __line = __builtin_LINE()) {
  __mc_wave::Call(__MC_WAVE_SYNC, 0, 0, 0, __mask, 0, 0, __file, __line);
}

// The same function as __syncwave. [lang.sync.syncwave.syncwarp-is-synonym]
inline void __syncwarp(unsigned long __mask = __mc_wave::kFullMask,
                       const char* __file = __builtin_FILE(),
                       int __line = __builtin_LINE()) {
  __mc_wave::Call(__MC_WAVE_SYNC, 0, 0, 0, __mask, 0, 0, __file, __line);
}

// --------------------------------------------------------------------------
// Shuffles, for every type of __MC_WAVE_SHUFFLE_TYPES. `width` (a power of
// two from 1 to 64, default warpSize) splits the wave into groups of
// `width` consecutive lanes; values move only inside a group.
// [lang.wave.shfl.width-partitions-wave] [lang.wave.shfl.width-default-is-wave]
// [lang.wave.shfl.integer-types] [lang.wave.shfl.floating-types]
// [lang.wave.shfl.half-types] [lang.wave.shfl.bfloat16-types]
// --------------------------------------------------------------------------

// __shfl_sync(mask, var, srcLane, width): `var` of the lane at position
//   srcLane % width of the caller's group.
// __shfl_up_sync(mask, var, delta, width): `var` of the lane `delta`
//   positions lower in the group; the caller's own `var` if there is none.
// __shfl_down_sync(mask, var, delta, width): `var` of the lane `delta`
//   positions higher in the group; the caller's own `var` if there is none.
// __shfl_xor_sync(mask, var, laneMask, width): `var` of lane
//   (__lane_id() ^ laneMask); the caller's own `var` if that lane lies in a
//   later group.
// __shfl, __shfl_up, __shfl_down, __shfl_xor: the same without a mask, for
//   all lanes of the wave. [lang.wave.shfl-xor.legacy-maskless-form]
#define __MC_WAVE_DEFINE_SHUFFLES(T)                                           \
  inline T __shfl_sync(                                                        \
      unsigned long __mask, T __var, int __src_lane, int __width = warpSize,   \
      const char* __file = __builtin_FILE(), int __line = __builtin_LINE()) {  \
    return __mc_wave::Shuffle(__MC_WAVE_SHFL_IDX, __mask, __var, __src_lane,   \
                              __width, __file, __line);                        \
  }                                                                            \
  inline T __shfl_up_sync(unsigned long __mask, T __var, unsigned int __delta, \
                          int __width = warpSize,                              \
                          const char* __file = __builtin_FILE(),               \
                          int __line = __builtin_LINE()) {                     \
    return __mc_wave::Shuffle(__MC_WAVE_SHFL_UP, __mask, __var, __delta,       \
                              __width, __file, __line);                        \
  }                                                                            \
  inline T __shfl_down_sync(unsigned long __mask, T __var,                     \
                            unsigned int __delta, int __width = warpSize,      \
                            const char* __file = __builtin_FILE(),             \
                            int __line = __builtin_LINE()) {                   \
    return __mc_wave::Shuffle(__MC_WAVE_SHFL_DOWN, __mask, __var, __delta,     \
                              __width, __file, __line);                        \
  }                                                                            \
  inline T __shfl_xor_sync(                                                    \
      unsigned long __mask, T __var, int __lane_mask, int __width = warpSize,  \
      const char* __file = __builtin_FILE(), int __line = __builtin_LINE()) {  \
    return __mc_wave::Shuffle(__MC_WAVE_SHFL_XOR, __mask, __var, __lane_mask,  \
                              __width, __file, __line);                        \
  }                                                                            \
  inline T __shfl(T __var, int __src_lane, int __width = warpSize,             \
                  const char* __file = __builtin_FILE(),                       \
                  int __line = __builtin_LINE()) {                             \
    return __mc_wave::Shuffle(__MC_WAVE_SHFL_IDX, __mc_wave::kFullMask, __var, \
                              __src_lane, __width, __file, __line);            \
  }                                                                            \
  inline T __shfl_up(T __var, unsigned int __delta, int __width = warpSize,    \
                     const char* __file = __builtin_FILE(),                    \
                     int __line = __builtin_LINE()) {                          \
    return __mc_wave::Shuffle(__MC_WAVE_SHFL_UP, __mc_wave::kFullMask, __var,  \
                              __delta, __width, __file, __line);               \
  }                                                                            \
  inline T __shfl_down(T __var, unsigned int __delta, int __width = warpSize,  \
                       const char* __file = __builtin_FILE(),                  \
                       int __line = __builtin_LINE()) {                        \
    return __mc_wave::Shuffle(__MC_WAVE_SHFL_DOWN, __mc_wave::kFullMask,       \
                              __var, __delta, __width, __file, __line);        \
  }                                                                            \
  inline T __shfl_xor(T __var, int __lane_mask, int __width = warpSize,        \
                      const char* __file = __builtin_FILE(),                   \
                      int __line = __builtin_LINE()) {                         \
    return __mc_wave::Shuffle(__MC_WAVE_SHFL_XOR, __mc_wave::kFullMask, __var, \
                              __lane_mask, __width, __file, __line);           \
  }

__MC_WAVE_DEFINE_SHUFFLES(int)
__MC_WAVE_DEFINE_SHUFFLES(unsigned int)
__MC_WAVE_DEFINE_SHUFFLES(long)
__MC_WAVE_DEFINE_SHUFFLES(unsigned long)
__MC_WAVE_DEFINE_SHUFFLES(long long)
__MC_WAVE_DEFINE_SHUFFLES(unsigned long long)
__MC_WAVE_DEFINE_SHUFFLES(float)
__MC_WAVE_DEFINE_SHUFFLES(double)
// A pair moves as one unit: both halves come from the source lane.
__MC_WAVE_DEFINE_SHUFFLES(__half)
__MC_WAVE_DEFINE_SHUFFLES(__half2)
__MC_WAVE_DEFINE_SHUFFLES(__maca_bfloat16)
__MC_WAVE_DEFINE_SHUFFLES(__maca_bfloat162)

#undef __MC_WAVE_DEFINE_SHUFFLES

// --------------------------------------------------------------------------
// Votes.
// --------------------------------------------------------------------------

// Bit i set iff lane i is named in `mask`, takes part, and passed a nonzero
// predicate; the same value for every participant.
// [lang.wave.ballot.returns-64-bit-mask]
// [lang.wave.ballot.unnamed-lanes-are-zero]
inline unsigned long __ballot_sync(unsigned long __mask, int __predicate,
                                   const char* __file = __builtin_FILE(),
                                   int __line = __builtin_LINE()) {
  return static_cast<unsigned long>(__mc_wave::Call(
      __MC_WAVE_BALLOT, 0, 0, sizeof(int), __mask,
      static_cast<unsigned long long>(__predicate != 0), 0, __file, __line));
}

// Nonzero iff some participant passed a nonzero predicate.
// [lang.wave.any.result]
inline int __any_sync(unsigned long __mask, int __predicate,
                      const char* __file = __builtin_FILE(),
                      int __line = __builtin_LINE()) {
  return static_cast<int>(__mc_wave::Call(
      __MC_WAVE_ANY, 0, 0, sizeof(int), __mask,
      static_cast<unsigned long long>(__predicate != 0), 0, __file, __line));
}

// Nonzero iff every participant passed a nonzero predicate.
// [lang.wave.all.result]
inline int __all_sync(unsigned long __mask, int __predicate,
                      const char* __file = __builtin_FILE(),
                      int __line = __builtin_LINE()) {
  return static_cast<int>(__mc_wave::Call(
      __MC_WAVE_ALL, 0, 0, sizeof(int), __mask,
      static_cast<unsigned long long>(__predicate != 0), 0, __file, __line));
}

// The lanes of the caller's wave that execute this call together with it
// (the caller's bit always set). On the reference: the lanes that reach the
// same __activemask() call site before every live lane of the wave waits
// somewhere. [lang.wave.activemask.returns-active-lanes]
// [lang.wave.activemask.not-a-barrier]
inline unsigned long __activemask(const char* __file = __builtin_FILE(),
                                  int __line = __builtin_LINE()) {
  return static_cast<unsigned long>(__mc_wave::Call(__MC_WAVE_ACTIVEMASK, 0, 0,
                                                    0, __mc_wave::kFullMask, 0,
                                                    0, __file, __line));
}

// --------------------------------------------------------------------------
// Matches, for every type of the list below; values compare by their bits.
// [lang.wave.match.value-types]
// --------------------------------------------------------------------------

// __match_any_sync(mask, value): the participants whose `value` equals the
//   caller's. [lang.wave.match-any.returns-equal-value-lanes]
// __match_all_sync(mask, value, pred): `mask` with *pred = 1 when every
//   participant passed the same `value`, else 0 with *pred = 0.
//   [lang.wave.match-all.uniform-returns-mask]
//   [lang.wave.match-all.differing-returns-zero]
#define __MC_WAVE_DEFINE_MATCHES(T)                                            \
  inline unsigned long __match_any_sync(unsigned long __mask, T __value,       \
                                        const char* __file = __builtin_FILE(), \
                                        int __line = __builtin_LINE()) {       \
    return __mc_wave::Match(__MC_WAVE_MATCH_ANY, __mask, __value, __file,      \
                            __line);                                           \
  }                                                                            \
  inline unsigned long __match_all_sync(                                       \
      unsigned long __mask, T __value, int* __pred,                            \
      const char* __file = __builtin_FILE(), int __line = __builtin_LINE()) {  \
    const unsigned long __result = __mc_wave::Match(                           \
        __MC_WAVE_MATCH_ALL, __mask, __value, __file, __line);                 \
    *__pred = __result != 0;                                                   \
    return __result;                                                           \
  }

__MC_WAVE_DEFINE_MATCHES(int)
__MC_WAVE_DEFINE_MATCHES(unsigned int)
__MC_WAVE_DEFINE_MATCHES(long)
__MC_WAVE_DEFINE_MATCHES(unsigned long)
__MC_WAVE_DEFINE_MATCHES(long long)
__MC_WAVE_DEFINE_MATCHES(unsigned long long)
__MC_WAVE_DEFINE_MATCHES(float)
__MC_WAVE_DEFINE_MATCHES(double)

#undef __MC_WAVE_DEFINE_MATCHES

// --------------------------------------------------------------------------
// Reductions. The mask's type selects the form:
//   - `unsigned int` (uint32_t), the literal 0xFFFFFFFF included: a 32-bit
//     mask naming lanes of the caller's 32-lane half; each half reduces
//     separately [lang.wave.reduce.mask-32-half-wave];
//   - `unsigned long` (uint64_t) or `unsigned long long`: a 64-bit mask over
//     the whole wave [lang.wave.reduce.mask-64-whole-wave];
//   - a signed type (`-1`, `0xFFFF`, an `int` variable) converts equally
//     well to every form: the call is ambiguous and does not compile (the
//     reference's choice where the spec leaves it open)
//     [lang.wave.reduce.inexact-mask-type].
// Every participant gets the same result
// [lang.wave.reduce.same-result-for-participants].
// --------------------------------------------------------------------------

#define __MC_WAVE_DEFINE_REDUCTION(NAME, T, OPERATION, MASK, HALVES)           \
  inline T NAME(MASK __mask, T __value, const char* __file = __builtin_FILE(), \
                int __line = __builtin_LINE()) {                               \
    return static_cast<T>(__mc_wave::Reduce(OPERATION, HALVES, __mask,         \
                                            static_cast<unsigned>(__value),    \
                                            __file, __line));                  \
  }
#define __MC_WAVE_DEFINE_REDUCTIONS(NAME, T, OPERATION)                \
  __MC_WAVE_DEFINE_REDUCTION(NAME, T, OPERATION, unsigned int, true)   \
  __MC_WAVE_DEFINE_REDUCTION(NAME, T, OPERATION, unsigned long, false) \
  __MC_WAVE_DEFINE_REDUCTION(NAME, T, OPERATION, unsigned long long, false)

// The sum, modulo 2^32. [lang.wave.reduce.add-result]
__MC_WAVE_DEFINE_REDUCTIONS(__reduce_add_sync, int, __MC_WAVE_REDUCE_ADD)
__MC_WAVE_DEFINE_REDUCTIONS(__reduce_add_sync, unsigned int,
                            __MC_WAVE_REDUCE_ADD)
// The smallest value, signed or unsigned. [lang.wave.reduce.min-result]
__MC_WAVE_DEFINE_REDUCTIONS(__reduce_min_sync, int, __MC_WAVE_REDUCE_MIN_SIGNED)
__MC_WAVE_DEFINE_REDUCTIONS(__reduce_min_sync, unsigned int,
                            __MC_WAVE_REDUCE_MIN_UNSIGNED)
// The largest value, signed or unsigned. [lang.wave.reduce.max-result]
__MC_WAVE_DEFINE_REDUCTIONS(__reduce_max_sync, int, __MC_WAVE_REDUCE_MAX_SIGNED)
__MC_WAVE_DEFINE_REDUCTIONS(__reduce_max_sync, unsigned int,
                            __MC_WAVE_REDUCE_MAX_UNSIGNED)
// Bitwise AND, OR, XOR. [lang.wave.reduce.and-result]
// [lang.wave.reduce.or-result] [lang.wave.reduce.xor-result]
__MC_WAVE_DEFINE_REDUCTIONS(__reduce_and_sync, unsigned int,
                            __MC_WAVE_REDUCE_AND)
__MC_WAVE_DEFINE_REDUCTIONS(__reduce_or_sync, unsigned int, __MC_WAVE_REDUCE_OR)
__MC_WAVE_DEFINE_REDUCTIONS(__reduce_xor_sync, unsigned int,
                            __MC_WAVE_REDUCE_XOR)

#undef __MC_WAVE_DEFINE_REDUCTIONS
#undef __MC_WAVE_DEFINE_REDUCTION

#endif  // MCR_DETAIL_DEVICE_WAVE_H_
