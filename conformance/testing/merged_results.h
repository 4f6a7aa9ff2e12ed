// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/merged_results.h
// -----------------------------------------------------------------------------
//
// One GoogleTest XML result from the results of several runs of the same
// binary, as case isolation (case_isolation.h) needs after it restarted a
// binary: the cases in the binary's order, grouped by suite, the counts
// redone, and a failed case for each case that crashed, hung or exited the
// process. tools/spec/test_results reads it like any GoogleTest result.
//
// Example:
//
//   absl::StatusOr<std::string> xml = MergeResults(
//       {first_xml, second_xml}, {"S.A", "S.B", "S.C"},
//       {{"S.B", "crashed: SIGSEGV (signal 11)", "last output", 0.2}});

#ifndef MXCTS_CONFORMANCE_TESTING_MERGED_RESULTS_H_
#define MXCTS_CONFORMANCE_TESTING_MERGED_RESULTS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "conformance/testing/expectation_verdict.h"

namespace mxcts::conformance {

// Merges the GoogleTest XML documents `results` into one, cases in the
// order of `order` ("Suite.Name"; cases missing from it follow in document
// order), each aborted case added as a failed <testcase> with an `aborted`
// attribute (spec::TestCaseResult::aborted) and a <failure> whose message
// is its `how` and text its `how` and output. Returns an error
// naming the document if one cannot be parsed.
absl::StatusOr<std::string> MergeResults(
    const std::vector<std::string>& results,
    const std::vector<std::string>& order,
    const std::vector<AbortedCase>& aborted);

// A GoogleTest XML document for cases known only from the console: `ended`
// holds each case ("Suite.Name") with the word of its end marker ("OK",
// "FAILED", "SKIPPED"; gtest_progress.h), for a process that died outside
// any case before GoogleTest wrote its result. A failed case's <failure>
// says `why` (its own messages are only in the log).
std::string ResultFromConsole(
    const std::vector<std::pair<std::string, std::string>>& ended,
    const std::string& why);

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_MERGED_RESULTS_H_
