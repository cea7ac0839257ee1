#pragma once
// Newton-Raphson on small fixed-size systems with an analytic Jacobian and dense LU (Eigen).
// Convergence is judged on the unknown, not on a residual of multipliers that can be large and stall
// at small h: the iterate x_k = x_{k-1} + dx_k is accepted when its estimated distance to the
// solution is within tol |x| + abs_tol. With the contraction rate theta_k = |dx_k| / |dx_{k-1}| < 1,
// that distance is at most theta_k / (1 - theta_k) |dx_k| (the geometric series of the remaining
// increments: Hairer & Wanner, Solving ODEs II, section IV.8, eq. 8.10; valid for any contracting
// iteration, a bound for Newton's quadratic one). The first iteration has no rate and is judged on
// |dx_1| itself. Before this estimate the loop iterated until |dx_k| itself fell below the
// tolerance: one extra iteration per step that only confirmed convergence (docs/decisions.md,
// "Newton stopping test").
#include <Eigen/LU>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

namespace rigidbench {

struct NewtonSettings {
  double tolerance = 1e-14;   // relative increment; 1e-14 so that exact-invariant checks measure the scheme
  double abs_tolerance = 1e-300;
  int max_iterations = 50;
  /// Number of leading unknowns the increment test looks at (-1: all). Constrained schemes put the
  /// configuration first and judge on it alone: their multipliers are large and, at small h, their
  /// relative increments stall above any tolerance near round-off.
  int judged = -1;
};

struct NewtonResult {
  bool converged = false;
  int iterations = 0;
  double last_increment = 0;  // |dx| (judged part) of the last iteration
  double last_residual = 0;   // |r| at the last evaluation, when not converged
};

/// The Newton step dx = -J^-1 r by dense LU with partial pivoting (the default linear solve).
struct DenseLuSolve {
  template <int N>
  Eigen::Matrix<double, N, 1> operator()(const Eigen::Matrix<double, N, N>& J, const Eigen::Matrix<double, N, 1>& r) const {
    return J.partialPivLu().solve(-r);
  }
};

/// f(x, r, J) writes the residual r(x) and its Jacobian J = dr/dx. x holds the initial guess and,
/// on return, the last iterate. solve(J, r) returns the Newton step -J^-1 r: a scheme whose Jacobian
/// has structure (a block elimination, a Schur complement) passes its own; the iteration and its
/// stopping test are the same for every scheme.
template <int N, class F, class Solve = DenseLuSolve>
NewtonResult newton_solve(F&& f, Eigen::Matrix<double, N, 1>& x, const NewtonSettings& s = {}, Solve&& solve = {}) {
  NewtonResult res;
  Eigen::Matrix<double, N, 1> r = Eigen::Matrix<double, N, 1>::Zero();
  Eigen::Matrix<double, N, N> J;
  double previous = 0;  // |dx_{k-1}| (judged part); 0 before the first iteration
  for (res.iterations = 1; res.iterations <= s.max_iterations; ++res.iterations) {
    f(x, r, J);
    const Eigen::Matrix<double, N, 1> dx = solve(J, r);
    if (!dx.allFinite()) {  // last_residual is set on the failure paths only (kept off the hot path)
      res.last_residual = r.norm();
      return res;
    }
    x += dx;
    // Plain loops: a runtime-sized head() of a fixed-size vector trips GCC 12's -Warray-bounds.
    const int m = s.judged < 0 || s.judged > x.size() ? int(x.size()) : s.judged;
    double dx2 = 0, x2 = 0;
    for (int i = 0; i < m; ++i) dx2 += dx[i] * dx[i], x2 += x[i] * x[i];
    res.last_increment = std::sqrt(dx2);
    const double tol = s.tolerance * std::sqrt(x2) + s.abs_tolerance;
    const double theta = previous > 0 ? res.last_increment / previous : 1.0;
    // |dx_k| <= tol, or the bound theta/(1-theta) |dx_k| on the remaining distance <= tol.
    if (res.last_increment <= tol || (theta < 1.0 && theta * res.last_increment <= (1.0 - theta) * tol)) {
      res.converged = true;
      return res;
    }
    previous = res.last_increment;
  }
  res.iterations = s.max_iterations;
  res.last_residual = r.norm();
  return res;
}

/// An implicit scheme's Newton system for the step from its current state (t -> t + h), erased to
/// dynamic size: the unknown's name, the scheme's own initial guess, and the residual with its
/// Jacobian -- the very function object its Newton solve calls. Implicit schemes expose it as
/// `NewtonSystem newton_system(double t, double h)` (concept HasNewtonSystem in
/// integrators/integrator.hpp), so one shared test checks every implicit scheme's Jacobian against
/// finite differences and its non-convergence breakdown (tests/test_newton_systems.cpp). The residual
/// may refer to the scheme's current state: it is valid until the scheme's next step or reset.
struct NewtonSystem {
  std::string unknown;
  Eigen::VectorXd guess;
  std::function<void(const Eigen::VectorXd& x, Eigen::VectorXd& r, Eigen::MatrixXd& J)> residual;
};

/// Wraps a fixed-size residual f(x, r, J) (copied into the result) as a NewtonSystem.
template <int N, class F>
NewtonSystem erase_newton_system(std::string unknown, const Eigen::Matrix<double, N, 1>& guess, F f) {
  return {std::move(unknown), guess, [f = std::move(f)](const Eigen::VectorXd& x, Eigen::VectorXd& r, Eigen::MatrixXd& J) {
            const Eigen::Matrix<double, N, 1> xf = x;
            Eigen::Matrix<double, N, 1> rf;
            Eigen::Matrix<double, N, N> Jf;
            f(xf, rf, Jf);
            r = rf;
            J = Jf;
          }};
}

}  // namespace rigidbench
