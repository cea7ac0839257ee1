#pragma once
// What the schemes share, written once. The contract (integrators/integrator.hpp) asks every scheme
// for reset(), step(), read() and counters(); a scheme that steps one body on SO(3) in the canonical
// variables takes reset/read/counters and its state from one of these bases and writes only its
// step (and, if implicit, its Newton system). Schemes with another internal state (a quaternion,
// directors, a rotation vector, a principal frame) derive from SchemeBase alone.
#include <optional>

#include "integrator.hpp"
#include "../problems/families/rigid_body.hpp"

namespace rigidbench {

/// The problem integrated and the cumulative counters (counters() of the contract).
class SchemeBase {
 public:
  Counters counters() const { return c_; }

 protected:
  explicit SchemeBase(const Problem& p) : p_(&p) {}
  /// W' of one body by Euler's equation, J W' = J W x W + T(t, R): the second-order term of the
  /// implicit schemes' O(h^3) first guesses (docs/decisions.md, "Newton stopping test"). The caller
  /// counts the load evaluation when the problem is loaded.
  Vec3 euler_acceleration(double t, const Mat3& R, const Vec3& W) const {
    Vec3 a = (p_->inertia() * W).cross(W);
    if (!p_->torque_free()) a += p_->body_moment(t, R);
    return p_->inertia_inverse() * a;
  }
  const Problem* p_;
  Counters c_;
};

/// One body stepped in (R, W), the body angular velocity: map-in and map-out are the identity.
class So3VelocityScheme : public SchemeBase {
 public:
  void reset(const State& x0, double) {
    R_ = x0.body().R;
    W_ = x0.body().W;
    c_ = {};
  }
  void read(State& x) const {
    x.body().R = R_;
    x.body().W = W_;
  }

 protected:
  explicit So3VelocityScheme(const Problem& p) : SchemeBase(p), hB_(internal_momentum_if_any(p)) {}
  /// Euler's equations, W' = J^{-1}((J W + h_B) x W + T(t, R)), T = R^T t(t, R) the body moment
  /// (counted as a load evaluation where the problem is loaded).
  Vec3 acceleration(double t, const Mat3& R, const Vec3& W) {
    Vec3 Pi = p_->inertia() * W;
    if (hB_) Pi += *hB_;
    Vec3 rhs = Pi.cross(W);
    if (!p_->torque_free()) {
      rhs += p_->body_moment(t, R);
      ++c_.load_evaluations;
    }
    return p_->inertia_inverse() * rhs;
  }
  Mat3 R_ = Mat3::Identity();
  Vec3 W_ = Vec3::Zero();
  /// The internal momentum h_B (Pi = J W + h_B) of a scheme declaring the feature, where the problem has one.
  const Vec3* hB_;
};

/// One body stepped in (R, Pi), Pi = J W the body momentum (without internal momentum), with the
/// body moment at the end of the last step kept for the next (MomentCache: "first same as last").
class So3MomentumScheme : public SchemeBase {
 public:
  void reset(const State& x0, double) {
    R_ = x0.body().R;
    Pi_ = p_->inertia() * x0.body().W;
    moment_.valid = false;
    c_ = {};
  }
  void read(State& x) const {
    x.body().R = R_;
    x.body().W = p_->inertia_inverse() * Pi_;
  }

 protected:
  using SchemeBase::SchemeBase;
  Mat3 R_ = Mat3::Identity();
  Vec3 Pi_ = Vec3::Zero();
  MomentCache<Vec3> moment_;
};

/// A one-body scheme that also steps a chain of bodies (the spherical_chain family) by its chain form
/// C, made when the problem is a chain: reset and read go to C then; the scheme's step tests chain_
/// first and keeps its one-body path as it is (the hot one).
template <class Base, class C>
class WithChain : public Base {
 public:
  void reset(const State& x0, double t) {
    Base::reset(x0, t);
    if (chain_) chain_->reset(x0);
  }
  void read(State& x) const {
    if (chain_) chain_->read(x);
    else Base::read(x);
  }

 protected:
  using Base::Base;
  std::optional<C> chain_;
};

}  // namespace rigidbench
