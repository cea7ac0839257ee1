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
    a = m;
    ipiv[0] = 0;
    if constexpr (n > 1) eliminate<0>();  // (n = 1: nothing to exchange, nothing for GCC's bounds analysis to doubt)
  }
  /// Step j of the elimination and those after it, each of compile-time size: its column's
  /// multipliers and the rank-one update of the trailing block as fixed-size blocks, which the
  /// compiler unrolls and vectorises (loops whose bounds depend on j at run time it did neither:
  /// the 9 x 9 of Gebhardt-Romero's lamina took 2 400 instructions for 480 flops).
  template <int j>
  void eliminate() {
    using std::abs;
    constexpr int r = n - j - 1;  // rows and columns below and right of the pivot
    int p = j;
    Scalar best = abs(a(j, j));
    for (int i = j + 1; i < n; ++i)
      if (abs(a(i, j)) > best) best = abs(a(i, j)), p = i;
    ipiv[std::size_t(j)] = p;
    if (p != j) a.row(j).swap(a.row(p));
    if constexpr (r > 0) {
      for (int i = j + 1; i < n; ++i) a(i, j) = a(i, j) / a(j, j);
      a.template block<r, r>(j + 1, j + 1).noalias() -= a.template block<r, 1>(j + 1, j) * a.template block<1, r>(j, j + 1);
      eliminate<j + 1>();
    }
  }

  /// x with A x = b. Flops: n(n-1) for L, n(n-1) and n divisions for U.
  Vector solve(const Vector& b) const {
    Vector x = b;
    if constexpr (n > 1)
      for (int j = 0; j < n; ++j)
        if (ipiv[std::size_t(j)] != j) std::swap(x(j), x(ipiv[std::size_t(j)]));
    substitute<0>(x);
    return x;
  }

 private:
  /// Forward substitution with L from column j on, then back substitution with U from column
  /// n - 1 - j down: fixed-size segments, unrolled as the elimination is.
  template <int j>
  void substitute(Vector& x) const {
    if constexpr (j < n - 1) {
      x.template segment<n - j - 1>(j + 1) -= a.template block<n - j - 1, 1>(j + 1, j) * x(j);
      substitute<j + 1>(x);
    } else {
      back<n - 1>(x);
    }
  }
  template <int j>
  void back(Vector& x) const {
    x(j) = x(j) / a(j, j);
    if constexpr (j > 0) {
      x.template head<j>() -= a.template block<j, 1>(0, j) * x(j);
      back<j - 1>(x);
    }
  }
};

}  // namespace rigidbench
