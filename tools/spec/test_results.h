// -----------------------------------------------------------------------------
// File: test_results.h
// -----------------------------------------------------------------------------
//
// Reads the results of one backend's test run: the `test.xml` files Bazel
// leaves under bazel-testlogs (or a copy of that tree). Each file is either
// GoogleTest's XML report or, for a test that is not GoogleTest (a shell
// test), the one-case XML Bazel generates itself. Every <testcase> becomes one
// `TestCaseResult` with its outcome, the spec clauses it names, and the first
// failure or skip message.
//
// A test names the clauses it checks with GoogleTest's
// `RecordProperty("spec", "api.stream.create api.stream.destroy")`. GoogleTest
// 1.12 writes that as a `<properties><property name="spec" value="..."/>`
// child of the <testcase>; older versions wrote a `spec="..."` attribute on the
// <testcase>. Both are read.
//
// A backend reports a feature it does not claim by skipping the test with a
// message that starts with "unsupported" (after the "<file>:<line>" line
// GoogleTest puts first), e.g.
// `GTEST_SKIP() << "unsupported: no 64-bit atomics"`; such a case is
// `Outcome::kUnsupported` rather than `Outcome::kSkipped`.
//
// Example:
//
//   absl::StatusOr<std::vector<TestCaseResult>> results =
//       ReadTestResultsDir("bazel-testlogs");
//   if (!results.ok()) return results.status();
//   for (const TestCaseResult& result : *results) {
//     std::cout << result.name << ": " << OutcomeName(result.outcome) << "\n";
//   }
#ifndef MXCTS_TOOLS_SPEC_TEST_RESULTS_H_
#define MXCTS_TOOLS_SPEC_TEST_RESULTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::spec {

enum class Outcome {
  kPassed,
  kFailed,
  kSkipped,
  kUnsupported,
  kDisabled,
};

// Returns "passed", "failed", "skipped", "unsupported" or "disabled".
std::string_view OutcomeName(Outcome outcome);

// The longest `TestCaseResult::message` kept, in bytes.
inline constexpr size_t kMaxMessageLength = 500;

struct TestCaseResult {
  // The case's name as GoogleTest prints it, "Suite.Name" (the testcase's
  // classname, ".", its name); for Bazel's generated XML, which has no
  // classname, the testcase name alone (the target, "pkg/target").
  std::string name;
  // How the case ended, classified in this order: a <failure> or <error>
  // child makes it kFailed (however many there are); status="notrun"
  // (GoogleTest's DISABLED_ tests) kDisabled; result="skipped" or a <skipped>
  // child kSkipped, or kUnsupported if the skip message starts with
  // "unsupported" (any case) once GoogleTest's leading "<file>:<line>" line is
  // removed; otherwise kPassed.
  Outcome outcome = Outcome::kPassed;
  // The clause IDs of the case's "spec" property, split on spaces and commas,
  // in order, without duplicates; empty if it has none.
  std::vector<std::string> spec_clauses;
  // The first <failure>/<error> (for kFailed) or <skipped> (for kSkipped and
  // kUnsupported) message: its message attribute, or its text if that is
  // empty; whitespace-trimmed and cut to at most kMaxMessageLength bytes on a
  // UTF-8 character boundary. Empty for other outcomes.
  std::string message;
  // The testcase's expectation attribute: "known failure: REASON" when the
  // expectation runner (conformance/testing) found the case in the backend's
  // expectations list; empty otherwise.
  std::string expectation;
  // The testcase's aborted attribute: how the case ended its process
  // ("crashed: SIGSEGV (signal 11)", "timed out after 30 s") when the
  // expectation runner's case isolation (conformance/testing/
  // case_isolation.h) reported it; empty otherwise. Such a case is kFailed.
  std::string aborted;
  // The path of the test.xml the case came from, as the reader opened it.
  std::string file;
};

// Parses one test result document; `file` is recorded in each result and
// names the document in errors.
//
// Returns the cases in document order. Returns absl::InvalidArgumentError
// "<file>: line N: <why>" if the document is not well-formed XML (N is the
// line where the XML parser, pugixml, stopped; <why> its description, e.g.
// "Start-end tags mismatch"), its root is neither <testsuites> nor
// <testsuite>, or a <testcase> has no name.
absl::StatusOr<std::vector<TestCaseResult>> ParseTestResults(
    absl::string_view xml, const std::string& file);

// Reads and parses the test result file at `path` (see ParseTestResults).
//
// Returns absl::NotFoundError if `path` does not exist, another error naming
// the path if it cannot be read, and ParseTestResults' errors otherwise.
absl::StatusOr<std::vector<TestCaseResult>> ReadTestResultsFile(
    const std::string& path);

// Reads every file named `test.xml` at any depth below `dir`, following
// symbolic links (bazel-testlogs itself is one), in order of path; each
// directory is visited once even if several links lead to it.
//
// A test Bazel shards (shard_count = M) leaves one
// `<target>/shard_K_of_M/test.xml` per shard instead of `<target>/test.xml`,
// and Bazel does not delete a target's files of an earlier sharding. So of a
// directory's sets of results (its own test.xml; its shard_K_of_M/test.xml
// for one M), only the most recently written set is read (the one holding
// the newest file; sets written at the same time are all read).
//
// Returns the cases of all files, file by file in that order. Returns
// absl::NotFoundError naming `dir` if it does not exist or holds no test.xml,
// absl::FailedPreconditionError if it is not a directory, and the first
// file's error if a file cannot be read or parsed.
absl::StatusOr<std::vector<TestCaseResult>> ReadTestResultsDir(
    const std::string& dir);

// Reads one backend's results split over several directories, one per
// machine that ran a part of the suite (tools/run_conformance --shard=I/N
// writes each): every directory as ReadTestResultsDir reads it, in the order
// given. Together they must be one run's results, each test's file in one
// directory only.
//
// Returns ReadTestResultsDir's error for the first directory that has one,
// absl::InvalidArgumentError if `dirs` is empty, and
// absl::InvalidArgumentError naming the file and both directories if two of
// them hold a test.xml at the same path below them (e.g.
// conformance/api/stream_test/test.xml): the parts overlap, and merging them
// would count those cases twice.
absl::StatusOr<std::vector<TestCaseResult>> ReadTestResultsDirs(
    const std::vector<std::string>& dirs);

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_TEST_RESULTS_H_
