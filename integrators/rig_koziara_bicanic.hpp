#pragma once
// RIG_POS, RIG_NEG, RIG_IMP: Koziara & Bicanic (IJNME 81(9), 2010; NEW1/NEW2/NEW3), the schemes of
// the Solfec heavy-top page (paper 002), after Krysl (2005). Lambda attitude, Omega body angular
// velocity, J body inertia, t(t) spatial moment; common part:
//   Lambda_{n+1/2} = Lambda_n exp(h/2 Omega_n)
//   T_{n+1/2}      = Lambda_{n+1/2}^T t(t_n + h/2)          (configuration-dependent moment: at Lambda_{n+1/2})
//   Omega_{n+1/2}  = J^{-1} [exp(-h/2 Omega_n) J Omega_n + h/2 T_{n+1/2}]
//   Omega_1        = Omega_n + h J^{-1} [T_{n+1/2} - Omega_{n+1/2} x J Omega_{n+1/2}]
// RIG_POS: Lambda_{n+1} = Lambda_{n+1/2} exp(h/2 Omega_1), Omega_{n+1} = Omega_1.
// RIG_NEG: Lambda_{n+1} as POS; Omega_{n+1} = J^{-1} exp(-h/2 Omega_1) [exp(-h/2 Omega_n) J Omega_n + h T_{n+1/2}].
// RIG_IMP: exp(h/2 Omega_3) J Omega_3 = exp(-h/2 Omega_n) J Omega_n + h T_{n+1/2} solved for Omega_3 by
//          Newton (tangent from dexp), Lambda_{n+1} = Lambda_{n+1/2} exp(h/2 Omega_3), Omega_{n+1} = Omega_3.
// NEG and IMP satisfy the midpoint spatial momentum balance
//   Lambda_{n+1} J Omega_{n+1} = Lambda_n J Omega_n + h Lambda_{n+1/2} T_{n+1/2}   (tested to round-off).
#include "../core/newton.hpp"
#include "../core/so3.hpp"
#include "any_integrator.hpp"
#include "scheme_base.hpp"

namespace rigidbench {

enum class RigVariant { pos, neg, imp };

/// RIG_IMP's Newton system as the test hook sees it (NewtonSystem), for the step from (J, h, c) with
/// initial guess `guess`. Defined in its own translation unit (rig_imp_newton.cpp): a second caller
/// of rig_imp_system in the step's unit changes GCC 12's inlining of the step's Newton loop (+8%
/// instructions per step, the gate's callgrind counts).
NewtonSystem rig_imp_newton_system(const Mat3& J, double h, const Vec3& c, const Vec3& guess);

/// RIG_IMP's Newton system: r(W) = exp(h/2 W) J W - c and its Jacobian
/// dr/dW = exp(h/2 W) [J - h/2 hat(J W) dexp_r(h/2 W)] (right Jacobian of exp). Tested against
/// finite differences.
inline void rig_imp_system(const Mat3& J, double h, const Vec3& c, const Vec3& w, Vec3& r, Mat3& Jac,
                           bool jacobian = true) {
  const so3::Rotation R(0.5 * h * w);  // one sincos for exp and dexp_r
  const Mat3 E = R.matrix();
  const Vec3 Jw = J * w;
  r = E * Jw - c;
  if (jacobian) Jac = E * (J - 0.5 * h * so3::hat(Jw) * R.dexp_right());
}

template <RigVariant V>
class RigKoziaraBicanic final : public So3VelocityScheme {  // R_ is the paper's Lambda
 public:
  static const SchemeInfo& info();
  explicit RigKoziaraBicanic(const Problem& p) : So3VelocityScheme(p) {}
  RigKoziaraBicanic(const Problem& p, const SchemeSettings& set)
    requires(V == RigVariant::imp)
      : So3VelocityScheme(p), newton_(set.newton()) {}

  StepStatus step(double t, double h) {
    const Mat3& J = p_->inertia();
    const Mat3& Ji = p_->inertia_inverse();
    const HalfStep s = half_step(t, h);
    Vec3 W1;
    if constexpr (V != RigVariant::imp) W1 = explicit_velocity(s, h);
    if constexpr (V == RigVariant::pos) {
      R_ = s.L_half * so3::exp(0.5 * h * W1);
      W_ = W1;
    } else if constexpr (V == RigVariant::neg) {
      const so3::Rotation E1(0.5 * h * W1);  // one sincos for exp(h/2 W1) and its transpose
      R_ = s.L_half * E1.matrix();
      W_ = Ji * E1.apply_inverse(s.b + h * s.T);
    } else {
      const Vec3 c = s.b + h * s.T;
      // First guess: RIG_POS/NEG's explicit velocity update, O(h^3) from the solution (the previous
      // velocity is O(h) off and costs one more Newton iteration per step; docs/decisions.md).
      Vec3 W = explicit_velocity(s, h);
      const NewtonResult nr =
          newton_solve<3>([&](const Vec3& w, Vec3& r, Mat3& Jac, bool jac) { rig_imp_system(J, h, c, w, r, Jac, jac); },
                          W, newton_);
      c_.newton_iterations += std::uint64_t(nr.iterations);
      c_.jacobian_evaluations += std::uint64_t(nr.jacobians);
      if (!nr.converged)
        return newton_breakdown("RIG_IMP", "Omega", nr);
      R_ = s.L_half * so3::exp(0.5 * h * W);
      W_ = W;
    }
    return {};
  }
  NewtonSystem newton_system(double t, double h)
    requires(V == RigVariant::imp)
  {
    const HalfStep s = half_step(t, h);
    return rig_imp_newton_system(p_->inertia(), h, s.b + h * s.T, explicit_velocity(s, h));
  }

 private:
  /// The common part: Lambda_{n+1/2}, T_{n+1/2} and b = exp(-h/2 Omega_n) J Omega_n.
  struct HalfStep {
    Mat3 L_half;
    Vec3 T, b;
  };
  // Always inlined into step(): the hook is its second caller, and the step must not change for it.
  [[gnu::always_inline]] inline HalfStep half_step(double t, double h) {
    // exp(h/2 Omega_n) and exp(-h/2 Omega_n) = exp(h/2 Omega_n)^T from one sincos.
    const so3::Rotation E(0.5 * h * W_);
    HalfStep s{R_ * E.matrix(), Vec3::Zero(), E.apply_inverse(p_->inertia() * W_)};
    if (!p_->torque_free()) {
      s.T = p_->body_moment(t + 0.5 * h, s.L_half);
      ++c_.load_evaluations;
    }
    return s;
  }
  /// Omega_{n+1} of RIG_POS/NEG: the explicit midpoint rule on Euler's equation from b and T_{n+1/2}.
  [[gnu::always_inline]] inline Vec3 explicit_velocity(const HalfStep& s, double h) const {
    const Mat3& J = p_->inertia();
    const Mat3& Ji = p_->inertia_inverse();
    const Vec3 W_half = Ji * (s.b + 0.5 * h * s.T);
    return W_ + h * (Ji * (s.T - W_half.cross(J * W_half)));
  }
  NewtonSettings newton_;
};

using RigPos = RigKoziaraBicanic<RigVariant::pos>;
using RigNeg = RigKoziaraBicanic<RigVariant::neg>;
using RigImp = RigKoziaraBicanic<RigVariant::imp>;

// The metadata of each variant is an explicit specialization (rig_koziara_bicanic.cpp), declared
// here so that every user sees it before any use.
template <>
const SchemeInfo& RigPos::info();
template <>
const SchemeInfo& RigNeg::info();
template <>
const SchemeInfo& RigImp::info();

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in rig_koziara_bicanic.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<RigPos>;
extern template class Erased<RigNeg>;
extern template class Erased<RigImp>;

}  // namespace rigidbench
