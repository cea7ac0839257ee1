#pragma once
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>

#include "integrators/integrator.hpp"
#include "reference/formulations/kirchhoff.hpp"

namespace rigidbench {

/// Boost.Odeint's classical `runge_kutta4` on the quaternion Kirchhoff form (reference/formulations/
/// kirchhoff.hpp) -- the in-run baseline of every cost ratio (METRICS.md, Cost). The quaternion is
/// not projected back to unit length during the run (plain RK4); the canonical attitude is R(q/|q|).
class OdeintRk4Quaternion final {
 public:
  static const SchemeInfo& info();
  explicit OdeintRk4Quaternion(const Problem& p) : p_(&p) {}

  void reset(const State& x0, double) {
    y_ = formulations::KirchhoffQuaternion::from_body(x0.body());
    c_ = {};
  }
  StepStatus step(double t, double h) {
    stepper_.do_step(formulations::KirchhoffQuaternion{p_, &c_.load_evaluations}, y_, t, h);
    return {};
  }
  void read(State& x) const { formulations::KirchhoffQuaternion::to_body(y_, x.body()); }
  Counters counters() const { return c_; }

 private:
  const Problem* p_;
  formulations::KirchhoffQuaternion::state_type y_{};
  boost::numeric::odeint::runge_kutta4<formulations::KirchhoffQuaternion::state_type> stepper_;
  Counters c_;
};

}  // namespace rigidbench
