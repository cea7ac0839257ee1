#pragma once
#include <Eigen/Eigenvalues>
#include <cmath>

#include "../core/so3.hpp"
#include "any_integrator.hpp"
#include "scheme_base.hpp"

namespace rigidbench {

/// Dullweber, Leimkuhler & McLachlan (J. Chem. Phys. 107, 5840, 1997), symplectic and reversible
/// splitting in principal axes (J = Q diag(I) Q^T, computed once):
///   kick   Pi += h/2 T(t_n, R_n)                                  (body momentum, body moment)
///   free   R1(h/2) R2(h/2) R3(h) R2(h/2) R1(h/2)                  (Strang; Ri(tau): exact rotation
///          about principal axis i by theta = tau Pi_i / I_i: R <- R exp(theta e_i), Pi <- exp(-theta e_i) Pi)
///   kick   Pi += h/2 T(t_{n+1}, R_{n+1})
/// Every sub-flow is the exact flow of a part of H that is invariant under spatial rotations, so pi
/// (torque-free) and |Pi| are exact; a kick changes pi by h/2 t, orthogonal to a uniform field.
class DlmSplitting final : public SchemeBase {  // state in the principal frame: Rp_ = R Q, Pp_ = Q^T Pi
 public:
  static const SchemeInfo& info();
  explicit DlmSplitting(const Problem& p) : SchemeBase(p) {
    Eigen::SelfAdjointEigenSolver<Mat3> es(p.inertia());
    Q_ = es.eigenvectors();
    if (Q_.determinant() < 0) Q_.col(2) *= -1.0;
    I_ = es.eigenvalues();
  }
  void reset(const State& x0, double) {
    Rp_ = x0.body().R * Q_;
    Pp_ = Q_.transpose() * (p_->inertia() * x0.body().W);
    Tp_.valid = false;
    c_ = {};
  }
  StepStatus step(double t, double h) {
    const bool loaded = !p_->torque_free();
    if (loaded) {
      if (!Tp_.holds(t)) {
        Tp_.store(t, Q_.transpose() * p_->body_moment(t, Rp_ * Q_.transpose()));
        ++c_.load_evaluations;
      }
      Pp_ += 0.5 * h * Tp_.value;
    }
    rotate(0, 0.5 * h);
    rotate(1, 0.5 * h);
    rotate(2, h);
    rotate(1, 0.5 * h);
    rotate(0, 0.5 * h);
    if (loaded) {
      Tp_.store(t + h, Q_.transpose() * p_->body_moment(t + h, Rp_ * Q_.transpose()));
      ++c_.load_evaluations;
      Pp_ += 0.5 * h * Tp_.value;
    }
    return {};
  }
  void read(State& x) const {
    x.body().R = Rp_ * Q_.transpose();
    x.body().W = Q_ * Pp_.cwiseQuotient(I_);
  }

 private:
  /// Exact flow of H_i = Pi_i^2 / (2 I_i) for time tau: rotation about principal axis i.
  void rotate(int i, double tau) {
    const double th = tau * Pp_[i] / I_[i];
    const double c = std::cos(th), s = std::sin(th);
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    // Pi <- exp(-th e_i) Pi
    const double pj = Pp_[j], pk = Pp_[k];
    Pp_[j] = c * pj + s * pk;
    Pp_[k] = -s * pj + c * pk;
    // R <- R exp(th e_i): columns j, k rotate
    const Vec3 cj = Rp_.col(j), ck = Rp_.col(k);
    Rp_.col(j) = c * cj + s * ck;
    Rp_.col(k) = -s * cj + c * ck;
  }

  Mat3 Q_ = Mat3::Identity();
  Vec3 I_ = Vec3::Ones();
  Mat3 Rp_ = Mat3::Identity();  // R Q: principal frame -> space
  Vec3 Pp_ = Vec3::Zero();      // body momentum in principal components
  MomentCache<Vec3> Tp_;  // principal-axes body moment at the end of the last step
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in dlm_splitting.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<DlmSplitting>;

}  // namespace rigidbench
