#include "mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace rigidbench {

namespace {
std::vector<double> mw_finite(const std::vector<double>& v) {
  std::vector<double> out;
  for (double x : v)
    if (std::isfinite(x)) out.push_back(x);
  return out;
}

/// U of the values at `chosen` (indices into pooled) against the rest: the sum of their midranks
/// minus its least possible value n(n+1)/2 (Mann & Whitney 1947, eq. 1).
double mw_u(const std::vector<double>& ranks, const std::vector<int>& chosen) {
  double sum = 0;
  for (int i : chosen) sum += ranks[std::size_t(i)];
  const double n = double(chosen.size());
  return sum - n * (n + 1) / 2;
}

/// Midranks of the pooled values (ties share the mean of their ranks), and sum of t^3 - t over the
/// groups of ties (the variance's tie correction).
std::vector<double> mw_midranks(const std::vector<double>& pooled, double& ties) {
  std::vector<int> order(pooled.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return pooled[std::size_t(a)] < pooled[std::size_t(b)]; });
  std::vector<double> rank(pooled.size());
  ties = 0;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && pooled[std::size_t(order[j + 1])] == pooled[std::size_t(order[i])]) ++j;
    const double r = (double(i) + double(j)) / 2 + 1, t = double(j - i + 1);
    for (std::size_t k = i; k <= j; ++k) rank[std::size_t(order[k])] = r;
    ties += t * t * t - t;
    i = j + 1;
  }
  return rank;
}

double mw_splits(std::size_t n, std::size_t k) {
  double c = 1;
  for (std::size_t i = 1; i <= k; ++i) c = c * double(n - k + i) / double(i);
  return c;
}
}  // namespace

RankTest mann_whitney_greater(const std::vector<double>& greater, const std::vector<double>& less) {
  const std::vector<double> g = mw_finite(greater), l = mw_finite(less);
  if (g.empty() || l.empty()) throw std::invalid_argument("mann_whitney_greater: an empty sample");
  std::vector<double> pooled = g;
  pooled.insert(pooled.end(), l.begin(), l.end());
  double ties = 0;
  const std::vector<double> rank = mw_midranks(pooled, ties);
  std::vector<int> first(g.size());
  std::iota(first.begin(), first.end(), 0);
  RankTest t;
  t.u = mw_u(rank, first);
  const std::size_t n = pooled.size(), k = g.size();
  if (mw_splits(n, k) <= 200000) {
    // Exact under the null hypothesis: every choice of k of the n pooled values is equally likely
    // to be `greater`'s; p is the share whose U is at least the observed one.
    std::vector<int> chosen(first);
    double at_least = 0, all = 0;
    for (;;) {
      all += 1;
      at_least += mw_u(rank, chosen) >= t.u - 1e-9;
      std::size_t i = k;
      while (i > 0 && chosen[i - 1] == int(n - k + i - 1)) --i;
      if (i == 0) break;
      ++chosen[i - 1];
      for (std::size_t j = i; j < k; ++j) chosen[j] = chosen[j - 1] + 1;
    }
    t.p = at_least / all;
    t.exact = true;
    return t;
  }
  const double n1 = double(k), n2 = double(l.size()), N = n1 + n2;
  const double mean = n1 * n2 / 2;
  const double var = n1 * n2 / 12 * ((N + 1) - ties / (N * (N - 1)));
  if (var <= 0) return t;  // every value equal: nothing tends to be larger
  const double z = (t.u - mean - 0.5) / std::sqrt(var);
  t.p = 0.5 * std::erfc(z / std::sqrt(2.0));
  return t;
}

}  // namespace rigidbench
