// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/case_isolation.h
// -----------------------------------------------------------------------------
//
// Runs a GoogleTest binary so that a test case that crashes, hangs or exits
// the process is reported as that case's failure ("crashed: SIGSEGV",
// "timed out after 30 s", "exited with status 3") while the binary's other
// cases still run and report, as VK-GL-CTS's runner does for its cases.
// //conformance/testing:expectation_runner runs every conformance binary
// this way, under Bazel (mxmaca_test) and in a backend's bundle (run.sh).
//
// The normal path costs one process, as before: the whole binary runs once,
// writing its XML result where asked, its output copied through and watched
// (monitored_child.h, gtest_progress.h). Only when it dies or stalls inside
// a case does recovery start:
//
//   1. the case that was running is recorded as aborted, with how it ended
//      and the last lines it printed;
//   2. the binary's cases are listed (--gtest_list_tests, with the run's
//      own filter) and this shard's share computed as GoogleTest would
//      (gtest_cases.h), the sharding variables then being dropped;
//   3. the cases that had finished run again, together, to get their XML
//      (their first results died with the process), and the cases not yet
//      reached run in another child, each by an exact --gtest_filter;
//   4. a child that aborts in turn splits the same way, so every abort
//      costs one case and the run always ends; each case runs at most twice
//      unless it behaves differently the second time;
//   5. the children's XML results are merged (merged_results.h) into one
//      document in GoogleTest's format, in the listing's order, with a
//      <failure> for each aborted case, and written where the whole run's
//      would have been.
//
// An abort outside any case (static initialisation or a global set-up that
// crashes, a suite's set-up or tear-down, static destructors, a hang at
// exit) cannot be pinned on a case: it becomes a failed case of its own,
// OutsideCases.BeforeTheFirstCase, .BetweenCases or .AfterTheLastCase (how
// it ended, after which case, its last output), beside the cases that ran:
//
//   * after GoogleTest wrote its result (static destructors, exit
//     handlers), that result, every case in it;
//   * before that, the cases that had ended, with the outcome their end
//     markers showed (not run again: they would meet the same abort; a
//     failure's messages are then only in the log), and the cases not yet
//     reached, run in children as in step 3; a child that aborts outside
//     any case in turn keeps what it reached the same way, and its cases
//     not reached run again only if it ran any.
//
// Only the first abort outside any case is recorded (a global set-up
// crashes in every child); the later ones are announced in the log.
//
// Example:
//
//   IsolationOptions options;
//   options.command = {"./foo_test"};
//   options.result_path = "/tmp/foo.xml";
//   options.case_timeout_seconds = 30;
//   IsolatedRun run = RunWithCaseIsolation(options);
//   for (const AbortedCase& aborted : run.aborted) ...

#ifndef MXCTS_CONFORMANCE_TESTING_CASE_ISOLATION_H_
#define MXCTS_CONFORMANCE_TESTING_CASE_ISOLATION_H_

#include <string>
#include <vector>

#include "conformance/testing/expectation_verdict.h"

namespace mxcts::conformance {

struct IsolationOptions {
  // The binary and its arguments (without --gtest_output).
  std::vector<std::string> command;
  // Where the XML result goes.
  std::string result_path;
  // Where the children's own results go while recovering; a fresh
  // directory is made under it.
  std::string scratch_dir = "/tmp";
  // A case (or a stretch between cases) that shows no progress for this
  // long is killed; 0: no limit.
  int case_timeout_seconds = 0;
};

struct IsolatedRun {
  // False if the binary could not be started; `error` says why.
  bool started = false;
  std::string error;
  // How the binary ended when it ran whole, or how the recovery ended: exit
  // status 1 if any case aborted or any child failed.
  int exit_code = 0;
  // The cases that crashed, hung or exited, in the order they did, and the
  // abort outside any case (OutsideCases.*), if there was one.
  std::vector<AbortedCase> aborted;
  // How many children ran after the first.
  int restarts = 0;
};

// Runs options.command with case isolation (above).
IsolatedRun RunWithCaseIsolation(const IsolationOptions& options);

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_CASE_ISOLATION_H_
