#pragma once
// Newton-Raphson on small fixed-size systems with an analytic Jacobian and dense LU (SmallLu).
// Convergence is judged on the unknown, not on a residual of multipliers that can be large and stall
// at small h: the iterate x_k = x_{k-1} + dx_k is accepted when its estimated distance to the
// solution is within tol |x| + abs_tol. With the contraction rate theta_k = |dx_k| / |dx_{k-1}| < 1,
// that distance is at most theta_k / (1 - theta_k) |dx_k| (the geometric series of the remaining
// increments: Hairer & Wanner, Solving ODEs II, section IV.8, eq. 8.10; valid for any contracting
// iteration, a bound for Newton's quadratic one). The first iteration has no rate and is judged on
// |dx_1| itself. Before this estimate the loop iterated until |dx_k| itself fell below the
// tolerance: one extra iteration per step that only confirmed convergence (docs/decisions.md,
// "Newton stopping test").
#include <Eigen/Core>
#include <Eigen/LU>
#include <cmath>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include "small_lu.hpp"

namespace rigidbench {

struct NewtonSettings {
  double tolerance = 1e-14;   // relative increment; 1e-14 so that exact-invariant checks measure the scheme
  double abs_tolerance = 1e-300;
  int max_iterations = 50;
  /// Number of leading unknowns the increment test looks at (-1: all). Constrained schemes put the
  /// configuration first and judge on it alone: their multipliers are large and, at small h, their
  /// relative increments stall above any tolerance near round-off.
  int judged = -1;
  /// Jacobian reuse (systems that can evaluate their residual alone): an iteration keeps the
  /// factorised Jacobian of the previous one after the first iteration and while the observed
  /// contraction rate stays at or below this; 0 refactorises every iteration (Newton proper).
  double reuse_rate = 1e-3;
};

struct NewtonResult {
  bool converged = false;
  int iterations = 0;
  int jacobians = 0;          // Jacobians evaluated and factorised (<= iterations)
  double last_increment = 0;  // |dx| (judged part) of the last iteration
  double last_residual = 0;   // |r| at the last evaluation, when not converged
};

/// The Newton step's linear solve: factor(J) once per Jacobian, then solve(r) = -J^-1 r for as
/// many residuals as the iteration reuses it with. Dense LU with partial pivoting (the default;
/// core/small_lu.hpp).
template <int N>
struct DenseLu {
  SmallLu<N> lu;
  void factor(const Eigen::Matrix<double, N, N>& J) { lu.compute(J); }
  Eigen::Matrix<double, N, 1> solve(const Eigen::Matrix<double, N, 1>& r) const { return lu.solve(-r); }
};

/// DenseLu for a system whose size is known at run time only (newton_solve<Eigen::Dynamic>): the
/// residual sizes J itself.
struct DynamicLu {
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  void factor(const Eigen::MatrixXd& J) { lu.compute(J); }
  Eigen::VectorXd solve(const Eigen::VectorXd& r) const { return lu.solve(-r); }
};

/// f(x, r, J) writes the residual r(x) and its Jacobian J = dr/dx; a system that also accepts
/// f(x, r, J, false) -- the residual alone, J left as it was -- lets the iteration reuse the last
/// factorised Jacobian (the simplified Newton iteration, Hairer & Wanner II, IV.8): after the first
/// iteration, whose increment leaves an error of the first guess's square, the stale Jacobian costs
/// a factor of the order of that guess's error per iteration; a rate above settings.reuse_rate
/// brings a fresh Jacobian back. The stopping test holds for any contracting iteration, so the
/// tolerance keeps its meaning (docs/decisions.md, "Newton stopping test"). x holds the initial
/// guess and, on return, the last iterate. The solver (factor, solve) is DenseLu unless a scheme's
/// Jacobian has structure (a block elimination, a Schur complement): the iteration and its stopping
/// test are the same for every scheme.
template <int N, class F, class Solver = DenseLu<N>>
NewtonResult newton_solve(F&& f, Eigen::Matrix<double, N, 1>& x, const NewtonSettings& s = {}, Solver solver = {}) {
  using Vec = Eigen::Matrix<double, N, 1>;
  using Mat = Eigen::Matrix<double, N, N>;
  constexpr bool residual_alone = std::is_invocable_v<F&, const Vec&, Vec&, Mat&, bool>;
  NewtonResult res;
  Vec r;
  if constexpr (N == Eigen::Dynamic) r = Vec::Zero(x.size());  // a chain's 3n unknowns (DynamicLu)
  else r = Vec::Zero();
  Mat J;
  double previous = 0;  // |dx_{k-1}| (judged part); 0 before the first iteration
  bool fresh = true;    // this iteration evaluates and factorises the Jacobian
  for (res.iterations = 1; res.iterations <= s.max_iterations; ++res.iterations) {
    if constexpr (residual_alone) f(x, r, J, fresh);
    else f(x, r, J);
    if (fresh) {
      solver.factor(J);
      ++res.jacobians;
    }
    const Vec dx = solver.solve(r);
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
    // |dx_k| <= tol, or the bound theta/(1-theta) |dx_k| on the remaining distance <= tol -- for a
    // stale Jacobian's iterate <= reuse_rate * tol. Newton's quadratic step lands far below the
    // tolerance on its own and exact-invariant checks at round-off rely on that depth; a chord
    // iterate accepted on the plain estimate can sit just inside it, up to tol per step
    // (docs/decisions.md, "Jacobian reuse").
    const double depth = fresh ? tol : s.reuse_rate * tol;
    if (res.last_increment <= tol || (theta < 1.0 && theta * res.last_increment <= (1.0 - theta) * depth)) {
      res.converged = true;
      return res;
    }
    if constexpr (residual_alone) fresh = !(res.iterations == 1 ? s.reuse_rate > 0 : theta <= s.reuse_rate);
    previous = res.last_increment;
  }
  res.iterations = s.max_iterations;
  res.last_residual = r.norm();
  // An iteration that ran out of iterations with its last increment within ten times the tolerance has
  // stalled at its residual's round-off, not failed: a system whose residual sums terms much larger
  // than its solution's share of them (a chain's mass matrix, inertias 1e4 apart) reaches that floor
  // a little above 1e-14 |x|, and iterating on only draws new round-off. Judged here, after the loop,
  // so that the iteration's hot path is unchanged (docs/decisions.md, "Newton stopping test").
  if (s.max_iterations >= 2) {
    const int m = s.judged < 0 || s.judged > x.size() ? int(x.size()) : s.judged;
    double x2 = 0;
    for (int i = 0; i < m; ++i) x2 += x[i] * x[i];
    res.converged = res.last_increment <= 10 * (s.tolerance * std::sqrt(x2) + s.abs_tolerance);
  }
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
