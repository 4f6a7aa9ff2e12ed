// coverage.json and the Markdown summary. Both are plain walks over the
// model; percentages are of testable clauses and printed with one decimal.
// With mutation results, each chapter also gets its mutation score.
//
// Tested by report_test.cc.

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "tools/spec_coverage/report.h"

namespace mxcts::spec {
namespace {

constexpr ClauseStatus kAllStatuses[] = {
    ClauseStatus::kPassing, ClauseStatus::kFailing, ClauseStatus::kUnsupported,
    ClauseStatus::kNotRun,  ClauseStatus::kPlanned, ClauseStatus::kUncovered,
};

std::string Percent(int part, int whole) {
  if (whole == 0) return "-";
  return absl::StrFormat("%.1f%%", 100.0 * part / whole);
}

using Json = nlohmann::ordered_json;

// Adds the clause counts of `counts` to the object `json`.
void AddCounts(const CoverageCounts& counts,
               const std::vector<std::string>& backends, Json& json) {
  json["clauses_total"] = counts.total;
  json["clauses_testable"] = counts.testable;
  json["clauses_covered"] = counts.covered;
  json["clauses_passing"] = counts.passing;
  Json& by_backend = json["by_backend"] = Json::object();
  for (size_t b = 0; b < backends.size(); ++b) {
    Json& statuses = by_backend[backends[b]] = Json::object();
    for (ClauseStatus status : kAllStatuses) {
      auto found = counts.by_backend[b].find(status);
      statuses[std::string(ClauseStatusName(status))] =
          found == counts.by_backend[b].end() ? 0 : found->second;
    }
  }
}

// The counts of a chapter's mutants, as coverage.json holds them.
Json MutationJson(const mutate::MutationCounts& counts) {
  Json json = Json::object();
  json["mutants"] = counts.total;
  json["killed"] = counts.killed;
  json["survived"] = counts.survived;
  json["no_tests"] = counts.no_tests;
  json["build_errors"] = counts.build_errors;
  json["timeouts"] = counts.timeouts;
  json["equivalent"] = counts.equivalent;
  std::optional<double> score = counts.Score();
  json["score"] = score.has_value() ? Json(*score) : Json(nullptr);
  return json;
}

// "75.0% (3/4)", or "-" for a chapter without killed or surviving mutants.
std::string MutationCell(const mutate::MutationCounts& counts) {
  if (!counts.Score().has_value()) return "-";
  return absl::StrCat(mutate::FormatScore(counts), " (", counts.killed, "/",
                      counts.killed + counts.survived, ")");
}

int StatusCount(const CoverageCounts& counts, size_t backend,
                ClauseStatus status) {
  if (backend >= counts.by_backend.size()) return 0;
  auto found = counts.by_backend[backend].find(status);
  return found == counts.by_backend[backend].end() ? 0 : found->second;
}

}  // namespace

std::string CoverageJson(const CoverageModel& model) {
  Json json = Json::object();
  json["backends"] = model.backends;
  AddCounts(model.totals, model.backends, json);
  if (model.has_mutation)
    json["mutation"] = MutationJson(model.mutation_totals);
  json["tests_scanned"] = model.tests_scanned;
  json["results_read"] = model.results_read;
  Json& chapters = json["chapters"] = Json::array();
  for (const ChapterCoverage& chapter : model.chapters) {
    Json entry = Json::object();
    entry["name"] = chapter.chapter->name;
    entry["title"] = chapter.chapter->title;
    AddCounts(chapter.counts, model.backends, entry);
    if (model.has_mutation) entry["mutation"] = MutationJson(chapter.mutation);
    chapters.push_back(std::move(entry));
  }
  Json& clauses = json["clauses"] = Json::array();
  for (const ChapterCoverage& chapter : model.chapters) {
    for (const ClauseCoverage& clause : chapter.clauses) {
      Json entry = Json::object();
      entry["id"] = clause.clause->id;
      entry["chapter"] = chapter.chapter->name;
      entry["kind"] = std::string(ClauseKindName(clause.clause->kind));
      entry["testable"] = clause.clause->testable;
      entry["covered"] = clause.covered;
      entry["passing"] = clause.passing;
      Json& status = entry["status"] = Json::object();
      for (size_t b = 0; b < model.backends.size(); ++b) {
        status[model.backends[b]] =
            std::string(ClauseStatusName(clause.status[b]));
      }
      Json& tests = entry["tests"] = Json::array();
      for (const LinkedTest& test : clause.tests) {
        Json linked = Json::object();
        linked["name"] = test.name;
        linked["location"] = test.location;
        Json& outcomes = linked["outcomes"] = Json::object();
        for (const auto& [backend, outcome] : test.outcomes) {
          outcomes[backend] = std::string(OutcomeName(outcome));
        }
        tests.push_back(std::move(linked));
      }
      clauses.push_back(std::move(entry));
    }
  }
  json["problems"] = model.problems;
  // Test names and messages may hold any bytes; invalid UTF-8 becomes U+FFFD
  // rather than aborting the report.
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string CoverageMarkdown(const CoverageModel& model) {
  const CoverageCounts& totals = model.totals;
  std::string out = "# Spec coverage\n\n";
  absl::StrAppend(&out, "Backends: ",
                  model.backends.empty() ? "none (no results given)"
                                         : absl::StrJoin(model.backends, ", "),
                  ". Tests found in sources: ", model.tests_scanned,
                  "; results read: ", model.results_read, ".\n\n");
  absl::StrAppend(&out, "Clauses: ", totals.total,
                  ", testable: ", totals.testable,
                  ", covered: ", totals.covered, " (",
                  Percent(totals.covered, totals.testable),
                  "), passing on every backend: ", totals.passing, " (",
                  Percent(totals.passing, totals.testable), ").\n\n");
  if (model.has_mutation) {
    const mutate::MutationCounts& mutation = model.mutation_totals;
    absl::StrAppend(
        &out, "Mutants: ", mutation.total, ", killed: ", mutation.killed,
        ", survived: ", mutation.survived, ", no tests: ", mutation.no_tests,
        ", equivalent (not scored): ", mutation.equivalent,
        "; mutation score (killed of killed and survived): ",
        MutationCell(mutation), ".\n\n");
  }
  out += "| chapter | clauses | testable | covered | passing |";
  for (const std::string& backend : model.backends) {
    absl::StrAppend(&out, " failing on ", backend, " |");
  }
  if (model.has_mutation) out += " mutation score |";
  out += "\n| --- | ---: | ---: | ---: | ---: |";
  for (size_t b = 0; b < model.backends.size(); ++b) out += " ---: |";
  if (model.has_mutation) out += " ---: |";
  out += "\n";
  for (const ChapterCoverage& chapter : model.chapters) {
    const CoverageCounts& counts = chapter.counts;
    absl::StrAppend(&out, "| ", chapter.chapter->name, " | ", counts.total,
                    " | ", counts.testable, " | ", counts.covered, " (",
                    Percent(counts.covered, counts.testable), ") | ",
                    counts.passing, " (",
                    Percent(counts.passing, counts.testable), ") |");
    for (size_t b = 0; b < model.backends.size(); ++b) {
      absl::StrAppend(&out, " ", StatusCount(counts, b, ClauseStatus::kFailing),
                      " |");
    }
    if (model.has_mutation) {
      absl::StrAppend(&out, " ", MutationCell(chapter.mutation), " |");
    }
    out += "\n";
  }
  if (!model.problems.empty()) {
    absl::StrAppend(&out, "\n## Problems (", model.problems.size(), ")\n\n");
    for (const std::string& problem : model.problems) {
      absl::StrAppend(&out, "- ", problem, "\n");
    }
  }
  return out;
}

}  // namespace mxcts::spec
