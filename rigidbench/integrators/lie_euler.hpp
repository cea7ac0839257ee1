#pragma once
#include "rigidbench/core/so3.hpp"
#include "rigidbench/integrators/any_integrator.hpp"
#include "rigidbench/integrators/scheme_base.hpp"

namespace rigidbench {

/// Explicit Lie-Euler: R_{n+1} = R_n exp(h W_n), W_{n+1} = W_n + h J^{-1}(Pi_n x W_n + T_n),
/// Pi_n = J W_n + h_B (the body's internal momentum, zero but for the gyrostat), T_n = R_n^T t(t_n, R_n).
/// The first-order baseline (Iserles et al., Acta Numerica 2000, sec. 3).
class LieEuler final : public So3VelocityScheme {
 public:
  static const SchemeInfo& info();
  explicit LieEuler(const Problem& p) : So3VelocityScheme(p) {}

  StepStatus step(double t, double h) {
    const Mat3& J = p_->inertia();
    Vec3 Pi = J * W_;
    if (hB_) Pi += *hB_;
    Vec3 rhs = Pi.cross(W_);
    if (!p_->torque_free()) {
      rhs += p_->body_moment(t, R_);
      ++c_.load_evaluations;
    }
    R_ = R_ * so3::exp(h * W_);
    W_ += h * (p_->inertia_inverse() * rhs);
    return {};
  }
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in lie_euler.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<LieEuler>;

}  // namespace rigidbench
