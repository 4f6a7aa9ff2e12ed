// Copyright mxcts authors.
//
// mcr/detail/cooperative_groups_exchange.h: how the groups of
// maca_cooperative_groups.h talk to the engine. Include
// maca_cooperative_groups.h, not this header.
//
// A tile or coalesced group is a set of lanes of one wave, named by a 64-bit
// mask; its collectives are wave collectives with that mask
// (__mc_dev_wave_collective) whose request names the group, so that the
// engine holds every member to the collective (a member that exited is
// misuse and traps) and its diagnostics say "thread_block_tile<16>::sync()
// ... (thread_block_tile<16> lanes 16-31)". Values of any trivially
// copyable type move in 8-byte pieces, one collective per piece.

#ifndef MCR_DETAIL_COOPERATIVE_GROUPS_EXCHANGE_H_
#define MCR_DETAIL_COOPERATIVE_GROUPS_EXCHANGE_H_

#include <type_traits>

#include "mc_common.h"
#include "mcr/detail/device_abi.h"
#include "mcr/detail/device_wave.h"

namespace cooperative_groups {
namespace __details {

// Lanes of a wave. [lang.wave.formation.wave-size-is-64]
inline constexpr unsigned kWaveLanes = 64;

// The lowest `count` bits set (count 0 to 64).
inline constexpr unsigned long LowLanes(unsigned count) {
  return count >= 64 ? ~0ul : (1ul << count) - 1;
}

// The number of lanes `mask` names. Written out: without a popcnt
// instruction g++ calls libgcc's __popcountdi2, which device images lack.
inline unsigned PopCount(unsigned long mask) {
  mask = mask - ((mask >> 1) & 0x5555555555555555ul);
  mask = (mask & 0x3333333333333333ul) + ((mask >> 2) & 0x3333333333333333ul);
  mask = (mask + (mask >> 4)) & 0x0f0f0f0f0f0f0f0ful;
  return static_cast<unsigned>((mask * 0x0101010101010101ul) >> 56);
}

// The calling thread's linear id in its block and lane in its wave.
inline unsigned LinearThreadId() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned Lane() { return LinearThreadId() % kWaveLanes; }

// The calling lane's rank among the lanes of `mask`: the members below it.
inline unsigned RankInMask(unsigned long mask) {
  return PopCount(mask & ((1ul << Lane()) - 1));
}

// The lane of rank `rank` among the lanes of `mask` (rank < popcount(mask)).
inline unsigned LaneOfRank(unsigned long mask, unsigned rank) {
  for (unsigned i = 0; i < rank; ++i) mask &= mask - 1;
  return static_cast<unsigned>(__builtin_ctzl(mask));
}

// Bit i of the result is the bit of `lanes` at the lane of rank i in
// `mask`: a wave-lane mask rewritten in the group's ranks.
inline unsigned long CompressToRanks(unsigned long lanes, unsigned long mask) {
  unsigned long result = 0;
  unsigned rank = 0;
  for (unsigned long rest = mask; rest != 0; rest &= rest - 1, ++rank) {
    if ((lanes & (rest & -rest)) != 0) result |= 1ul << rank;
  }
  return result;
}

// One collective of the calling lane on behalf of `group`.
inline unsigned long long Collective(const char* group, int operation,
                                     unsigned width, unsigned value_bytes,
                                     unsigned long mask,
                                     unsigned long long value,
                                     long long operand, const char* file,
                                     int line) {
  const __mc_wave_request request = {operation, 0u,    width,   value_bytes,
                                     mask,      value, operand, file,
                                     line,      group};
  return __mc_dev_wave_collective(&request);
}

// A shuffle of `var` of any trivially copyable type: each 8-byte piece
// moves by one shuffle with the same source, so the value arrives whole
// and bit for bit. [api.coop.tile.shfl-types]
template <class T>
inline T Shuffle(const char* group, int operation, unsigned width,
                 unsigned long mask, const T& var, long long operand,
                 const char* file, int line) {
  static_assert(std::is_trivially_copyable<T>::value,
                "group shuffles move trivially copyable values");
  unsigned char bytes[sizeof(T)];
  __builtin_memcpy(bytes, &var, sizeof(T));
  for (unsigned offset = 0; offset < sizeof(T); offset += 8) {
    const unsigned piece = sizeof(T) - offset < 8 ? sizeof(T) - offset : 8;
    unsigned long long bits = 0;
    __builtin_memcpy(&bits, bytes + offset, piece);
    bits = Collective(group, operation, width, piece, mask, bits, operand, file,
                      line);
    __builtin_memcpy(bytes + offset, &bits, piece);
  }
  T result;
  __builtin_memcpy(static_cast<void*>(&result), bytes, sizeof(T));
  return result;
}

// A predicate vote (__MC_WAVE_BALLOT, _ANY, _ALL) over `mask`.
inline unsigned long long Vote(const char* group, int operation,
                               unsigned long mask, int predicate,
                               const char* file, int line) {
  return Collective(group, operation, 0, sizeof(int), mask,
                    predicate != 0 ? 1ull : 0ull, 0, file, line);
}

// A match (__MC_WAVE_MATCH_ANY, _ALL) of `value` (at most 8 bytes) over
// `mask`; values compare by their bits.
template <class T>
inline unsigned long Match(const char* group, int operation, unsigned long mask,
                           const T& value, const char* file, int line) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "group matches compare values of at most 8 bytes");
  return static_cast<unsigned long>(Collective(group, operation, 0, sizeof(T),
                                               mask, __mc_wave::Bits(value), 0,
                                               file, line));
}

// The names diagnostics give a static and a dynamic tile of `size`
// threads, as literals: the engine keeps the pointer.
inline const char* TileName(unsigned size) {
  switch (size) {
    case 1:
      return "thread_block_tile<1>";
    case 2:
      return "thread_block_tile<2>";
    case 4:
      return "thread_block_tile<4>";
    case 8:
      return "thread_block_tile<8>";
    case 16:
      return "thread_block_tile<16>";
    case 32:
      return "thread_block_tile<32>";
    default:
      return "thread_block_tile<64>";
  }
}

inline const char* DynamicTileName(unsigned size) {
  switch (size) {
    case 1:
      return "tiled_partition(1)";
    case 2:
      return "tiled_partition(2)";
    case 4:
      return "tiled_partition(4)";
    case 8:
      return "tiled_partition(8)";
    case 16:
      return "tiled_partition(16)";
    case 32:
      return "tiled_partition(32)";
    default:
      return "tiled_partition(64)";
  }
}

inline constexpr const char* kCoalescedName = "coalesced_group";

// Stops the grid: a partition the spec leaves undefined.
[[noreturn]] inline void BadPartition(const char* what) {
  __mc_dev_trap(mcErrorLaunchFailure, what);
}

}  // namespace __details
}  // namespace cooperative_groups

#endif  // MCR_DETAIL_COOPERATIVE_GROUPS_EXCHANGE_H_
