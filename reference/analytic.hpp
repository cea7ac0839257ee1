#pragma once
// Closed-form solutions of the torque-free rigid body (docs/problems.md P1, P1b).
//
// Inertia J = Q^T diag(J1 <= J2 <= J3) Q with Q a proper rotation (the exact axis permutation when J
// is diagonal), W' = Q W, R' = R Q^T. With E = 1/2 W.JW, L = |JW|:
// - asymmetric (J1 < J2 < J3): W' by Jacobi elliptic functions (Landau & Lifshitz, Mechanics, sec. 37):
//   for L^2 > 2 E J2 the body circulates about axis 3,
//     W1 = A1 cn u, W2 = s A2 sn u, W3 = s A3 dn u   (s = sign W3(0)),
//     u = w (t - t0) + u0, w^2 = (J3-J2)(L^2-2EJ1)/(J1J2J3), k^2 = (J2-J1)(2EJ3-L^2)/((J3-J2)(L^2-2EJ1)),
//   and for L^2 < 2 E J2 about axis 1 (indices 1 and 3 exchanged). u0 from the initial W by the
//   incomplete elliptic integral of the first kind (any amplitude).
//   The attitude: R = A0 Rz(psi) B^T with B = [b1, u x b1, u], u = JW/L the body direction of the
//   conserved spatial momentum pi, b1 the unit part of g orthogonal to u (g = E1 when circulating
//   about axis 3, E3 about axis 1: never parallel to u), A0 = R(t0) B(t0) (so A0 e3 = pi/L), and
//     psi' = (W.u - u_g W_g) / (1 - u_g^2),  u_g = g.u, W_g = g.W,
//   which follows from R^T R' = hat(W) (docs/decisions.md, "Analytic torque-free reference").
//   psi is a QUADRATURE: adaptive Gauss-Kronrod (31 points) between consecutive output times, to
//   the precision of the scalar type; its error estimate is accumulated and reported.
// - symmetric (two equal moments A, the third C on axis e_s): closed form with no quadrature,
//     R = exp(t L/A hat(n)) R(t0) exp(t beta hat(e_s)),  beta = W_s (A - C)/A,  n = pi/L.
// - spherical (J1 = J2 = J3): R = exp(t hat(R(t0) W)) R(t0), W constant.
#include <memory>
#include <string>
#include <vector>

#include "../core/state.hpp"
#include "../problems/problem.hpp"

namespace rigidbench {

/// J = Q^T diag(Jd) Q with Jd ascending and Q proper: the exact axis permutation (times -1 when odd)
/// for a diagonal J, else the eigenvectors. Row i of Q is the i-th principal axis in body components.
void principal_axes(const Mat3& J, Mat3& Q, Vec3& Jd);

/// The time between two sign changes of the intermediate principal component of W in the exact
/// torque-free flow of an asymmetric body (Landau & Lifshitz, Mechanics, sec. 37: that component goes
/// as sn u), 2 K(k) / w with the w and k of the closed form above; NaN where the closed form does not
/// apply (the separatrix, loads) or the body has no intermediate axis.
double torque_free_flip_interval(const Problem& p);

/// Empty when the analytic solution applies to p, else why not (loads, several bodies, the
/// separatrix L^2 = 2 E J2 itself, where the period is infinite).
std::string analytic_not_applicable(const Problem& p);

struct AnalyticSolution {
  std::string variant;                 // "asymmetric (Jacobi elliptic, circulating about axis 3)", ...
  std::vector<State> states;           // at the requested times
  double quadrature_error = 0.0;       // accumulated Gauss-Kronrod estimate of psi (0 when closed form)
  double modulus = 0.0;                // k (asymmetric case)
};

enum class AnalyticPrecision { binary64, extended, quad };  // double, x87 long double, cpp_bin_float_quad

/// One evaluation of the closed form on a grid, split into segments of output intervals that may
/// run in any order or concurrently (the quadrature of psi, the bulk of the work), then finish()
/// sums psi in grid order and builds the states: the result is the same whatever the order.
class AnalyticEvaluation {
 public:
  virtual ~AnalyticEvaluation() = default;
  virtual std::size_t segments() const = 0;
  /// Thread-safe for distinct segments.
  virtual void run_segment(std::size_t s) = 0;
  /// After every segment has run.
  virtual AnalyticSolution finish() = 0;
  /// Its work before it starts: the quadrature pieces of psi over the grid (0 where psi is closed).
  virtual double work() const = 0;
  /// Every segment in order, then finish().
  AnalyticSolution run_all();
};
/// Throws InputError when the closed form does not apply or the grid is bad (`times` increasing
/// from p.t0). The evaluation keeps a copy of what it needs from p.
std::unique_ptr<AnalyticEvaluation> torque_free_evaluation(const Problem& p, std::vector<double> times,
                                                           AnalyticPrecision precision);

/// Evaluates the solution in double (quad = false) or in cpp_bin_float_quad (quad = true, returned
/// rounded to double). `times` increasing from p.t0. Throws InputError when not applicable.
AnalyticSolution torque_free_analytic(const Problem& p, const std::vector<double>& times, bool quad = false);
/// The same in x87 extended precision (64-bit significand, hardware speed): the error estimate of
/// the double evaluation. The quad evaluation is exact to far below double but costs ~0.4 s per
/// output time (software arithmetic in the elliptic functions and the quadrature).
AnalyticSolution torque_free_analytic_extended(const Problem& p, const std::vector<double>& times);

}  // namespace rigidbench
