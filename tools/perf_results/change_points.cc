// Copyright mxcts authors.
//
// Binary segmentation with the Mann-Whitney U test on windows
// (change_points.h).
//
// Each segment is searched for its one most significant split; a found
// split divides the segment and both halves are searched again, so k
// changes cost k + 1 searches. The before/after samples of a split pool
// the repetitions of at most `window` runs on that side, within the
// segment, so neither an earlier change nor a later one blurs it. Next to
// a true step, the splits one or two runs off compare mixed windows, so
// their p-value is larger and their size smaller: the search settles on
// the step itself, and the recursion does not find it again.
// Runs without values are dropped before the search and the indices mapped
// back at the end.
//
// Tested by change_points_test.cc on synthetic histories.

#include "tools/perf_results/change_points.h"

#include <algorithm>
#include <cmath>

#include "tools/perf_results/mann_whitney.h"

namespace mxcts::perf_results {
namespace {

std::vector<double> Pool(const std::vector<std::vector<double>>& runs,
                         int begin, int end) {
  std::vector<double> pooled;
  for (int i = begin; i < end; ++i) {
    pooled.insert(pooled.end(), runs[i].begin(), runs[i].end());
  }
  return pooled;
}

// Whether the `min_runs` runs on each side of `split` each sit nearer
// their own side's median than the other side's.
bool LevelHolds(const std::vector<std::vector<double>>& runs, int split,
                int min_runs, double before_median, double after_median) {
  for (int i = split - min_runs; i < split + min_runs; ++i) {
    const double median = Median(runs[i]);
    const double to_before = std::fabs(median - before_median);
    const double to_after = std::fabs(median - after_median);
    if (i < split ? to_before > to_after : to_after > to_before) return false;
  }
  return true;
}

void Search(const std::vector<std::vector<double>>& runs, int begin, int end,
            const DetectorOptions& options, std::vector<ChangePoint>* found) {
  if (end - begin < 2 * options.min_runs) return;
  ChangePoint best;
  bool have_best = false;
  int tried = 0;
  for (int split = begin + options.min_runs; split <= end - options.min_runs;
       ++split) {
    ++tried;
    const std::vector<double> before =
        Pool(runs, std::max(begin, split - options.window), split);
    const std::vector<double> after =
        Pool(runs, split, std::min(end, split + options.window));
    const double before_median = Median(before);
    const double after_median = Median(after);
    if (before_median == 0) continue;  // no meaningful relative size
    const double change = after_median / before_median - 1;
    if (std::fabs(change) < options.min_effect) continue;
    if (!LevelHolds(runs, split, options.min_runs, before_median,
                    after_median)) {
      continue;
    }
    const double p = MannWhitneyU(before, after).p_value;
    if (!have_best || p < best.p_value ||
        (p == best.p_value &&
         std::fabs(change) > std::fabs(best.relative_change))) {
      best.index = split;
      best.before_median = before_median;
      best.after_median = after_median;
      best.relative_change = change;
      best.p_value = p;
      have_best = true;
    }
  }
  if (!have_best) return;
  best.p_value = std::min(1.0, best.p_value * tried);
  if (best.p_value >= options.alpha) return;
  best.confidence = 1 - best.p_value;
  found->push_back(best);
  Search(runs, begin, best.index, options, found);
  Search(runs, best.index, end, options, found);
}

}  // namespace

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower =
      *std::max_element(values.begin(), values.begin() + middle);
  return (lower + upper) / 2;
}

std::vector<ChangePoint> FindChangePoints(
    const std::vector<std::vector<double>>& runs,
    const DetectorOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1) || options.min_effect < 0 ||
      options.min_runs < 1 || options.window < options.min_runs) {
    return {};
  }
  std::vector<std::vector<double>> kept;
  std::vector<int> original_index;
  for (int i = 0; i < static_cast<int>(runs.size()); ++i) {
    if (runs[i].empty()) continue;
    kept.push_back(runs[i]);
    original_index.push_back(i);
  }
  std::vector<ChangePoint> found;
  Search(kept, 0, static_cast<int>(kept.size()), options, &found);
  for (ChangePoint& change : found) change.index = original_index[change.index];
  std::sort(found.begin(), found.end(),
            [](const ChangePoint& a, const ChangePoint& b) {
              return a.index < b.index;
            });
  return found;
}

}  // namespace mxcts::perf_results
