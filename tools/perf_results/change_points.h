// Copyright mxcts authors.
//
// tools/perf_results/change_points.h: finding the runs where a benchmark's
// ratio changed level.
//
// The method: binary segmentation with the Mann-Whitney U test on windows.
//  1. Take the whole history as one segment of runs.
//  2. For every split of the segment that leaves at least `min_runs` runs
//     on each side, take the repetitions of up to `window` runs before the
//     split and up to `window` runs after it (within the segment), and
//     compare them with the two-sided Mann-Whitney U test; the size of the
//     change is median(after) / median(before) - 1.
//  3. A split is a candidate when its size is at least `min_effect` in
//     magnitude and the new level holds: each of the `min_runs` runs next
//     to the split on either side has its median nearer its own side's
//     median than the other's (so one odd run cannot make a change).
//  4. Take the candidate with the smallest p-value (the larger size on a
//     tie) and multiply its p-value by the number of splits tried
//     (Bonferroni: the best of many tests is not one test). If that is
//     below `alpha`, the split is a change point; repeat from 2 on each
//     side of it.
// The confidence reported is 1 - the adjusted p-value. The windows keep a
// step from being blurred by another one further away, so a regression
// that is later undone is found at both ends, provided it lasted more than
// half a window (a shorter excursion sets no window's median).
//
// The test runs on the ratios (perf/README.md), which divide out the
// machine's speed, and on repetitions rather than on one figure per run,
// so a run's spread counts. `min_effect` keeps steps that are real but too
// small to matter, or the residue of a busy machine, out of the report.
//
//   std::vector<std::vector<double>> runs = {{1.0, 1.01}, ..., {1.3, 1.31}};
//   for (const ChangePoint& c : FindChangePoints(runs, DetectorOptions{}))
//     // c.index is the first run at the new level

#ifndef MXCTS_TOOLS_PERF_RESULTS_CHANGE_POINTS_H_
#define MXCTS_TOOLS_PERF_RESULTS_CHANGE_POINTS_H_

#include <vector>

namespace mxcts::perf_results {

struct DetectorOptions {
  double alpha = 0.01;       // significance level, after the correction
  double min_effect = 0.10;  // smallest |relative change| reported
  int min_runs = 2;          // runs on each side of a change, at least
  int window = 5;            // runs on each side compared, at most
};

struct ChangePoint {
  int index = 0;               // first run of the new level
  double before_median = 0;    // of the repetitions of its segment's left part
  double after_median = 0;     // of the right part
  double relative_change = 0;  // after / before - 1
  double p_value = 1;          // adjusted for the number of splits tried
  double confidence = 0;       // 1 - p_value
};

// The median of `values` (the mean of the middle two for an even count);
// 0 for none.
double Median(std::vector<double> values);

// The change points of a history given as each run's repetitions (oldest
// first), sorted by index. Runs with no values are skipped for the tests
// but keep their index. Options out of range (alpha not in (0, 1),
// min_effect < 0, min_runs < 1, window < min_runs) find nothing.
std::vector<ChangePoint> FindChangePoints(
    const std::vector<std::vector<double>>& runs,
    const DetectorOptions& options);

}  // namespace mxcts::perf_results

#endif  // MXCTS_TOOLS_PERF_RESULTS_CHANGE_POINTS_H_
