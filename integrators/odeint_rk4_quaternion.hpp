#pragma once
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <functional>

#include "any_integrator.hpp"
#include "scheme_base.hpp"
#include "../problems/formulations/body_system.hpp"
#include "../problems/formulations/kirchhoff.hpp"
#include "../problems/formulations/spherical_chain.hpp"

namespace rigidbench {

/// Boost.Odeint's classical `runge_kutta4` on the quaternion Kirchhoff form (problems/formulations/
/// kirchhoff.hpp; for a body_system, every body in that form with the interactions,
/// formulations/body_system.hpp; for a spherical_chain, its minimal form, formulations/spherical_chain.hpp)
/// -- the in-run baseline of every cost ratio (docs/metrics.md, Cost). The
/// quaternions are not projected back to unit length during the run (plain RK4); the canonical
/// attitude is R(q/|q|).
class OdeintRk4Quaternion final : public SchemeBase {
 public:
  static const SchemeInfo& info();
  explicit OdeintRk4Quaternion(const Problem& p)
      : SchemeBase(p), form_(form_of(p)), rhs_(&p, &c_.load_evaluations), sys_(&p, &c_.load_evaluations),
        chain_(&p, &c_.load_evaluations) {}

  void reset(const State& x0, double) {
    if (form_ == Form::system) ys_ = formulations::BodySystemQuaternion::from_state(x0);
    else if (form_ == Form::chain) ys_ = chain_.from_state(x0);
    else y_ = formulations::KirchhoffQuaternion::from_body(x0.body());
    c_ = {};
  }
  StepStatus step(double t, double h) {
    // std::ref: odeint takes the system by value; the body system's load scratch is reused, not copied.
    if (form_ == Form::body) stepper_.do_step(rhs_, y_, t, h);  // first: the baselines' hot path
    else step_many(t, h);
    return {};
  }
  /// A body system's or a chain's step, compiled in its own unit (odeint_rk4_quaternion_many.cpp) so
  /// that the one-body path is compiled as it is alone: beside the chain's solve, GCC stopped inlining
  /// the Kirchhoff right-hand side into the one-body step (4 % more instructions, the gate's count).
  void step_many(double t, double h);
  void read(State& x) const {
    if (form_ == Form::system) formulations::BodySystemQuaternion::to_state(ys_, x);
    else if (form_ == Form::chain) chain_.to_state(ys_, x);
    else formulations::KirchhoffQuaternion::to_body(y_, x.body());
  }

 private:
  // One body (Kirchhoff), a body_system (every body in that form with its interactions), or a
  // spherical_chain (its minimal form, formulations/spherical_chain.hpp).
  enum class Form { body, system, chain };
  static Form form_of(const Problem& p) {
    return p.of_family("spherical_chain") ? Form::chain : p.translating() ? Form::system : Form::body;
  }
  Form form_;
  formulations::KirchhoffQuaternion rhs_;
  formulations::KirchhoffQuaternion::state_type y_{};
  boost::numeric::odeint::runge_kutta4<formulations::KirchhoffQuaternion::state_type> stepper_;
  formulations::BodySystemQuaternion sys_;
  formulations::ChainMinimal chain_;
  formulations::BodySystemQuaternion::state_type ys_;  // a body system's or a chain's
  boost::numeric::odeint::runge_kutta4<formulations::BodySystemQuaternion::state_type> stepper_s_;
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in odeint_rk4_quaternion.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<OdeintRk4Quaternion>;

}  // namespace rigidbench
