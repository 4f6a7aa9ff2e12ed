// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: tools/certify/certificate.h
// -----------------------------------------------------------------------------
//
// The results of a package's run of the suite on a machine without Bazel
// (tools/certify/run_package.sh): each test target's verdict from the
// runner's summary.txt and its cases from the GoogleTest XML the
// expectation runner wrote (tools/spec/test_results), counted per chapter.
//
// A chapter is the first two parts of the target's package below
// //conformance ("api/stream" for //conformance/api/stream/validation:x).
// A case the backend's expectations list (the runner marked it
// expectation="known failure: ...") counts as an expected failure, not a
// failure. A target the runner reports failed or timed out without an XML
// (it crashed or hung) counts as one crashed target of its chapter. The
// verifier (verify.h) adds its checks and writes the certificate.
//
// Example:
//
//   absl::StatusOr<RunResults> run = ReadRunResults("results");
//   if (!run.ok()) return run.status();
//   bool clean = run->Totals().failed == 0 && run->Totals().crashed == 0;

#ifndef MXCTS_TOOLS_CERTIFY_CERTIFICATE_H_
#define MXCTS_TOOLS_CERTIFY_CERTIFICATE_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::certify {

struct ChapterCounts {
  int passed = 0;
  // Failed cases the backend's expectations do not list.
  int failed = 0;
  // Cases skipped because the backend does not claim what they need, and
  // other skipped or disabled cases.
  int unsupported = 0;
  // Failed cases the expectations list, each with its reason.
  int expected_failures = 0;
  // Targets that ended without results (a crash or a timeout).
  int crashed = 0;
  // Mustpass targets that did not run or report (filled in by the
  // verifier, verify.h).
  int missing = 0;

  void Add(const ChapterCounts& other);
};

// One expected failure, for the certificate's list.
struct ExpectedFailure {
  std::string target;
  std::string test;
  std::string reason;
};

struct RunResults {
  // Per chapter, in name order.
  std::map<std::string, ChapterCounts> chapters;
  std::vector<ExpectedFailure> expected;
  // "Suite.Name (target)" of each unexpected failure, and "target (why)"
  // of each crashed target.
  std::vector<std::string> failures;
  // The run's capability manifest (results/capabilities.txt), as read.
  std::string capabilities;
  // The number of cases each target's XML reported, by label (0 for a
  // target that ran without an XML).
  std::map<std::string, int> reported_cases;
  // The labels of the targets that crashed or timed out.
  std::set<std::string> crashed_targets;

  ChapterCounts Totals() const;
};

// The chapter of the test target `label` ("//conformance/api/x/y:z" is
// "api/x"); "" if `label` is not under //conformance.
std::string ChapterOf(absl::string_view label);

// The file name the bundle gives the binary of `label`: its package below
// the root with '_' for '/', "__", its name
// ("conformance_api_x_y__z" for //conformance/api/x/y:z).
std::string BinaryNameOf(absl::string_view label);

// One target line of a run's summary.txt: the runner's verdict on the
// target and its label.
struct TargetVerdict {
  std::string verdict;  // "PASSED", "FAILED" or "TIMEOUT"
  std::string label;    // "//conformance/api/x/y:z"
};

// Reads DIR/summary.txt of a run.sh results directory: its "PASSED LABEL",
// "FAILED LABEL" and "TIMEOUT LABEL" lines, in order; other lines (the
// counts at the end) are skipped. Each target's cases are in
// DIR/<BinaryNameOf(label)>.xml, its output in the .log beside it. Returns
// ReadFile's error if summary.txt cannot be read, and an error naming it if
// it names no target.
absl::StatusOr<std::vector<TargetVerdict>> ReadRunSummary(
    const std::string& dir);

// Reads a results directory of run.sh: summary.txt ("PASSED LABEL",
// "FAILED LABEL" or "TIMEOUT LABEL" lines, then counts), each target's
// <binary>.xml, and capabilities.txt. Returns an error naming the file and
// why if summary.txt is missing or names no target, or an XML cannot be
// parsed.
absl::StatusOr<RunResults> ReadRunResults(const std::string& dir);

}  // namespace mxcts::certify

#endif  // MXCTS_TOOLS_CERTIFY_CERTIFICATE_H_
