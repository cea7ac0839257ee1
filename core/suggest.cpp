#include "suggest.hpp"

#include <algorithm>

namespace rigidbench {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme (the swap looks two rows back).
  std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(cur);
  }
  return prev[b.size()];
}

std::optional<std::string> nearest_name(std::string_view given, const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(2, given.size() / 3);
  std::optional<std::string> best;
  std::size_t best_d = limit + 1;
  for (const std::string& c : candidates) {
    if (c == given) return std::nullopt;
    const std::size_t d = edit_distance(given, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

std::string did_you_mean(std::string_view given, const std::vector<std::string>& candidates) {
  const auto n = nearest_name(given, candidates);
  return n ? " - did you mean '" + *n + "'?" : std::string();
}

}  // namespace rigidbench
