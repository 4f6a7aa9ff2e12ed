// -----------------------------------------------------------------------------
// File: test_lint.h
// -----------------------------------------------------------------------------
//
// The lint of the conformance tests: rules that every test must satisfy for
// its result to mean something, checked on the sources and BUILD files.
//
//   clause         every GoogleTest test names at least one spec clause with
//                  MX_SPEC in its body; every must-not-compile test
//                  (conformance_compile_fail_test) has a non-empty `spec`.
//   assertion      every test body asserts: it contains a GoogleTest or MX_
//                  assertion (EXPECT_*, ASSERT_*, MX_EXPECT_*, FAIL,
//                  ADD_FAILURE, GTEST_FAIL), or calls a function, lambda or
//                  macro of its file or of a header it includes that does
//                  (at any depth). A helper reached only through a pointer
//                  is invisible: call it inside EXPECT_NO_FATAL_FAILURE.
//   trap-control   every trap test (its body, or a helper it calls, uses
//                  MX_EXPECT_TRAP) has a legal control: it also uses
//                  MX_EXPECT_NO_TRAP, or another test of the same file that
//                  is not a trap test names one of its clauses.
//   compile-control every must-not-compile test (conformance_compile_fail_test
//                  or mxmaca_compile_fail_test in a BUILD file) has a
//                  `control` that is a source of its package, is not its
//                  `src`, holds code, and is not the `src` of any
//                  must-not-compile test (a rejected source cannot be the
//                  control that compiles). The test itself compiles it.
//
// The scan is lexical, like tools/spec's test_source_scanner: comments and
// the contents of string and character literals (raw strings included) are
// blanked, tests are found by their GoogleTest macros, helpers by the
// `name(...) {` of their definitions, `name = [...](...) {` of lambdas and
// `#define name(` of macros.
//
// Example:
//
//   std::vector<mxcts::test_lint::SourceFile> files = ...;  // path, text
//   for (const auto& v : mxcts::test_lint::Lint(files, {"testing/"})) {
//     std::puts(v.ToString().c_str());  // "file:line: [rule] message"
//   }

#ifndef MXCTS_TOOLS_TEST_LINT_TEST_LINT_H_
#define MXCTS_TOOLS_TEST_LINT_TEST_LINT_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace mxcts::test_lint {

// One file given to the lint: a test source (.cc, .cu), a header (.h, .cuh)
// or a BUILD file (named BUILD or BUILD.bazel).
struct SourceFile {
  std::string
      path;  // as the include directives spell it, e.g. "conformance/x.h"
  std::string text;
};

struct Violation {
  std::string file;
  int line = 0;      // 1-based
  std::string rule;  // "clause", "assertion", "trap-control", "compile-control"
  std::string message;

  // "file:line: [rule] message".
  std::string ToString() const;
};

// Replaces comments and the contents of string and character literals with
// spaces (keeping the quotes and every line break), so offsets and lines
// stay those of `source`.
std::string BlankOutCommentsAndLiterals(absl::string_view source);

// Lints the tests of every source in `files` whose path contains none of
// `excluded` (headers and excluded sources still provide helpers), and the
// must-not-compile tests of every BUILD file. Violations come in file order,
// then line order.
std::vector<Violation> Lint(const std::vector<SourceFile>& files,
                            const std::vector<std::string>& excluded);

}  // namespace mxcts::test_lint

#endif  // MXCTS_TOOLS_TEST_LINT_TEST_LINT_H_
