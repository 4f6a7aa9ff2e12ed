// Copyright mxcts authors.
//
// tools/perf_results/regressions.h: the detected changes of a whole
// history, each named by its benchmark and commit range, and which of them
// are regressions still in effect.
//
// A ratio counter is a cost against a physical limit (lower is better)
// unless it is a throughput against one (higher is better: the copy
// bandwidth's `ratio_to_memcpy`, and `ratio_cold_to_hit`, what the binary
// cache saves); CounterLowerIsBetter says which. A change in the worse
// direction is a regression; it is current when no later change of the
// same series goes the other way. A change between two runs of the same
// commit cannot come from the code: the machine or its load changed. It is
// reported as such (same_commit) and never counts as a current regression.
//
//   std::vector<Change> changes = DetectChanges(series, DetectorOptions{});
//   for (const Change& c : changes) if (c.regression && c.current) ...

#ifndef MXCTS_TOOLS_PERF_RESULTS_REGRESSIONS_H_
#define MXCTS_TOOLS_PERF_RESULTS_REGRESSIONS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "tools/perf_results/change_points.h"
#include "tools/perf_results/history.h"

namespace mxcts::perf_results {

struct Change {
  std::string backend;
  std::string benchmark;
  std::string counter;
  int series_index = 0;  // the series in the list given to DetectChanges
  ChangePoint point;     // point.index: the series' first run at the new level
  // The commit range: the last run before the change and the first after.
  std::string commit_before;
  std::string commit_after;
  std::string date_before;
  std::string date_after;
  bool regression = false;   // the ratio got worse
  bool same_commit = false;  // both ends of the range are one commit
  bool current = false;      // a regression of the code not undone later
};

// True for ratio counters where a smaller value is better.
bool CounterLowerIsBetter(absl::string_view counter);

// Runs FindChangePoints on every series. Changes are ordered by series,
// then by run.
std::vector<Change> DetectChanges(const std::vector<Series>& series,
                                  const DetectorOptions& options);

// "abc1234..def5678": the commit range of a change, each hash cut to 12
// characters; a single commit when both ends are the same.
std::string CommitRange(const Change& change);

}  // namespace mxcts::perf_results

#endif  // MXCTS_TOOLS_PERF_RESULTS_REGRESSIONS_H_
