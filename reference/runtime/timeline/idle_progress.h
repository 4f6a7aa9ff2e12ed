// Copyright mxcts authors.
//
// reference/runtime/timeline/idle_progress.h: eventual progress of the
// deferred and shuffle timelines.
//
// In those modes work runs when a host thread waits for it or polls it. A
// correct program may wait by its own means instead: a host function that
// releases a CPU barrier, a host thread that polls a flag a kernel writes
// to mapped memory. A real device runs such work anyway, so the reference
// must too [api.sync.timeline.idle-progress]: a background thread watches
// the timeline and, when work is pending and no host thread has submitted
// or run any for kIdleProgressInterval, runs all pending work, oldest
// first, as a device that caught up would. Reads that skip
// synchronization still see memory as it was before the work, unless the
// program leaves the timeline idle that long first.
//
//   StartIdleProgress();  // once work is deferred; later calls do nothing

#ifndef MXCTS_REFERENCE_RUNTIME_TIMELINE_IDLE_PROGRESS_H_
#define MXCTS_REFERENCE_RUNTIME_TIMELINE_IDLE_PROGRESS_H_

#include <chrono>

namespace mxcts::runtime {

// How long the timeline stays idle, with work pending, before the
// background thread runs that work.
inline constexpr std::chrono::milliseconds kIdleProgressInterval{500};

// Starts the background thread, once per process. The caller may hold the
// execution lock.
void StartIdleProgress();

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TIMELINE_IDLE_PROGRESS_H_
