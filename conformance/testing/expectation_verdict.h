// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/expectation_verdict.h
// -----------------------------------------------------------------------------
//
// Decides whether a test target passes, given how its GoogleTest binary ran
// and the backend's known failures for that target. This is the logic of
// //conformance/testing:expectation_runner, kept apart from the process
// handling so that it can be tested case by case:
//
//   * a failing test case that is listed is a KNOWN FAILURE: reported with
//     its reason, and the target still passes (the XML result keeps the
//     case failed; nothing turns a failure into a pass);
//   * a failing test case that is not listed fails the target;
//   * a listed case that passes fails the target ("unexpected pass"), so a
//     fixed bug leaves the list at once;
//   * a listed case that was skipped, or did not run although every test
//     ran, fails the target as a stale entry;
//   * a binary that crashed or hung outside any test case, wrote no result,
//     or exited non-zero with no failing case fails the target: no entry
//     can excuse that;
//   * a case that crashed, hung or exited the process (case isolation,
//     case_isolation.h, reports it as failed and runs the other cases)
//     fails the target even if listed: a crash or hang is never a known
//     failure. The other cases are judged as usual.
//
// Example:
//
//   TestRun run;
//   run.exit_code = 1;
//   run.cases = ...;  // from spec::ReadTestResultsFile
//   Verdict verdict = JudgeTestRun(run, mine,
//   "conformance/expectations/x.txt"); for (const std::string& line :
//   verdict.lines) std::cerr << line << "\n"; return verdict.passed ? 0 : 1;

#ifndef MXCTS_CONFORMANCE_TESTING_EXPECTATION_VERDICT_H_
#define MXCTS_CONFORMANCE_TESTING_EXPECTATION_VERDICT_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "conformance/testing/expectations.h"
#include "tools/spec/test_results.h"

namespace mxcts::conformance {

// A test case that ended its process: it crashed, hung or exited.
struct AbortedCase {
  // "Suite.Name".
  std::string name;
  // "crashed: SIGSEGV", "timed out after 30 s", "exited with status 3".
  std::string how;
  // The last lines it printed.
  std::string output;
  // How long it ran before it ended or was killed.
  double seconds = 0;
};

// How a test binary ran.
struct TestRun {
  // The exit status when it exited; meaningless if `signal` is not 0.
  int exit_code = 0;
  // The signal that killed it outside any test case, or 0.
  int signal = 0;
  // Killed for stalling outside any test case, after `timeout_seconds`.
  bool timed_out = false;
  int timeout_seconds = 0;
  // The cases that crashed, hung or exited; `cases` reports them as failed.
  std::vector<AbortedCase> aborted;
  // The test cases of its XML result, or nullopt if there is none.
  std::optional<std::vector<spec::TestCaseResult>> cases;
  // Why `cases` is nullopt (for the message).
  std::string missing_result_reason;
  // True if only some tests were asked to run (a test filter or a shard),
  // so a listed test that did not run is not a stale entry.
  bool partial = false;
};

struct Verdict {
  bool passed = false;
  // What the runner prints, one finding per line, the summary last.
  std::vector<std::string> lines;
};

// Judges `run` against `expectations`, the entries of this target only.
// `expectations_name` names the file in messages ("remove it from ...").
Verdict JudgeTestRun(const TestRun& run,
                     const std::vector<Expectation>& expectations,
                     absl::string_view expectations_name);

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_EXPECTATION_VERDICT_H_
