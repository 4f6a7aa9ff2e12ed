// -----------------------------------------------------------------------------
// File: results.h
// -----------------------------------------------------------------------------
//
// The results file of tools/mutate and the mutation score computed from it
// (tools/spec_coverage reads it too, for its "mutation score" column).
//
// The file is TSV with a header line, one mutant a line:
//
//   id  file  line  operator  clauses  chapter  status  seconds  targets
//
// `clauses` and `targets` are comma-separated; `chapter` is the chapter of
// the first clause that is in the spec ("" if none is). `status` is one of
//
//   killed       a test that names the clause failed (or timed out)
//   survived     every such test passed: a gap in the tests
//   no-tests     no test names the clause
//   build-error  the mutant does not compile (not a mutant that counts)
//   timeout      the build ran past the per-mutant limit (does not count)
//   broken       the tests already fail unmutated, so the mutant cannot be
//                judged (does not count)
//   equivalent   listed in the equivalent mutants' file (equivalents.h)
//                with the reason no program can tell it from the
//                reference; not run (does not count)
//
// The mutation score is killed / (killed + survived); a chapter with
// neither has no score.
//
// Example:
//
//   absl::StatusOr<std::vector<MutantResult>> results =
//       ReadResults(ReadFile(path));
//   for (const auto& [chapter, score] : ScoresByChapter(*results)) ...

#ifndef MXCTS_TOOLS_MUTATE_RESULTS_H_
#define MXCTS_TOOLS_MUTATE_RESULTS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::mutate {

enum class MutantStatus {
  kKilled,
  kSurvived,
  kNoTests,
  kBuildError,
  kTimeout,
  kBroken,
  kEquivalent,
};

// "killed", "survived", "no-tests", "build-error", "timeout", "broken",
// "equivalent".
absl::string_view MutantStatusName(MutantStatus status);

struct MutantResult {
  std::string id;
  std::string file;
  int line = 0;
  std::string op;
  std::vector<std::string> clauses;
  std::string chapter;
  MutantStatus status = MutantStatus::kSurvived;
  double seconds = 0;
  std::vector<std::string> targets;
};

// Counts over a set of mutants.
struct MutationCounts {
  int total = 0;
  int killed = 0;
  int survived = 0;
  int no_tests = 0;
  int build_errors = 0;
  int timeouts = 0;
  int broken = 0;
  int equivalent = 0;

  void Add(MutantStatus status);
  // killed / (killed + survived), or nullopt when both are 0.
  std::optional<double> Score() const;
};

// The header line, with its newline.
std::string ResultsHeader();

// One result as a line, with its newline.
std::string FormatResult(const MutantResult& result);

// Parses a results file. Fails on a missing header or a malformed line,
// naming the line. `file` is used in messages.
absl::StatusOr<std::vector<MutantResult>> ParseResults(absl::string_view file,
                                                       absl::string_view text);

// Counts per chapter; mutants with no chapter count under "".
std::map<std::string, MutationCounts> CountsByChapter(
    const std::vector<MutantResult>& results);

// "87.5%" or "-" when there is no score.
std::string FormatScore(const MutationCounts& counts);

// A plain-text table: one row per chapter and a total row.
std::string SummaryTable(const std::vector<MutantResult>& results);

}  // namespace mxcts::mutate

#endif  // MXCTS_TOOLS_MUTATE_RESULTS_H_
