// -----------------------------------------------------------------------------
// File: backend_results.h
// -----------------------------------------------------------------------------
//
// Reads one backend's test results for the coverage report, from either of
// the two layouts a conformance run leaves:
//
//   * Bazel's testlogs (bazel-testlogs, or tools/run_conformance's copy):
//     <package>/<target>/test.xml, or <target>/shard_K_of_M/test.xml
//     (tools/spec/test_results.h reads them);
//   * a run of a certification package (tools/certify run): summary.txt
//     names each target ("PASSED //conformance/api/x:y_test"), and the
//     target's cases are in <package with _ for />__<target>.xml beside it
//     (tools/certify/certificate.h gives both the summary and the names).
//
// A directory holding summary.txt is read as a certification run, any other
// as testlogs. Several directories of one backend are one run split over
// machines (their testlogs must not overlap).
//
// A failed case is an expected failure when the expectation runner marked
// it (expectation="known failure: REASON" in its XML) or when the backend's
// expectations file (conformance/testing/expectations.h) lists its target
// and name; the reader then marks it the same way, so that the coverage
// model (coverage.h) sees one kind of mark.
//
// Example:
//
//   BackendReadOptions options;
//   options.excluded = {"conformance/testing"};
//   std::vector<std::string> notes;
//   absl::StatusOr<BackendResults> cuda =
//       ReadBackendResults("cuda", {"/tmp/results"}, options, &notes);

#ifndef MXCTS_TOOLS_SPEC_COVERAGE_BACKEND_RESULTS_H_
#define MXCTS_TOOLS_SPEC_COVERAGE_BACKEND_RESULTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "conformance/testing/expectations.h"
#include "tools/spec_coverage/coverage.h"

namespace mxcts::spec {

struct BackendReadOptions {
  // Path parts ("conformance/testing"): a result whose file path or target
  // label contains one is skipped (support code, not a conformance test).
  std::vector<std::string> excluded;
  // The backend's known failures; empty if it has no expectations file.
  std::vector<conformance::Expectation> expectations;
};

// The prefix of the expectation runner's mark on a listed case
// (conformance/testing/expectations.h, MarkKnownFailures).
inline constexpr absl::string_view kKnownFailureMark = "known failure: ";

// True if `dir` holds a certification run's results (its summary.txt).
bool IsCertificationRun(const std::string& dir);

// The target whose Bazel test log is `file`, found below `dir`: the path
// between them without "/test.xml" and any "/shard_K_of_M", as
// "package/target" ("conformance/api/x/y_test" for
// DIR/conformance/api/x/y_test/shard_1_of_2/test.xml). "" if `file` is not
// below `dir` or not a test.xml.
std::string TestLogTarget(absl::string_view dir, absl::string_view file);

// True if `target`, written "package/target" as TestLogTarget gives it and
// taken relative to any directory of the workspace, is the target of
// `label` ("//package:target"): "api/x/y_test" and
// "conformance/api/x/y_test" are both //conformance/api/x:y_test, since a
// testlogs directory may be given below bazel-testlogs.
bool TargetMatchesLabel(absl::string_view target, absl::string_view label);

// Reads the results of backend `name` from `dirs` (see above) and returns
// them, excluded results left out and expected failures marked. Adds to
// `notes` what a reader of the report should know about the run: each
// target of a certification run without results (it crashed or timed out)
// and each case its expectations list that passed.
//
// Returns an error naming the directory or file if a directory is missing
// or empty, a certification run's summary.txt names no target, or an XML
// cannot be parsed; and absl::InvalidArgumentError if `dirs` is empty or
// the testlogs of two directories overlap.
absl::StatusOr<BackendResults> ReadBackendResults(
    const std::string& name, const std::vector<std::string>& dirs,
    const BackendReadOptions& options, std::vector<std::string>* notes);

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_COVERAGE_BACKEND_RESULTS_H_
