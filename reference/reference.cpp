#include "reference/reference.hpp"

#include <boost/numeric/odeint.hpp>
#include <cmath>

#include "core/so3.hpp"
#include "reference/formulations/kirchhoff.hpp"

namespace rigidbench {
namespace odeint = boost::numeric::odeint;

namespace {

// GCC 12 reports -Wuninitialized (maybe-) inside odeint's stepper copy constructor: the controlled
// stepper copies a default-constructed RKF78 whose scratch arrays are still unset. The copied
// values are overwritten before use; the diagnostic is silenced for this function only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
std::vector<State> run_kirchhoff(const Problem& p, const std::vector<double>& times, double tol,
                                 ReferenceStepper which, std::size_t& steps) {
  using F = formulations::KirchhoffQuaternion;
  F::state_type y = F::from_body(p.initial.body());
  std::vector<State> out;
  out.reserve(times.size());
  auto observe = [&](const F::state_type& s, double) {
    State x(1);
    F::to_body(s, x.body());
    out.push_back(std::move(x));
  };
  const double dt0 = times.size() > 1 ? std::min(times[1] - times[0], 1e-3) : 1e-3;
  if (which == ReferenceStepper::bulirsch_stoer) {
    // (eps_abs, eps_rel, a_x = 1, a_dxdt = 0, no max step, control_interpolation = true)
    odeint::bulirsch_stoer_dense_out<F::state_type> stepper(tol, tol, 1.0, 0.0, 0.0, true);
    steps = odeint::integrate_times(stepper, F{&p, nullptr}, y, times.begin(), times.end(), dt0, observe);
  } else {
    auto stepper = odeint::make_controlled(tol, tol, odeint::runge_kutta_fehlberg78<F::state_type>());
    steps = odeint::integrate_times(stepper, F{&p, nullptr}, y, times.begin(), times.end(), dt0, observe);
  }
  return out;
}
#pragma GCC diagnostic pop

}  // namespace

ReferenceSolution kirchhoff_reference(const Problem& p, const std::vector<double>& times,
                                      const ReferenceSettings& settings) {
  if (p.family != ModelFamily::rigid_body)
    throw InputError("kirchhoff reference: problem family '" + std::string(to_string(p.family)) + "' not supported");
  if (times.empty() || times.front() != p.t0)
    throw InputError("kirchhoff reference: the time grid must start at t0");
  for (std::size_t i = 1; i < times.size(); ++i)
    if (!(times[i] > times[i - 1])) throw InputError("kirchhoff reference: the time grid must be increasing");
  if (!(settings.tolerance > 0) || !(settings.tighten > 1))
    throw InputError("kirchhoff reference: tolerance must be > 0 and the tightening factor > 1");

  ReferenceSolution r;
  r.formulation = "kirchhoff_quaternion";
  r.stepper = settings.stepper == ReferenceStepper::bulirsch_stoer
                  ? "bulirsch_stoer_dense_out (odeint, interpolation error controlled)"
                  : "runge_kutta_fehlberg78, controlled (odeint integrate_times, exact landing on the grid)";
  r.tolerance = settings.tolerance;
  r.times = times;
  try {
    r.states = run_kirchhoff(p, times, settings.tolerance, settings.stepper, r.steps);
    std::size_t tight_steps = 0;
    const auto tight = run_kirchhoff(p, times, settings.tolerance / settings.tighten, settings.stepper, tight_steps);
    for (std::size_t i = 0; i < times.size(); ++i) {
      const BodyState &a = r.states[i].body(), &b = tight[i].body();
      r.estimate_attitude.push_back(so3::angle_between(a.R, b.R));
      r.estimate_omega.push_back((a.W - b.W).norm());
      r.error_estimate.attitude = std::max(r.error_estimate.attitude, r.estimate_attitude.back());
      r.error_estimate.omega = std::max(r.error_estimate.omega, r.estimate_omega.back());
    }
  } catch (const odeint::step_adjustment_error& e) {
    throw InputError(std::string("kirchhoff reference: odeint could not meet the tolerance: ") + e.what());
  } catch (const odeint::no_progress_error& e) {
    throw InputError(std::string("kirchhoff reference: odeint made no progress: ") + e.what());
  }
  if (r.states.size() != times.size())
    throw std::logic_error("kirchhoff reference: observer count does not match the grid");
  return r;
}

}  // namespace rigidbench
