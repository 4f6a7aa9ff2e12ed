// -----------------------------------------------------------------------------
// File: conformance/testing/spec.h
// -----------------------------------------------------------------------------
//
// MX_SPEC ties a conformance test to the spec clauses it checks. Write it as
// the first statement of the test body, with each clause ID as a string
// literal:
//
//   TEST(StreamCreate, ReturnsDistinctHandles) {
//     MX_SPEC("api.stream.create.returns-distinct-handles");
//     ...
//   }
//
// The clause IDs are then in two places:
//
//   * in the source, where the build-time check of the conformance_test rule
//     (tools/build_defs/conformance.bzl) fails if an ID is not a clause of
//     docs/spec or a test names no clause;
//   * in the test's GoogleTest XML result, as the property "spec" (the IDs
//     separated by spaces), which tools/spec_coverage joins with the spec.

#ifndef MXCTS_CONFORMANCE_TESTING_SPEC_H_
#define MXCTS_CONFORMANCE_TESTING_SPEC_H_

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace mxcts::conformance {

// Records `clause_ids` as the current test's "spec" property, separated by
// spaces. Must be called inside a running test (GoogleTest attributes the
// property to it). Calling it twice in one test keeps the last list, so name
// all clauses in one MX_SPEC.
inline void RecordSpecClauses(std::initializer_list<const char*> clause_ids) {
  std::string joined;
  for (const char* id : clause_ids) {
    if (!joined.empty()) joined += ' ';
    joined += id;
  }
  ::testing::Test::RecordProperty("spec", joined);
}

}  // namespace mxcts::conformance

// MX_SPEC("clause.id", ...): the clauses the enclosing test checks.
#define MX_SPEC(...) ::mxcts::conformance::RecordSpecClauses({__VA_ARGS__})

#endif  // MXCTS_CONFORMANCE_TESTING_SPEC_H_
