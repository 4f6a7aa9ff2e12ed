// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/compile_fail.h
// -----------------------------------------------------------------------------
//
// The verdict of a must-not-compile test (mxmaca_compile_fail_test in
// tools/build_defs/mxmaca.bzl). At build time the backend's driver compiles
// two sources, and an action records each outcome in a file:
//
//   exit 1
//   bad_kernel.cu:3:1: error: a __global__ function must return void
//
// (the first line is the driver's exit status as the shell reports it, the
// rest is everything it printed, stdout and stderr together). The test then
// passes only if
//
//   * the rejected source failed to compile (an exit status from 1 to 128;
//     above that the shell reports a driver killed by a signal, a crash,
//     which is no diagnostic),
//   * the driver's output matches the error pattern (RE2, searched anywhere
//     in the output), and
//   * the control source, the same program without the broken rule,
//     compiled (exit 0), so the rejection is due to that rule alone.
//
// Example:
//
//   CompileFailCase test = {"bad.cu", *rejected, "good.cu", *control,
//                           "must return void"};
//   CompileFailVerdict verdict = JudgeCompileFail(test);
//   if (!verdict.passed) std::cerr << verdict.message;

#ifndef MXCTS_CONFORMANCE_TESTING_COMPILE_FAIL_H_
#define MXCTS_CONFORMANCE_TESTING_COMPILE_FAIL_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::conformance {

// One recorded driver run.
struct CompileRecord {
  int exit_code = 0;
  std::string output;
};

// Parses a record: "exit N" on the first line, the output after it.
// Returns absl::InvalidArgumentError naming `file` if the first line is not
// "exit" and a non-negative number.
absl::StatusOr<CompileRecord> ParseCompileRecord(absl::string_view text,
                                                 const std::string& file);

struct CompileFailCase {
  std::string source;  // the rejected source, as messages name it
  CompileRecord rejected;
  std::string control_source;
  CompileRecord control;
  std::string error_pattern;  // RE2
};

struct CompileFailVerdict {
  bool passed = false;
  // On success, the diagnostic line that matched; on failure, every problem
  // found, each naming the file, the pattern where it matters, and what the
  // driver printed.
  std::string message;
};

CompileFailVerdict JudgeCompileFail(const CompileFailCase& test);

// An RE2 that matches a diagnostic pointing at `source` (its last path
// component) and, if `line` is above 0, at that line, in the forms
// compilers print: "file.cu:6:" or "file.cu:6 " (GCC, Clang), "file.cu(6)"
// (NVCC's front end), "line 6 of .../file.cu" (NVCC's instantiation
// notes). With `line` 0, any mention of the file matches. This is the
// pattern a backend without the reference's wording is held to.
std::string LocationPattern(absl::string_view source, int line);

// A GoogleTest-shaped XML result with the one case `suite`.`name`: its
// "spec" property is `spec` (clause IDs separated by spaces; none if
// empty), and, if `failed`, a <failure> with `message`.
std::string SingleCaseResultXml(absl::string_view suite, absl::string_view name,
                                absl::string_view spec, bool failed,
                                absl::string_view message);

// The same one-case result, reported as skipped with `message` (for a test
// that does not apply to the backend: "unsupported: ..." makes the coverage
// report show it as unsupported).
std::string SkippedCaseResultXml(absl::string_view suite,
                                 absl::string_view name, absl::string_view spec,
                                 absl::string_view message);

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_COMPILE_FAIL_H_
