#pragma once
// Newton-Raphson on small fixed-size systems with an analytic Jacobian and dense LU (Eigen).
// Convergence is judged on the increment of the unknown, |dx| <= tol |x| + abs_tol (issue 4: the
// increment, not a residual of multipliers that can be large and stall at small h).
#include <Eigen/LU>

namespace rigidbench {

struct NewtonSettings {
  double tolerance = 1e-14;   // relative increment; 1e-14 so that exact-invariant checks measure the scheme
  double abs_tolerance = 1e-300;
  int max_iterations = 50;
};

struct NewtonResult {
  bool converged = false;
  int iterations = 0;
  double last_increment = 0;  // |dx| of the last iteration
};

/// f(x, r, J) writes the residual r(x) and its Jacobian J = dr/dx. x holds the initial guess and,
/// on return, the last iterate.
template <int N, class F>
NewtonResult newton_solve(F&& f, Eigen::Matrix<double, N, 1>& x, const NewtonSettings& s = {}) {
  NewtonResult res;
  Eigen::Matrix<double, N, 1> r;
  Eigen::Matrix<double, N, N> J;
  for (res.iterations = 1; res.iterations <= s.max_iterations; ++res.iterations) {
    f(x, r, J);
    const Eigen::Matrix<double, N, 1> dx = J.partialPivLu().solve(-r);
    if (!dx.allFinite()) return res;
    x += dx;
    res.last_increment = dx.norm();
    if (res.last_increment <= s.tolerance * x.norm() + s.abs_tolerance) {
      res.converged = true;
      return res;
    }
  }
  res.iterations = s.max_iterations;
  return res;
}

}  // namespace rigidbench
