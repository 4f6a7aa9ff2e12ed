// Copyright mxcts authors.
//
// Judging a test run against the known failures. The run is first checked
// as a whole (did the binary end by itself, and write a result?); only a
// complete result can be compared with the list. Then every failing case is
// looked up in the list, and every listed case in the result: the two passes
// together find unexpected failures, unexpected passes and stale entries.
// The exit status is checked last, against the result: a binary that exits
// non-zero while its result shows no failure has failed in a way the list
// cannot describe (a crash at exit, a leak report, a failed global set-up).
//
// Tested by expectation_verdict_test.cc.

#include "conformance/testing/expectation_verdict.h"

#include <map>

#include "absl/strings/str_cat.h"

namespace mxcts::conformance {
namespace {

using spec::Outcome;
using spec::TestCaseResult;

std::string EntryPlace(absl::string_view expectations_name,
                       const Expectation& expectation) {
  return absl::StrCat(expectations_name, ":", expectation.line);
}

}  // namespace

Verdict JudgeTestRun(const TestRun& run,
                     const std::vector<Expectation>& expectations,
                     absl::string_view expectations_name) {
  Verdict verdict;
  if (run.signal != 0) {
    verdict.lines.push_back(
        absl::StrCat("FAILED: the test binary was killed by signal ",
                     run.signal, "; a crash is never a known failure"));
    return verdict;
  }
  if (run.timed_out) {
    verdict.lines.push_back(absl::StrCat(
        "FAILED: the test binary made no progress for ", run.timeout_seconds,
        " s outside any test case and was killed; a hang is never a known "
        "failure"));
    return verdict;
  }
  if (!run.cases.has_value()) {
    verdict.lines.push_back(
        absl::StrCat("FAILED: the test binary (exit status ", run.exit_code,
                     ") left no readable result: ", run.missing_result_reason));
    return verdict;
  }

  std::map<std::string, const Expectation*> listed;
  for (const Expectation& expectation : expectations) {
    listed.emplace(expectation.test, &expectation);
  }
  std::map<std::string, const AbortedCase*> aborted;
  for (const AbortedCase& aborted_case : run.aborted) {
    aborted.emplace(aborted_case.name, &aborted_case);
  }
  std::map<std::string, Outcome> outcomes;
  int problems = 0;
  int failures = 0;
  int known = 0;
  for (const TestCaseResult& result : *run.cases) {
    outcomes[result.name] = result.outcome;
    if (result.outcome != Outcome::kFailed) continue;
    ++failures;
    auto entry = listed.find(result.name);
    auto ended = aborted.find(result.name);
    if (ended != aborted.end()) {
      ++problems;
      verdict.lines.push_back(
          absl::StrCat("FAILED: ", result.name, " ", ended->second->how,
                       "; a crash or hang is never a known failure"));
    } else if (entry == listed.end()) {
      ++problems;
      verdict.lines.push_back(absl::StrCat(
          "FAILED: ", result.name, " is not a known failure of this backend",
          expectations_name.empty()
              ? std::string()
              : absl::StrCat(" (not listed in ", expectations_name, ")")));
    } else {
      ++known;
      verdict.lines.push_back(absl::StrCat(
          "KNOWN FAILURE: ", result.name, " (", entry->second->reason, ") [",
          EntryPlace(expectations_name, *entry->second), "]"));
    }
  }

  for (const Expectation& expectation : expectations) {
    auto outcome = outcomes.find(expectation.test);
    const std::string place = EntryPlace(expectations_name, expectation);
    if (outcome == outcomes.end()) {
      if (run.partial) continue;
      ++problems;
      verdict.lines.push_back(absl::StrCat(
          "stale expectation: ", expectation.test, " is listed at ", place,
          " but did not run; remove it from ", expectations_name,
          " or correct its name"));
    } else if (outcome->second == Outcome::kPassed) {
      ++problems;
      verdict.lines.push_back(absl::StrCat(
          "unexpected pass: ", expectation.test, " passes; remove it from ",
          expectations_name, " (line ", expectation.line, ")"));
    } else if (outcome->second != Outcome::kFailed) {
      ++problems;
      verdict.lines.push_back(absl::StrCat(
          "stale expectation: ", expectation.test, " is listed at ", place,
          " but was ", std::string(spec::OutcomeName(outcome->second)),
          "; remove it from ", expectations_name));
    }
  }

  if (run.exit_code != 0 && failures == 0) {
    ++problems;
    verdict.lines.push_back(
        absl::StrCat("FAILED: the test binary exited with status ",
                     run.exit_code, " but its result shows no failing test"));
  }

  verdict.passed = problems == 0;
  verdict.lines.push_back(absl::StrCat(
      verdict.passed ? "PASSED: " : "FAILED: ", run.cases->size(),
      " test cases, ", failures, " failing, ", known, " of them known",
      problems == 0
          ? ""
          : absl::StrCat(", ", problems,
                         problems == 1 ? " problem" : " problems", " above")));
  return verdict;
}

}  // namespace mxcts::conformance
