#pragma once
#include "rigidbench/core/so3.hpp"
#include "rigidbench/integrators/integrator.hpp"

namespace rigidbench {

/// Explicit Lie-Euler: R_{n+1} = R_n exp(h W_n), W_{n+1} = W_n + h J^{-1}(Pi_n x W_n + T_n),
/// Pi_n = J W_n + h_B (the body's internal momentum, zero but for the gyrostat), T_n = R_n^T t(t_n, R_n).
/// The first-order baseline (Iserles et al., Acta Numerica 2000, sec. 3).
class LieEuler final {
 public:
  static const SchemeInfo& info();
  explicit LieEuler(const Problem& p) : p_(&p) {}

  void reset(const State& x0, double) {
    R_ = x0.body().R;
    W_ = x0.body().W;
    c_ = {};
  }
  StepStatus step(double t, double h) {
    const Mat3& J = p_->inertia();
    Vec3 Pi = J * W_;
    if (p_->has_internal_momentum()) Pi += p_->internal_momentum();
    Vec3 rhs = Pi.cross(W_);
    if (!p_->torque_free()) {
      rhs += p_->body_moment(t, R_);
      ++c_.load_evaluations;
    }
    R_ = R_ * so3::exp(h * W_);
    W_ += h * (p_->inertia_inverse() * rhs);
    return {};
  }
  void read(State& x) const {
    x.body().R = R_;
    x.body().W = W_;
  }
  Counters counters() const { return c_; }

 private:
  const Problem* p_;
  Mat3 R_ = Mat3::Identity();
  Vec3 W_ = Vec3::Zero();
  Counters c_;
};

}  // namespace rigidbench
