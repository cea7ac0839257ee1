#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "any_integrator.hpp"
#include "scheme_base.hpp"
#include "../problems/formulations/body_system.hpp"
#include "../problems/formulations/kirchhoff.hpp"
#include "../problems/formulations/spherical_chain.hpp"

namespace rigidbench {

/// The classical RK4 written out by hand on the very right-hand side the Boost.Odeint baseline
/// integrates (formulations/kirchhoff.hpp; for a body_system, formulations/body_system.hpp; for a
/// spherical_chain, formulations/spherical_chain.hpp): the second
/// in-run baseline of every cost ratio (docs/metrics.md, Cost). Why two baselines: odeint's generic
/// Runge-Kutta algebra costs about as much again as the arithmetic it performs, so a ratio to it
/// measures odeint's overhead as much as the scheme's cost; this one is the same method at the
/// arithmetic limit, and the two give the same numbers to round-off (tested).
///
/// The right-hand side is formulations::KirchhoffQuaternion's written out in components (Rhs below;
/// for a body system the formulation itself). The arithmetic follows odeint's runge_kutta4 (explicit_generic_rk with the Butcher tableau
/// a = (1/2; 0, 1/2; 0, 0, 1), b = (1/6, 1/3, 1/3, 1/6), c = (0, 1/2, 1/2, 1)) operation for operation:
/// stage states y + (a h) k, the update y + (b1 h) k1 + (b2 h) k2 + (b3 h) k3 + (b4 h) k4 summed left
/// to right. Quaternions are not projected back to unit length; the canonical attitude is R(q/|q|).
class Rk4Quaternion final : public SchemeBase {
 public:
  static const SchemeInfo& info();
  explicit Rk4Quaternion(const Problem& p)
      : SchemeBase(p), form_(form_of(p)), rhs_(p, &c_.load_evaluations), sys_(&p, &c_.load_evaluations),
        chain_(&p, &c_.load_evaluations) {}

  void reset(const State& x0, double) {
    if (form_ == Form::body) {
      y_ = formulations::KirchhoffQuaternion::from_body(x0.body());
    } else {
      ys_ = form_ == Form::system ? formulations::BodySystemQuaternion::from_state(x0) : chain_.from_state(x0);
      for (auto* v : {&k1s_, &k2s_, &k3s_, &k4s_, &tmps_}) v->assign(ys_.size(), 0.0);
    }
    c_ = {};
  }
  StepStatus step(double t, double h) {
    if (form_ == Form::body) {  // first: one comparison on the baselines' hot path, as before chains
      std::array<double, 7> k1, k2, k3, k4, tmp;
      rk4(rhs_, y_, t, h, k1, k2, k3, k4, tmp);
    } else if (form_ == Form::system) {
      rk4(sys_, ys_, t, h, k1s_, k2s_, k3s_, k4s_, tmps_);
    } else {
      rk4(chain_, ys_, t, h, k1s_, k2s_, k3s_, k4s_, tmps_);
    }
    return {};
  }
  void read(State& x) const {
    if (form_ == Form::system) formulations::BodySystemQuaternion::to_state(ys_, x);
    else if (form_ == Form::chain) chain_.to_state(ys_, x);
    else formulations::KirchhoffQuaternion::to_body(y_, x.body());
  }

 private:
  /// formulations::KirchhoffQuaternion's right-hand side written out in components with the problem's
  /// data copied in: J, J^-1, the internal momentum and the uniform fields (point, force m a), the
  /// moment p x R(q/|q|)^T F from the homogeneous form R(q)^T v = ((w^2 - |u|^2) v + 2 (u.v) u -
  /// 2 w u x v) / |q|^2 (no square root); follower moments through their profiles.
  struct Rhs {
    Rhs(const Problem& p, std::uint64_t* counter)
        : J(p.inertia()), Ji(p.inertia_inverse()), hint(internal_momentum(p)),
          counter(p.torque_free() ? nullptr : counter) {
      for (const Load& l : p.loads) {
        if (const auto* f = std::get_if<UniformField>(&l)) fields.push_back({f->point, f->mass * f->acceleration});
        else followers.push_back(&std::get<FollowerMoment>(l));
      }
    }
    void operator()(const std::array<double, 7>& y, std::array<double, 7>& dy, double t) const {
      const double w = y[0], x = y[1], yq = y[2], z = y[3], W0 = y[4], W1 = y[5], W2 = y[6];
      // q' = 1/2 q (x) (0, W) = 1/2 (-u.W, w W + u x W)
      dy[0] = 0.5 * (-x * W0 - yq * W1 - z * W2);
      dy[1] = 0.5 * (w * W0 + yq * W2 - z * W1);
      dy[2] = 0.5 * (w * W1 + z * W0 - x * W2);
      dy[3] = 0.5 * (w * W2 + x * W1 - yq * W0);
      const Vec3 Wv(W0, W1, W2);
      Vec3 rhs = (J * Wv + hint).cross(Wv);
      if (counter) {
        const Vec3 u(x, yq, z);
        const double c = w * w - u.squaredNorm(), s = 1.0 / (w * w + u.squaredNorm());
        for (const auto& [point, F] : fields) {
          const Vec3 v = s * (c * F + (2 * u.dot(F)) * u - (2 * w) * u.cross(F));  // R(q/|q|)^T F
          rhs += point.cross(v);
        }
        for (const FollowerMoment* fm : followers) rhs += fm->profile(t) * fm->body;
        ++*counter;
      }
      const Vec3 dW = Ji * rhs;
      dy[4] = dW[0], dy[5] = dW[1], dy[6] = dW[2];
    }
    Mat3 J, Ji;
    Vec3 hint;
    std::vector<std::pair<Vec3, Vec3>> fields;
    std::vector<const FollowerMoment*> followers;
    std::uint64_t* counter;
  };

  template <class F, class S>
  static void rk4(const F& f, S& y, double t, double h, S& k1, S& k2, S& k3, S& k4, S& tmp) {
    const std::size_t n = y.size();
    const double h2 = 0.5 * h, b1 = (1.0 / 6.0) * h, b2 = (1.0 / 3.0) * h;
    f(y, k1, t);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = y[i] + h2 * k1[i];
    f(tmp, k2, t + 0.5 * h);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = y[i] + h2 * k2[i];
    f(tmp, k3, t + 0.5 * h);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = y[i] + h * k3[i];
    f(tmp, k4, t + h);
    for (std::size_t i = 0; i < n; ++i) y[i] = y[i] + b1 * k1[i] + b2 * k2[i] + b2 * k3[i] + b1 * k4[i];
  }

  // One body (Kirchhoff), a body_system (every body in that form with its interactions), or a
  // spherical_chain (its minimal form, formulations/spherical_chain.hpp).
  enum class Form { body, system, chain };
  static Form form_of(const Problem& p) {
    return p.of_family("spherical_chain") ? Form::chain : p.translating() ? Form::system : Form::body;
  }
  Form form_;
  formulations::KirchhoffQuaternion::state_type y_{};
  Rhs rhs_;
  formulations::BodySystemQuaternion sys_;
  formulations::ChainMinimal chain_;
  formulations::BodySystemQuaternion::state_type ys_, k1s_, k2s_, k3s_, k4s_, tmps_;  // a body system's or a chain's
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in rk4_quaternion.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<Rk4Quaternion>;

}  // namespace rigidbench
