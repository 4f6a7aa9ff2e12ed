// Copyright mxcts authors.
//
// Parsing MXCTS_TIMELINE and MACA_LAUNCH_BLOCKING (timeline_mode.h). The
// variables are read once, at the first submission of device work, like
// every variable of the runtime [api.env.general.read-at-initialization].
//
// Tested by timeline_mode_test.cc.

#include "reference/runtime/timeline/timeline_mode.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "reference/runtime/environment/environment_settings.h"

namespace mxcts::runtime {
namespace {

// A decimal unsigned 64-bit number and nothing else.
bool ParseSeed(const char* text, uint64_t* seed) {
  if (*text < '0' || *text > '9') return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *seed = value;
  return true;
}

std::mutex mode_mutex;
bool mode_set = false;
TimelineMode process_mode;

}  // namespace

std::string TimelineMode::ToString() const {
  switch (kind) {
    case kEager:
      return "eager";
    case kDeferred:
      return "deferred";
    case kShuffle:
      return "shuffle:" + std::to_string(seed);
  }
  return "eager";
}

TimelineMode ParseTimelineMode(const char* timeline,
                               const char* launch_blocking) {
  TimelineMode mode;
  // [api.sync.launch-blocking.makes-launches-synchronous]
  if (launch_blocking != nullptr && std::strcmp(launch_blocking, "1") == 0) {
    return mode;
  }
  if (timeline == nullptr) return mode;  // [api.sync.timeline.default-eager]
  if (std::strcmp(timeline, "deferred") == 0) {
    mode.kind = TimelineMode::kDeferred;
  } else if (std::strncmp(timeline, "shuffle:", 8) == 0 &&
             ParseSeed(timeline + 8, &mode.seed)) {
    mode.kind = TimelineMode::kShuffle;
  }
  // [api.sync.timeline.invalid-value-is-eager]: anything else is eager.
  return mode;
}

TimelineMode CurrentTimelineMode() {
  std::lock_guard<std::mutex> lock(mode_mutex);
  if (!mode_set) {
    // MACA_LAUNCH_BLOCKING as the runtime read it when it initialized
    // (environment_settings.h). [api.env.launch-blocking.synchronous-launches]
    process_mode =
        ParseTimelineMode(std::getenv("MXCTS_TIMELINE"),
                          ProcessEnvironment().launch_blocking ? "1" : nullptr);
    mode_set = true;
  }
  return process_mode;
}

void SetTimelineModeForTesting(TimelineMode mode) {
  std::lock_guard<std::mutex> lock(mode_mutex);
  process_mode = mode;
  mode_set = true;
}

}  // namespace mxcts::runtime
