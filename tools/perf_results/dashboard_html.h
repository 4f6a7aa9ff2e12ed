// Copyright mxcts authors.
//
// tools/perf_results/dashboard_html.h: the performance dashboard, one
// self-contained HTML page.
//
// At the top, the regressions still in effect (benchmark, backend, commit
// range, size, confidence) and every other detected change; then one row
// per benchmark ratio (those with a current regression first) with one
// chart per backend side by side: the median
// of each run's repetitions as a line, their range as a band, change points
// as dashed lines with a flag (R: regression, I: improvement, M: a change
// within one commit, so of the machine), and the
// commit, date and spread of the run under the pointer. The charting
// library (dygraphs, from Debian's libjs-dygraphs) and the data are inlined,
// so the page needs nothing but a browser, offline.
//
//   DashboardInput input{series, runs, changes, options, "2026-11-27"};
//   std::string html = RenderDashboard(input);

#ifndef MXCTS_TOOLS_PERF_RESULTS_DASHBOARD_HTML_H_
#define MXCTS_TOOLS_PERF_RESULTS_DASHBOARD_HTML_H_

#include <string>
#include <vector>

#include "tools/perf_results/change_points.h"
#include "tools/perf_results/history.h"
#include "tools/perf_results/regressions.h"

namespace mxcts::perf_results {

struct DashboardInput {
  std::vector<Series> series;
  std::vector<RunInfo> runs;
  std::vector<Change> changes;  // DetectChanges(series, options)
  DetectorOptions options;      // stated on the page
  std::string generated;        // when the page was made, for people
};

// The whole page. Each chart is a <div class="chart" id="chart-N">; once
// the script has drawn it, it gets data-drawn="true", and the body's
// data-charts-drawn counts the charts drawn (what the browser test reads);
// window.dashboardCharts maps each chart's id to its Dygraph object.
std::string RenderDashboard(const DashboardInput& input);

}  // namespace mxcts::perf_results

#endif  // MXCTS_TOOLS_PERF_RESULTS_DASHBOARD_HTML_H_
