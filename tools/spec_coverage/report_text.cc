// coverage.json and the Markdown summary. Both are plain walks over the
// model; percentages are of testable clauses and printed with one decimal.
//
// Tested by report_test.cc.

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/spec/json_writer.h"
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

void WriteCounts(const CoverageCounts& counts,
                 const std::vector<std::string>& backends, JsonWriter& json) {
  json.Key("clauses_total").Int(counts.total);
  json.Key("clauses_testable").Int(counts.testable);
  json.Key("clauses_covered").Int(counts.covered);
  json.Key("clauses_passing").Int(counts.passing);
  json.Key("by_backend").BeginObject();
  for (size_t b = 0; b < backends.size(); ++b) {
    json.Key(backends[b]).BeginObject();
    for (ClauseStatus status : kAllStatuses) {
      auto found = counts.by_backend[b].find(status);
      json.Key(ClauseStatusName(status))
          .Int(found == counts.by_backend[b].end() ? 0 : found->second);
    }
    json.EndObject();
  }
  json.EndObject();
}

int StatusCount(const CoverageCounts& counts, size_t backend,
                ClauseStatus status) {
  if (backend >= counts.by_backend.size()) return 0;
  auto found = counts.by_backend[backend].find(status);
  return found == counts.by_backend[backend].end() ? 0 : found->second;
}

}  // namespace

std::string CoverageJson(const CoverageModel& model) {
  JsonWriter json;
  json.BeginObject();
  json.Key("backends").BeginArray();
  for (const std::string& backend : model.backends) json.String(backend);
  json.EndArray();
  WriteCounts(model.totals, model.backends, json);
  json.Key("tests_scanned").Int(model.tests_scanned);
  json.Key("results_read").Int(model.results_read);
  json.Key("chapters").BeginArray();
  for (const ChapterCoverage& chapter : model.chapters) {
    json.BeginObject();
    json.Key("name").String(chapter.chapter->name);
    json.Key("title").String(chapter.chapter->title);
    WriteCounts(chapter.counts, model.backends, json);
    json.EndObject();
  }
  json.EndArray();
  json.Key("clauses").BeginArray();
  for (const ChapterCoverage& chapter : model.chapters) {
    for (const ClauseCoverage& clause : chapter.clauses) {
      json.BeginObject();
      json.Key("id").String(clause.clause->id);
      json.Key("chapter").String(chapter.chapter->name);
      json.Key("kind").String(ClauseKindName(clause.clause->kind));
      json.Key("testable").Bool(clause.clause->testable);
      json.Key("covered").Bool(clause.covered);
      json.Key("passing").Bool(clause.passing);
      json.Key("status").BeginObject();
      for (size_t b = 0; b < model.backends.size(); ++b) {
        json.Key(model.backends[b]).String(ClauseStatusName(clause.status[b]));
      }
      json.EndObject();
      json.Key("tests").BeginArray();
      for (const LinkedTest& test : clause.tests) {
        json.BeginObject();
        json.Key("name").String(test.name);
        json.Key("location").String(test.location);
        json.Key("outcomes").BeginObject();
        for (const auto& [backend, outcome] : test.outcomes) {
          json.Key(backend).String(std::string(OutcomeName(outcome)));
        }
        json.EndObject();
        json.EndObject();
      }
      json.EndArray();
      json.EndObject();
    }
  }
  json.EndArray();
  json.Key("problems").BeginArray();
  for (const std::string& problem : model.problems) json.String(problem);
  json.EndArray();
  json.EndObject();
  return json.Take();
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
  out += "| chapter | clauses | testable | covered | passing |";
  for (const std::string& backend : model.backends) {
    absl::StrAppend(&out, " failing on ", backend, " |");
  }
  out += "\n| --- | ---: | ---: | ---: | ---: |";
  for (size_t b = 0; b < model.backends.size(); ++b) out += " ---: |";
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
