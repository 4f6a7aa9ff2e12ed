// -----------------------------------------------------------------------------
// File: report.h
// -----------------------------------------------------------------------------
//
// The three renderings of a CoverageModel (coverage.h):
//
//   * CoverageJson: coverage.json, for tools. Top-level and per-chapter
//     clauses_total, clauses_testable, clauses_covered, clauses_passing
//     (the last three over testable clauses; passing means passing on every
//     backend), per-backend status counts, every clause with its status and
//     tests, and the problems found.
//   * CoverageMarkdown: a short summary for CI logs: totals and one table
//     row per chapter.
//   * CoverageSideBySideMarkdown: the summary, then for comparing backends
//     (side_by_side.md when several are given): per chapter and backend
//     the number of testable clauses passing, failing, failing only by
//     known failures (expected failure), unsupported and not run; the
//     clauses whose status differs between backends, with the reason the
//     expectations give where a backend fails a clause only by known
//     failures; and every clause with one status column per backend. A few
//     hundred bytes per clause.
//   * CoverageHtml: index.html, one self-contained page (inline style and
//     script, nothing fetched): per chapter the share of testable clauses
//     covered and passing, per clause its tests and their outcome on each
//     backend, and filters that show only uncovered or only failing clauses;
//     with several backends also each chapter's status counts per backend
//     and a filter that shows only the clauses whose status differs.
//
// Example:
//
//   std::string html = mxcts::spec::CoverageHtml(model);

#ifndef MXCTS_TOOLS_SPEC_COVERAGE_REPORT_H_
#define MXCTS_TOOLS_SPEC_COVERAGE_REPORT_H_

#include <string>

#include "tools/spec_coverage/coverage.h"

namespace mxcts::spec {

// Returns coverage.json's text.
std::string CoverageJson(const CoverageModel& model);

// Returns the Markdown summary.
std::string CoverageMarkdown(const CoverageModel& model);

// Returns the side-by-side Markdown report (CoverageMarkdown's text first).
std::string CoverageSideBySideMarkdown(const CoverageModel& model);

// Returns index.html's text.
std::string CoverageHtml(const CoverageModel& model);

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_COVERAGE_REPORT_H_
