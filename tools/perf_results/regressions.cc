// Copyright mxcts authors.
//
// Names the change points of every series (regressions.h): the commit
// range between the last run of the old level and the first of the new,
// whether the change is for the worse, whether the code can have caused it
// (the range spans a commit), and whether it still holds.
//
// Tested by regressions_test.cc.

#include "tools/perf_results/regressions.h"

#include "absl/strings/str_cat.h"

namespace mxcts::perf_results {

bool CounterLowerIsBetter(absl::string_view counter) {
  return !(counter == "ratio_to_memcpy" || counter == "ratio_cold_to_hit");
}

std::vector<Change> DetectChanges(const std::vector<Series>& series,
                                  const DetectorOptions& options) {
  std::vector<Change> changes;
  for (int s = 0; s < static_cast<int>(series.size()); ++s) {
    const Series& one = series[s];
    std::vector<std::vector<double>> runs;
    runs.reserve(one.points.size());
    for (const SeriesPoint& point : one.points) runs.push_back(point.values);
    const bool lower_is_better = CounterLowerIsBetter(one.counter);
    const size_t first = changes.size();
    for (const ChangePoint& point : FindChangePoints(runs, options)) {
      Change change;
      change.backend = one.backend;
      change.benchmark = one.benchmark;
      change.counter = one.counter;
      change.series_index = s;
      change.point = point;
      const SeriesPoint& before = one.points[point.index - 1];
      const SeriesPoint& after = one.points[point.index];
      change.commit_before = before.commit;
      change.commit_after = after.commit;
      change.date_before = before.date;
      change.date_after = after.date;
      change.regression = lower_is_better ? point.relative_change > 0
                                          : point.relative_change < 0;
      change.same_commit = change.commit_before == change.commit_after;
      changes.push_back(change);
    }
    // A regression of the code is current until a later change goes the
    // other way.
    for (size_t i = first; i < changes.size(); ++i) {
      if (!changes[i].regression || changes[i].same_commit) continue;
      changes[i].current = true;
      for (size_t j = i + 1; j < changes.size(); ++j) {
        if (!changes[j].regression) changes[i].current = false;
      }
    }
  }
  return changes;
}

std::string CommitRange(const Change& change) {
  const std::string before = change.commit_before.substr(0, 12);
  const std::string after = change.commit_after.substr(0, 12);
  if (before == after) return before;
  return absl::StrCat(before, "..", after);
}

}  // namespace mxcts::perf_results
