// Copyright mxcts authors.
//
// reference/runtime/timeline/timeline_mode.h: when the device timeline runs
// queued work, chosen by MXCTS_TIMELINE and MACA_LAUNCH_BLOCKING.
//
//   MXCTS_TIMELINE=eager           work runs when it is submitted (default)
//   MXCTS_TIMELINE=deferred        work runs only when the host waits for it
//                                  or polls, so a program that reads results
//                                  without synchronizing sees stale data
//   MXCTS_TIMELINE=shuffle:<seed>  work runs in a random order the streams
//                                  permit, drawn from <seed> (a decimal
//                                  64-bit number), partly at submission and
//                                  partly when the host waits
//
// MACA_LAUNCH_BLOCKING=1 forces eager whatever MXCTS_TIMELINE says
// [api.sync.launch-blocking.makes-launches-synchronous]. Any other value of
// MXCTS_TIMELINE means eager [api.sync.timeline.invalid-value-is-eager].
//
//   TimelineMode mode = ParseTimelineMode("shuffle:7", nullptr);
//   mode.kind == TimelineMode::kShuffle && mode.seed == 7

#ifndef MXCTS_REFERENCE_RUNTIME_TIMELINE_TIMELINE_MODE_H_
#define MXCTS_REFERENCE_RUNTIME_TIMELINE_TIMELINE_MODE_H_

#include <cstdint>
#include <string>

namespace mxcts::runtime {

struct TimelineMode {
  enum Kind { kEager, kDeferred, kShuffle };
  Kind kind = kEager;
  uint64_t seed = 0;  // for kShuffle

  // "eager", "deferred" or "shuffle:<seed>": the MXCTS_TIMELINE spelling.
  std::string ToString() const;
};

// The mode the two variables select (either may be null, meaning unset).
TimelineMode ParseTimelineMode(const char* timeline,
                               const char* launch_blocking);

// The mode of this process: the environment's at first use, unless a test
// replaced it with SetTimelineModeForTesting.
TimelineMode CurrentTimelineMode();
void SetTimelineModeForTesting(TimelineMode mode);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TIMELINE_TIMELINE_MODE_H_
