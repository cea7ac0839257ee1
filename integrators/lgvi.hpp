#pragma once
// Lie group variational integrator of Lee, Leok & McClamroch (Proc. IEEE CCA 2005, "A Lie group
// variational integrator for the attitude dynamics of a rigid body with applications to the 3D
// pendulum"; Comput. Methods Appl. Mech. Engrg. 196 (2007) 2907, eqs. for the rigid body):
//   hat(h Pi_k + h^2/2 M_k) = F_k J_d - J_d F_k^T,       J_d = 1/2 tr(J) I - J  (nonstandard inertia)
//   R_{k+1} = R_k F_k,
//   Pi_{k+1} = F_k^T Pi_k + h/2 F_k^T M_k + h/2 M_{k+1},
// Pi = J W the body momentum, M the body moment (Problem::body_moment; for a time-dependent load at
// t_k and t_{k+1}: the discrete Lagrange-d'Alembert principle with the trapezoidal force rule).
// F_k = exp(hat f) turns the implicit equation into one on f in R^3 (Lee et al. 2007):
//   G(f) = a(|f|) J f + b(|f|) f x J f = g,   g = h Pi_k + h^2/2 M_k,   a = sin t/t, b = (1 - cos t)/t^2,
// because vee(hat f J_d + J_d hat f) = J f and vee(hat f^2 J_d - J_d hat f^2) = f x J f.
// Solved by Newton from f = J^-1 g. A solution with |f| >= pi is outside the exponential chart the
// equation is solved in (the step is too large for the scheme): breakdown, never a silent wrap.
// M_{k+1} is the next step's M_k (first same as last, MomentCache).
#include "../core/newton.hpp"
#include "../core/so3.hpp"
#include <optional>

#include "any_integrator.hpp"
#include "lgvi_chain.hpp"
#include "scheme_base.hpp"

namespace rigidbench {

/// G(f) - g and its Jacobian (tested against finite differences):
///   dG/df = a J + b (hat(f) J - hat(J f)) + c1 (J f) f^T + c2 (f x J f) f^T,
///   c1 = a'(t)/t = (t cos t - sin t)/t^3,   c2 = b'(t)/t = (t sin t - 2(1 - cos t))/t^4  (series below t = 0.05).
inline void lgvi_system(const Mat3& J, const Vec3& g, const Vec3& f, Vec3& r, Mat3& Jac, bool jacobian = true) {
  const double t = f.norm();
  double a, b;
  so3::rodrigues_coefficients(t, a, b);
  const Vec3 Jf = J * f;
  const Vec3 fJf = f.cross(Jf);
  r = a * Jf + b * fJf - g;
  if (!jacobian) return;
  double c1, c2;
  if (t < 0.05) {
    const double t2 = t * t;
    c1 = -1.0 / 3.0 + t2 / 30.0 - t2 * t2 / 840.0;
    c2 = -1.0 / 12.0 + t2 / 180.0 - t2 * t2 / 6720.0;
  } else {
    // From a = sin t / t, b = (1 - cos t)/t^2 (no second trigonometric call): c1 = (1 - a - b t^2)/t^2,
    // c2 = (a - 2b)/t^2. Both lose ~log10(1/t^2) digits to cancellation at t >= 0.05 (<= 3 digits):
    // they enter the Jacobian only, where that is far below what slows Newton.
    const double t2 = t * t;
    c1 = (1.0 - a - b * t2) / t2;
    c2 = (a - 2.0 * b) / t2;
  }
  Jac = a * J + b * (so3::hat(f) * J - so3::hat(Jf)) + c1 * Jf * f.transpose() + c2 * fJf * f.transpose();
}

// A chain of bodies steps by the LGVI of connected rigid bodies (lgvi_chain.hpp); one body here.
class Lgvi final : public WithChain<So3MomentumScheme, LgviChain> {
 public:
  static const SchemeInfo& info();
  explicit Lgvi(const Problem& p, NewtonSettings s = {}) : WithChain(p), newton_(s) {
    if (p.of_family("spherical_chain")) chain_.emplace(p, s);
  }
  Lgvi(const Problem& p, const SchemeSettings& set) : Lgvi(p, set.newton()) {}

  StepStatus step(double t, double h) {
    if (chain_) [[unlikely]] return chain_->step(h, c_);
    const System sys = system(t, h);
    const Vec3 Mk = sys.Mk;
    Vec3 f = sys.guess();
    const NewtonResult nr = newton_solve<3>(sys, f, newton_);
    c_.newton_iterations += std::uint64_t(nr.iterations);
    c_.jacobian_evaluations += std::uint64_t(nr.jacobians);
    if (!nr.converged)
      return newton_breakdown("LGVI", "f", nr);
    if (!(f.norm() < kPi))
      return StepStatus::breakdown(cat("LGVI: the relative rotation F_k = exp(f) has |f| = ", format_number(f.norm(), 4),
                                       " >= pi: the step h = ", format_number(h, 4),
                                       " is too large for the exponential chart"));
    const Mat3 F = so3::exp(f);
    R_ = R_ * F;
    Pi_ = F.transpose() * (Pi_ + 0.5 * h * Mk);
    if (!p_->torque_free()) {
      moment_.store(t + h, p_->body_moment(t + h, R_));
      ++c_.load_evaluations;
      Pi_ += 0.5 * h * moment_.value;
    }
    return {};
  }
  NewtonSystem newton_system(double t, double h) {
    if (chain_) return chain_->newton_system(h);
    const System sys = system(t, h);
    return erase_newton_system<3>("f", sys.guess(), sys);
  }

 private:
  static constexpr double kPi = 3.14159265358979323846;
  /// The residual of the step t -> t + h (lgvi_system) with g = h Pi_k + h^2/2 M_k; M_k is the
  /// moment kept from the end of the last step when it starts at t, else evaluated here.
  struct System {
    const Mat3& J;
    const Mat3& Ji;
    Vec3 Mk, g;
    void operator()(const Vec3& x, Vec3& r, Mat3& Jac, bool jacobian = true) const {
      lgvi_system(J, g, x, r, Jac, jacobian);
    }
    /// First guess: G(f) = J f + 1/2 f x J f + O(|f|^3) solved to second order, f0 = J^-1 g,
    /// f = J^-1 (g - 1/2 f0 x J f0): O(h^3) from the solution (f0 alone is O(h^2) off and costs one
    /// more Newton iteration per step; docs/decisions.md, "Newton stopping test").
    Vec3 guess() const {
      const Vec3 f0 = Ji * g;
      return Ji * (g - 0.5 * f0.cross(J * f0));
    }
  };
  System system(double t, double h) {
    const bool loaded = !p_->torque_free();
    if (loaded && !moment_.holds(t)) {
      moment_.store(t, p_->body_moment(t, R_));
      ++c_.load_evaluations;
    }
    const Vec3 Mk = loaded ? moment_.value : Vec3::Zero();
    return {p_->inertia(), p_->inertia_inverse(), Mk, h * Pi_ + (0.5 * h * h) * Mk};
  }
  NewtonSettings newton_;
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in lgvi.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<Lgvi>;

}  // namespace rigidbench
