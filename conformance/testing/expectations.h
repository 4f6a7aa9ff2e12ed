// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/expectations.h
// -----------------------------------------------------------------------------
//
// A backend's expectations file: the conformance tests it is known to fail,
// each with the reason (conformance/expectations/<backend>.txt). One entry
// per line:
//
//   # conformance/expectations/reference.txt
//   api/stream:stream_query_test StreamQuery.ReportsBusy the reference runs
//   eager by default; see issue 12
//   //tools/build_defs/testing:known_failure_test KnownFailure.Fails
//   demonstrates the runner
//
// The three fields are separated by white space:
//
//   1. the test target, as a label relative to //conformance
//      (`api/stream:stream_query_test` is //conformance/api/stream:
//      stream_query_test, `:x` is //conformance:x), or a full label starting
//      with `//` for a target elsewhere;
//   2. the GoogleTest full name of the test case, `Suite.Name` (with any
//      `Prefix/` and `/N` of parameterized and typed tests);
//   3. the reason, the rest of the line, which is required.
//
// `#` at the start of a line (after white space) makes it a comment; blank
// lines are ignored. An entry may not appear twice.
//
// Example:
//
//   absl::StatusOr<std::vector<Expectation>> all =
//       ParseExpectations(text, "conformance/expectations/reference.txt");
//   std::vector<Expectation> mine = ExpectationsForTarget(*all, "//x:y_test");

#ifndef MXCTS_CONFORMANCE_TESTING_EXPECTATIONS_H_
#define MXCTS_CONFORMANCE_TESTING_EXPECTATIONS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::conformance {

struct Expectation {
  // The target's full label, "//package:name".
  std::string target;
  // The test case's full name, "Suite.Name".
  std::string test;
  std::string reason;
  // The 1-based line of the entry.
  int line = 0;
};

// Returns the full label of `written`, the target field of an entry: a label
// starting with "//" is returned as it is, anything else is taken relative to
// //conformance. Returns "" if `written` is not a label with a ':'-separated,
// non-empty target name.
std::string ExpandTargetLabel(absl::string_view written);

// Parses an expectations file; `file` names it in errors.
//
// Returns the entries in file order, or absl::InvalidArgumentError
// "<file>:<line>: <message>" for the first bad line: fewer than three
// fields (a missing reason), a target that is not a label, a test name
// without '.', or an entry given twice.
absl::StatusOr<std::vector<Expectation>> ParseExpectations(
    absl::string_view text, const std::string& file);

// Reads and parses the file at `path` (see ParseExpectations).
absl::StatusOr<std::vector<Expectation>> ReadExpectations(
    const std::string& path);

// The entries of `expectations` whose target is `target` (a full label, as
// Bazel prints it; a leading "@" for the main repository is ignored).
std::vector<Expectation> ExpectationsForTarget(
    const std::vector<Expectation>& expectations, absl::string_view target);

// Returns GoogleTest XML `xml` with the attribute
// expectation="known failure: REASON" added to the <testcase> of each entry
// of `expectations` (matched by its classname and name). The case keeps its
// <failure>: a known failure is still a failure in the results, and
// tools/test_summary counts such cases apart from unexpected failures.
// Entries without a matching case change nothing.
std::string MarkKnownFailures(std::string xml,
                              const std::vector<Expectation>& expectations);

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_EXPECTATIONS_H_
