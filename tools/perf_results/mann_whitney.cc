// Copyright mxcts authors.
//
// The Mann-Whitney U test (mann_whitney.h).
//
// U is computed from ranks: pool both samples, rank them (tied values get
// the mean of their ranks), and U = R1 - n1 (n1 + 1) / 2 where R1 is the sum
// of the first sample's ranks.
//
// Exact p-value. Without ties, under the null hypothesis every arrangement
// of the n1 + n2 values is equally likely, and the number of arrangements
// with U = u is the coefficient of q^u in the Gaussian binomial
// [n1 + n2 choose n1]_q = prod_{i=1..n1} (1 - q^(n2+i)) / (1 - q^i).
// The product is built one factor at a time: multiplying by (1 - q^k) is a
// shifted subtraction, dividing by (1 - q^i) a running sum with stride i.
// Every intermediate coefficient is an integer no larger than
// C(n1 + n2, n1), exact in a double up to kExactLimit values. The
// two-sided p-value is twice the smaller tail, at most 1.
//
// Otherwise the normal approximation: mean n1 n2 / 2, variance
// n1 n2 / 12 * ((n + 1) - sum(t^3 - t) / (n (n - 1))) over tie groups of
// size t, and a continuity correction of one half.
//
// Tested by mann_whitney_test.cc.

#include "tools/perf_results/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace mxcts::perf_results {
namespace {

// Number of arrangements with each U, for n1 and n2 values without ties.
std::vector<double> ExactCounts(int n1, int n2) {
  const int max_u = n1 * n2;
  std::vector<double> poly(max_u + 1, 0.0);
  poly[0] = 1;
  for (int i = 1; i <= n1; ++i) {
    const int k = n2 + i;
    for (int u = max_u; u >= k; --u) poly[u] -= poly[u - k];
    for (int u = i; u <= max_u; ++u) poly[u] += poly[u - i];
  }
  return poly;
}

double NormalTwoSided(double z) {
  return std::erfc(std::fabs(z) / std::sqrt(2.0));
}

}  // namespace

MannWhitneyResult MannWhitneyU(const std::vector<double>& first,
                               const std::vector<double>& second) {
  MannWhitneyResult result;
  const int n1 = static_cast<int>(first.size());
  const int n2 = static_cast<int>(second.size());
  if (n1 == 0 || n2 == 0) return result;
  const int n = n1 + n2;

  std::vector<std::pair<double, int>> pooled;  // value, sample (0 or 1)
  pooled.reserve(n);
  for (double x : first) pooled.emplace_back(x, 0);
  for (double y : second) pooled.emplace_back(y, 1);
  std::sort(pooled.begin(), pooled.end());

  double rank_sum_first = 0;
  double tie_term = 0;  // sum of t^3 - t over tie groups
  for (int start = 0; start < n;) {
    int end = start + 1;
    while (end < n && pooled[end].first == pooled[start].first) ++end;
    const double t = end - start;
    const double mean_rank = (start + 1 + end) / 2.0;  // ranks start+1..end
    for (int i = start; i < end; ++i) {
      if (pooled[i].second == 0) rank_sum_first += mean_rank;
    }
    tie_term += t * t * t - t;
    start = end;
  }
  result.u = rank_sum_first - n1 * (n1 + 1) / 2.0;

  if (tie_term == 0 && n <= kExactLimit) {
    const std::vector<double> counts = ExactCounts(n1, n2);
    double total = 0;
    for (double c : counts) total += c;
    const int u = static_cast<int>(std::lround(result.u));
    double lower = 0, upper = 0;
    for (int v = 0; v <= u; ++v) lower += counts[v];
    for (int v = u; v < static_cast<int>(counts.size()); ++v)
      upper += counts[v];
    result.p_value = std::min(1.0, 2 * std::min(lower, upper) / total);
    result.exact = true;
    return result;
  }

  const double mean = n1 * static_cast<double>(n2) / 2;
  const double variance =
      n1 * static_cast<double>(n2) / 12 *
      ((n + 1) - tie_term / (static_cast<double>(n) * (n - 1)));
  if (variance <= 0) return result;  // every value equal: no evidence
  const double distance = std::max(0.0, std::fabs(result.u - mean) - 0.5);
  result.p_value =
      std::min(1.0, NormalTwoSided(distance / std::sqrt(variance)));
  return result;
}

}  // namespace mxcts::perf_results
