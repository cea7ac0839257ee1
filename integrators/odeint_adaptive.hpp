#pragma once
// Boost.Odeint's error-controlled steppers as adaptive schemes (SchemeInfo::adaptive; integrator.hpp,
// "Adaptive schemes"; docs/adaptive.md): the controllers people run, judged as they ship. Each one
// integrates the rigid-body equations in the quaternion Kirchhoff form (problems/formulations/
// kirchhoff.hpp: the right-hand side the references and the RK4 baseline integrate) - a body system
// (SE(3)^n) in that form per body with the interactions (formulations/body_system.hpp, the body
// systems' references' right-hand side) - with odeint's
// default error checker (|e_i| <= abs + rel (|y_i| + dt |y_i'|), max norm) and step adjuster
// (safety 0.9, decrease to at most 1/5, increase to at most 5x; boost/numeric/odeint/stepper/
// controlled_runge_kutta.hpp).
//
// - odeint_dopri5: controlled runge_kutta_dopri5 (Dormand & Prince 1980, 5(4), FSAL) with dense
//   output: it steps past an output time and interpolates there with the method's own continuous
//   extension (runge_kutta_dopri5::calc_state), as odeint's dense_output_runge_kutta does - the loop
//   is written here so that every rejected step is counted.
// - odeint_cash_karp54, odeint_fehlberg78: controlled Cash-Karp 5(4) and Fehlberg 7(8), stepping
//   exactly onto every output time (odeint's integrate_times: the step is shortened to land, and the
//   controller's proposal is kept for the next one).
// - odeint_bulirsch_stoer: odeint's Bulirsch-Stoer extrapolation with its own order and step control,
//   stepping exactly onto every output time.
//
// The quaternion policy (setting `project`): 0, none - |q| drifts within the error control and the
// canonical attitude is R(q/|q|); 1, q <- q/|q| (every body's) after every accepted step (and the derivative
// re-evaluated there, one right-hand side more per step). The attitude stays on SO(3) either way (it
// is read as R(q/|q|)); what the policy changes is the state the controller sees.
//
// The controller is a template parameter (Control below) so that the tests can judge deliberately
// broken controllers with the same loop (tests/test_adaptive.cpp).
#include <boost/numeric/odeint/stepper/bulirsch_stoer.hpp>
#include <boost/numeric/odeint/stepper/controlled_runge_kutta.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_cash_karp54.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cmath>
#include <cstdint>

#include "../core/quaternion.hpp"
#include "any_integrator.hpp"
#include "scheme_base.hpp"
#include "../problems/formulations/body_system.hpp"
#include "../problems/formulations/spherical_chain.hpp"
#include "../problems/formulations/kirchhoff.hpp"

namespace rigidbench {

/// The quaternion policy of the odeint adaptive schemes (docs/adaptive.md).
inline const SettingInfo kProjectQuaternion{"project", "quaternion policy: 0 none, 1 normalise q after every accepted step",
                                            0, 0, 1, true};

namespace odeint_adaptive {

namespace ode = boost::numeric::odeint;

/// The two forms a scheme integrates: one body (std::array, odeint's array algebra) or every body of
/// an SE(3)^n system (std::vector, range algebra), each with its map to and from the canonical state.
struct RigidBodyForm {
  using rhs_type = formulations::KirchhoffQuaternion;
  using state_type = rhs_type::state_type;
  static constexpr std::size_t kPer = 7;  // q (4), W (3)
  static state_type from(const rhs_type&, const State& x) { return rhs_type::from_body(x.body()); }
  static void to(const rhs_type&, const state_type& y, State& x) { rhs_type::to_body(y, x.body()); }
};
struct BodySystemForm {
  using rhs_type = formulations::BodySystemQuaternion;
  using state_type = rhs_type::state_type;
  static constexpr std::size_t kPer = rhs_type::kPer;  // q (4), W (3), x (3), v (3)
  static state_type from(const rhs_type&, const State& x) { return rhs_type::from_state(x); }
  static void to(const rhs_type&, const state_type& y, State& x) { rhs_type::to_state(y, x); }
};
/// A spherical_chain's minimal form (formulations/spherical_chain.hpp): the reference's right-hand side.
/// A free chain's body-0 position and velocity follow the bodies' blocks (project() stops before them).
struct ChainForm {
  using rhs_type = formulations::ChainMinimal;
  using state_type = rhs_type::state_type;
  static constexpr std::size_t kPer = 7;  // q (4), W (3)
  static state_type from(const rhs_type& f, const State& x) { return f.from_state(x); }
  static void to(const rhs_type& f, const state_type& y, State& x) { f.to_state(y, x); }
};
/// The rigid body's state type (tests name it).
using state_type = RigidBodyForm::state_type;

/// odeint's default error checker of an error stepper E (on E's algebra) and its default adjuster.
template <class E>
using Checker = ode::default_error_checker<double, typename E::algebra_type, typename E::operations_type>;
using Adjuster = ode::default_step_adjuster<double, double>;

/// A right-hand side with every evaluation counted (Counters::rhs_evaluations); odeint takes the
/// system by value, so it holds pointers (the body system's load scratch is not copied).
template <class Rhs>
struct CountedRhs {
  const Rhs* f;
  std::uint64_t* evaluations;
  template <class S>
  void operator()(const S& y, S& dy, double t) const {
    ++*evaluations;
    (*f)(y, dy, t);
  }
};

// GCC 12 reports -Wuninitialized inside odeint's stepper copy constructor when the controlled stepper
// copies a default-constructed error stepper whose scratch arrays are unset (as in reference.cpp);
// they are overwritten before use. Silenced for the construction only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if defined(__GNUC__) && !defined(__clang__)  // a GCC-only warning group (Clang rejects the name)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
/// A controlled Runge-Kutta method of odeint (error stepper template E, instantiated on the form's
/// state) with the checker C and adjuster A.
template <template <class...> class E, bool Dense, template <class> class C = Checker, class A = Adjuster>
struct RungeKutta {
  template <class S>
  using controller = ode::controlled_runge_kutta<E<S>, C<E<S>>, A>;
  /// Dense output (dopri5): the loop keeps the derivative at the step's end for the next (first same
  /// as last) and interpolates; otherwise it steps exactly onto each output time.
  static constexpr bool dense = Dense;
  template <class S>
  static controller<S> make(double abs, double rel) {
    return controller<S>(C<E<S>>(abs, rel), A());
  }
};
/// odeint's Bulirsch-Stoer (its own order and step control; exact landing).
struct BulirschStoer {
  template <class S>
  using controller = ode::bulirsch_stoer<S>;
  static constexpr bool dense = false;
  template <class S>
  static controller<S> make(double abs, double rel) {
    return controller<S>(abs, rel);
  }
};
#pragma GCC diagnostic pop

using Dopri5 = RungeKutta<ode::runge_kutta_dopri5, true>;
using CashKarp54 = RungeKutta<ode::runge_kutta_cash_karp54, false>;
using Fehlberg78 = RungeKutta<ode::runge_kutta_fehlberg78, false>;

/// Rejections in a row after which a step is a breakdown (the controller cannot meet its tolerance).
inline constexpr int kMaxRejections = 500;

/// The controlled loop of one method on one form, counting into the scheme's counters.
template <class Method, class Form>
class Loop {
 public:
  using state_type = typename Form::state_type;
  Loop(const Problem& p, Counters& c, bool project, double abs, double rel)
      : c_(&c), rhs_(&p, &c.load_evaluations), project_(project),
        control_(Method::template make<state_type>(abs, rel)) {}

  void reset(const State& x0, double t0) {
    y_ = Form::from(rhs_, x0);
    if constexpr (requires { y_.resize(0); })  // out-of-place results are not resized by odeint
      for (state_type* v : {&dydt_, &ynew_, &dydtnew_, &yold_, &dydtold_, &rawnew_, &rawdydt_}) v->resize(y_.size());
    t_ = t0;
    dt_ = 0;  // chosen at the first call from the first output interval
    out_ = y_;
    if constexpr (Method::dense) {
      control_.reset();
      system()(y_, dydt_, t_);
    }
  }

  /// Advances to the output time t + h (integrator.hpp, "Adaptive schemes").
  StepStatus step(double t, double h) {
    const double target = t + h;
    if (dt_ == 0) dt_ = std::min(h, 1e-2 * std::max(1.0, std::abs(h)));
    if constexpr (Method::dense) return dense_to(target);
    else return land_on(target);
  }

  void read(State& x) const { Form::to(rhs_, out_, x); }

  /// The error stepper's own estimate xerr of one step of h from the current state (max norm), as
  /// its do_step gives it without control (HasErrorEstimate; not for Bulirsch-Stoer).
  double error_estimate(double t, double h) {
    state_type out = y_, err = y_;
    // The right-hand side through a lambda: a system of its own type, so that the stepper's do_step
    // for it is an instantiation of its own and the controller's (the step the gate counts) keeps
    // its single caller - with the same system type GCC stopped inlining it there (+2.5 to +4.5 %
    // instructions per unit time for Cash-Karp and Fehlberg, caught by the adaptive gate).
    const auto f = [this](const state_type& x, state_type& dxdt, double tt) { system()(x, dxdt, tt); };
    if constexpr (Method::dense) {
      state_type dydt_out = y_;
      control_.stepper().do_step(f, y_, dydt_, t, out, dydt_out, h, err);
    } else if constexpr (std::is_same_v<typename std::remove_cvref_t<decltype(control_.stepper())>::stepper_category,
                                        ode::explicit_error_stepper_fsal_tag>) {
      // A first-same-as-last pair stepping onto the output times (Dormand-Prince without its dense
      // output): the derivative at y_ given, or its do_step would take the one it kept from its last
      // step, at another state - each estimate after the first then errs by O(h), a slope of 2 (seen
      // when such a variant was added for the change table, docs/architecture.md).
      state_type dydt = y_, dydt_out = y_;
      f(y_, dydt, t);
      control_.stepper().do_step(f, y_, dydt, t, out, dydt_out, h, err);
    } else {
      control_.stepper().do_step(f, y_, t, out, h, err);
    }
    double e = 0;
    for (double v : err) e = std::max(e, std::abs(v));
    return e;
  }

 private:
  CountedRhs<typename Form::rhs_type> system() { return {&rhs_, &c_->rhs_evaluations}; }

  /// q <- q/|q| for every body (the first four of each body's block).
  static void project(state_type& y) {
    for (std::size_t b = 0; b + Form::kPer <= y.size(); b += Form::kPer) {
      const double n = std::sqrt(y[b] * y[b] + y[b + 1] * y[b + 1] + y[b + 2] * y[b + 2] + y[b + 3] * y[b + 3]);
      for (std::size_t i = 0; i < 4; ++i) y[b + i] /= n;
    }
  }
  static bool finite(const state_type& y) {
    for (double v : y)
      if (!std::isfinite(v)) return false;
    return true;
  }
  StepStatus underflow(double t) const {
    return StepStatus::breakdown(cat("the controller's step fell to ", format_number(dt_, 3), " at t = ",
                                     format_number(t, 6), " (step size underflow)"));
  }

  /// One accepted step from (y_, t_): retries until the controller accepts; false: a breakdown.
  template <class Try>
  StepStatus accept(Try&& attempt) {
    for (int tries = 0;; ++tries) {
      if (tries == kMaxRejections)
        return StepStatus::breakdown(cat(std::to_string(tries), " rejected steps in a row at t = ", format_number(t_, 6),
                                         " (the controller cannot meet its tolerance)"));
      if (!(std::abs(dt_) > 4 * kUlp * std::max(1.0, std::abs(t_)))) return underflow(t_);
      if (attempt() == ode::success) break;
      ++c_->rejected_steps;
    }
    ++c_->accepted_steps;
    return {};
  }
  /// Dense output (odeint_dopri5): steps while the output time lies beyond the last accepted step,
  /// then interpolates with that step's continuous extension.
  StepStatus dense_to(double target) {
    while (t_ < target) {
      double t = t_;
      const StepStatus st = accept([&] { return control_.try_step(system(), y_, dydt_, t, ynew_, dydtnew_, dt_); });
      if (!st.ok) return st;
      if (!finite(ynew_)) return StepStatus::breakdown(cat("non-finite state after the step to t = ", format_number(t, 6)));
      yold_ = y_, dydtold_ = dydt_, told_ = t_;
      y_ = ynew_, dydt_ = dydtnew_, t_ = t;
      // The interpolant below is the step's own (stages of its last do_step, unprojected ends).
      rawnew_ = ynew_, rawdydt_ = dydtnew_;
      if (project_) {
        project(y_);
        system()(y_, dydt_, t_);
      }
    }
    if (target == t_) out_ = y_;
    else control_.stepper().calc_state(target, out_, yold_, dydtold_, told_, rawnew_, rawdydt_, t_);
    return {};
  }

  /// Exact landing (integrate_times): the step is shortened to end on the output time; a
  /// successful shortened step keeps the controller's earlier proposal for the next one.
  StepStatus land_on(double target) {
    while (t_ < target) {
      const double remaining = target - t_;
      const bool last = dt_ >= remaining;
      const double before = dt_;
      if (last) dt_ = remaining;
      double t = t_;
      const StepStatus st = accept([&] { return control_.try_step(system(), y_, t, dt_); });
      if (!st.ok) return st;
      if (!finite(y_)) return StepStatus::breakdown(cat("non-finite state after the step to t = ", format_number(t, 6)));
      const bool landed = last && t >= target - 4 * kUlp * std::max(1.0, std::abs(target));
      t_ = landed ? target : t;
      if (landed && before > remaining) ++c_->shortened_steps;
      if (last) dt_ = std::max(dt_, before);
      if (project_) project(y_);
    }
    out_ = y_;
    return {};
  }

  static constexpr double kUlp = 2.220446049250313e-16;
  Counters* c_;
  typename Form::rhs_type rhs_;
  bool project_;
  typename Method::template controller<state_type> control_;
  state_type y_{}, dydt_{}, ynew_{}, dydtnew_{}, yold_{}, dydtold_{}, rawnew_{}, rawdydt_{}, out_{};
  double t_ = 0, told_ = 0, dt_ = 0;
};

}  // namespace odeint_adaptive

/// The adaptive scheme of an odeint method (odeint_adaptive::Dopri5 ...); Tag names its SchemeInfo.
/// A rigid body is integrated in the quaternion Kirchhoff form, a body system (SE(3)^n) in that form
/// per body with the interactions (formulations/body_system.hpp: the right-hand side of the body
/// systems' references, whose steppers odeint_dopri5 and odeint_fehlberg78 are), a chain in its
/// minimal form (formulations/spherical_chain.hpp, its reference's right-hand side).
template <class Method, class Tag>
class OdeintAdaptive final : public SchemeBase {
 public:
  using state_type = odeint_adaptive::state_type;
  static const SchemeInfo& info() { return Tag::info(); }
  OdeintAdaptive(const Problem& p, const SchemeSettings& set)
      : SchemeBase(p),
        form_(p.of_family("spherical_chain") ? Form::chain : p.translating() ? Form::system : Form::body),
        rigid_(p, c_, set.get(kProjectQuaternion) != 0, set.get(kAbsTolerance), set.get(kRelTolerance)),
        bodies_(p, c_, set.get(kProjectQuaternion) != 0, set.get(kAbsTolerance), set.get(kRelTolerance)),
        chain_(p, c_, set.get(kProjectQuaternion) != 0, set.get(kAbsTolerance), set.get(kRelTolerance)) {}
  explicit OdeintAdaptive(const Problem& p) : OdeintAdaptive(p, SchemeSettings{}) {}
  // The loops count into c_: not copied or moved with another scheme's counters.
  OdeintAdaptive(const OdeintAdaptive&) = delete;
  OdeintAdaptive& operator=(const OdeintAdaptive&) = delete;

  void reset(const State& x0, double t0) {
    c_ = {};
    with_loop([&](auto& l) { l.reset(x0, t0); });
  }
  StepStatus step(double t, double h) {
    return form_ == Form::body ? rigid_.step(t, h) : with_loop([&](auto& l) { return l.step(t, h); });
  }
  /// HasErrorEstimate: the Runge-Kutta pairs (Bulirsch-Stoer's estimate is of a varying order).
  double error_estimate(double t, double h)
    requires(!std::same_as<Method, odeint_adaptive::BulirschStoer>)
  {
    return with_loop([&](auto& l) { return l.error_estimate(t, h); });
  }
  void read(State& x) const {
    if (form_ == Form::body) rigid_.read(x);
    else if (form_ == Form::system) bodies_.read(x);
    else chain_.read(x);
  }

 private:
  // One body (Kirchhoff), a body_system (every body in that form with its interactions), or a
  // spherical_chain (its minimal form).
  enum class Form { body, system, chain };
  template <class F>
  decltype(auto) with_loop(F&& f) {
    if (form_ == Form::body) return f(rigid_);
    if (form_ == Form::system) return f(bodies_);
    return f(chain_);
  }
  Form form_;
  odeint_adaptive::Loop<Method, odeint_adaptive::RigidBodyForm> rigid_;
  odeint_adaptive::Loop<Method, odeint_adaptive::BodySystemForm> bodies_;
  odeint_adaptive::Loop<Method, odeint_adaptive::ChainForm> chain_;
};

/// The built-in instances (their SchemeInfo in odeint_adaptive.cpp).
struct Dopri5Tag { static const SchemeInfo& info(); };
struct CashKarp54Tag { static const SchemeInfo& info(); };
struct Fehlberg78Tag { static const SchemeInfo& info(); };
struct BulirschStoerTag { static const SchemeInfo& info(); };
using OdeintDopri5 = OdeintAdaptive<odeint_adaptive::Dopri5, Dopri5Tag>;
using OdeintCashKarp54 = OdeintAdaptive<odeint_adaptive::CashKarp54, CashKarp54Tag>;
using OdeintFehlberg78 = OdeintAdaptive<odeint_adaptive::Fehlberg78, Fehlberg78Tag>;
using OdeintBulirschStoer = OdeintAdaptive<odeint_adaptive::BulirschStoer, BulirschStoerTag>;

// The type-erased wrappers, instantiated once in odeint_adaptive.cpp (integrators/builtin.hpp says why).
extern template class Erased<OdeintDopri5>;
extern template class Erased<OdeintCashKarp54>;
extern template class Erased<OdeintFehlberg78>;
extern template class Erased<OdeintBulirschStoer>;

}  // namespace rigidbench
