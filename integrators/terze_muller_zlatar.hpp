#pragma once
#include <cmath>

#include "../core/so3.hpp"
#include "any_integrator.hpp"
#include "scheme_base.hpp"

namespace rigidbench {

/// Terze, Mueller & Zlatar (2015) Lie-group Stoermer-Verlet scheme for (R, W), explicit form as
/// given in paper 004 (Y = J W body angular momentum, T body moment):
///   Y_{n+1/2} = exp(-h/2 W_n) (Y_n + h/2 T_n),          W_{n+1/2} = J^{-1} Y_{n+1/2}
///   R_{n+1}   = R_n exp(h W_{n+1/2})
///   Y_{n+1}   = exp(-h/2 W_{n+1/2}) [exp(-h/2 W_{n+1/2})(Y_n + h/2 T_n) + h/2 exp(h/2 W_{n+1/2}) T_{n+1}]
///             = exp(-h W_{n+1/2}) (Y_n + h/2 T_n) + h/2 T_{n+1}
/// The second form of Y_{n+1} is an identity of the first (the exponentials commute), so one
/// exponential per step serves R and Y. Consequence (tested): the spatial momentum obeys
/// pi_{n+1} = pi_n + h/2 (t_n + t_{n+1}) exactly, so pi is conserved torque-free and e3 . pi under
/// a vertical field. "Explicit form": the half-step uses exp(-h/2 W_n) in place of the implicit
/// exp(-h/2 W_{n+1/2}); this keeps second order (the difference is O(h^2) in Y_{n+1/2}).
/// T_{n+1} depends on R_{n+1} only for the loads supported (no velocity-dependent moments).
class TerzeMullerZlatar final : public So3MomentumScheme {  // Pi_ is the paper's Y, moment_ T_{n+1}
 public:
  static const SchemeInfo& info();
  explicit TerzeMullerZlatar(const Problem& p) : So3MomentumScheme(p) {}

  StepStatus step(double t, double h) {
    const bool loaded = !p_->torque_free();
    if (loaded && !moment_.holds(t)) {
      moment_.store(t, p_->body_moment(t, R_));
      ++c_.load_evaluations;
    }
    const Vec3 Yk = loaded ? Vec3(Pi_ + 0.5 * h * moment_.value) : Pi_;
    const Vec3 W_half = p_->inertia_inverse() * so3::exp_apply(-0.5 * h * (p_->inertia_inverse() * Pi_), Yk);
    const Mat3 X = so3::exp(h * W_half);
    R_ = R_ * X;
    Pi_ = X.transpose() * Yk;
    if (loaded) {
      moment_.store(t + h, p_->body_moment(t + h, R_));
      ++c_.load_evaluations;
      Pi_ += 0.5 * h * moment_.value;
    }
    return {};
  }
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in terze_muller_zlatar.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<TerzeMullerZlatar>;

}  // namespace rigidbench
