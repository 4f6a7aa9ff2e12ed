// index.html: one self-contained page.
//
// The page is static HTML with a small inline stylesheet and script; it
// fetches nothing, so it can be opened from disk or attached to a CI run.
// Layout: a totals header with the filter controls, a table of chapters
// (share of testable clauses covered and passing, as bars), then one section
// per chapter listing its clauses: ID, kind, status per backend, and the
// tests with their outcome per backend; the statement is in a collapsible
// detail. Each clause row carries data-covered and data-failing attributes
// that the filter script reads. With several backends, a table of each
// chapter's status counts per backend follows the chapters, and each clause
// row also carries data-differs (its status is not the same on every
// backend), marked and filterable.
//
// Tested by report_test.cc.

#include <iterator>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/spec/markup_escape.h"
#include "tools/spec_coverage/report.h"

namespace mxcts::spec {
namespace {

std::string Escape(absl::string_view text) { return EscapeMarkup(text); }

std::string Share(int part, int whole) {
  double percent = whole == 0 ? 0.0 : 100.0 * part / whole;
  return absl::StrFormat(
      "<span class=\"bar\"><span style=\"width:%.1f%%\"></span></span> "
      "%d/%d (%.1f%%)",
      percent, part, whole, percent);
}

constexpr char kStyle[] = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { margin-bottom: 0.2em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 3px 6px; vertical-align: top; text-align: left; }
th { background: #f0f0f0; }
code { font-size: 13px; }
.bar { display: inline-block; width: 80px; height: 9px; background: #eee; border: 1px solid #bbb; vertical-align: middle; }
.bar span { display: block; height: 100%; background: #4a8; }
.status { font-weight: 600; white-space: nowrap; }
.passing { color: #1a7a3a; } .failing { color: #b00020; }
.unsupported { color: #8a6d00; } .not-run, .planned { color: #666; }
.expected-failure { color: #8a3ab9; } .outcome-expected-failure { color: #8a3ab9; }
tr.differs td:first-child { border-left: 3px solid #8a3ab9; }
.uncovered { color: #b05a00; }
.outcome-passed { color: #1a7a3a; } .outcome-failed { color: #b00020; }
.outcome-unsupported { color: #8a6d00; } .outcome-skipped, .outcome-disabled { color: #666; }
.filters { position: sticky; top: 0; background: #fff; padding: 0.5em 0; border-bottom: 1px solid #ddd; }
.untestable { color: #777; }
details summary { cursor: pointer; }
.problems li { color: #b00020; }
)css";

constexpr char kScript[] = R"js(
function applyFilters() {
  var onlyUncovered = document.getElementById('only-uncovered').checked;
  var onlyFailing = document.getElementById('only-failing').checked;
  var differs = document.getElementById('only-differing');
  var onlyDiffering = differs !== null && differs.checked;
  var rows = document.querySelectorAll('tr.clause');
  var shown = 0;
  for (var i = 0; i < rows.length; i++) {
    var row = rows[i];
    var visible = (!onlyUncovered || row.dataset.covered === 'no') &&
                  (!onlyFailing || row.dataset.failing === 'yes') &&
                  (!onlyDiffering || row.dataset.differs === 'yes');
    row.style.display = visible ? '' : 'none';
    if (visible) shown++;
  }
  document.getElementById('shown-count').textContent = shown;
}
)js";

// Testable clauses by status, per chapter and backend: a row per chapter,
// a group of columns per backend.
std::string BackendCountsTable(const CoverageModel& model) {
  constexpr ClauseStatus kColumns[] = {
      ClauseStatus::kPassing,         ClauseStatus::kFailing,
      ClauseStatus::kExpectedFailure, ClauseStatus::kUnsupported,
      ClauseStatus::kNotRun,
  };
  std::string out =
      "<h2>Testable clauses per backend</h2>\n<table>\n<tr><th "
      "rowspan=\"2\">chapter</th>";
  for (const std::string& backend : model.backends) {
    absl::StrAppend(&out, "<th colspan=\"", std::size(kColumns), "\">",
                    Escape(backend), "</th>");
  }
  out += "</tr>\n<tr>";
  for (size_t b = 0; b < model.backends.size(); ++b) {
    for (ClauseStatus status : kColumns) {
      absl::StrAppend(&out, "<th class=\"", ClauseStatusName(status), "\">",
                      ClauseStatusName(status), "</th>");
    }
  }
  out += "</tr>\n";
  auto row = [&](const std::string& name, const CoverageCounts& counts) {
    absl::StrAppend(&out, "<tr><td>", name, "</td>");
    for (size_t b = 0; b < model.backends.size(); ++b) {
      for (ClauseStatus status : kColumns) {
        int count = 0;
        if (b < counts.by_backend.size()) {
          auto found = counts.by_backend[b].find(status);
          if (found != counts.by_backend[b].end()) count = found->second;
        }
        absl::StrAppend(&out, "<td>", count, "</td>");
      }
    }
    out += "</tr>\n";
  };
  for (const ChapterCoverage& chapter : model.chapters) {
    row(absl::StrCat("<a href=\"#", Escape(chapter.chapter->name), "\">",
                     Escape(chapter.chapter->title), "</a>"),
        chapter.counts);
  }
  row("<b>all</b>", model.totals);
  out += "</table>\n";
  return out;
}

}  // namespace

std::string CoverageHtml(const CoverageModel& model) {
  const CoverageCounts& totals = model.totals;
  // With several backends the page compares them: per-backend counts, a
  // mark on each clause whose status differs, and a filter for those.
  const bool side_by_side = model.backends.size() > 1;
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
      "charset=\"utf-8\">\n<title>mxcts spec coverage</title>\n<style>";
  out += kStyle;
  out += "</style>\n<script>";
  out += kScript;
  out += "</script>\n</head>\n<body>\n<h1>MXMACA spec coverage</h1>\n";
  absl::StrAppend(&out, "<p>Backends: <b>",
                  model.backends.empty()
                      ? "none (no results given)"
                      : Escape(absl::StrJoin(model.backends, ", ")),
                  "</b>. Tests found in sources: ", model.tests_scanned,
                  "; results read: ", model.results_read, ".</p>\n");
  absl::StrAppend(
      &out, "<p>Clauses: ", totals.total, "; testable: ", totals.testable,
      ".<br>Covered: ", Share(totals.covered, totals.testable),
      "<br>Passing on every backend: ", Share(totals.passing, totals.testable),
      "</p>\n");

  out +=
      "<div class=\"filters\"><label><input type=\"checkbox\" "
      "id=\"only-uncovered\" onchange=\"applyFilters()\"> only uncovered "
      "clauses</label> &nbsp; <label><input type=\"checkbox\" "
      "id=\"only-failing\" onchange=\"applyFilters()\"> only failing "
      "clauses</label> &nbsp; ";
  if (side_by_side) {
    out +=
        "<label><input type=\"checkbox\" id=\"only-differing\" "
        "onchange=\"applyFilters()\"> only clauses whose status differs "
        "between backends</label> &nbsp; ";
  }
  out += "showing <span id=\"shown-count\">";
  absl::StrAppend(&out, totals.total, "</span> clauses</div>\n");

  if (!model.problems.empty()) {
    absl::StrAppend(&out, "<h2>Problems (", model.problems.size(),
                    ")</h2>\n<ul class=\"problems\">\n");
    for (const std::string& problem : model.problems) {
      absl::StrAppend(&out, "<li>", Escape(problem), "</li>\n");
    }
    out += "</ul>\n";
  }

  out +=
      "<h2>Chapters</h2>\n<table>\n<tr><th>chapter</th><th>clauses</th>"
      "<th>testable</th><th>covered</th><th>passing</th>";
  // The mutation score: killed mutants of those killed or surviving
  // (tools/mutate); a survivor is a check no test notices breaking.
  if (model.has_mutation) out += "<th>mutation score</th>";
  out += "</tr>\n";
  for (const ChapterCoverage& chapter : model.chapters) {
    const CoverageCounts& counts = chapter.counts;
    absl::StrAppend(&out, "<tr><td><a href=\"#", Escape(chapter.chapter->name),
                    "\">", Escape(chapter.chapter->title), "</a></td><td>",
                    counts.total, "</td><td>", counts.testable, "</td><td>",
                    Share(counts.covered, counts.testable), "</td><td>",
                    Share(counts.passing, counts.testable), "</td>");
    if (model.has_mutation) {
      const mutate::MutationCounts& mutation = chapter.mutation;
      const int scored = mutation.killed + mutation.survived;
      absl::StrAppend(
          &out, "<td>",
          scored == 0 ? std::string("-") : Share(mutation.killed, scored),
          "</td>");
    }
    out += "</tr>\n";
  }
  out += "</table>\n";
  if (side_by_side) out += BackendCountsTable(model);

  for (const ChapterCoverage& chapter : model.chapters) {
    absl::StrAppend(&out, "<h2 id=\"", Escape(chapter.chapter->name), "\">",
                    Escape(chapter.chapter->title), " <small>(",
                    Escape(chapter.chapter->file), ")</small></h2>\n");
    out += "<table>\n<tr><th>clause</th><th>kind</th>";
    for (const std::string& backend : model.backends) {
      absl::StrAppend(&out, "<th>", Escape(backend), "</th>");
    }
    out += "<th>tests</th></tr>\n";
    for (const ClauseCoverage& clause : chapter.clauses) {
      bool failing = false;
      for (ClauseStatus status : clause.status) {
        if (status == ClauseStatus::kFailing) failing = true;
      }
      const bool differs = StatusDiffers(clause);
      absl::StrAppend(&out, "<tr class=\"clause", differs ? " differs" : "",
                      "\" data-covered=\"", clause.covered ? "yes" : "no",
                      "\" data-failing=\"", failing ? "yes" : "no");
      if (side_by_side) {
        absl::StrAppend(&out, "\" data-differs=\"", differs ? "yes" : "no");
      }
      absl::StrAppend(
          &out, "\"><td><details><summary><code>", Escape(clause.clause->id),
          "</code></summary>", Escape(clause.clause->statement),
          "<br><small>source: ", Escape(clause.clause->source),
          "</small></details></td><td>", ClauseKindName(clause.clause->kind));
      if (clause.clause->kind == ClauseKind::kError) {
        absl::StrAppend(&out, "<br><code>", Escape(clause.clause->error),
                        "</code>");
      }
      if (!clause.clause->testable) {
        absl::StrAppend(&out, "<br><span class=\"untestable\" title=\"",
                        Escape(clause.clause->untestable_reason),
                        "\">untestable</span>");
      }
      out += "</td>";
      for (ClauseStatus status : clause.status) {
        absl::StrAppend(&out, "<td class=\"status ", ClauseStatusName(status),
                        "\">", ClauseStatusName(status), "</td>");
      }
      out += "<td>";
      if (clause.tests.empty()) out += "<span class=\"uncovered\">none</span>";
      for (const LinkedTest& test : clause.tests) {
        absl::StrAppend(&out, "<div><code title=\"", Escape(test.location),
                        "\">", Escape(test.name), "</code>");
        for (const auto& [backend, outcome] : test.outcomes) {
          auto message = test.messages.find(backend);
          const std::string outcome_name =
              TestOutcomeName(test, backend, outcome);
          absl::StrAppend(
              &out, " <span class=\"outcome-", outcome_name, "\" title=\"",
              message == test.messages.end() ? "" : Escape(message->second),
              "\">", Escape(backend), ": ", outcome_name, "</span>");
        }
        out += "</div>";
      }
      out += "</td></tr>\n";
    }
    out += "</table>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace mxcts::spec
