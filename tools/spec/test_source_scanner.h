// -----------------------------------------------------------------------------
// File: test_source_scanner.h
// -----------------------------------------------------------------------------
//
// Finds the GoogleTest tests of a conformance test source and the spec
// clauses each names with MX_SPEC (conformance/testing/spec.h). A clause
// reference belongs to the nearest TEST, TEST_F, TEST_P, TYPED_TEST or
// TYPED_TEST_P before it. Comments are ignored, so a commented-out MX_SPEC
// names nothing; clause IDs must be string literals.
//
// Example:
//
//   mxcts::spec::ScannedSource scanned =
//       mxcts::spec::ScanTestSource("conformance/api/stream_test.cc", text);
//   for (const auto& test : scanned.tests)
//     for (const auto& ref : test.clauses) Check(test.FullName(), ref.id);

#ifndef MXCTS_TOOLS_SPEC_TEST_SOURCE_SCANNER_H_
#define MXCTS_TOOLS_SPEC_TEST_SOURCE_SCANNER_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace mxcts::spec {

// One clause ID named in a source.
struct ClauseReference {
  std::string id;
  int line = 0;  // 1-based line of the MX_SPEC
};

// One test definition.
struct ScannedTest {
  std::string suite;  // first macro argument
  std::string name;   // second macro argument
  std::string file;
  int line = 0;  // line of the TEST macro
  std::vector<ClauseReference> clauses;

  // "Suite.Name", as GoogleTest prints a plain test.
  std::string FullName() const { return suite + "." + name; }
};

struct ScannedSource {
  std::vector<ScannedTest> tests;  // in source order
  // MX_SPEC uses that precede every test (they belong to none).
  std::vector<ClauseReference> stray_references;
};

// Replaces the contents of // and /* */ comments with spaces, keeping line
// breaks and string and character literals intact.
std::string BlankOutComments(absl::string_view source);

// Scans one source file's text; `file` is recorded in each test.
ScannedSource ScanTestSource(absl::string_view file, absl::string_view text);

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_TEST_SOURCE_SCANNER_H_
