// Copyright mxcts authors.
//
// reference/device/collectives/wave_collectives.h: the wave collectives of one
// block:
// __syncwave, shuffles, votes, matches, reductions and __activemask.
//
// A wave is 64 consecutive linear thread ids of the block; the last wave may
// be partial, and its absent lanes count as exited. Each collective call is
// one lane's arrival at a rendezvous (a group) of the lanes its mask names;
// groups are keyed by wave and mask. The lane parks until every named lane
// that has not exited has arrived, then every participant gets its result
// and the group's lanes are released in lane order. A lane that exits while
// a group waits for it completes the group without it.
//
// Misuse traps (mcErrorLaunchFailure), naming operations, masks, lanes and
// the call sites of both sides:
//   - a lane whose mask does not name it;
//   - lanes with one mask at different collectives (or a shuffle at another
//     width, or values of another size);
//   - groups with overlapping but different masks that wait for each other:
//     one still needs a lane parked in the other, and the other (directly or
//     through further groups) a lane parked in the first. Overlapping masks
//     alone are no error: lanes that have gone on to a later collective wait
//     there while others finish an earlier one;
//   - a shuffle width that is not a power of two from 1 to 64.
// A named lane that waits elsewhere for good (at a block barrier) leaves the
// block stuck; the block scheduler's stall report then includes what
// DescribeStall says about the groups and the lanes they wait for.
//
// A matrix function of mxmaca::wmma (__MC_WAVE_MATRIX) is a group of the
// full mask like any other; when it completes, matrix_operations.h checks
// and performs the call for the whole wave, or traps.
//
// __activemask() waits until every lane of its wave that has not exited is
// parked somewhere (here, at a block barrier, anywhere); the lanes parked at
// one __activemask call site then get the set of those lanes.
//
//   BlockScheduler block(launch, index, &stacks);
//   WaveCollectives waves(&block);   // observes `block` from now on
//   // on a device thread of `block`:
//   unsigned long long result = waves.Arrive(request);

#ifndef REFERENCE_DEVICE_COLLECTIVES_WAVE_COLLECTIVES_H_
#define REFERENCE_DEVICE_COLLECTIVES_WAVE_COLLECTIVES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "mcr/detail/device_abi.h"
#include "reference/device/scheduling/block_scheduler.h"

namespace mxcts::device_internal {

// The number of lanes of a wave. [lang.wave.formation.wave-size-is-64]
inline constexpr unsigned kWaveLanes = 64;

class WaveCollectives : public ThreadEventObserver {
 public:
  // The wave collectives of the block that `block` runs; observes `block`'s
  // threads until destroyed. `block` must outlive it.
  explicit WaveCollectives(BlockScheduler* block);
  ~WaveCollectives() override;

  WaveCollectives(const WaveCollectives&) = delete;
  WaveCollectives& operator=(const WaveCollectives&) = delete;

  // The current thread arrives with `request` (mcr/detail/device_abi.h).
  // Returns, once its group has completed, this lane's result: 0 for
  // __MC_WAVE_SYNC; the source lane's value bits for shuffles (the caller's
  // own when the source lies outside the caller's width group per the
  // shuffle's rule, or does not take part); a 64-bit lane mask for ballot,
  // match and activemask; 1 or 0 for any and all; the 32-bit result bits,
  // zero-extended, for reductions; 0 for a matrix function. Traps on misuse
  // (see above); never returns then.
  unsigned long long Arrive(const __mc_wave_request& request);

  // ThreadEventObserver: the block scheduler reports every park and exit.
  void OnThreadParked(unsigned thread) override;
  void OnThreadExited(unsigned thread) override;
  // One line per pending group (at most a few), naming its lanes, mask,
  // call site and the first lane it still waits for with that lane's wait;
  // empty when no group waits.
  std::string DescribeStall() override;

  // How many groups (activemask resolutions included) have completed; tests
  // count them.
  unsigned long completed_groups() const { return completed_groups_; }

 private:
  // What one lane brought to the group it waits in.
  struct LaneRecord {
    uint64_t value = 0;
    int64_t operand = 0;
    WaitSite site;
    uint64_t result = 0;  // of the last group the lane took part in
  };

  // The lanes waiting for one (wave, mask) rendezvous.
  struct Group {
    uint64_t mask = 0;  // the named lanes (32-bit masks shifted to their half)
    int operation = 0;
    unsigned width = 0;        // shuffles only; else 0
    unsigned value_bytes = 0;  // shuffles and matches only; else 0
    unsigned flags = 0;        // of the first arrival, for messages
    uint64_t arrived = 0;
    // The cooperative group calling (a literal from the request), or null
    // for a wave intrinsic: then every named lane must arrive.
    const char* group_name = nullptr;
    // operation, width and value_bytes in one word (ShapeKey), which an
    // arrival compares with the waiting groups': comparing the fields of a
    // group just written one by one made the compiler load two of them at
    // once, which the processor cannot forward from the two stores.
    uint64_t shape_key = 0;
  };
  static uint64_t ShapeKey(int operation, unsigned width,
                           unsigned value_bytes) {
    return uint64_t{static_cast<uint32_t>(operation)} |
           uint64_t{width & 0xffffu} << 32 |
           uint64_t{value_bytes & 0xffffu} << 48;
  }

  struct WaveState {
    unsigned first_thread = 0;  // linear id of lane 0
    unsigned lane_count = 0;    // 64, or fewer in a partial last wave
    uint64_t exited = 0;        // exited lanes and absent ones
    uint64_t at_activemask = 0;
    std::vector<Group> groups;  // pending
    LaneRecord lanes[kWaveLanes];
  };

  // Creates the per-wave state on the block's first collective.
  void EnsureWaves() {
    if (waves_.empty()) CreateWaves();
  }
  void CreateWaves();
  WaveState& WaveOf(unsigned thread) { return waves_[thread / kWaveLanes]; }
  unsigned long long ArriveAtActiveMask(WaveState& wave, unsigned lane,
                                        const WaitSite& site);
  // Whether every lane that `group` names has arrived or exited.
  // [lang.wave.mask.waits-for-named-lanes]
  // [lang.sync.syncwave.exited-lanes-not-awaited]
  static bool IsComplete(const WaveState& wave, const Group& group) {
    return ((group.arrived | wave.exited) & group.mask) == group.mask;
  }
  // Releases `group` (an element of wave.groups) if IsComplete; returns
  // whether it did (the group is then erased).
  bool CompleteIfReady(WaveState& wave, size_t group_index) {
    if (!IsComplete(wave, wave.groups[group_index])) return false;
    Complete(wave, group_index);
    return true;
  }
  // Releases the complete `group` and erases it. Out of line: one lane in
  // 64 of a whole wave's collective completes it.
  __attribute__((noinline)) void Complete(WaveState& wave, size_t group_index);
  // Gives each participant its result.
  void ComputeResults(WaveState& wave, const Group& group);
  // ComputeResults for one shuffle operation, with the rule chosen once
  // for the group rather than for each lane.
  template <int kOperation>
  void ShuffleResults(WaveState& wave, const Group& group);
  // Resolves the wave's __activemask() waiters if every lane of the wave
  // that has not exited is parked.
  void ResolveActiveMaskIfSettled(WaveState& wave);
  // Traps for an operation number that is none of __mc_wave_operation's,
  // a shuffle width that is not a power of two from 1 to 64, and a group
  // collective whose members have exited.
  [[noreturn]] __attribute__((noinline, cold)) static void TrapInvalidOperation(
      int operation, const WaitSite& site);
  [[noreturn]] __attribute__((noinline, cold)) static void TrapInvalidWidth(
      const WaitSite& site, unsigned width);
  [[noreturn]] __attribute__((noinline, cold)) static void
  TrapGroupMembersExited(const WaveState& wave, const Group& group,
                         const WaitSite& site);
  // Traps of an arrival: `lane` arrives with `group` (not yet joined)
  // outside its own mask, or at another collective than `other`, the group
  // of lanes already waiting with the same mask.
  [[noreturn]] __attribute__((noinline, cold)) static void TrapLaneNotNamed(
      const WaveState& wave, unsigned lane, const Group& group,
      const WaitSite& site);
  [[noreturn]] __attribute__((noinline, cold)) void TrapDifferentCollectives(
      const WaveState& wave, unsigned lane, const Group& group,
      const Group& other, const WaitSite& site) const;
  // Traps if the group wave.groups[joined], which `lane` has just joined,
  // now waits, through lanes parked in other groups of the wave, for
  // itself: overlapping but different masks that can never complete.
  void CheckForWaitCycle(const WaveState& wave, unsigned lane, size_t joined,
                         const WaitSite& site);
  // The group's mask for diagnostics, saying when it came as 32 bits.
  static std::string DescribeMask(const Group& group);
  // "thread (x,y,z)" of the thread with linear id `thread`.
  std::string ThreadName(unsigned thread) const;

  BlockScheduler* const block_;
  std::vector<WaveState> waves_;  // empty until the first collective
  // How many waves have lanes at __activemask(): only then does a park
  // concern the waves (BlockScheduler::ObserveParks).
  unsigned waves_at_activemask_ = 0;
  unsigned long completed_groups_ = 0;
};

// "0x00000000ffffffff": a lane mask as the diagnostics write it.
std::string FormatLaneMask(uint64_t mask);

// "0-31,40,42-43": the lanes a mask names, as ranges; "none" when empty.
std::string FormatLaneList(uint64_t lanes);

// "__shfl_sync()" and so on: the name of a wave operation for diagnostics,
// or "an invalid wave operation".
const char* WaveOperationName(int operation);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_COLLECTIVES_WAVE_COLLECTIVES_H_
