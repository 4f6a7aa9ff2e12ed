// Copyright mxcts authors.
//
// Renders the dashboard page (dashboard_html.h).
//
// The page is static HTML for everything that is text (the summary, the
// tables, the chart frames) and one JSON blob that the inlined script turns
// into charts, so the tables read without scripts and the charts need only
// the blob. Rows are the (benchmark, counter) pairs of every backend; a
// backend without that series gets an empty cell, so the columns line up.
// Chart x values are the runs' dates in milliseconds since the epoch,
// parsed here (the history keeps RFC 3339 UTC dates).
//
// Inlined text must not close its <script> element early: "</" is written
// "<\/" in the JSON blob (the same string to JSON), and "</script" as
// "<\/script" in the library's script (where it could only be in a string;
// other "</" there are code, a regular expression /</g among them).
//
// Tested by dashboard_html_test.cc, and drawn in a headless browser by
// dashboard_browser_test.sh.

#include "tools/perf_results/dashboard_html.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "tools/perf_results/dygraphs_assets.h"
#include "tools/spec/markup_escape.h"

namespace mxcts::perf_results {
namespace {

using nlohmann::json;
using spec::EscapeMarkup;

double DateMillis(const std::string& date) {
  absl::Time time;
  std::string error;
  if (!absl::ParseTime(absl::RFC3339_full, date, &time, &error)) return 0;
  return static_cast<double>(absl::ToUnixMillis(time));
}

std::string Percent(double change) {
  return absl::StrFormat("%+.1f%%", 100 * change);
}

std::string Confidence(double confidence) {
  if (confidence >= 0.9999) return ">99.99%";
  return absl::StrFormat("%.2f%%", 100 * confidence);
}

// What a change is, for people.
std::string Kind(const Change& change) {
  if (change.same_commit) {
    return "same commit: machine";
  }
  if (!change.regression) return "improvement";
  return change.current ? "regression" : "regression, undone later";
}

std::string ChangeText(const Change& change) {
  return absl::StrCat(change.same_commit  ? "same commit, "
                      : change.regression ? "regression "
                                          : "improvement ",
                      Percent(change.point.relative_change), " (median ",
                      absl::StrFormat("%.4g", change.point.before_median),
                      " to ",
                      absl::StrFormat("%.4g", change.point.after_median),
                      "), commits ", CommitRange(change), ", confidence ",
                      Confidence(change.point.confidence));
}

void AppendChangeTable(const std::vector<const Change*>& changes,
                       const std::string& table_id, std::string* out) {
  absl::StrAppend(out, "<table id=\"", table_id, "\"><thead><tr>",
                  "<th>benchmark</th><th>ratio</th><th>backend</th>",
                  "<th>commits</th><th>size</th><th>median before</th>",
                  "<th>median after</th><th>confidence</th><th>kind</th>"
                  "</tr></thead>",
                  "<tbody>\n");
  for (const Change* change : changes) {
    absl::StrAppend(out, "<tr class=\"",
                    change->same_commit
                        ? "machine"
                        : (change->regression ? "regression" : "improvement"),
                    "\"><td><a href=\"#row-", change->series_index, "\">",
                    EscapeMarkup(change->benchmark), "</a></td><td>",
                    EscapeMarkup(change->counter), "</td><td>",
                    EscapeMarkup(change->backend), "</td><td><code>",
                    EscapeMarkup(CommitRange(*change)), "</code></td><td>",
                    Percent(change->point.relative_change), "</td><td>",
                    absl::StrFormat("%.4g", change->point.before_median),
                    "</td><td>",
                    absl::StrFormat("%.4g", change->point.after_median),
                    "</td><td>", Confidence(change->point.confidence),
                    "</td><td>", Kind(*change), "</td></tr>\n");
  }
  absl::StrAppend(out, "</tbody></table>\n");
}

constexpr char kStyle[] = R"css(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { margin-bottom: 0.2em; }
.note { color: #555; font-size: 0.9em; max-width: 60em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left;
         vertical-align: top; }
details { margin: 0.5em 0 1em; }
th { background: #f0f0f0; }
tr.regression td:nth-child(5) { color: #b00; font-weight: bold; }
tr.improvement td:nth-child(5) { color: #070; }
tr.machine td { color: #777; }
.none { color: #070; font-weight: bold; }
section.row { display: inline-block; vertical-align: top; margin: 0 1.5em 1em 0;
              border-top: 1px solid #ddd; padding-top: 0.5em; }
section.row h3 { margin: 0.3em 0; font-size: 1em; max-width: 520px;
                 overflow-wrap: anywhere; }
section.row h3 .counter { font-weight: normal; color: #555; }
.cells { display: flex; gap: 1.5em; flex-wrap: wrap; }
.cell { width: 520px; }
.cell .backend { font-weight: bold; font-size: 0.9em; }
.chart { width: 520px; height: 200px; }
.legend { font-size: 0.8em; min-height: 2.6em; color: #333; }
.empty { width: 520px; height: 200px; display: flex; align-items: center;
         justify-content: center; color: #999; border: 1px dashed #ddd; }
.dygraph-annotation.regression { background: #fdd; border-color: #b00; }
.dygraph-annotation.improvement { background: #dfd; border-color: #070; }
.dygraph-annotation.machine { background: #eee; border-color: #999; }
)css";

// Draws every chart of the blob; marks each drawn chart and counts them on
// the body for the browser test.
constexpr char kScript[] = R"js(
(function () {
  var data = JSON.parse(document.getElementById('dashboard-data').textContent);
  var drawn = 0;
  // Each chart's Dygraph by its element id, for the console (and tests).
  window.dashboardCharts = {};
  function fmt(v) { return Number(v).toPrecision(4); }
  data.charts.forEach(function (chart) {
    var element = document.getElementById(chart.id);
    var legend = document.getElementById(chart.id + '-legend');
    var rows = chart.points.map(function (p) {
      return [new Date(p.x), [p.min, p.median, p.max]];
    });
    var graph = new Dygraph(element, rows, {
      labels: ['date', chart.counter],
      customBars: true,
      drawPoints: true,
      pointSize: 2.5,
      strokeWidth: 1.5,
      colors: ['#2a6ebb'],
      legend: 'always',
      labelsDiv: legend,
      ylabel: 'ratio',
      axes: {x: {axisLabelWidth: 80, pixelsPerLabel: 90}},
      legendFormatter: function (d) {
        if (d.i === undefined || d.i === null || d.x === undefined) {
          return chart.backend + ': ' + chart.points.length +
              ' runs; point at a run for its commit';
        }
        var p = chart.points[d.i];
        return 'commit <code>' + p.commit + '</code> &middot; ' + p.date +
            ' &middot; median ' + fmt(p.median) + ' (min ' + fmt(p.min) +
            ', max ' + fmt(p.max) + ', ' + p.n + ' repetitions)';
      },
      underlayCallback: function (context, area, g) {
        chart.changes.forEach(function (c) {
          var x = g.toDomXCoord(c.x);
          context.save();
          context.strokeStyle = c.machine ? '#999' : c.regression ? '#b00' : '#070';
          context.setLineDash([5, 4]);
          context.lineWidth = 1.5;
          context.beginPath();
          context.moveTo(x, area.y);
          context.lineTo(x, area.y + area.h);
          context.stroke();
          context.restore();
        });
      },
      drawCallback: function (g, initial) {
        if (!initial) return;
        element.setAttribute('data-drawn', 'true');
        drawn += 1;
        document.body.setAttribute('data-charts-drawn', String(drawn));
      }
    });
    window.dashboardCharts[chart.id] = graph;
    graph.ready(function (g) {
      g.setAnnotations(chart.changes.map(function (c) {
        var kind = c.machine ? 'machine' : c.regression ? 'regression' : 'improvement';
        return {series: chart.counter, x: c.x, shortText: kind.charAt(0).toUpperCase(),
                text: c.text, cssClass: kind,
                width: 16, height: 16};
      }));
    });
  });
})();
)js";

}  // namespace

std::string RenderDashboard(const DashboardInput& input) {
  // Backends in order of their first run; rows in the series' order.
  std::vector<std::string> backends;
  std::map<std::string, int> runs_per_backend;
  std::map<std::string, const RunInfo*> latest_run;
  for (const RunInfo& run : input.runs) {
    if (runs_per_backend[run.backend]++ == 0) backends.push_back(run.backend);
    latest_run[run.backend] = &run;
  }
  std::vector<std::pair<std::string, std::string>> rows;  // benchmark, counter
  std::map<std::pair<std::string, std::string>, std::map<std::string, int>>
      cell_series;  // row -> backend -> series index
  for (int s = 0; s < static_cast<int>(input.series.size()); ++s) {
    const Series& series = input.series[s];
    const auto row = std::make_pair(series.benchmark, series.counter);
    if (cell_series.count(row) == 0) rows.push_back(row);
    cell_series[row][series.backend] = s;
    if (runs_per_backend.count(series.backend) == 0) {
      runs_per_backend[series.backend] = 0;
      backends.push_back(series.backend);
    }
  }
  std::map<int, std::vector<const Change*>> changes_of_series;
  std::vector<const Change*> current, others;
  std::set<std::pair<std::string, std::string>> regressed_rows;
  for (const Change& change : input.changes) {
    changes_of_series[change.series_index].push_back(&change);
    (change.regression && change.current ? current : others).push_back(&change);
    if (change.regression && change.current) {
      regressed_rows.emplace(change.benchmark, change.counter);
    }
  }
  // Rows with a current regression first, then by name.
  std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
    const bool a_regressed = regressed_rows.count(a) != 0;
    const bool b_regressed = regressed_rows.count(b) != 0;
    if (a_regressed != b_regressed) return a_regressed;
    return a < b;
  });

  std::string out;
  absl::StrAppend(&out,
                  "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                  "charset=\"utf-8\">\n<title>mxcts performance "
                  "dashboard</title>\n<style>",
                  DygraphsStyle(), "</style>\n<style>", kStyle,
                  "</style>\n</head>\n<body>\n<h1>mxcts performance "
                  "dashboard</h1>\n<p class=\"note\">Generated ",
                  EscapeMarkup(input.generated), " from ", input.runs.size(),
                  " recorded runs. Every value is a benchmark's ratio to a "
                  "physical limit of its machine measured in the same run "
                  "(perf/README.md); lower is better unless the row says "
                  "otherwise.</p>\n<ul class=\"note\" id=\"backends\">\n");
  for (const std::string& backend : backends) {
    absl::StrAppend(&out, "<li><b>", EscapeMarkup(backend),
                    "</b>: ", runs_per_backend[backend], " runs");
    if (auto it = latest_run.find(backend); it != latest_run.end()) {
      absl::StrAppend(
          &out, "; latest ", EscapeMarkup(it->second->date), " at <code>",
          EscapeMarkup(it->second->commit.substr(0, 12)), "</code> on ",
          EscapeMarkup(Describe(it->second->machine)));
    }
    absl::StrAppend(&out, "</li>\n");
  }
  absl::StrAppend(&out, "</ul>\n<h2>Current regressions</h2>\n",
                  current.empty()
                      ? "<p class=\"none\" id=\"no-regressions\">None.</p>\n"
                      : "");
  if (!current.empty()) AppendChangeTable(current, "current-regressions", &out);
  absl::StrAppend(
      &out,
      "<p class=\"note\">Method: binary segmentation of each ratio's "
      "history. Each split is tested with the two-sided Mann-Whitney U test "
      "on the repetitions of up to ",
      input.options.window,
      " runs before and after it, Bonferroni-corrected for the splits "
      "tried, and reported when the corrected p-value is below ",
      absl::StrFormat("%g", input.options.alpha),
      ", the medians differ by at least ",
      absl::StrFormat("%g", 100 * input.options.min_effect),
      "% and the new level holds for at least ", input.options.min_runs,
      " runs on each side. Confidence is 1 minus the corrected p-value. A "
      "regression is current until a later change of the same ratio goes "
      "the other way.</p>\n");
  if (!others.empty()) {
    // Folded: they explain the charts but call for no action.
    absl::StrAppend(
        &out, "<details id=\"other-changes-list\"><summary><b>", others.size(),
        " other changes</b>: improvements, regressions undone later, and "
        "changes between two runs of the same commit (\"same commit: "
        "machine\": the machine or its load changed, not the code)"
        "</summary>\n");
    AppendChangeTable(others, "other-changes", &out);
    absl::StrAppend(&out, "</details>\n");
  }

  json charts = json::array();
  absl::StrAppend(&out, "<h2>History</h2>\n");
  int chart_number = 0;
  for (const auto& row : rows) {
    const std::map<std::string, int>& cells = cell_series[row];
    const int first_series = cells.begin()->second;
    absl::StrAppend(&out, "<section class=\"row\" id=\"row-", first_series,
                    "\">");
    // Every series of the row answers to the link of any of them.
    for (const auto& [backend, s] : cells) {
      if (s != first_series) {
        absl::StrAppend(&out, "<a id=\"row-", s, "\"></a>");
      }
    }
    absl::StrAppend(
        &out, "<h3>", EscapeMarkup(row.first), " <span class=\"counter\">",
        EscapeMarkup(row.second),
        CounterLowerIsBetter(row.second) ? "" : " (higher is better)",
        "</span></h3>\n<div class=\"cells\">\n");
    for (const std::string& backend : backends) {
      auto cell = cells.find(backend);
      if (cell == cells.end()) {
        absl::StrAppend(&out, "<div class=\"cell\"><div class=\"backend\">",
                        EscapeMarkup(backend),
                        "</div><div class=\"empty\">no results</div></div>\n");
        continue;
      }
      const Series& series = input.series[cell->second];
      const std::string id = absl::StrCat("chart-", chart_number++);
      absl::StrAppend(&out, "<div class=\"cell\"><div class=\"backend\">",
                      EscapeMarkup(backend), "</div><div class=\"chart\" id=\"",
                      id, "\" data-backend=\"", EscapeMarkup(backend),
                      "\"></div><div class=\"legend\" id=\"", id,
                      "-legend\"></div></div>\n");
      json points = json::array();
      for (const SeriesPoint& point : series.points) {
        const auto [low, high] =
            std::minmax_element(point.values.begin(), point.values.end());
        points.push_back({{"x", DateMillis(point.date)},
                          {"date", point.date},
                          {"commit", point.commit.substr(0, 12)},
                          {"min", *low},
                          {"median", Median(point.values)},
                          {"max", *high},
                          {"n", point.values.size()}});
      }
      json changes = json::array();
      for (const Change* change : changes_of_series[cell->second]) {
        changes.push_back(
            {{"x", DateMillis(series.points[change->point.index].date)},
             {"regression", change->regression},
             {"machine", change->same_commit},
             {"text", ChangeText(*change)}});
      }
      charts.push_back({{"id", id},
                        {"backend", backend},
                        {"benchmark", series.benchmark},
                        {"counter", series.counter},
                        {"points", std::move(points)},
                        {"changes", std::move(changes)}});
    }
    absl::StrAppend(&out, "</div></section>\n");
  }
  if (rows.empty()) {
    absl::StrAppend(&out, "<p class=\"note\">No ratios recorded yet.</p>\n");
  }

  json blob = {{"charts", std::move(charts)}};
  absl::StrAppend(
      &out, "<script type=\"application/json\" id=\"dashboard-data\">",
      absl::StrReplaceAll(blob.dump(), {{"</", "<\\/"}}), "</script>\n<script>",
      absl::StrReplaceAll(DygraphsScript(), {{"</script", "<\\/script"},
                                             {"</SCRIPT", "<\\/SCRIPT"}}),
      "</script>\n<script>", kScript, "</script>\n</body></html>\n");
  return out;
}

}  // namespace mxcts::perf_results
