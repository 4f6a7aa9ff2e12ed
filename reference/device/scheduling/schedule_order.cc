// Copyright mxcts authors.
//
// The permutations are Fisher-Yates shuffles driven by splitmix64, written
// out here rather than taken from <random>'s distributions, whose results
// differ between standard libraries: a seed must name the same order on
// every machine.
//
// Tested by schedule_order_test.cc.

#include "reference/device/scheduling/schedule_order.h"

#include <algorithm>
#include <numeric>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace mxcts::device_internal {

ScheduleOrder::ScheduleOrder(bool shuffled, uint64_t seed,
                             uint64_t grid_sequence)
    : shuffled_(shuffled),
      seed_(seed),
      random_(seed ^ (grid_sequence * 0xd1b54a32d192ed03ull)) {}

std::string ScheduleOrder::Describe() const {
  return shuffled_ ? absl::StrCat("shuffle:", seed_) : "linear";
}

uint64_t ScheduleOrder::Below(uint64_t bound) { return random_.Below(bound); }

std::vector<unsigned> ScheduleOrder::Permutation(unsigned count) {
  std::vector<unsigned> order(count);
  std::iota(order.begin(), order.end(), 0u);
  if (!shuffled_) return order;
  for (unsigned i = count; i > 1; --i) {
    std::swap(order[i - 1], order[Below(i)]);
  }
  return order;
}

std::vector<unsigned> ScheduleOrder::ThreadStartOrder(unsigned thread_count) {
  if (!shuffled_) return {};
  const unsigned waves = (thread_count + kWaveSize - 1) / kWaveSize;
  std::vector<unsigned> order;
  order.reserve(thread_count);
  for (unsigned wave : Permutation(waves)) {
    const unsigned end = std::min(thread_count, (wave + 1) * kWaveSize);
    for (unsigned thread = wave * kWaveSize; thread < end; ++thread) {
      order.push_back(thread);
    }
  }
  return order;
}

void ScheduleOrder::ReleaseOrder(std::vector<unsigned>* threads) {
  if (!shuffled_ || threads->size() < 2) return;
  // Split into the runs of each wave (the input is sorted), then repeatedly
  // take the next thread of a run chosen with probability proportional to
  // its remaining length: a uniformly random interleaving.
  struct Run {
    size_t next;
    size_t end;
  };
  std::vector<Run> runs;
  const std::vector<unsigned>& in = *threads;
  for (size_t i = 0; i < in.size();) {
    size_t j = i + 1;
    while (j < in.size() && in[j] / kWaveSize == in[i] / kWaveSize) ++j;
    runs.push_back(Run{i, j});
    i = j;
  }
  if (runs.size() < 2) return;
  std::vector<unsigned> out;
  out.reserve(in.size());
  size_t remaining = in.size();
  while (remaining > 0) {
    uint64_t pick = Below(remaining);
    for (Run& run : runs) {
      const size_t left = run.end - run.next;
      if (pick < left) {
        out.push_back(in[run.next++]);
        break;
      }
      pick -= left;
    }
    --remaining;
  }
  threads->swap(out);
}

absl::StatusOr<ScheduleOrder> ParseScheduleOrder(std::string_view text,
                                                 uint64_t grid_sequence) {
  if (text == "linear") return ScheduleOrder::Linear();
  constexpr std::string_view kShuffle = "shuffle:";
  uint64_t seed = 0;
  if (text.substr(0, kShuffle.size()) == kShuffle &&
      absl::SimpleAtoi(std::string(text.substr(kShuffle.size())), &seed) &&
      text.size() > kShuffle.size() &&
      text.find_first_not_of("0123456789", kShuffle.size()) ==
          std::string_view::npos) {
    return ScheduleOrder::Shuffle(seed, grid_sequence);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("MXCTS_ENGINE_ORDER='", std::string(text),
                   "' is not 'linear' or 'shuffle:<decimal seed>'"));
}

}  // namespace mxcts::device_internal
