#pragma once
// Dense LU with partial pivoting for the small fixed-size matrices of the Newton steps (Golub & Van
// Loan, Matrix Computations, 4th ed., Algorithm 3.4.1, the outer-product "kji" form; row
// interchanges recorded as transpositions, LAPACK's ipiv). The same algorithm and pivot choice as
// Eigen's PartialPivLU, without what a fixed small size does not need: Eigen runs its dynamic-size
// kernel through a strided Ref for every size and keeps the L1 norm for a condition estimate; on the
// 6 x 6 and 9 x 9 Schur complements of Gebhardt-Romero's step that was 6-9 instructions per flop
// (callgrind), straight loops of compile-time length about 2-3 (docs/decisions.md, "Small LU").
// A zero pivot is left in place: the solve then returns non-finite values, which the Newton
// iteration reports as a breakdown -- as with Eigen. Scalar is a template parameter so that the
// flop counts (integrators/flops.hpp) are checked on a counting scalar (tests/test_flops.cpp).
#include <Eigen/Core>
#include <array>
#include <cmath>
#include <utility>

namespace rigidbench {

template <int n, class Scalar = double>
struct SmallLu {
  using Matrix = Eigen::Matrix<Scalar, n, n>;
  using Vector = Eigen::Matrix<Scalar, n, 1>;
  Matrix a;                // strictly below the diagonal: L (unit diagonal); on and above: U
  std::array<int, n> ipiv; // step j exchanged rows j and ipiv[j]

  SmallLu() = default;
  explicit SmallLu(const Matrix& m) { compute(m); }

  /// P A = L U. Flops: n(n-1)/2 divisions, (n-1)n(2n-1)/3 multiply-subtract pairs.
  void compute(const Matrix& m) {
    using std::abs;
    a = m;
    ipiv[0] = 0;
    if constexpr (n > 1) {  // (n = 1: nothing to exchange, nothing for GCC's bounds analysis to doubt)
      for (int j = 0; j < n; ++j) {
        int p = j;
        Scalar best = abs(a(j, j));
        for (int i = j + 1; i < n; ++i)
          if (abs(a(i, j)) > best) best = abs(a(i, j)), p = i;
        ipiv[std::size_t(j)] = p;
        if (p != j)
          for (int k = 0; k < n; ++k) std::swap(a(j, k), a(p, k));
        for (int i = j + 1; i < n; ++i) a(i, j) = a(i, j) / a(j, j);
        for (int k = j + 1; k < n; ++k)  // column by column: contiguous in column-major storage
          for (int i = j + 1; i < n; ++i) a(i, k) = a(i, k) - a(i, j) * a(j, k);
      }
    }
  }

  /// x with A x = b. Flops: n(n-1) for L, n(n-1) and n divisions for U.
  Vector solve(const Vector& b) const {
    Vector x = b;
    if constexpr (n > 1)
      for (int j = 0; j < n; ++j)
        if (ipiv[std::size_t(j)] != j) std::swap(x(j), x(ipiv[std::size_t(j)]));
    for (int j = 0; j < n; ++j)
      for (int i = j + 1; i < n; ++i) x(i) = x(i) - a(i, j) * x(j);
    for (int j = n - 1; j >= 0; --j) {
      x(j) = x(j) / a(j, j);
      for (int i = 0; i < j; ++i) x(i) = x(i) - a(i, j) * x(j);
    }
    return x;
  }
};

}  // namespace rigidbench
