// Copyright mxcts authors.
//
// reference/logging/log_state.h: what the log sink keeps once per process,
// and where it lives. A program can load several libraries of the SDK that
// each link the sink (libmcruntime.so, libmcanalyzer.so); were each to keep
// its own level, each would read MXLOG_LEVEL and warn about an invalid
// value, and a process would print the warning twice instead of once
// [api.env.general.invalid-value-warns]. So libmcruntime.so defines the
// process's state (process_log_state.cc) and exports it, as it exports the
// process's binary cache; the sink in any library reaches it through a weak
// reference (log.cc), and uses a state of its own only where the process
// has no runtime library.
//
//   mxcts::logging::LogState& state = __mc_internal::ProcessLogState();
//   int level = state.level.load();  // -1 until MXLOG_LEVEL is read

#ifndef MXCTS_REFERENCE_LOGGING_LOG_STATE_H_
#define MXCTS_REFERENCE_LOGGING_LOG_STATE_H_

#include <atomic>
#include <mutex>

namespace mxcts::logging {

// The process's level and the guard of its one reading. Its layout is part
// of the interface between the SDK's libraries, which are built together.
struct LogState {
  // A LogLevel once MXLOG_LEVEL is read; -1 before.
  std::atomic<int> level{-1};
  // Guards the reading of MXLOG_LEVEL and its warning.
  std::once_flag level_read;
};

}  // namespace mxcts::logging

namespace __mc_internal {

// The process's log state, created on the first call and never destroyed,
// so that messages written while the process exits still find it. Defined
// by libmcruntime.so (the target //reference/logging:process_log_state).
mxcts::logging::LogState& ProcessLogState();

}  // namespace __mc_internal

#endif  // MXCTS_REFERENCE_LOGGING_LOG_STATE_H_
