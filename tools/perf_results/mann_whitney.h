// Copyright mxcts authors.
//
// tools/perf_results/mann_whitney.h: the Mann-Whitney U test (the Wilcoxon
// rank-sum test), the significance test of the change-point detector.
//
// It asks whether values of one sample tend to be larger than those of the
// other without assuming any distribution, so a few outlying repetitions
// (a machine busy for a moment) cannot fake or hide a change the way they
// can move a mean.
//
//   MannWhitneyResult r = MannWhitneyU({1.0, 1.1, 0.9}, {2.0, 2.1, 1.9});
//   // r.p_value == 0.1 (exact, two-sided)

#ifndef MXCTS_TOOLS_PERF_RESULTS_MANN_WHITNEY_H_
#define MXCTS_TOOLS_PERF_RESULTS_MANN_WHITNEY_H_

#include <vector>

namespace mxcts::perf_results {

struct MannWhitneyResult {
  // U of the first sample: the number of pairs (x from the first, y from
  // the second) with x > y, ties counting one half.
  double u = 0;
  // Two-sided p-value of "neither sample tends to be larger".
  double p_value = 1;
  // True when p_value is exact (no ties, at most kExactLimit values in
  // all); otherwise it is the normal approximation with the tie and
  // continuity corrections.
  bool exact = false;
};

// The largest combined sample size for which the exact distribution is
// computed (its counts stay exact in a double).
inline constexpr int kExactLimit = 50;

// Tests `first` against `second`. Either empty gives p_value 1.
MannWhitneyResult MannWhitneyU(const std::vector<double>& first,
                               const std::vector<double>& second);

}  // namespace mxcts::perf_results

#endif  // MXCTS_TOOLS_PERF_RESULTS_MANN_WHITNEY_H_
