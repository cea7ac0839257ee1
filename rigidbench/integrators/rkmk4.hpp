#pragma once
#include "rigidbench/core/so3.hpp"
#include "rigidbench/integrators/any_integrator.hpp"
#include "rigidbench/integrators/scheme_base.hpp"

namespace rigidbench {

/// Runge-Kutta-Munthe-Kaas of order 4 on SO(3) x R^3 (Munthe-Kaas, BIT 38, 1998; Iserles et al.,
/// Acta Numerica 2000, sec. 4): R(t) = R_n exp(u(t)) with u' = dexp_r(u)^{-1} W, and classical RK4
/// on (u, W) from u = 0. The exact dexp inverse is used (its truncation at second commutators
/// would already keep order 4).
class Rkmk4 final : public So3VelocityScheme {
 public:
  static const SchemeInfo& info();
  explicit Rkmk4(const Problem& p) : So3VelocityScheme(p) {}
  StepStatus step(double t, double h) {
    auto accel = [&](double ts, const Mat3& R, const Vec3& W) {
      Vec3 Pi = p_->inertia() * W;  // + h_B, the internal momentum (gyrostat)
      if (hB_) Pi += *hB_;
      Vec3 rhs = Pi.cross(W);
      if (!p_->torque_free()) {
        rhs += p_->body_moment(ts, R);
        ++c_.load_evaluations;
      }
      return Vec3(p_->inertia_inverse() * rhs);
    };
    // Stage k: (u_k, W_k) -> (du_k = dexp_r(u_k)^{-1} W_k, dW_k = accel(R_n exp(u_k), W_k)).
    const Vec3 du1 = W_, dW1 = accel(t, R_, W_);
    const Vec3 u2 = 0.5 * h * du1, W2 = W_ + 0.5 * h * dW1;
    const Vec3 du2 = so3::dexp_right_inverse(u2) * W2, dW2 = accel(t + 0.5 * h, R_ * so3::exp(u2), W2);
    const Vec3 u3 = 0.5 * h * du2, W3 = W_ + 0.5 * h * dW2;
    const Vec3 du3 = so3::dexp_right_inverse(u3) * W3, dW3 = accel(t + 0.5 * h, R_ * so3::exp(u3), W3);
    const Vec3 u4 = h * du3, W4 = W_ + h * dW3;
    const Vec3 du4 = so3::dexp_right_inverse(u4) * W4, dW4 = accel(t + h, R_ * so3::exp(u4), W4);
    R_ = R_ * so3::exp((h / 6.0) * (du1 + 2.0 * du2 + 2.0 * du3 + du4));
    W_ += (h / 6.0) * (dW1 + 2.0 * dW2 + 2.0 * dW3 + dW4);
    return {};
  }
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in rkmk4.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<Rkmk4>;

}  // namespace rigidbench
