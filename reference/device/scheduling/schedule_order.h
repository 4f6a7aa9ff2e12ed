// Copyright mxcts authors.
//
// reference/device/scheduling/schedule_order.h: the order in which the engine
// runs blocks and threads.
//
// The default order is linear: blocks in linear block order, the threads of
// a block in linear order, threads released by a collective in linear
// order. A program whose result depends on that order has a race (or relies
// on an order the language does not promise), and the seeded shuffle order
// exposes it: it permutes the order of the blocks of each grid, the order in
// which the waves of a block start, and the order in which the waves whose
// threads a barrier releases resume (the threads of one wave keep their
// lane order, so device printf output of a wave stays in lane order). The
// environment variable MXCTS_ENGINE_ORDER selects it:
//
//   MXCTS_ENGINE_ORDER=linear          (the default)
//   MXCTS_ENGINE_ORDER=shuffle:<seed>  (seed: a decimal 64-bit number)
//
// The permutations come from the seed and the grid's sequence number in the
// process, so a program run twice with the same seed runs its grids in the
// same orders. Every trap diagnostic names the order, so a failure seen in
// shuffle mode can be reproduced.
//
//   ScheduleOrder order = ScheduleOrder::Shuffle(42, /*grid_sequence=*/0);
//   std::vector<unsigned> blocks = order.Permutation(block_count);

#ifndef REFERENCE_DEVICE_SCHEDULING_SCHEDULE_ORDER_H_
#define REFERENCE_DEVICE_SCHEDULING_SCHEDULE_ORDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "reference/device/scheduling/splitmix64.h"

namespace mxcts::device_internal {

// Threads per wave. [lang.wave.formation.wave-size-is-64]
inline constexpr unsigned kWaveSize = 64;

class ScheduleOrder {
 public:
  // The linear order.
  static ScheduleOrder Linear() { return ScheduleOrder(false, 0, 0); }
  // The shuffle order of `seed` for the grid with sequence number
  // `grid_sequence` (0 for the process's first grid).
  static ScheduleOrder Shuffle(uint64_t seed, uint64_t grid_sequence) {
    return ScheduleOrder(true, seed, grid_sequence);
  }

  bool shuffled() const { return shuffled_; }
  uint64_t seed() const { return seed_; }

  // "linear" or "shuffle:<seed>": the MXCTS_ENGINE_ORDER value that
  // selects this order.
  std::string Describe() const;

  // The order in which to visit `count` items (block linear ids): 0..count-1
  // in the linear order, a permutation of them in the shuffle order.
  std::vector<unsigned> Permutation(unsigned count);

  // The order in which the `thread_count` threads of a block start: waves
  // (64 consecutive linear ids) in permuted order, each wave's threads in
  // lane order. Empty in the linear order (meaning 0..thread_count-1).
  std::vector<unsigned> ThreadStartOrder(unsigned thread_count);

  // Reorders `threads` (linear ids in increasing order, released together
  // by a collective): a random interleaving of the waves' runs that keeps
  // each wave's threads in lane order. Leaves them as they are in the linear
  // order.
  void ReleaseOrder(std::vector<unsigned>* threads);

 private:
  ScheduleOrder(bool shuffled, uint64_t seed, uint64_t grid_sequence);

  // A pseudo-random number in [0, bound); bound > 0.
  uint64_t Below(uint64_t bound);

  bool shuffled_;
  uint64_t seed_;
  SplitMix64 random_;
};

// Parses an MXCTS_ENGINE_ORDER value ("linear", "shuffle:<seed>").
absl::StatusOr<ScheduleOrder> ParseScheduleOrder(std::string_view text,
                                                 uint64_t grid_sequence);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SCHEDULING_SCHEDULE_ORDER_H_
