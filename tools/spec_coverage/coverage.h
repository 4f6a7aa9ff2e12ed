// -----------------------------------------------------------------------------
// File: coverage.h
// -----------------------------------------------------------------------------
//
// Spec coverage: joins the clause index, the conformance test sources and
// the test results of one or more backends into one model, from which the
// reports (report.h) are written.
//
// A test is linked to clauses by its MX_SPEC references: from its source
// (found by scanning) and from the "spec" property of its results (which
// also covers parameterised instances). References through an alias count
// for the clause the alias resolves to; references that resolve to nothing
// are listed as problems.
//
// Each clause gets one status per backend:
//
//   uncovered    no test names it (a clause is never "passing" without one)
//   planned      only disabled (DISABLED_) tests name it
//   not-run      it has tests, but none has a result on this backend
//   unsupported  its tests were skipped as unsupported by this backend
//   expected-failure
//                its failures on this backend are all known failures (the
//                backend's expectations list them), none unexpected
//   failing      at least one of its tests failed unexpectedly on this
//                backend
//   passing      none failed and at least one passed on this backend
//
// A test skipped for another reason counts as not run. A known failure is
// still a failure: the clause is not passing, but the report tells it apart
// from a failure nobody has explained. A result is a known failure when its
// `expectation` starts with "known failure: " (the expectation runner's mark,
// or backend_results.h's for a case the expectations file lists). Counts over
// clauses
// ("covered", "passing") count testable clauses only; untestable clauses
// are reported apart.
//
// Example:
//
//   CoverageModel model = BuildCoverage(index, sources, backends);
//   for (const ChapterCoverage& chapter : model.chapters) ...

#ifndef MXCTS_TOOLS_SPEC_COVERAGE_COVERAGE_H_
#define MXCTS_TOOLS_SPEC_COVERAGE_COVERAGE_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "tools/mutate/results.h"
#include "tools/spec/clause_index.h"
#include "tools/spec/test_results.h"
#include "tools/spec/test_source_scanner.h"

namespace mxcts::spec {

enum class ClauseStatus {
  kUncovered,
  kPlanned,
  kNotRun,
  kUnsupported,
  kExpectedFailure,
  kFailing,
  kPassing,
};

// "uncovered", "planned", "not-run", "unsupported", "expected-failure",
// "failing", "passing".
absl::string_view ClauseStatusName(ClauseStatus status);

// The results of one backend's run.
struct BackendResults {
  std::string name;  // e.g. "reference"
  std::vector<TestCaseResult> results;
};

// One test linked to a clause, with its outcome on each backend.
struct LinkedTest {
  std::string name;      // "Suite.Name" (from source) or the result's name
  std::string location;  // "file:line" of the source, or "" if unknown
  bool disabled = false;
  // Backend name -> outcome; a backend without a result is absent.
  std::map<std::string, Outcome> outcomes;
  // Backend name -> first failure or skip message; for a known failure,
  // the runner's mark ("known failure: REASON") and the failure's message.
  std::map<std::string, std::string> messages;
  // The backends whose outcome is kFailed only by known failures: every
  // failed instance of the test there is listed in its expectations.
  std::set<std::string> known_failures;
};

struct ClauseCoverage {
  const Clause* clause = nullptr;
  std::vector<LinkedTest> tests;
  std::vector<ClauseStatus> status;  // one per backend, in backend order
  bool covered = false;              // named by a test that is not disabled
  bool passing = false;              // covered and passing on every backend
};

// Counts over a chapter or the whole spec.
struct CoverageCounts {
  int total = 0;     // all clauses
  int testable = 0;  // testable clauses
  int covered = 0;   // testable clauses named by a test that is not disabled
  int passing = 0;   // covered testable clauses passing on every backend
  // Per backend (in backend order): testable clauses with each status.
  std::vector<std::map<ClauseStatus, int>> by_backend;
};

struct ChapterCoverage {
  const Chapter* chapter = nullptr;
  std::vector<ClauseCoverage> clauses;  // in chapter order
  CoverageCounts counts;
  // The chapter's mutants (tools/mutate/results.h), when results were given.
  mutate::MutationCounts mutation;
};

struct CoverageModel {
  std::vector<std::string> backends;
  std::vector<ChapterCoverage> chapters;
  CoverageCounts totals;
  // Whether mutation results were added (AddMutationResults): the reports
  // then show each chapter's mutation score.
  bool has_mutation = false;
  mutate::MutationCounts mutation_totals;
  int tests_scanned = 0;  // tests found in the sources
  int results_read = 0;   // results read over all backends
  // References to IDs that are not clauses, results that match no test and
  // name no clause, and other things a reader should fix.
  std::vector<std::string> problems;
};

// "passed", "failed", "skipped", "unsupported", "disabled" as OutcomeName
// says, or "expected-failure" for a test whose failures on `backend` are
// all known failures.
std::string TestOutcomeName(const LinkedTest& test, const std::string& backend,
                            Outcome outcome);

// True if the clause's status is not the same on every backend (false with
// fewer than two backends).
bool StatusDiffers(const ClauseCoverage& clause);

// Joins the inputs. `index` must outlive the returned model.
CoverageModel BuildCoverage(const SpecIndex& index,
                            const std::vector<ScannedSource>& sources,
                            const std::vector<BackendResults>& backends);

// Adds the results of a tools/mutate run: each mutant counts for its
// chapter and in the totals. A mutant naming a chapter the spec lacks counts
// in the totals only and is listed as a problem.
void AddMutationResults(const std::vector<mutate::MutantResult>& results,
                        CoverageModel* model);

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_COVERAGE_COVERAGE_H_
