// coverage.json and the Markdown summary. Both are plain walks over the
// model; percentages are of testable clauses and printed with one decimal.
// With mutation results, each chapter also gets its mutation score. The
// side-by-side Markdown adds, for several backends, the status counts of
// each chapter per backend and every clause's status on each backend.
//
// Tested by report_test.cc.

#include <iterator>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"
#include "tools/spec_coverage/report.h"

namespace mxcts::spec {
namespace {

constexpr ClauseStatus kAllStatuses[] = {
    ClauseStatus::kPassing,         ClauseStatus::kFailing,
    ClauseStatus::kExpectedFailure, ClauseStatus::kUnsupported,
    ClauseStatus::kNotRun,          ClauseStatus::kPlanned,
    ClauseStatus::kUncovered,
};

// The statuses the side-by-side tables count, in column order, and their
// headings. Planned and uncovered clauses are the same on every backend, so
// the summary's covered column stands for them.
constexpr ClauseStatus kRunStatuses[] = {
    ClauseStatus::kPassing,         ClauseStatus::kFailing,
    ClauseStatus::kExpectedFailure, ClauseStatus::kUnsupported,
    ClauseStatus::kNotRun,
};

absl::string_view StatusHeading(ClauseStatus status) {
  switch (status) {
    case ClauseStatus::kExpectedFailure:
      return "expected failure";
    case ClauseStatus::kNotRun:
      return "not run";
    default:
      return ClauseStatusName(status);
  }
}

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

// The anchor of a clause's row: its ID with '.' as '-', which every
// Markdown renderer keeps in an id attribute.
std::string MarkdownAnchor(absl::string_view id) {
  return absl::StrReplaceAll(id, {{".", "-"}});
}

// `text` as one Markdown table cell: at most `limit` bytes of it (cut on a
// UTF-8 character boundary, then "..."), '|' escaped, '&', '<' and '>' as
// entities (so that no renderer takes them for HTML), line breaks as spaces.
std::string MarkdownCell(absl::string_view text, size_t limit) {
  std::string cell;
  const bool cut = text.size() > limit;
  if (cut) {
    size_t end = limit;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
      --end;
    }
    text = text.substr(0, end);
  }
  for (char c : text) {
    if (c == '&') {
      cell += "&amp;";
    } else if (c == '<') {
      cell += "&lt;";
    } else if (c == '>') {
      cell += "&gt;";
    } else if (c == '|') {
      cell += "\\|";
    } else if (c == '\n' || c == '\r') {
      cell += ' ';
    } else {
      cell += c;
    }
  }
  if (cut) cell += "...";
  return cell;
}

// "BACKEND: REASON" for each backend on which the clause is an expected
// failure: the reason its expectations give for the first of its tests that
// failed only by known failures there.
std::string KnownFailureReasons(const CoverageModel& model,
                                const ClauseCoverage& clause) {
  std::vector<std::string> reasons;
  for (size_t b = 0; b < model.backends.size(); ++b) {
    if (clause.status[b] != ClauseStatus::kExpectedFailure) continue;
    const std::string& backend = model.backends[b];
    for (const LinkedTest& test : clause.tests) {
      if (test.known_failures.count(backend) == 0) continue;
      auto message = test.messages.find(backend);
      if (message == test.messages.end()) continue;
      absl::string_view reason = message->second;
      absl::ConsumePrefix(&reason, "known failure: ");
      reason = reason.substr(0, reason.find('\n'));
      reasons.push_back(absl::StrCat(backend, ": ", MarkdownCell(reason, 200)));
      break;
    }
  }
  return absl::StrJoin(reasons, "; ");
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
      if (model.backends.size() > 1) entry["differs"] = StatusDiffers(clause);
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
          outcomes[backend] = TestOutcomeName(test, backend, outcome);
        }
        tests.push_back(std::move(linked));
      }
      clauses.push_back(std::move(entry));
    }
  }
  if (model.backends.size() > 1) {
    int differing = 0;
    for (const ChapterCoverage& chapter : model.chapters) {
      for (const ClauseCoverage& clause : chapter.clauses) {
        if (StatusDiffers(clause)) ++differing;
      }
    }
    json["clauses_differing"] = differing;
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

std::string CoverageSideBySideMarkdown(const CoverageModel& model) {
  std::string out = CoverageMarkdown(model);
  absl::StrAppend(&out, "\n## Clauses per backend, per chapter\n\n",
                  "Testable clauses by status on each backend (coverage.h "
                  "says what each status means).\n\n",
                  "| chapter | backend |");
  for (ClauseStatus status : kRunStatuses) {
    absl::StrAppend(&out, " ", StatusHeading(status), " |");
  }
  out += "\n| --- | --- |";
  for (size_t i = 0; i < std::size(kRunStatuses); ++i) out += " ---: |";
  out += "\n";
  auto add_rows = [&](const std::string& chapter,
                      const CoverageCounts& counts) {
    for (size_t b = 0; b < model.backends.size(); ++b) {
      absl::StrAppend(&out, "| ", b == 0 ? chapter : "", " | ",
                      model.backends[b], " |");
      for (ClauseStatus status : kRunStatuses) {
        absl::StrAppend(&out, " ", StatusCount(counts, b, status), " |");
      }
      out += "\n";
    }
  };
  for (const ChapterCoverage& chapter : model.chapters) {
    add_rows(chapter.chapter->name, chapter.counts);
  }
  add_rows("**all**", model.totals);

  std::vector<const ClauseCoverage*> differing;
  for (const ChapterCoverage& chapter : model.chapters) {
    for (const ClauseCoverage& clause : chapter.clauses) {
      if (StatusDiffers(clause)) differing.push_back(&clause);
    }
  }
  absl::StrAppend(&out, "\n## Clauses whose status differs (", differing.size(),
                  ")\n\n");
  if (differing.empty()) {
    out += "None.\n";
  } else {
    out += "| clause |";
    for (const std::string& backend : model.backends) {
      absl::StrAppend(&out, " ", backend, " |");
    }
    out += " known failures |\n| --- |";
    for (size_t b = 0; b < model.backends.size(); ++b) out += " --- |";
    out += " --- |\n";
  }
  for (const ClauseCoverage* clause : differing) {
    absl::StrAppend(&out, "| [`", clause->clause->id, "`](#",
                    MarkdownAnchor(clause->clause->id), ") |");
    for (ClauseStatus status : clause->status) {
      absl::StrAppend(&out, " ", ClauseStatusName(status), " |");
    }
    absl::StrAppend(&out, " ", KnownFailureReasons(model, *clause), " |\n");
  }
  out += "\n## Every clause\n";
  for (const ChapterCoverage& chapter : model.chapters) {
    absl::StrAppend(&out, "\n### ", chapter.chapter->name, ": ",
                    chapter.chapter->title, "\n\n| clause |");
    for (const std::string& backend : model.backends) {
      absl::StrAppend(&out, " ", backend, " |");
    }
    out += " differs |\n| --- |";
    for (size_t b = 0; b < model.backends.size(); ++b) out += " --- |";
    out += " --- |\n";
    for (const ClauseCoverage& clause : chapter.clauses) {
      absl::StrAppend(&out, "| <a id=\"", MarkdownAnchor(clause.clause->id),
                      "\"></a>`", clause.clause->id, "`",
                      clause.clause->testable ? "" : " (untestable)", " |");
      for (ClauseStatus status : clause.status) {
        absl::StrAppend(&out, " ", ClauseStatusName(status), " |");
      }
      absl::StrAppend(&out, StatusDiffers(clause) ? " **yes** |" : " |", "\n");
    }
  }
  return out;
}

}  // namespace mxcts::spec
