// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/monitored_child.h
// -----------------------------------------------------------------------------
//
// Runs one test binary as a child process whose output is watched: its
// stdout and stderr go, in the order written, through one pipe to a
// callback (the runner copies them to its own stdout and feeds a
// GtestProgress), and a child that shows no progress for `stall_seconds`
// is killed. "Progress" is a GoogleTest marker (a case starting or ending,
// gtest_progress.h), so the limit is in effect a per-case timeout, and also
// bounds the stretches between cases (a suite's set-up, global tear-down).
//
// The child runs in a process group of its own, so a timeout kills its
// death-test children too, and dies with the runner (PR_SET_PDEATHSIG); a
// SIGTERM, SIGINT or SIGHUP to the runner (Bazel's timeout, ^C) kills the
// group before the runner dies of it. Whatever the group still holds when
// the child has ended is killed as well: no process outlives its run.
//
// Example:
//
//   GtestProgress progress;
//   ChildEnd end = RunMonitoredChild(
//       {"./foo_test", "--gtest_output=xml:/tmp/r.xml"}, Environment(), 30,
//       [&](absl::string_view out) { CopyToStdout(out); progress.Feed(out); },
//       &progress);
//   if (end.timed_out) ... progress.current() hung ...

#ifndef MXCTS_CONFORMANCE_TESTING_MONITORED_CHILD_H_
#define MXCTS_CONFORMANCE_TESTING_MONITORED_CHILD_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "conformance/testing/gtest_progress.h"

namespace mxcts::conformance {

struct ChildEnd {
  // False if the child could not be started; `error` says why.
  bool started = false;
  std::string error;
  // The exit status when it exited by itself; meaningless otherwise.
  int exit_code = 0;
  // The signal that ended it, 0 if it exited (SIGKILL after a timeout).
  int signal = 0;
  // It was killed for making no progress for the limit.
  bool timed_out = false;
};

// The current environment, "NAME=value" each.
std::vector<std::string> CurrentEnvironment();

// `environment` without the variables named in `names`.
std::vector<std::string> WithoutVariables(
    std::vector<std::string> environment,
    const std::vector<std::string>& names);

// Runs `argv` (argv[0] a path) with `environment`, passing every piece of
// its output to `on_output`. `progress` (may be null) is read, not fed: the
// caller feeds it from `on_output`; its events() reset the stall clock.
// `stall_seconds` 0 means no limit. Returns how the child ended.
ChildEnd RunMonitoredChild(
    const std::vector<std::string>& argv,
    const std::vector<std::string>& environment, int stall_seconds,
    const std::function<void(absl::string_view)>& on_output,
    const GtestProgress* progress);

// "SIGSEGV", "SIGABRT", ... for the usual signals, else "signal N".
std::string SignalName(int signal);

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_MONITORED_CHILD_H_
