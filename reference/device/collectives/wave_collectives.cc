// Copyright mxcts authors.
//
// Longer than the project's 600-line guide: arrival, completion, the
// wait-cycle check and the stall report all read and keep the invariants of
// one wave state; kept in one file so those invariants are in one place.
//
// The wave state of a block is created on its first collective: per wave,
// the exited lanes (absent lanes of a partial last wave included), the
// groups under way, the lanes parked at __activemask(), and one record per
// lane with what it brought (value, operand, call site) and its last result.
// A lane is in at most one group, since it parks until the group completes.
//
// Arrival validates the request, finds the wave's group with the same mask
// or starts one, records the lane, parks it, and completes the group if
// every named lane has now arrived or exited; then it yields. Completion
// computes every participant's result from the recorded values and releases
// the participants in lane order. The block scheduler tells us when a lane
// exits (a group waiting for it may now be complete) and when any thread
// parks (__activemask() resolves once every live lane of its wave is parked).
//
// Where the spec leaves a value undefined the reference picks one and says
// so: a shuffle whose source lane does not take part returns the caller's
// own value [lang.wave.shfl.inactive-source-undefined]; an XOR partner
// beyond the wave (a lane mask of 64 or more, or negative) counts as one in
// a later group. A width that is not a
// power of two from 1 to 64 [lang.wave.shfl.width-invalid-undefined] traps,
// so that a program with it learns so.
//
// Tested by wave_collectives_test.cc.

#include "reference/device/collectives/wave_collectives.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/device/collectives/group_names.h"
#include "reference/device/collectives/matrix_operations.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {
namespace {

uint64_t Bit(unsigned lane) { return uint64_t{1} << lane; }

// The lowest lane a mask names; the mask must not be empty.
unsigned LowestLane(uint64_t lanes) {
  return static_cast<unsigned>(__builtin_ctzll(lanes));
}

bool IsShuffle(int operation) {
  return operation >= __MC_WAVE_SHFL_IDX && operation <= __MC_WAVE_SHFL_XOR;
}

bool IsMatch(int operation) {
  return operation == __MC_WAVE_MATCH_ANY || operation == __MC_WAVE_MATCH_ALL;
}

bool SameSite(const WaitSite& a, const WaitSite& b) {
  return a.line == b.line && std::strcmp(a.file, b.file) == 0;
}

bool IsPowerOfTwoWidth(unsigned width) {
  return width >= 1 && width <= kWaveLanes && (width & (width - 1)) == 0;
}

// The lane whose value a shuffle gives `lane`, or `lane` itself when the
// rule of the shuffle says the caller keeps its own value.
unsigned ShuffleSource(int operation, unsigned width, unsigned lane,
                       int64_t operand) {
  const unsigned group_start = lane & ~(width - 1);
  const unsigned position = lane - group_start;
  const uint64_t offset = static_cast<uint64_t>(operand);
  switch (operation) {
    case __MC_WAVE_SHFL_IDX:
      // [lang.wave.shfl.returns-source-lane-value]
      // [lang.wave.shfl.src-lane-modulo-width]
      return group_start + static_cast<unsigned>(offset & (width - 1));
    case __MC_WAVE_SHFL_UP:
      // [lang.wave.shfl-up.returns-lower-lane]
      // [lang.wave.shfl-up.out-of-range-returns-own]
      return operand < 0 || offset > position
                 ? lane
                 : lane - static_cast<unsigned>(offset);
    case __MC_WAVE_SHFL_DOWN:
      // [lang.wave.shfl-down.returns-higher-lane]
      // [lang.wave.shfl-down.out-of-range-returns-own]
      return operand < 0 || position + offset >= width
                 ? lane
                 : lane + static_cast<unsigned>(offset);
    case __MC_WAVE_SHFL_XOR: {
      // [lang.wave.shfl-xor.returns-butterfly-partner]
      // [lang.wave.shfl-xor.later-group-returns-own]
      const uint64_t partner = lane ^ offset;
      return partner >= group_start + width ? lane
                                            : static_cast<unsigned>(partner);
    }
  }
  return lane;
}

// The 32-bit operand of a reduction, as the signed value it stands for.
int32_t AsSigned(uint64_t value) {
  return static_cast<int32_t>(static_cast<uint32_t>(value));
}

uint32_t Reduce(int operation, uint32_t a, uint32_t b) {
  switch (operation) {
    case __MC_WAVE_REDUCE_ADD:
      return a + b;  // modulo 2^32 [lang.wave.reduce.add-result]
    case __MC_WAVE_REDUCE_MIN_SIGNED:
      return AsSigned(a) < AsSigned(b) ? a : b;
    case __MC_WAVE_REDUCE_MIN_UNSIGNED:
      return std::min(a, b);
    case __MC_WAVE_REDUCE_MAX_SIGNED:
      return AsSigned(a) > AsSigned(b) ? a : b;
    case __MC_WAVE_REDUCE_MAX_UNSIGNED:
      return std::max(a, b);
    case __MC_WAVE_REDUCE_AND:
      return a & b;
    case __MC_WAVE_REDUCE_OR:
      return a | b;
    case __MC_WAVE_REDUCE_XOR:
      return a ^ b;
  }
  return a;
}

}  // namespace

std::string FormatLaneMask(uint64_t mask) {
  return absl::StrFormat("0x%016x", mask);
}

std::string FormatLaneList(uint64_t lanes) {
  if (lanes == 0) return "none";
  std::string text;
  unsigned lane = 0;
  while (lane < kWaveLanes) {
    if ((lanes & Bit(lane)) == 0) {
      ++lane;
      continue;
    }
    unsigned last = lane;
    while (last + 1 < kWaveLanes && (lanes & Bit(last + 1)) != 0) ++last;
    if (!text.empty()) text += ',';
    absl::StrAppend(&text, lane);
    if (last > lane) absl::StrAppend(&text, "-", last);
    lane = last + 1;
  }
  return text;
}

namespace {

// The operations' names for diagnostics, indexed by their values: a table
// rather than a switch, since every lane's arrival names its operation.
constexpr const char* kWaveOperationNames[] = {
    nullptr,
    "__syncwave()",
    "__shfl_sync()",
    "__shfl_up_sync()",
    "__shfl_down_sync()",
    "__shfl_xor_sync()",
    "__ballot_sync()",
    "__any_sync()",
    "__all_sync()",
    "__activemask()",
    "__match_any_sync()",
    "__match_all_sync()",
    "__reduce_add_sync()",
    "__reduce_min_sync()",  // signed
    "__reduce_min_sync()",  // unsigned
    "__reduce_max_sync()",  // signed
    "__reduce_max_sync()",  // unsigned
    "__reduce_and_sync()",
    "__reduce_or_sync()",
    "__reduce_xor_sync()",
};
static_assert(sizeof(kWaveOperationNames) / sizeof(kWaveOperationNames[0]) ==
                  __MC_WAVE_REDUCE_XOR + 1,
              "one name per operation, indexed by its value");

}  // namespace

const char* WaveOperationName(int operation) {
  if (operation >= __MC_WAVE_SYNC && operation <= __MC_WAVE_REDUCE_XOR) {
    return kWaveOperationNames[operation];
  }
  if (operation == __MC_WAVE_MATRIX) return "an mxmaca::wmma matrix function";
  return "an invalid wave operation";
}

namespace {

// The operation of a group with what tells it apart from a namesake:
// "__shfl_sync() of width 16 on 4-byte values", "__reduce_min_sync() on int".
std::string DescribeOperation(int operation, unsigned width,
                              unsigned value_bytes,
                              const char* group_name = nullptr) {
  // A group's collective by the group's member function.
  std::string text = group_name != nullptr
                         ? GroupOperationName(group_name, operation)
                         : WaveOperationName(operation);
  if (IsShuffle(operation)) {
    absl::StrAppend(&text, " of width ", width);
  }
  if (IsShuffle(operation) || IsMatch(operation)) {
    absl::StrAppend(&text, " on ", value_bytes, "-byte values");
  }
  if (operation == __MC_WAVE_REDUCE_MIN_SIGNED ||
      operation == __MC_WAVE_REDUCE_MAX_SIGNED) {
    text += " on int";
  } else if (operation == __MC_WAVE_REDUCE_MIN_UNSIGNED ||
             operation == __MC_WAVE_REDUCE_MAX_UNSIGNED) {
    text += " on unsigned int";
  }
  return text;
}

}  // namespace

std::string WaveCollectives::DescribeMask(const Group& group) {
  if (group.group_name != nullptr) {
    // [api.coop.group.collective-needs-all-members] The group by its lanes.
    return absl::StrFormat("%s (%s lanes %s)", FormatLaneMask(group.mask),
                           group.group_name, FormatLaneList(group.mask));
  }
  if ((group.flags & __MC_WAVE_FLAG_HALVES) == 0) {
    return FormatLaneMask(group.mask);
  }
  return absl::StrFormat("%s (a 32-bit mask, for the lanes of its half)",
                         FormatLaneMask(group.mask));
}

WaveCollectives::WaveCollectives(BlockScheduler* block) : block_(block) {}

WaveCollectives::~WaveCollectives() {
  // Only CreateWaves made this the block's observer, and it made waves.
  if (!waves_.empty()) block_->SetObserver(nullptr);
}

std::string WaveCollectives::ThreadName(unsigned thread) const {
  return "thread " + FormatIndex(block_->ThreadIndex(thread));
}

void WaveCollectives::CreateWaves() {
  // From the block's first collective on, the waves hear of every park and
  // exit; the scheduler records exits from then on, so the exits so far
  // read below are known.
  block_->SetObserver(this);
  block_->ObserveParks(false);
  const unsigned threads = block_->thread_count();
  // [lang.wave.formation.consecutive-linear-ids]
  // [lang.wave.formation.partial-last-wave]
  waves_.resize((threads + kWaveLanes - 1) / kWaveLanes);
  for (unsigned w = 0; w < waves_.size(); ++w) {
    WaveState& wave = waves_[w];
    wave.first_thread = w * kWaveLanes;
    wave.lane_count = std::min(kWaveLanes, threads - wave.first_thread);
    // [lang.sync.syncwave.absent-lanes-count-as-exited]
    wave.exited =
        wave.lane_count == kWaveLanes ? 0 : ~uint64_t{0} << wave.lane_count;
    for (unsigned lane = 0; lane < wave.lane_count; ++lane) {
      if (block_->HasExited(wave.first_thread + lane)) wave.exited |= Bit(lane);
    }
  }
}

unsigned long long WaveCollectives::Arrive(const __mc_wave_request& request) {
  const int operation = request.operation;
  const bool valid_operation =
      (operation >= __MC_WAVE_SYNC && operation <= __MC_WAVE_REDUCE_XOR) ||
      operation == __MC_WAVE_MATRIX;
  const char* what;
  if (operation == __MC_WAVE_MATRIX) {
    what = MatrixFunctionName(
        reinterpret_cast<const __mc_matrix_request*>(request.value));
  } else if (request.group != nullptr && valid_operation) {
    what = GroupOperationName(request.group, operation);
  } else if (valid_operation) {
    what = kWaveOperationNames[operation];
  } else {
    what = WaveOperationName(operation);
  }
  const char* const file = request.file != nullptr ? request.file : "<unknown>";
  if (!valid_operation) {
    TrapInvalidOperation(operation, WaitSite{what, file, request.line});
  }
  EnsureWaves();
  const unsigned self = block_->current_thread();
  WaveState& wave = WaveOf(self);
  // [lang.wave.formation.lane-is-linear-id-mod-64]
  const unsigned lane = self % kWaveLanes;
  // The lane's call site is written once, into its record, where the
  // diagnostics of other lanes read it and the scheduler keeps its address
  // while the lane is parked; the lane is running, so the record is free.
  LaneRecord& record = wave.lanes[lane];
  record.site.operation = what;
  record.site.file = file;
  record.site.line = request.line;
  const WaitSite& site = record.site;
  if (operation == __MC_WAVE_ACTIVEMASK) {
    return ArriveAtActiveMask(wave, lane, site);
  }

  unsigned width = 0;  // shuffles only
  if (IsShuffle(operation)) {
    if (!IsPowerOfTwoWidth(request.width)) {
      TrapInvalidWidth(site, request.width);
    }
    width = request.width;
  }
  const unsigned value_bytes =
      request.value_bytes >= 1 && request.value_bytes <= 8 ? request.value_bytes
                                                           : 8;
  // [lang.wave.reduce.mask-32-half-wave] Bit i names lane 32*h + i.
  const uint64_t mask = (request.flags & __MC_WAVE_FLAG_HALVES) != 0
                            ? (request.mask & 0xffffffffu) << (32 * (lane / 32))
                            : request.mask;
  const unsigned compared_bytes =
      IsShuffle(operation) || IsMatch(operation) ? value_bytes : 0;
  const Group group{
      mask,           operation,     width,
      compared_bytes, request.flags,
      /*arrived=*/0,  request.group, ShapeKey(operation, width, compared_bytes),
  };
  if ((group.mask & Bit(lane)) == 0) {
    TrapLaneNotNamed(wave, lane, group, site);
  }
  // The lanes of one mask form one group: the lane joins the pending group
  // of its mask, which must be the same collective, or starts one.
  const size_t pending = wave.groups.size();
  size_t index = 0;
  while (index < pending && wave.groups[index].mask != group.mask) ++index;
  if (index < pending && wave.groups[index].shape_key != group.shape_key) {
    TrapDifferentCollectives(wave, lane, group, wave.groups[index], site);
  }
  if (group.group_name != nullptr && (group.mask & wave.exited) != 0) {
    TrapGroupMembersExited(wave, group, site);
  }
  if (index == pending) wave.groups.push_back(group);
  wave.groups[index].arrived |= Bit(lane);
  // A cycle needs two groups at least: a group never waits for itself, and
  // the lanes of one mask form one group.
  if (wave.groups.size() >= 2) CheckForWaitCycle(wave, lane, index, site);
  record.value = value_bytes == 8
                     ? request.value
                     : request.value & ((uint64_t{1} << (8 * value_bytes)) - 1);
  record.operand = request.operand;
  block_->ParkCurrent(site);
  // [lang.wave.mask.waits-for-named-lanes] Parking may have resolved an
  // __activemask() of the wave but leaves the groups as they were.
  CompleteIfReady(wave, index);
  block_->Yield();
  return wave.lanes[lane].result;
}

// The traps of Arrive are out of line, so that Arrive's frame, which every
// waiting lane keeps on its stack and reads back when resumed, stays small.
void WaveCollectives::TrapInvalidOperation(int operation,
                                           const WaitSite& site) {
  Trap(mcErrorLaunchFailure,
       absl::StrFormat("invalid wave operation %d at %s:%d", operation,
                       site.file, site.line));
}

void WaveCollectives::TrapInvalidWidth(const WaitSite& site, unsigned width) {
  // [lang.wave.shfl.width-invalid-undefined]
  Trap(mcErrorLaunchFailure,
       absl::StrFormat("%s at %s:%d with width %u: the width must be a power "
                       "of two from 1 to 64",
                       site.operation, site.file, site.line, width));
}

void WaveCollectives::TrapGroupMembersExited(const WaveState& wave,
                                             const Group& group,
                                             const WaitSite& site) {
  // [api.coop.group.collective-needs-all-members] Members of a group that
  // have exited can never arrive.
  Trap(mcErrorLaunchFailure,
       absl::StrFormat("%s at %s:%d of wave %u, mask %s: lanes %s of the "
                       "group have exited without reaching it",
                       site.operation, site.file, site.line,
                       wave.first_thread / kWaveLanes, DescribeMask(group),
                       FormatLaneList(group.mask & wave.exited)));
}

void WaveCollectives::TrapLaneNotNamed(const WaveState& wave, unsigned lane,
                                       const Group& group,
                                       const WaitSite& site) {
  // [lang.wave.mask.caller-not-in-mask-undefined]
  // [lang.sync.syncwave.caller-not-in-mask-undefined]
  // [lang.wave.legacy32.full-mask-names-half]
  const bool legacy_full_mask = (group.flags & __MC_WAVE_FLAG_HALVES) == 0 &&
                                group.mask == 0xffffffffu && lane >= 32;
  Trap(mcErrorLaunchFailure,
       absl::StrFormat(
           "lane %u of wave %u called %s at %s:%d with mask %s, which does "
           "not name it%s",
           lane, wave.first_thread / kWaveLanes, site.operation, site.file,
           site.line, DescribeMask(group),
           legacy_full_mask ? " (0xffffffff names lanes 0 to 31 "
                              "only; a wave has 64 lanes)"
                            : ""));
}

void WaveCollectives::TrapDifferentCollectives(const WaveState& wave,
                                               unsigned lane,
                                               const Group& group,
                                               const Group& other,
                                               const WaitSite& site) const {
  // The waiting lanes need this lane at their collective, and this lane's
  // collective needs them: neither can complete.
  // [lang.wave.mask.different-collectives-undefined]
  // [lang.wave.mask.named-lane-not-participating-undefined]
  const unsigned first = LowestLane(other.arrived);
  const WaitSite& other_site = wave.lanes[first].site;
  Trap(mcErrorLaunchFailure,
       absl::StrFormat(
           "lanes of wave %u meet at different wave collectives with mask "
           "%s: lane %u called %s at %s:%d, while lanes %s wait in %s at "
           "%s:%d (the first: %s)",
           wave.first_thread / kWaveLanes, DescribeMask(group), lane,
           DescribeOperation(group.operation, group.width, group.value_bytes,
                             group.group_name),
           site.file, site.line, FormatLaneList(other.arrived),
           DescribeOperation(other.operation, other.width, other.value_bytes,
                             other.group_name),
           other_site.file, other_site.line,
           ThreadName(wave.first_thread + first)));
}

namespace {

// Whether a group that waits for a lane parked in wave.groups[target] can
// be reached from wave.groups[from] by following "waits for a lane parked
// in" edges; `path` gets the groups in between.
bool ReachesWaitCycle(const std::vector<uint64_t>& missing,
                      const std::vector<uint64_t>& arrived, size_t from,
                      size_t target, std::vector<bool>& visited,
                      std::vector<size_t>& path) {
  for (size_t next = 0; next < arrived.size(); ++next) {
    if (next == from || (missing[from] & arrived[next]) == 0) continue;
    if (next == target) return true;
    if (visited[next]) continue;
    visited[next] = true;
    path.push_back(next);
    if (ReachesWaitCycle(missing, arrived, next, target, visited, path)) {
      return true;
    }
    path.pop_back();
  }
  return false;
}

}  // namespace

void WaveCollectives::CheckForWaitCycle(const WaveState& wave, unsigned lane,
                                        size_t joined, const WaitSite& site) {
  // Groups of one wave wait for each other when a lane one group still
  // needs is parked in another. The arrival of `lane` added the only new
  // edges, into and out of its group; a cycle through that group can never
  // complete, since parked lanes neither leave nor exit.
  // [lang.wave.mask.differing-masks-undefined]
  // [lang.sync.syncwave.inconsistent-masks-undefined]
  // A cycle needs two groups at least: a group never waits for itself
  // (ReachesWaitCycle skips it), and the lanes of one mask form one group.
  if (wave.groups.size() < 2) return;
  std::vector<uint64_t> missing, arrived;
  for (const Group& group : wave.groups) {
    missing.push_back(group.mask & ~group.arrived & ~wave.exited);
    arrived.push_back(group.arrived);
  }
  std::vector<bool> visited(wave.groups.size(), false);
  std::vector<size_t> path;
  visited[joined] = true;
  if (!ReachesWaitCycle(missing, arrived, joined, joined, visited, path)) {
    return;
  }
  const Group& group = wave.groups[joined];
  std::string others;
  for (size_t index : path) {
    const Group& other = wave.groups[index];
    const unsigned first = LowestLane(other.arrived);
    const WaitSite& other_site = wave.lanes[first].site;
    absl::StrAppendFormat(
        &others, "%slanes %s wait in %s with mask %s at %s:%d (the first: %s)",
        others.empty() ? "" : "; ", FormatLaneList(other.arrived),
        WaveOperationName(other.operation), DescribeMask(other),
        other_site.file, other_site.line,
        ThreadName(wave.first_thread + first));
  }
  Trap(mcErrorLaunchFailure,
       absl::StrFormat("lanes of wave %u wait for each other in wave "
                       "collectives with overlapping but different masks: "
                       "lane %u called %s with mask %s at %s:%d, while %s",
                       wave.first_thread / kWaveLanes, lane, site.operation,
                       DescribeMask(group), site.file, site.line, others));
}

void WaveCollectives::Complete(WaveState& wave, size_t group_index) {
  const Group group = wave.groups[group_index];
  wave.groups.erase(wave.groups.begin() +
                    static_cast<std::ptrdiff_t>(group_index));
  ComputeResults(wave, group);
  block_->MakeReadyInOrder(wave.first_thread, group.arrived);
  ++completed_groups_;
}

template <int kOperation>
void WaveCollectives::ShuffleResults(WaveState& wave, const Group& group) {
  // Sources read the values recorded at arrival, never a result: every
  // source is read before any result is written.
  const uint64_t participants = group.arrived;
  uint64_t results[kWaveLanes];
  if (participants == ~uint64_t{0}) {
    // The whole wave (the common case): every source takes part.
    for (unsigned lane = 0; lane < kWaveLanes; ++lane) {
      const unsigned source = ShuffleSource(kOperation, group.width, lane,
                                            wave.lanes[lane].operand);
      results[lane] = wave.lanes[source].value;
    }
    for (unsigned lane = 0; lane < kWaveLanes; ++lane) {
      wave.lanes[lane].result = results[lane];
    }
    return;
  }
  for (uint64_t lanes = participants; lanes != 0; lanes &= lanes - 1) {
    const unsigned lane = LowestLane(lanes);
    const unsigned source =
        ShuffleSource(kOperation, group.width, lane, wave.lanes[lane].operand);
    // [lang.wave.shfl.inactive-source-undefined]: own value.
    results[lane] = (participants & Bit(source)) != 0 ? wave.lanes[source].value
                                                      : wave.lanes[lane].value;
  }
  for (uint64_t lanes = participants; lanes != 0; lanes &= lanes - 1) {
    const unsigned lane = LowestLane(lanes);
    wave.lanes[lane].result = results[lane];
  }
}

void WaveCollectives::ComputeResults(WaveState& wave, const Group& group) {
  const uint64_t participants = group.arrived;
  auto each = [participants](auto&& body) {
    for (uint64_t lanes = participants; lanes != 0; lanes &= lanes - 1) {
      body(LowestLane(lanes));
    }
  };
  // The lanes with a nonzero predicate, for the votes.
  auto nonzero_lanes = [&] {
    uint64_t nonzero = 0;
    each([&](unsigned lane) {
      if (wave.lanes[lane].value != 0) nonzero |= Bit(lane);
    });
    return nonzero;
  };
  const int operation = group.operation;
  switch (operation) {
    case __MC_WAVE_SYNC:
      each([&](unsigned lane) { wave.lanes[lane].result = 0; });
      return;
    case __MC_WAVE_MATRIX: {
      // The lanes' values are the addresses of their matrix requests.
      MatrixWaveCall call;
      call.block = block_;
      call.wave_index = wave.first_thread / kWaveLanes;
      call.first_thread = wave.first_thread;
      call.lane_count = wave.lane_count;
      call.arrived = participants;
      each([&](unsigned lane) {
        call.requests[lane] = reinterpret_cast<const __mc_matrix_request*>(
            wave.lanes[lane].value);
        call.sites[lane] = wave.lanes[lane].site;
        wave.lanes[lane].result = 0;
      });
      PerformMatrixOperation(call);
      return;
    }
    case __MC_WAVE_SHFL_IDX:
      ShuffleResults<__MC_WAVE_SHFL_IDX>(wave, group);
      return;
    case __MC_WAVE_SHFL_UP:
      ShuffleResults<__MC_WAVE_SHFL_UP>(wave, group);
      return;
    case __MC_WAVE_SHFL_DOWN:
      ShuffleResults<__MC_WAVE_SHFL_DOWN>(wave, group);
      return;
    case __MC_WAVE_SHFL_XOR:
      ShuffleResults<__MC_WAVE_SHFL_XOR>(wave, group);
      return;
    case __MC_WAVE_BALLOT: {
      // [lang.wave.ballot.returns-64-bit-mask]
      // [lang.wave.ballot.unnamed-lanes-are-zero]
      // [lang.wave.ballot.same-result-for-participants]
      const uint64_t nonzero = nonzero_lanes();
      each([&](unsigned lane) { wave.lanes[lane].result = nonzero; });
      return;
    }
    case __MC_WAVE_ANY: {
      // [lang.wave.any.result]
      const bool any = nonzero_lanes() != 0;
      each([&](unsigned lane) { wave.lanes[lane].result = any; });
      return;
    }
    case __MC_WAVE_ALL: {
      // [lang.wave.all.result]
      const bool all = nonzero_lanes() == participants;
      each([&](unsigned lane) { wave.lanes[lane].result = all; });
      return;
    }
    case __MC_WAVE_MATCH_ANY:
      // [lang.wave.match-any.returns-equal-value-lanes]
      each([&](unsigned lane) {
        uint64_t equal = 0;
        each([&](unsigned other) {
          if (wave.lanes[other].value == wave.lanes[lane].value) {
            equal |= Bit(other);
          }
        });
        wave.lanes[lane].result = equal;
      });
      return;
    case __MC_WAVE_MATCH_ALL: {
      // [lang.wave.match-all.uniform-returns-mask]
      // [lang.wave.match-all.differing-returns-zero]
      const uint64_t first_value = wave.lanes[LowestLane(participants)].value;
      bool uniform = true;
      each([&](unsigned lane) {
        uniform = uniform && wave.lanes[lane].value == first_value;
      });
      each([&](unsigned lane) {
        wave.lanes[lane].result = uniform ? group.mask : 0;
      });
      return;
    }
    default: {
      // Reductions. [lang.wave.reduce.same-result-for-participants]
      // [lang.wave.reduce.mask-64-whole-wave]
      const unsigned first = LowestLane(participants);
      uint32_t combined = static_cast<uint32_t>(wave.lanes[first].value);
      each([&](unsigned lane) {
        if (lane != first) {
          combined = Reduce(operation, combined,
                            static_cast<uint32_t>(wave.lanes[lane].value));
        }
      });
      each([&](unsigned lane) { wave.lanes[lane].result = combined; });
      return;
    }
  }
}

unsigned long long WaveCollectives::ArriveAtActiveMask(WaveState& wave,
                                                       unsigned lane,
                                                       const WaitSite& site) {
  LaneRecord& record = wave.lanes[lane];
  if (wave.at_activemask == 0 && waves_at_activemask_++ == 0) {
    block_->ObserveParks(true);
  }
  wave.at_activemask |= Bit(lane);
  // Parking tells OnThreadParked, which resolves the wave's waiters once
  // every live lane is parked (this one may be the last).
  block_->ParkCurrent(site);
  block_->Yield();
  return record.result;
}

void WaveCollectives::ResolveActiveMaskIfSettled(WaveState& wave) {
  if (wave.at_activemask == 0) return;
  for (unsigned lane = 0; lane < wave.lane_count; ++lane) {
    if ((wave.exited & Bit(lane)) != 0) continue;
    if (!block_->IsWaiting(wave.first_thread + lane)) return;
  }
  // [lang.wave.activemask.returns-active-lanes]
  // [lang.wave.activemask.not-a-barrier] The lanes reported together are
  // those parked at the same __activemask() call site.
  const uint64_t waiting = wave.at_activemask;
  wave.at_activemask = 0;
  if (--waves_at_activemask_ == 0) block_->ObserveParks(false);
  for (uint64_t lanes = waiting; lanes != 0; lanes &= lanes - 1) {
    const unsigned lane = LowestLane(lanes);
    uint64_t together = 0;
    for (uint64_t others = waiting; others != 0; others &= others - 1) {
      const unsigned other = LowestLane(others);
      if (SameSite(wave.lanes[other].site, wave.lanes[lane].site)) {
        together |= Bit(other);
      }
    }
    wave.lanes[lane].result = together;
    block_->MakeReady(wave.first_thread + lane);
  }
  ++completed_groups_;
}

void WaveCollectives::OnThreadParked(unsigned thread) {
  if (waves_.empty()) return;
  WaveState& wave = WaveOf(thread);
  if (wave.at_activemask != 0) ResolveActiveMaskIfSettled(wave);
}

void WaveCollectives::OnThreadExited(unsigned thread) {
  if (waves_.empty()) return;
  WaveState& wave = WaveOf(thread);
  const uint64_t bit = Bit(thread % kWaveLanes);
  wave.exited |= bit;
  for (const Group& group : wave.groups) {
    if (group.group_name == nullptr || (group.mask & bit) == 0) continue;
    // [api.coop.group.collective-needs-all-members] A member of a group
    // exits while other members wait for it in a collective of the group.
    const unsigned first = LowestLane(group.arrived);
    const WaitSite& other_site = wave.lanes[first].site;
    Trap(mcErrorLaunchFailure,
         absl::StrFormat("lane %u of wave %u exited without reaching %s at "
                         "%s:%d, where lanes %s of its group (mask %s) wait "
                         "for it",
                         thread % kWaveLanes, wave.first_thread / kWaveLanes,
                         other_site.operation, other_site.file, other_site.line,
                         FormatLaneList(group.arrived), DescribeMask(group)));
  }
  // [lang.sync.syncwave.exited-lanes-not-awaited] Groups that waited for
  // this lane may be complete now.
  size_t index = 0;
  while (index < wave.groups.size()) {
    if ((wave.groups[index].mask & bit) != 0 && CompleteIfReady(wave, index)) {
      continue;
    }
    ++index;
  }
  if (wave.at_activemask != 0) ResolveActiveMaskIfSettled(wave);
}

std::string WaveCollectives::DescribeStall() {
  constexpr int kMostDescribed = 3;
  std::string text;
  int described = 0;
  int pending = 0;
  for (const WaveState& wave : waves_) {
    for (const Group& group : wave.groups) {
      ++pending;
      if (described == kMostDescribed) continue;
      ++described;
      const unsigned first = LowestLane(group.arrived);
      const WaitSite& site = wave.lanes[first].site;
      if (!text.empty()) text += "; ";
      absl::StrAppendFormat(
          &text, "wave %u: lanes %s wait in %s with mask %s at %s:%d",
          wave.first_thread / kWaveLanes, FormatLaneList(group.arrived),
          site.operation, FormatLaneMask(group.mask), site.file, site.line);
      const uint64_t missing = group.mask & ~group.arrived & ~wave.exited;
      if (missing == 0) continue;
      const unsigned missing_thread = wave.first_thread + LowestLane(missing);
      absl::StrAppendFormat(&text, " for lanes %s, which have not arrived",
                            FormatLaneList(missing));
      const WaitSite* elsewhere = block_->WaitSiteOf(missing_thread);
      if (elsewhere != nullptr) {
        absl::StrAppendFormat(&text, " (%s waits in %s at %s:%d)",
                              ThreadName(missing_thread), elsewhere->operation,
                              elsewhere->file, elsewhere->line);
      }
    }
  }
  if (pending > described) {
    absl::StrAppendFormat(&text, "; and %d more wave groups wait",
                          pending - described);
  }
  return text;
}

}  // namespace mxcts::device_internal

namespace {

// __mc_dev_wave_collective's misuse, out of line: a call with a string in
// its frame gets a stack protector, and every wave collective would pay
// for it.
[[noreturn]] __attribute__((noinline, cold)) void DieWaveCollectiveMisuse(
    const mxcts::device_internal::ActiveGrid* grid,
    const __mc_wave_request* request) {
  using namespace mxcts::device_internal;
  if (grid == nullptr || grid->waves == nullptr) {
    DieOutsideGrid(request != nullptr ? WaveOperationName(request->operation)
                                      : "a wave collective",
                   request != nullptr ? request->file : nullptr,
                   request != nullptr ? request->line : 0);
  }
  Trap(mcErrorLaunchFailure, "a wave collective without a request");
}

}  // namespace

extern "C" unsigned long long __mc_dev_wave_collective(
    const __mc_wave_request* request) {
  using namespace mxcts::device_internal;
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->waves == nullptr || request == nullptr) {
    DieWaveCollectiveMisuse(grid, request);
  }
  return grid->waves->Arrive(*request);
}
