#pragma once
// Binomial coefficients C(n, k) from a compile-time Pascal triangle, for the reference's
// Bulirsch-Stoer dense output (reference.cpp). Why not boost::math::binomial_coefficient: in
// Boost 1.74 (Debian 12) its table lookup unchecked_factorial<long double> declares the 171-entry
// factorial table `constexpr` but not `static`, so every call builds the table on the stack; odeint's
// bulirsch_stoer_dense_out calls it O(k^3) times per step, which measured 61 % of the heavy-top
// reference's instructions (docs/decisions.md, "Reference").
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace rigidbench {

/// Rows 0 ... kBinomialRows - 1 are exact in 64-bit integers (C(66, 33) < 2^63).
inline constexpr unsigned kBinomialRows = 67;

namespace detail {
struct PascalTriangle {
  std::array<std::array<std::uint64_t, kBinomialRows>, kBinomialRows> c{};
  constexpr PascalTriangle() {
    for (unsigned n = 0; n < kBinomialRows; ++n) {
      c[n][0] = c[n][n] = 1;
      for (unsigned k = 1; k < n; ++k) c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
    }
  }
};
inline constexpr PascalTriangle kPascal{};
}  // namespace detail

/// C(n, k) as the double nearest the exact integer (exact below 2^53). Beyond the table, the
/// product formula in long double rounded to an integer, as Boost's fallback rounds; throws
/// std::domain_error for k > n and std::overflow_error past the double range.
inline double binomial(unsigned n, unsigned k) {
  if (k > n) throw std::domain_error("binomial coefficient C(" + std::to_string(n) + ", " + std::to_string(k) + "): k > n");
  if (n < kBinomialRows) return static_cast<double>(detail::kPascal.c[n][k]);
  if (k > n - k) k = n - k;
  long double r = 1;
  for (unsigned i = 1; i <= k; ++i) r = r * static_cast<long double>(n - k + i) / static_cast<long double>(i);
  const double d = static_cast<double>(std::ceil(r - 0.5L));
  if (!std::isfinite(d)) throw std::overflow_error("binomial coefficient C(" + std::to_string(n) + ", " + std::to_string(k) + ") overflows a double");
  return d;
}

}  // namespace rigidbench
