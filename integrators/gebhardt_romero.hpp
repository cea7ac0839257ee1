#pragma once
// Gebhardt & Romero's director-based energy-momentum scheme (paper 000 section 5), standard body
// (5.1) and its nonholonomic specialisation on the non-twisting frame (5.2).
//
// Unknowns q = (d1, d2, d3) in R^9, velocities qdot; with the Euler coefficients
// JJ = 1/2 tr(J) I - J (eq. 66; J = tr(JJ) I - JJ) the mass matrix is M = JJ (x) I3 (eq. 88, here
// with every JJ^{ij}: eq. 88 is the case JJ13 = JJ23 = 0). One step solves, for q_{n+1}, lambda, mu:
//   2/h^2 M (q_{n+1} - q_n - h qdot_n) - Q_{n+1/2} + H_d^T lambda [+ G_d^T mu] = 0     (eqs. 86/92, 87b)
//   h(q_{n+1}) = 0                                                                  (six constraints)
//   [G_d (q_{n+1} - q_n) = 0]                                                        (eq. 94)
// then qdot_{n+1} = 2 (q_{n+1} - q_n)/h - qdot_n (text after eq. 87).
// Decisions (docs/decisions.md, "Gebhardt-Romero"):
// - h collects d2.d3, d1.d3, d1.d2 (eq. 63) AND 1/2(|d_i|^2 - 1): eq. 63 omits the unit lengths,
//   without which the directors stretch.
// - H_d and G_d by the average vector field (eqs. 89, 93): both Jacobians are linear in q, so the
//   average is the Jacobian at the midpoint q_{n+1/2} = (q_n + q_{n+1})/2, exactly.
// - Loads at t_{n+1/2} and with the (unnormalised) midpoint directors. A follower moment m acts by the
//   virtual work of eqs. 68/84: f^i = 1/2 m x d_i on director i; in the nonholonomic scheme only
//   m_perp (the d1, d2 components, eq. 79/84) acts. A uniform field has the potential
//   U = -F . sum_k p_k d_k, linear in q, whose gradient Q_k = p_k F is its own discrete gradient: the
//   scheme stays energy-consistent (eq. 68 applied to the field's moment would not be).
// - The residual is scaled by h^2/2 and the multipliers solved for are h^2/2 lambda, h^2/2 mu (the
//   Newton matrix stays O(1)); the constraint equation of eq. 94 is divided by h.
// - Map-out: R = [d1 d2 d3]; W = J^-1 R^T pi with pi = sum_i d_i x pi^i, pi^i = JJ^{ij} qdot_j
//   (eq. 65, 109): the momentum map of (q, qdot), so the problem's pi, Pi^1, Pi^2 are the scheme's.
//   The endpoint velocities qdot_n are not exactly tangent to the constraint manifold (only the
//   midpoint velocity is, eq. 90), so W carries a small twist and K(W) differs from 1/2 qdot.M qdot
//   at O(h^2): the harness measures the former (docs/findings.md).
// - Parameter a of eq. 80 (nonholonomic): with the six constraints holding at both ends,
//   G_d (q_{n+1} - q_n) = 1/2 (d1_{n+1} . d2_n - d1_n . d2_{n+1}) for every a, and the a-dependent
//   part of G_d^T mu is the gradient of d1 . d2 at the midpoint, a column of H_d^T: a changes the
//   multiplier lambda_3, not the trajectory (tested).
#include <Eigen/Core>
#include <cstdint>

#include "../core/newton.hpp"
#include "../core/so3.hpp"
#include "any_integrator.hpp"
#include "scheme_base.hpp"

namespace rigidbench {

/// The data one step's nonlinear system needs (also what the finite-difference test drives).
struct GrStepData {
  const Problem* problem = nullptr;
  Mat3 euler = Mat3::Zero();  // JJ
  bool nonholonomic = false;
  double a = 1.0;             // eq. 80
  Eigen::Matrix<double, 9, 1> q0, v0;
  double h = 0, t_mid = 0;
};

/// Euler's inertia coefficients JJ = 1/2 tr(J) I - J (paper 000 eq. 66; J = tr(JJ) I - JJ).
inline Mat3 euler_coefficients(const Mat3& J) { return 0.5 * J.trace() * Mat3::Identity() - J; }

using Vec9 = Eigen::Matrix<double, 9, 1>;
using Mat9 = Eigen::Matrix<double, 9, 9>;

/// Residual r(x) and (unless jacobian is false: then Jac is left as it was) Jacobian dr/dx of one
/// step, x = (q_{n+1} (9), h^2/2 lambda (6) [, mu / ...]). N = 15 (standard) or 16 (nonholonomic).
/// Tested against finite differences.
template <int N>
void gr_system(const GrStepData& d, const Eigen::Matrix<double, N, 1>& x, Eigen::Matrix<double, N, 1>& r,
               Eigen::Matrix<double, N, N>& Jac, bool jacobian = true);

/// The Newton step -Jac^-1 r of gr_system by block elimination; valid when the configuration block
/// is K (x) I3, i.e. when no follower moment acts (a follower moment's Jacobian is not of that form:
/// dense LU then). Three paths, chosen per Jacobian from K:
/// - three: K well conditioned: all nine director unknowns by K^-1 (x) I3, then the (N - 9) x (N - 9)
///   Schur complement of the constraints;
/// - two: K near singular (a lamina: JJ33 = 0) but the 2 x 2 block of two directors e0, e1 well
///   conditioned: those six unknowns by K2^-1 (x) I3, then the (N - 6) x (N - 6) Schur complement of
///   the third director c and the constraints, which fix it;
/// - dense: no such block (a rod: JJ of rank one), the dense LU of the whole system.
/// Tested against the dense LU. A Newton solver (core/newton.hpp): factor(Jac) once per Jacobian,
/// solve(r) per iteration.
template <int N>
struct GrBlockLu {
  static constexpr int m = N - 9;  // multipliers
  static constexpr int k = m + 3;  // path two: the kept director's unknowns and the multipliers
  enum class Path { three, two, dense };
  Path path = Path::three;
  SmallLu<N> lu;                                        // dense
  Mat3 Ki;                                              // three: K^-1
  Eigen::Matrix<double, 9, m> Y;                        //        (K^-1 (x) I3) G
  Eigen::Matrix<double, m, 9> B;                        //        the constraint rows
  SmallLu<m> S;                                         //        B Y
  int c = 2, e[2] = {0, 1};                             // two: kept director, eliminated ones
  Eigen::Matrix2d K2i;                                  //      K2^-1, K2 = K on (e0, e1)
  double kce[2] = {0, 0};                               //      K(c, e0), K(c, e1)
  Eigen::Matrix<double, 6, k> Y2;                       //      (K2^-1 (x) I3) A_ER
  Eigen::Matrix<double, m, 6> Be;                       //      the constraint rows, columns e0, e1
  SmallLu<k> S2;                                        //      A_RR - A_RE Y2
  void factor(const Eigen::Matrix<double, N, N>& Jac);
  Eigen::Matrix<double, N, 1> solve(const Eigen::Matrix<double, N, 1>& r) const;
};
/// One factor and solve of GrBlockLu (the tests' entry point).
template <int N>
Eigen::Matrix<double, N, 1> gr_block_solve(const Eigen::Matrix<double, N, N>& Jac, const Eigen::Matrix<double, N, 1>& r) {
  GrBlockLu<N> s;
  s.factor(Jac);
  return s.solve(r);
}

template <bool Nonholonomic>
class GebhardtRomero final : public SchemeBase {
 public:
  static constexpr int N = Nonholonomic ? 16 : 15;
  using VecN = Eigen::Matrix<double, N, 1>;
  using MatN = Eigen::Matrix<double, N, N>;

  static const SchemeInfo& info();
  /// a: the parameter of eq. 80 (nonholonomic only). newton: tolerance 1e-14 by default so that the
  /// exact-invariant checks measure the scheme; the paper runs 1e-10.
  static inline const SettingInfo kA{"a", "the parameter a of eq. 80 (nonholonomic; moves lambda_3 only)", 1.0, -1e6, 1e6};
  GebhardtRomero(const Problem& p, const SchemeSettings& set)
      : GebhardtRomero(p, Nonholonomic ? set.get(kA) : 1.0, set.newton()) {}
  explicit GebhardtRomero(const Problem& p, double a = 1.0, NewtonSettings newton = {}) : SchemeBase(p), newton_(newton) {
    d_.problem = &p;
    d_.euler = euler_coefficients(p.inertia());
    d_.nonholonomic = Nonholonomic;
    d_.a = a;
    newton_.judged = 9;
    for (const Load& l : p.loads) block_solve_ = block_solve_ && !std::holds_alternative<FollowerMoment>(l);
  }

  void reset(const State& x0, double) {
    const Mat3& R = x0.body().R;
    const Mat3 Rd = R * so3::hat(x0.body().W);  // column i: d_i' = w x d_i = R (W x E_i)
    for (int i = 0; i < 3; ++i) {
      q_.segment<3>(3 * i) = R.col(i);
      v_.segment<3>(3 * i) = Rd.col(i);
    }
    mult_.setZero();
    c_ = {};
  }

  StepStatus step(double t, double h) {
    VecN x = prepare(t, h);
    const auto system = [&](const VecN& y, VecN& r, MatN& J, bool jacobian) { gr_system<N>(d_, y, r, J, jacobian); };
    const NewtonResult nr = block_solve_ ? newton_solve<N>(system, x, newton_, GrBlockLu<N>{})
                                         : newton_solve<N>(system, x, newton_);
    c_.newton_iterations += std::uint64_t(nr.iterations);
    c_.jacobian_evaluations += std::uint64_t(nr.jacobians);
    if (!p_->torque_free()) c_.load_evaluations += std::uint64_t(nr.iterations);
    if (!nr.converged || !x.allFinite())
      return newton_breakdown(info().name, "q", nr);
    const Vec9 q1 = x.template head<9>();
    v_ = (2.0 / h) * (q1 - q_) - v_;
    q_ = q1;
    mult_ = x.template tail<N - 9>();
    return {};
  }

  void read(State& s) const {
    Mat3 R, V;
    frame(R, V);
    s.body().R = R;
    s.body().W = body_velocity(R, V);
  }
  NewtonSystem newton_system(double t, double h) {
    const VecN x = prepare(t, h);
    const GrStepData* d = &d_;
    return erase_newton_system<N>("(q, multipliers)", x, [d](const VecN& y, VecN& r, MatN& J) { gr_system<N>(*d, y, r, J); });
  }

  /// The director velocities (for the scheme's own tests: K = 1/2 qdot.M qdot).
  const Vec9& director_velocities() const { return v_; }
  const Vec9& directors() const { return q_; }

 private:
  /// The step's data (d_) for t -> t + h from the current state, and the initial guess.
  VecN prepare(double t, double h) {
    d_.q0 = q_;
    d_.v0 = v_;
    d_.h = h;
    d_.t_mid = t + 0.5 * h;
    VecN x;
    // Predictor q_n + h qdot_n + h^2/2 qddot_n with the rigid body's director accelerations
    // d_i'' = R (hat(W') + hat(W)^2) E_i, W' from Euler's equation at (t_n, R_n): O(h^3) from q_{n+1}
    // (q_n + h qdot_n alone is O(h^2) off and costs one more Newton iteration per step;
    // docs/decisions.md, "Newton stopping test"). The previous multipliers for the rest.
    Mat3 R, V;
    frame(R, V);
    const Vec3 W = body_velocity(R, V);
    if (!p_->torque_free()) ++c_.load_evaluations;
    const Mat3 A = R * (so3::hat(euler_acceleration(t, R, W)) + so3::hat(W) * so3::hat(W));
    for (int i = 0; i < 3; ++i) x.template segment<3>(3 * i) = q_.template segment<3>(3 * i) + h * v_.template segment<3>(3 * i) + (0.5 * h * h) * A.col(i);
    x.template tail<N - 9>() = mult_;
    return x;
  }
  /// R = [d1 d2 d3] and V = [d1' d2' d3'] from the unknowns.
  void frame(Mat3& R, Mat3& V) const {
    for (int i = 0; i < 3; ++i) {
      R.col(i) = q_.template segment<3>(3 * i);
      V.col(i) = v_.template segment<3>(3 * i);
    }
  }
  /// W = J^-1 R^T pi, pi = sum_i d_i x pi^i, pi^i = JJ^{ij} d_j' (eqs. 65, 109): the momentum map.
  Vec3 body_velocity(const Mat3& R, const Mat3& V) const {
    const Mat3 P = V * d_.euler;  // column i: pi^i (JJ symmetric)
    Vec3 pi = Vec3::Zero();
    for (int i = 0; i < 3; ++i) pi += R.col(i).cross(P.col(i));
    return p_->inertia_inverse() * (R.transpose() * pi);
  }
  NewtonSettings newton_;
  bool block_solve_ = true;  // no follower moment: the Newton step by gr_block_solve
  GrStepData d_;
  Vec9 q_ = Vec9::Zero(), v_ = Vec9::Zero();
  Eigen::Matrix<double, N - 9, 1> mult_ = Eigen::Matrix<double, N - 9, 1>::Zero();
};

using GebhardtRomeroStandard = GebhardtRomero<false>;
using GebhardtRomeroNonholonomic = GebhardtRomero<true>;

template <>
const SchemeInfo& GebhardtRomeroStandard::info();
template <>
const SchemeInfo& GebhardtRomeroNonholonomic::info();

extern template struct GrBlockLu<15>;
extern template struct GrBlockLu<16>;
extern template void gr_system<15>(const GrStepData&, const Eigen::Matrix<double, 15, 1>&,
                                   Eigen::Matrix<double, 15, 1>&, Eigen::Matrix<double, 15, 15>&, bool);
extern template void gr_system<16>(const GrStepData&, const Eigen::Matrix<double, 16, 1>&,
                                   Eigen::Matrix<double, 16, 1>&, Eigen::Matrix<double, 16, 16>&, bool);

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in gebhardt_romero.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<GebhardtRomeroStandard>;
extern template class Erased<GebhardtRomeroNonholonomic>;

}  // namespace rigidbench
