#pragma once
// Simo & Wong's energy-momentum algorithm (IJNME 31 (1991) 19-52): the convected (body) form of the
// generalized Newmark update with gamma = 1, beta = 1/2 -- the member of their family they single out
// as conserving energy and momentum -- written for the body increment Theta:
//   Lambda_{n+1} = Lambda_n exp(hat Theta),            Theta = h/2 (W_n + W_{n+1}),
//   pi_{n+1} = pi_n + h m(t_{n+1/2}, Lambda_{n+1/2}),  Lambda_{n+1/2} = Lambda_n exp(hat Theta / 2),
// i.e. in body components J W_{n+1} = exp(-hat Theta) [J W_n + h Lambda_n^T m]. pi = Lambda J W.
// Why it conserves (the free body): exp(hat Theta) Theta = Theta gives Theta . J W_{n+1} = Theta . J W_n,
// and Theta is parallel to W_n + W_{n+1}, so W_{n+1} . J W_{n+1} = W_n . J W_n; pi is conserved
// by construction. With a moment the energy changes by h Theta . Lambda_n^T m - (U_{n+1} - U_n),
// O(h^3) per step and not zero: the spatial momentum balance holds exactly (hence a . pi under a
// uniform field, whose moment is orthogonal to a), the energy is bounded only (claims below).
// The moment at the geodesic midpoint Lambda_n exp(Theta/2) and t_n + h/2 is SW91's alpha = beta/gamma = 1/2
// evaluation point (docs/decisions.md, "Simo-Wong").
// Unknown Theta (3), initial guess h W_n + h^2/2 dW/dt(t_n); W_{n+1} = J^-1 exp(-hat Theta) [...] once Theta has converged:
//   r(Theta) = J (2 Theta / h - W_n) - exp(-hat Theta) [J W_n + h Lambda_n^T m(t_m, Lambda_n exp(hat Theta/2))].
#include "../core/newton.hpp"
#include "../core/so3.hpp"
#include "any_integrator.hpp"
#include "scheme_base.hpp"

namespace rigidbench {

/// Residual and Jacobian of one Simo-Wong step (tested against finite differences). With
/// v = J W_n + h Lambda_n^T m and K = d m / d(spatial rotation):
///   dr/dTheta = 2J/h - exp(-hat Theta) [hat(v) dexp_r(-Theta) + h/2 Lambda_n^T K Lambda_{n+1/2} dexp_r(Theta/2)].
inline void simo_wong_system(const Problem& p, double h, double t_mid, const Mat3& Ln, const Vec3& Wn,
                             const Vec3& th, Vec3& r, Mat3& Jac, bool jacobian = true) {
  const Mat3& J = p.inertia();
  Vec3 v = J * Wn;
  Mat3 dv = Mat3::Zero();  // dv / dTheta
  // One sincos per iteration: exp(Theta/2) and its dexp, exp(-Theta) = exp(Theta/2)^-2 and its dexp
  // all from the half-angle coefficients (so3::Rotation::doubled).
  const so3::Rotation Eh(0.5 * th);
  if (!p.torque_free()) {
    const Mat3 La = Ln * Eh.matrix();
    v += h * (Ln.transpose() * p.spatial_moment(t_mid, La));
    if (jacobian) dv = (0.5 * h) * (Ln.transpose() * p.spatial_moment_jacobian(t_mid, La) * La * Eh.dexp_right());
  }
  const so3::Rotation Em = Eh.doubled().inverse();
  r = J * (2.0 / h * th - Wn) - Em.apply(v);
  if (jacobian) Jac = (2.0 / h) * J - Em.matrix() * (so3::hat(v) * Em.dexp_right() + dv);
}

class SimoWong final : public So3VelocityScheme {  // R_ is the paper's Lambda
 public:
  static const SchemeInfo& info();
  explicit SimoWong(const Problem& p, NewtonSettings s = {}) : So3VelocityScheme(p), newton_(s) {}
  SimoWong(const Problem& p, const SchemeSettings& set) : SimoWong(p, set.newton()) {}

  StepStatus step(double t, double h) {
    const double tm = t + 0.5 * h;
    const System sys = system(t, h);
    Vec3 th = guess(t, h);
    if (!p_->torque_free()) ++c_.load_evaluations;
    const NewtonResult nr = newton_solve<3>(
        [&](const Vec3& x, Vec3& r, Mat3& Jac, bool jacobian) {
          sys(x, r, Jac, jacobian);
          if (!p_->torque_free()) ++c_.load_evaluations;
        },
        th, newton_);
    c_.newton_iterations += std::uint64_t(nr.iterations);
    c_.jacobian_evaluations += std::uint64_t(nr.jacobians);
    if (!nr.converged)
      return newton_breakdown("Simo-Wong", "Theta", nr);
    // W_{n+1} from the momentum equation at the converged Theta (one more moment evaluation), not
    // from 2 Theta/h - W_n: the spatial balance then holds to round-off whatever the Newton tolerance,
    // and the energy error left by an inexact Theta is O(h^2) times the residual instead of O(1/h).
    Vec3 v = p_->inertia() * W_;
    const so3::Rotation Eh(0.5 * th), E = Eh.doubled();
    if (!p_->torque_free()) {
      v += h * (R_.transpose() * p_->spatial_moment(tm, R_ * Eh.matrix()));
      ++c_.load_evaluations;
    }
    R_ = R_ * E.matrix();
    W_ = p_->inertia_inverse() * E.apply_inverse(v);
    return {};
  }
  NewtonSystem newton_system(double t, double h) { return erase_newton_system<3>("Theta", guess(t, h), system(t, h)); }

 private:
  /// First guess, O(h^3) from the solution: Theta = h/2 (W_n + W_{n+1}) = h W_n + h^2/2 dW/dt(t_n)
  /// + O(h^3), with J dW/dt = J W x W + T from Euler's equation. h W_n alone is O(h^2) off and costs
  /// one more iteration per step (docs/decisions.md, "Newton stopping test").
  Vec3 guess(double t, double h) const { return h * W_ + (0.5 * h * h) * euler_acceleration(t, R_, W_); }
  /// The residual of the step t -> t + h from the current state (simo_wong_system).
  struct System {
    const Problem* p;
    double h, tm;
    const Mat3& L;
    const Vec3& W;
    void operator()(const Vec3& x, Vec3& r, Mat3& Jac, bool jacobian = true) const {
      simo_wong_system(*p, h, tm, L, W, x, r, Jac, jacobian);
    }
  };
  System system(double t, double h) const { return {p_, h, t + 0.5 * h, R_, W_}; }
  NewtonSettings newton_;
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in simo_wong.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<SimoWong>;

}  // namespace rigidbench
