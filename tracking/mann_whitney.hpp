#pragma once
// The Mann-Whitney U test (Mann & Whitney 1947, Ann. Math. Statist. 18(1), 50-60): whether the values
// of one sample tend to be larger than those of another, from their ranks alone - no assumption on
// the distribution of CPU times, whose noise is skewed (a run is slowed down, never sped up, by the
// rest of the machine). The gate asks it before calling a time a regression (docs/gate.md, "Times").
#include <vector>

namespace rigidbench {

struct RankTest {
  double u = 0;  ///< U of `greater`: the pairs (g, l) with g > l, ties counting one half
  /// One-sided p-value of "greater tends to exceed less": exact (every split of the pooled values)
  /// up to 200 000 splits, else the normal approximation with the tie and continuity corrections.
  double p = 1;
  bool exact = false;
};

/// Both samples need at least one value; NaN values are left out.
RankTest mann_whitney_greater(const std::vector<double>& greater, const std::vector<double>& less);

}  // namespace rigidbench
