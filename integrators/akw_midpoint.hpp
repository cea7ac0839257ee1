#pragma once
// Implicit midpoint rule on SO(3) (Austin, Krishnaprasad & Wang, J. Comput. Phys. 107 (1993) 105):
// the midpoint rule applied to the Lie-Poisson (Euler-Poisson) form of the equations,
//   Pi' = Pi x Omega + T(Gamma, t),   Gamma' = Gamma x Omega,   Omega = J^-1 (Pi - h),
// Gamma = R^T a the body components of any fixed spatial vector (the direction of a uniform field),
// h the body's internal momentum (zero but for the gyrostat; Omega is affine in Pi either way),
// with the attitude reconstructed by the Cayley map
//   R_{n+1} = R_n cay(h Omega_m),   Omega_m = J^-1 ((Pi_n + Pi_{n+1}) / 2 - h).
// Why Cayley (docs/decisions.md, "AKW midpoint"): the midpoint rule for Gamma,
//   Gamma_{n+1} - Gamma_n = h Gamma_m x Omega_m  <=>  (I + h/2 hat Omega_m) Gamma_{n+1} = (I - h/2 hat Omega_m) Gamma_n,
// is Gamma_{n+1} = cay(h Omega_m)^T Gamma_n for every spatial vector at once, i.e. R_{n+1} = R_n cay(h Omega_m).
// So the update of (Pi, R) is the midpoint rule on (Pi, Gamma), which keeps every quadratic first
// integral: K + U under uniform fields (U is linear in Gamma; K = 1/2 (Pi - h).J^-1 (Pi - h) is quadratic
// in Pi), |Pi| torque-free, Pi . Gamma (= a . pi),
// the axial momentum of the symmetric top; and R stays orthogonal (Cayley).
// The body moment of every catalogue load is affine in Gamma at fixed t (a field: T = p x m Gamma; a
// follower moment: f(t) B), so the midpoint moment T(Gamma_m, t_m) is, exactly,
//   T_m = [T(t_m, R_n) + T(t_m, R_{n+1})] / 2.
// Unknown w = Omega_m (3); Pi_m = J w + h_B, Pi_{n+1} = 2 Pi_m - Pi_n, i.e. W_{n+1} = 2 w - W_n:
//   r(w) = 2 (J w - J W_n) - h (J w + h_B) x w - h/2 [T(t_m, R_n) + T(t_m, R_n cay(h w))].
#include "../core/newton.hpp"
#include "../core/so3.hpp"
#include "any_integrator.hpp"
#include "scheme_base.hpp"

namespace rigidbench {

/// Residual and Jacobian of one AKW step (tested against finite differences). T0 = T(t_m, R_n).
///   dr/dw = 2J - h (hat(Jw + h_B) - hat(w) J) - h/2 [hat(T_1) + R_1^T K R_1] h dcay_r(h w),
/// K = d t / d(spatial rotation) (Problem::spatial_moment_jacobian) and dcay_r(a) = (I - hat(a)/2)/(1 + |a|^2/4)
/// the right-trivialised derivative of the Cayley map (cay(a + d) = cay(a) cay(dcay_r(a) d) + O(d^2)).
/// hB: the internal momentum where there is one (internal_momentum_if_any, taken once per scheme).
inline void akw_system(const Problem& p, const Vec3* hB, double h, double t_mid, const Mat3& Rn, const Vec3& Wn,
                       const Vec3& T0, const Vec3& w, Vec3& r, Mat3& Jac, bool jacobian = true) {
  const Mat3& J = p.inertia();
  const Vec3 Jw = J * w;
  Vec3 Pi_m = Jw;  // J w + h_B
  if (hB) Pi_m += *hB;
  r = 2.0 * (Jw - J * Wn) - h * Pi_m.cross(w);
  if (jacobian) Jac = 2.0 * J - h * (so3::hat(Pi_m) - so3::hat(w) * J);
  if (p.torque_free()) return;
  const Mat3 R1 = Rn * so3::cayley(h * w);
  const Vec3 T1 = p.body_moment(t_mid, R1);
  r -= 0.5 * h * (T0 + T1);
  if (!jacobian) return;
  const Vec3 a = h * w;
  const Mat3 dcay = (Mat3::Identity() - 0.5 * so3::hat(a)) / (1.0 + 0.25 * a.squaredNorm());
  // Both factors named, so the 3x3 product is one plain Mat3 * Mat3: written as one expression, whether
  // GCC inlined Eigen's assignment loop for it varied with unrelated edits (+2.9 % instructions per
  // step once, docs/decisions.md "AKW midpoint"). The same operations in the same order: bit-identical.
  const Mat3 dT = 0.5 * h * (so3::hat(T1) + R1.transpose() * p.spatial_moment_jacobian(t_mid, R1) * R1);
  const Mat3 hdcay = h * dcay;
  Jac.noalias() -= dT * hdcay;
}

class AkwMidpoint final : public So3VelocityScheme {
 public:
  static const SchemeInfo& info();
  explicit AkwMidpoint(const Problem& p, NewtonSettings s = {}) : So3VelocityScheme(p), newton_(s) {}
  AkwMidpoint(const Problem& p, const SchemeSettings& set) : AkwMidpoint(p, set.newton()) {}

  StepStatus step(double t, double h) {
    const System sys = system(t, h);
    Vec3 w = W_;  // initial guess: Omega_m ~ Omega_n (docs/decisions.md, "Newton stopping test")
    const NewtonResult nr = newton_solve<3>(
        [&](const Vec3& x, Vec3& r, Mat3& Jac, bool jacobian) {
          sys(x, r, Jac, jacobian);
          if (!p_->torque_free()) ++c_.load_evaluations;
        },
        w, newton_);
    c_.newton_iterations += std::uint64_t(nr.iterations);
    c_.jacobian_evaluations += std::uint64_t(nr.jacobians);
    if (!nr.converged)
      return newton_breakdown("AKW midpoint", "Omega_m", nr);
    R_ = R_ * so3::cayley(h * w);
    W_ = 2.0 * w - W_;
    return {};
  }
  NewtonSystem newton_system(double t, double h) {
    return erase_newton_system<3>("Omega_m", W_, system(t, h));
  }

 private:
  /// The residual of the step t -> t + h from the current state (akw_system), T_n evaluated once.
  struct System {
    const Problem* p;
    const Vec3* hB;
    double h, tm;
    const Mat3& R;
    const Vec3& W;
    Vec3 T0;
    void operator()(const Vec3& x, Vec3& r, Mat3& Jac, bool jacobian = true) const {
      akw_system(*p, hB, h, tm, R, W, T0, x, r, Jac, jacobian);
    }
  };
  System system(double t, double h) {
    const double tm = t + 0.5 * h;
    Vec3 T0 = Vec3::Zero();
    if (!p_->torque_free()) {
      T0 = p_->body_moment(tm, R_);
      ++c_.load_evaluations;
    }
    return {p_, hB_, h, tm, R_, W_, T0};
  }
  NewtonSettings newton_;
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in akw_midpoint.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<AkwMidpoint>;

}  // namespace rigidbench
