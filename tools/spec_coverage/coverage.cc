// Joining the spec, the test sources and the results.
//
// 1. Tests from sources are keyed by "Suite.Name". A result is matched to a
//    source test by the same key after removing what GoogleTest adds to
//    parameterised names ("Instance/Suite.Name/3" -> "Suite.Name").
// 2. Each test's clause IDs are the union of its source references and its
//    results' "spec" properties, resolved through aliases.
// 3. Per clause and backend, the outcomes of its tests reduce to a status
//    (coverage.h gives the order of precedence: an unexpected failure, a
//    known failure, a pass, an unsupported skip), and counts are summed per
//    chapter and overall.
//
// Tested by coverage_test.cc.

#include "tools/spec_coverage/coverage.h"

#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "re2/re2.h"

namespace mxcts::spec {
namespace {

// "Instance/Suite.Name/3" -> "Suite.Name"; "Suite/0.Name" (typed) ->
// "Suite.Name"; plain names are unchanged.
std::string SourceKey(const std::string& result_name) {
  static const LazyRE2 kParameterised = {
      R"((?:\w+/)?(\w+)(?:/\d+)?\.(\w+)(?:/\w+)?)"};
  std::string suite;
  std::string name;
  if (RE2::FullMatch(result_name, *kParameterised, &suite, &name)) {
    return absl::StrCat(suite, ".", name);
  }
  return result_name;
}

// One test with everything known about it.
struct TestRecord {
  std::string name;
  std::string location;
  bool disabled = false;
  std::set<std::string> clause_ids;  // as written (before alias resolution)
  std::map<std::string, Outcome> outcomes;
  std::map<std::string, std::string> messages;
  std::set<std::string> known_failures;
};

bool IsKnownFailure(const TestCaseResult& result) {
  return result.outcome == Outcome::kFailed &&
         absl::StartsWith(result.expectation, "known failure: ");
}

// "known failure: REASON\nMESSAGE" for a known failure, else the message.
std::string MessageOf(const TestCaseResult& result) {
  if (!IsKnownFailure(result)) return result.message;
  return absl::StrCat(result.expectation, "\n", result.message);
}

ClauseStatus StatusOn(const std::string& backend,
                      const std::vector<LinkedTest>& tests) {
  if (tests.empty()) return ClauseStatus::kUncovered;
  bool all_disabled = true;
  bool any_passed = false;
  bool any_unsupported = false;
  bool any_known_failure = false;
  for (const LinkedTest& test : tests) {
    if (!test.disabled) all_disabled = false;
    auto outcome = test.outcomes.find(backend);
    if (outcome == test.outcomes.end()) continue;
    switch (outcome->second) {
      case Outcome::kFailed:
        if (test.known_failures.count(backend) == 0) {
          return ClauseStatus::kFailing;
        }
        any_known_failure = true;
        break;
      case Outcome::kPassed:
        any_passed = true;
        break;
      case Outcome::kUnsupported:
        any_unsupported = true;
        break;
      case Outcome::kSkipped:
        break;
      case Outcome::kDisabled:
        break;
    }
  }
  if (all_disabled) return ClauseStatus::kPlanned;
  if (any_known_failure) return ClauseStatus::kExpectedFailure;
  if (any_passed) return ClauseStatus::kPassing;
  if (any_unsupported) return ClauseStatus::kUnsupported;
  return ClauseStatus::kNotRun;
}

void Count(const ClauseCoverage& clause, size_t backend_count,
           CoverageCounts* counts) {
  if (counts->by_backend.size() != backend_count) {
    counts->by_backend.resize(backend_count);
  }
  ++counts->total;
  if (!clause.clause->testable) return;
  ++counts->testable;
  if (clause.covered) ++counts->covered;
  if (clause.passing) ++counts->passing;
  for (size_t b = 0; b < backend_count; ++b) {
    ++counts->by_backend[b][clause.status[b]];
  }
}

}  // namespace

absl::string_view ClauseStatusName(ClauseStatus status) {
  switch (status) {
    case ClauseStatus::kUncovered:
      return "uncovered";
    case ClauseStatus::kPlanned:
      return "planned";
    case ClauseStatus::kNotRun:
      return "not-run";
    case ClauseStatus::kUnsupported:
      return "unsupported";
    case ClauseStatus::kExpectedFailure:
      return "expected-failure";
    case ClauseStatus::kFailing:
      return "failing";
    case ClauseStatus::kPassing:
      return "passing";
  }
  return "uncovered";
}

std::string TestOutcomeName(const LinkedTest& test, const std::string& backend,
                            Outcome outcome) {
  if (outcome == Outcome::kFailed && test.known_failures.count(backend) != 0) {
    return "expected-failure";
  }
  return std::string(OutcomeName(outcome));
}

bool StatusDiffers(const ClauseCoverage& clause) {
  for (ClauseStatus status : clause.status) {
    if (status != clause.status.front()) return true;
  }
  return false;
}

CoverageModel BuildCoverage(const SpecIndex& index,
                            const std::vector<ScannedSource>& sources,
                            const std::vector<BackendResults>& backends) {
  CoverageModel model;
  for (const BackendResults& backend : backends) {
    model.backends.push_back(backend.name);
  }

  // Tests by key, in a stable order.
  std::map<std::string, TestRecord> tests;
  for (const ScannedSource& source : sources) {
    for (const ScannedTest& scanned : source.tests) {
      ++model.tests_scanned;
      TestRecord& record = tests[scanned.FullName()];
      record.name = scanned.FullName();
      record.location = absl::StrCat(scanned.file, ":", scanned.line);
      record.disabled =
          absl::string_view(scanned.name).substr(0, 9) == "DISABLED_";
      for (const ClauseReference& reference : scanned.clauses) {
        record.clause_ids.insert(reference.id);
      }
    }
  }
  for (const BackendResults& backend : backends) {
    for (const TestCaseResult& result : backend.results) {
      ++model.results_read;
      std::string key = SourceKey(result.name);
      auto found = tests.find(key);
      if (found == tests.end()) {
        if (result.spec_clauses.empty()) continue;  // not a conformance test
        found = tests.emplace(result.name, TestRecord{}).first;
        found->second.name = result.name;
      }
      TestRecord& record = found->second;
      record.clause_ids.insert(result.spec_clauses.begin(),
                               result.spec_clauses.end());
      // Several instances of a parameterised test share a record: a failure
      // of any instance is the test's outcome, and it is a known failure
      // only while every failed instance is one.
      const bool known = IsKnownFailure(result);
      auto [outcome, inserted] =
          record.outcomes.emplace(backend.name, result.outcome);
      if (inserted) {
        if (!result.message.empty() || known) {
          record.messages[backend.name] = MessageOf(result);
        }
        if (known) record.known_failures.insert(backend.name);
      } else if (result.outcome == Outcome::kFailed) {
        const bool failed_before = outcome->second == Outcome::kFailed;
        outcome->second = Outcome::kFailed;
        if (!known) {
          // The first unexpected failure's message is the one shown.
          if (!failed_before || record.known_failures.count(backend.name)) {
            record.messages[backend.name] = result.message;
          }
          record.known_failures.erase(backend.name);
        } else if (!failed_before) {
          record.messages[backend.name] = MessageOf(result);
          record.known_failures.insert(backend.name);
        }
      }
      if (result.outcome == Outcome::kDisabled) record.disabled = true;
    }
  }

  // Clause ID -> the tests naming it.
  absl::flat_hash_map<const Clause*, std::vector<LinkedTest>> linked;
  for (const auto& [key, record] : tests) {
    for (const std::string& id : record.clause_ids) {
      const Clause* clause = index.Resolve(id);
      if (clause == nullptr) {
        model.problems.push_back(absl::StrCat(
            "test ", record.name, record.location.empty() ? "" : " (",
            record.location, record.location.empty() ? "" : ")", " names '", id,
            "', which is not a clause"));
        continue;
      }
      linked[clause].push_back({record.name, record.location, record.disabled,
                                record.outcomes, record.messages,
                                record.known_failures});
    }
  }

  for (const Chapter& chapter : index.chapters()) {
    ChapterCoverage chapter_coverage;
    chapter_coverage.chapter = &chapter;
    for (const Clause& clause : chapter.clauses) {
      ClauseCoverage coverage;
      coverage.clause = &clause;
      auto found = linked.find(&clause);
      if (found != linked.end()) coverage.tests = std::move(found->second);
      for (const LinkedTest& test : coverage.tests) {
        if (!test.disabled) coverage.covered = true;
      }
      coverage.passing = coverage.covered && !model.backends.empty();
      for (const std::string& backend : model.backends) {
        coverage.status.push_back(StatusOn(backend, coverage.tests));
        if (coverage.status.back() != ClauseStatus::kPassing) {
          coverage.passing = false;
        }
      }
      Count(coverage, model.backends.size(), &chapter_coverage.counts);
      Count(coverage, model.backends.size(), &model.totals);
      chapter_coverage.clauses.push_back(std::move(coverage));
    }
    model.chapters.push_back(std::move(chapter_coverage));
  }
  return model;
}

void AddMutationResults(const std::vector<mutate::MutantResult>& results,
                        CoverageModel* model) {
  model->has_mutation = true;
  std::map<std::string, ChapterCoverage*> by_name;
  for (ChapterCoverage& chapter : model->chapters) {
    by_name[chapter.chapter->name] = &chapter;
  }
  std::map<std::string, int> unknown;
  for (const mutate::MutantResult& result : results) {
    model->mutation_totals.Add(result.status);
    auto it = by_name.find(result.chapter);
    if (it != by_name.end()) {
      it->second->mutation.Add(result.status);
    } else {
      ++unknown[result.chapter];
    }
  }
  for (const auto& [chapter, count] : unknown) {
    model->problems.push_back(
        absl::StrCat(count, " mutation results name chapter \"", chapter,
                     "\", which is not in the spec"));
  }
}

}  // namespace mxcts::spec
