// First, before any Boost header: odeint's bulirsch_stoer_dense_out computes its dense-output finite
// differences with boost::math::binomial_coefficient<double>(kappa, c), whose Boost 1.74 table lookup
// rebuilds a 171-entry long double table on the stack at every call (reference/binomial.hpp): 61 % of
// the heavy-top reference's instructions. An explicit specialization for the default policy, as
// Boost specializes float itself, returns the same values from a compile-time Pascal triangle
// (tests/test_reference.cpp compares them). It must be declared before anything names the
// double instantiation (Boost's own float specialization does, in binomial.hpp), hence the forward
// declaration of the primary template; this translation unit is the only one that instantiates
// Bulirsch-Stoer.
#include <boost/math/policies/policy.hpp>

#include "binomial.hpp"

namespace boost::math {
template <class T, class Policy>
T binomial_coefficient(unsigned n, unsigned k, const Policy& pol);
template <>
inline double binomial_coefficient<double, policies::policy<>>(unsigned n, unsigned k, const policies::policy<>&) {
  return rigidbench::binomial(n, k);
}
}  // namespace boost::math

#include "reference.hpp"

#include "cache.hpp"
#include "contact_events.hpp"

#include <boost/math/special_functions/binomial.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/numeric/odeint.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>
#include <algorithm>
#include <deque>

#include "../core/names.hpp"
#include "../core/parallel.hpp"
#include "../core/so3.hpp"
#include "../core/task_graph.hpp"
#include "../problems/problem_file.hpp"
#include "analytic.hpp"
#include "../problems/formulations/body_system.hpp"
#include "../problems/formulations/spherical_chain.hpp"
#include "../problems/formulations/euler_angles.hpp"
#include "../problems/formulations/kirchhoff.hpp"
#include "../problems/formulations/kirchhoff_body.hpp"
#include "../problems/formulations/non_twisting.hpp"
#include "../problems/formulations/rigid_body_t.hpp"

// odeint walks value_type chains to find a state's scalar; a multiprecision number defines its own
// value_type (the backend), which ends the chain in an incomplete type. The scalar is the number.
template <>
struct boost::numeric::odeint::detail::extract_value_type<boost::multiprecision::cpp_bin_float_quad, void> {
  using type = boost::multiprecision::cpp_bin_float_quad;
};

namespace rigidbench {
namespace odeint = boost::numeric::odeint;
using quad = boost::multiprecision::cpp_bin_float_quad;

namespace {

/// Bump when a formulation or the estimate changes what a cached reference would contain.
constexpr int kReferenceCodeVersion = 9;  // 7: the estimate from a looser rerun; 8: Dormand-Prince for contact;
                                          // 9: contact switches located (contact_events.hpp)

/// Steps a reference may take, over its whole run (each of its two solves): the ladder has its own
/// bound (FixedSteps::covering), and a reference without one ran for days on |W| = 1e8 or a span of
/// 1e9 (docs/decisions.md, "Input limits"). 10^8 steps: ~15 minutes per solve on the heavy top at
/// 1e-13 (~9 us per step, measured); the catalogue's references take at most ~10^6.
/// RIGIDBENCH_REFERENCE_MAX_STEPS sets another (a whole number in [1, 10^12]).
constexpr std::size_t kReferenceStepLimit = 100000000;

/// The budget of the work estimate's pilot solves on this thread (estimate_reference_work); 0: none.
thread_local std::size_t t_pilot_limit = 0;

}  // namespace

std::size_t reference_step_limit() {
  if (t_pilot_limit > 0) return t_pilot_limit;
  const char* env = std::getenv("RIGIDBENCH_REFERENCE_MAX_STEPS");
  if (!env || !*env) return kReferenceStepLimit;
  const std::string text(env);
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text[0] == '-' || text[0] == '+' || v < 1 || v > 1000000000000ull)
    throw InputError(cat("RIGIDBENCH_REFERENCE_MAX_STEPS must be a whole number in [1, 10^12] (got '",
                         text.substr(0, 40), "')"));
  return std::size_t(v);
}

namespace {

/// odeint's step-overflow checker used as a budget over the whole run: odeint calls reset() at each
/// observation (its own checker bounds the steps between two), this one counts on.
struct StepBudget {
  std::size_t* taken;
  std::size_t limit = reference_step_limit();
  void operator()() {
    if (++*taken > limit)
      throw ReferenceStepLimit(cat("reference: more than ", std::to_string(limit),
                           " steps (the limit; RIGIDBENCH_REFERENCE_MAX_STEPS): the problem's rates over its span are "
                           "more than a reference can follow - shorten the span or lower the angular velocities"));
  }
  void reset() {}
};

// GCC 12 reports -Wuninitialized (maybe-) inside odeint's stepper copy constructor: the controlled
// stepper copies a default-constructed RKF78 whose scratch arrays are still unset. The copied
// values are overwritten before use; the diagnostic is silenced for these functions only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if defined(__GNUC__) && !defined(__clang__)  // a GCC-only warning group (Clang rejects the name)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
/// Integrates `sys` from y on `times` with the chosen odeint stepper; one state per grid time.
/// The load's kinks (Problem::load_kinks) split the span: a fresh stepper starts at each one, so
/// that no step straddles a discontinuity of the right-hand side's derivative (the extrapolation
/// of Bulirsch-Stoer, and every error estimate, assume smoothness inside a step).
template <class Sys, class State_>
std::vector<State_> integrate_on_grid(const Sys& sys, State_ y, const std::vector<double>& times_d, double tol_d,
                                      ReferenceStepper which, std::size_t& steps, const std::vector<double>& kinks) {
  // Time in the state's scalar type: odeint requires value and time types to mix (multiprecision).
  using T = typename State_::value_type;
  const T tol = static_cast<T>(tol_d);
  std::vector<State_> out;
  out.reserve(times_d.size());
  steps = 0;
  std::size_t taken = 0;
  const StepBudget budget{&taken};
  std::vector<double> cuts;
  for (double k : kinks)
    if (k > times_d.front() && k < times_d.back()) cuts.push_back(k);
  std::size_t next = 0;  // next grid time to output
  double a = times_d.front();
  for (std::size_t seg = 0; seg <= cuts.size(); ++seg) {
    const double b = seg < cuts.size() ? cuts[seg] : times_d.back();
    // Sub-grid: a, the grid times in (a, b], and b itself when it is a kink off the grid.
    std::vector<T> sub{static_cast<T>(a)};
    std::vector<char> emit{char(seg == 0)};  // times_d[0] is output once, from the first segment
    if (seg == 0) ++next;
    while (next < times_d.size() && times_d[next] <= b) {
      sub.push_back(static_cast<T>(times_d[next++]));
      emit.push_back(1);
    }
    if (static_cast<T>(b) != sub.back()) {
      sub.push_back(static_cast<T>(b));
      emit.push_back(0);
    }
    std::vector<State_> got;
    got.reserve(sub.size());
    auto observe = [&](const State_& s, const T&) { got.push_back(s); };
    const T dt0 = static_cast<T>(sub.size() > 1 ? std::min(double(sub[1] - sub[0]), 1e-3) : 1e-3);
    if (which == ReferenceStepper::bulirsch_stoer) {
      // (eps_abs, eps_rel, a_x = 1, a_dxdt = 0, no max step, control_interpolation = true)
      odeint::bulirsch_stoer_dense_out<State_, T, State_, T> stepper(tol, tol, static_cast<T>(1), static_cast<T>(0),
                                                                     static_cast<T>(0), true);
      steps += odeint::integrate_times(stepper, sys, y, sub.begin(), sub.end(), dt0, observe, budget);
    } else if (which == ReferenceStepper::dopri5) {
      auto stepper = odeint::make_controlled(tol, tol, odeint::runge_kutta_dopri5<State_, T, State_, T>());
      steps += odeint::integrate_times(stepper, sys, y, sub.begin(), sub.end(), dt0, observe, budget);
    } else {
      auto stepper = odeint::make_controlled(tol, tol, odeint::runge_kutta_fehlberg78<State_, T, State_, T>());
      steps += odeint::integrate_times(stepper, sys, y, sub.begin(), sub.end(), dt0, observe, budget);
    }
    if (got.size() != sub.size()) throw std::logic_error("reference: observer count does not match a segment");
    y = got.back();  // before the moves below empty it
    for (std::size_t i = 0; i < got.size(); ++i)
      if (emit[i]) out.push_back(std::move(got[i]));  // one copy of the grid at a time (many bodies)
    a = b;
  }
  return out;
}

/// Euler angles with chart switching: Bulirsch-Stoer dense output stepped by hand so that the chart
/// can change between steps (the stepper is re-initialised at the switch with the state converted
/// through the canonical (R, W)).
std::vector<State> run_euler_angles(const Problem& p, const std::vector<double>& times, double tol, std::size_t& steps,
                                    int& switches) {
  using F = formulations::EulerAngles;
  using formulations::EulerSequence;
  const BodyState& b0 = p.initial.body();
  auto best = [&](const Mat3& R) {
    const Vec3 z = F::angles(EulerSequence::zyx, R), e = F::angles(EulerSequence::zyz, R);
    return F::chart_quality(EulerSequence::zyx, z[1]) >= F::chart_quality(EulerSequence::zyz, e[1]) ? EulerSequence::zyx
                                                                                                     : EulerSequence::zyz;
  };
  EulerSequence seq = best(b0.R);
  F::state_type y = F::from_body(seq, b0.R, b0.W);
  odeint::bulirsch_stoer_dense_out<F::state_type> st(tol, tol, 1.0, 0.0, 0.0, true);
  const double dt0 = times.size() > 1 ? std::min(times[1] - times[0], 1e-3) : 1e-3;
  st.initialize(y, times[0], dt0);
  std::vector<State> out;
  auto emit = [&](EulerSequence s, const F::state_type& v) {
    State x(1);
    F::to_body(s, v, x.body().R, x.body().W);
    out.push_back(std::move(x));
  };
  emit(seq, y);
  std::size_t next = 1;
  steps = 0;
  switches = 0;
  F::state_type tmp;
  const StepBudget budget{&steps};
  while (next < times.size()) {
    const auto span = st.do_step(F{&p, seq});
    ++steps;
    if (steps > budget.limit) StepBudget{&steps}();  // the same limit and message
    while (next < times.size() && times[next] <= span.second) {
      st.calc_state(times[next], tmp);
      emit(seq, tmp);
      ++next;
    }
    const auto& cur = st.current_state();
    if (F::chart_quality(seq, cur[1]) < 0.5) {
      Mat3 R;
      Vec3 W;
      F::to_body(seq, cur, R, W);
      seq = seq == EulerSequence::zyx ? EulerSequence::zyz : EulerSequence::zyx;
      st.initialize(F::from_body(seq, R, W), st.current_time(), st.current_time_step());
      ++switches;
    }
  }
  return out;
}
#pragma GCC diagnostic pop

/// Integrates `sys` from y0 on the grid and maps every state to the canonical one with `to_body`.
template <class Sys, class State_, class ToBody>
std::vector<State> run_on_grid(const Sys& sys, const State_& y0, ToBody to_body, const std::vector<double>& times,
                               double tol, ReferenceStepper which, std::size_t& steps, const std::vector<double>& kinks) {
  const auto raw = integrate_on_grid(sys, y0, times, tol, which, steps, kinks);
  std::vector<State> out(raw.size(), State(1));
  for (std::size_t i = 0; i < raw.size(); ++i) to_body(raw[i], out[i].body());
  return out;
}

/// The scalar-generic rigid-body forms (double or quad).
template <template <class> class Form, class T>
std::vector<State> run_formulation(const Problem& p, const std::vector<double>& times, double tol,
                                   ReferenceStepper which, std::size_t& steps) {
  const formulations::RigidBodyData<T> d(p);
  return run_on_grid(Form<T>{&d}, Form<T>::from_body(p.initial.body(), d),
                     [&](const auto& y, BodyState& b) { Form<T>::to_body(y, b, d); }, times, tol, which, steps,
                     p.load_kinks());
}

/// Systems whose state maps to the canonical one by a (static or member) to_body.
template <class Sys>
std::vector<State> run_system(const Sys& sys, const Problem& p, const std::vector<double>& times, double tol,
                              ReferenceStepper which, std::size_t& steps) {
  return run_on_grid(sys, Sys::from_body(p.initial.body()),
                     [&](const auto& y, BodyState& b) { sys.to_body(y, b); }, times, tol, which, steps, p.load_kinks());
}

template <class Sys>
ReferenceRun system_run(const Sys& sys, const Problem& p, const std::vector<double>& times, double tol,
                        const ReferenceSettings& s) {
  ReferenceRun r;
  r.states = run_system(sys, p, times, tol, s.stepper, r.steps);
  return r;
}

/// A chain's formulation (formulations/spherical_chain.hpp) on the grid, by RKF78 landing on it (a
/// grid-bound solver). Not Bulirsch-Stoer: on the chaotic chains its estimate (the run at 10 tol) fell
/// short of its error - chain_double's W off by 8e-12 between tolerances 1e-13 and 1e-14 and between
/// the two formulations, against an estimate of 3.9e-12 -, where RKF78's estimate bounds both
/// (tests/test_chains.cpp; docs/problems.md, "Chains").
template <class Sys>
ReferenceRun chain_run(const Problem& p, const std::vector<double>& times, double tol, const ReferenceSettings&) {
  const Sys sys(&p);
  ReferenceRun r;
  auto raw = integrate_on_grid(sys, sys.from_state(p.initial), times, tol, ReferenceStepper::rkf78, r.steps, {});
  r.states.resize(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) sys.to_state(raw[i], r.states[i]);
  return r;
}

/// A body system's stepper: Dormand-Prince 5(4) when it has Hertz contact (eq. 56, between spheres
/// or with a wall), RKF78 when only bonds couple it (smooth: the higher order is cheaper).
/// Every contact begins and ends with a C^1 instant: the force K/D s^{3/2} has a second derivative
/// ~ s^{-1/2}, so a step across it errs by ~ (K/(m D)) (|g'|/D)^{3/2} h^{5/2} in velocity (g the gap)
/// whatever the method's order. Dormand-Prince's error estimate (5th against 4th order, every stage
/// weighted) sees that error and shrinks the step there; RKF78's estimate, 41/840 (k1 + k11 - k12 -
/// k13) h, uses only stages taken at the step's two ends and is blind to it: at tolerance 1e-13 on
/// particle_gas_200 over [0, 1] RKF78 is 5.5e-7 off in position (1e-14: 8e-3), Dormand-Prince 1.9e-10,
/// against Dormand-Prince at 1e-15; on torus_impact 3.7e-6 against 3.0e-10 (docs/decisions.md, "P5").
ReferenceStepper body_system_stepper(const Problem& p) {
  const Interactions& in = body_system_data(p).interactions;
  bool contact = in.contact_stiffness > 0 && p.bodies.size() > 1;
  for (const Wall& w : in.walls) contact = contact || w.stiffness > 0;
  return contact ? ReferenceStepper::dopri5 : ReferenceStepper::rkf78;
}

const char* grid_stepper_description(ReferenceStepper s) {
  return s == ReferenceStepper::dopri5
             ? "runge_kutta_dopri5, controlled, dense output, every contact switch located (contact_events.hpp)"
             : "runge_kutta_fehlberg78, controlled (odeint integrate_times, exact landing on the grid)";
}

/// The built-in solvers (ReferenceSolver), one entry per (equations, formulation).
std::vector<ReferenceSolver> builtin_solvers() {
  using F = Formulation;
  using Times = std::vector<double>;
  using S = ReferenceSettings;
  return {
      // A one-step Runge-Kutta, not Bulirsch-Stoer: the Hertz contact forces (paper 001 eq. 57) are
      // only C^1 in the positions, and the extrapolation (which assumes a smooth right-hand side)
      // then crawls; which one: body_system_stepper.
      {"body_system", F::body_system, "body_system_kirchhoff_quaternions", /*grid_bound=*/true, false,
       [](const Problem& p, const Times& t, double tol, const S&) {
         using B = formulations::BodySystemQuaternion;
         ReferenceRun r;
         std::vector<B::state_type> raw;
         if (body_system_stepper(p) == ReferenceStepper::dopri5) {
           // With contact: every switch located on the dense output (contact_events.hpp).
           ContactEventLog log;
           raw = integrate_with_contact_events(p, t, tol, reference_step_limit(), log);
           r.steps = log.steps;
           r.notes = cat(std::to_string(log.located), " contact switch(es) located");
         } else {
           raw = integrate_on_grid(B{&p}, B::from_state(p.initial), t, tol, ReferenceStepper::rkf78, r.steps, {});
         }
         r.states.resize(raw.size());
         for (std::size_t i = 0; i < raw.size(); ++i) {
           B::to_state(raw[i], r.states[i]);
           B::state_type().swap(raw[i]);  // freed as converted: the grid is held once (many bodies)
         }
         return r;
       }},
      {"non_twisting", F::non_twisting, "non_twisting_kirchhoff_multiplier", false, false,
       [](const Problem& p, const Times& t, double tol, const S& s) {
         ReferenceRun r = system_run(formulations::NonTwistingKirchhoff{&p}, p, t, tol, s);
         const auto k = p.load_kinks();
         if (!k.empty()) r.notes = cat("integration restarted at the load's ", std::to_string(k.size()), " kink(s)");
         return r;
       }},
      {"spherical_chain", Formulation{"chain_minimal"}, "chain_minimal_newton_euler_quaternions", /*grid_bound=*/true, false,
       chain_run<formulations::ChainMinimal>},
      {"spherical_chain", Formulation{"chain_maximal"}, "chain_maximal_baumgarte_quaternions", /*grid_bound=*/true, false,
       chain_run<formulations::ChainMaximal>},
      {"kirchhoff_body", F::kirchhoff, "kirchhoff_body_quaternion", false, false,
       [](const Problem& p, const Times& t, double tol, const S& s) {
         return system_run(formulations::KirchhoffBody{&p}, p, t, tol, s);
       }},
      {"kirchhoff_body", F::newton_euler, "newton_euler_spatial_impulses", false, false,
       [](const Problem& p, const Times& t, double tol, const S& s) {
         return system_run(formulations::NewtonEulerBody(p, p.initial.body()), p, t, tol, s);
       }},
      {"kirchhoff_body", F::hybrid, "hybrid_spatial_velocity_body_omega", false, false,
       [](const Problem& p, const Times& t, double tol, const S& s) {
         return system_run(formulations::HybridBody{&p}, p, t, tol, s);
       }},
      {"rigid_body", F::kirchhoff, "kirchhoff_quaternion", false, true,
       [](const Problem& p, const Times& t, double tol, const S& s) {
         ReferenceRun r;
         r.states = s.precision == Precision::quad
                        ? run_formulation<formulations::KirchhoffT, quad>(p, t, tol, s.stepper, r.steps)
                        : run_system(formulations::KirchhoffQuaternion{&p, nullptr}, p, t, tol, s.stepper, r.steps);
         return r;
       }},
      {"rigid_body", F::newton_euler, "newton_euler_quaternion", false, true,
       [](const Problem& p, const Times& t, double tol, const S& s) {
         ReferenceRun r;
         r.states = s.precision == Precision::quad
                        ? run_formulation<formulations::NewtonEulerT, quad>(p, t, tol, s.stepper, r.steps)
                        : run_formulation<formulations::NewtonEulerT, double>(p, t, tol, s.stepper, r.steps);
         return r;
       }},
      {"rigid_body", F::euler_angles, "euler_angles_zyx_zyz", false, false,
       [](const Problem& p, const Times& t, double tol, const S&) {
         ReferenceRun r;
         int switches = 0;
         r.states = run_euler_angles(p, t, tol, r.steps, switches);
         r.notes = cat(std::to_string(switches), " chart switch(es) between ZYX and ZYZ (at |det B| < 1/2)");
         return r;
       }},
  };
}

std::deque<ReferenceSolver>& solver_registry() {
  static std::deque<ReferenceSolver> reg = [] {
    const auto b = builtin_solvers();
    return std::deque<ReferenceSolver>(b.begin(), b.end());
  }();
  return reg;
}

// ---- cache key: what identifies a reference (reference/cache.hpp stores it) ----

/// The stepper an odeint reference of p in formulation f runs with: the settings' unless the
/// solver is grid-bound (body systems: body_system_stepper; any other grid-bound solver: RKF78).
ReferenceStepper effective_stepper(const Problem& p, Formulation f, const ReferenceSettings& s) {
  if (f == Formulation::body_system) return body_system_stepper(p);
  const ReferenceSolver* solver = find_reference_solver(p, f);
  return solver && solver->grid_bound ? ReferenceStepper::rkf78 : s.stepper;
}

nlohmann::json cache_key(const Problem& p, const std::vector<double>& times, const ReferenceSettings& s,
                         Formulation f) {
  return {{"code_version", kReferenceCodeVersion},
          {"problem", nlohmann::json::parse(problem_to_json(p).dump())},
          {"formulation", to_string(f)},
          {"stepper", f == Formulation::analytic                                     ? "analytic"
                      : effective_stepper(p, f, s) == ReferenceStepper::bulirsch_stoer ? "bs"
                      : effective_stepper(p, f, s) == ReferenceStepper::dopri5         ? "dopri5"
                                                                                       : "rkf78"},
          {"tolerance", f == Formulation::analytic ? 0.0 : s.tolerance},
          {"loosen", f == Formulation::analytic ? 0.0 : s.loosen},
          {"precision", to_string(s.precision)},
          {"grid", {{"n", times.size()}, {"t0", times.front()}, {"t_last", times.back()},
                    {"digest", hex(fnv1a(times.data(), times.size() * sizeof(double)))}}}};
}

}  // namespace

std::string to_string(const Formulation& f) { return f.name(); }

std::optional<Formulation> formulation_from_string(const std::string& s) {
  if (s == Formulation::analytic.name()) return Formulation::analytic;
  for (const ReferenceSolver& r : solver_registry())
    if (r.formulation.name() == s) return r.formulation;
  return std::nullopt;
}

std::vector<std::string> formulation_names() {
  std::vector<std::string> out{Formulation::analytic.name()};
  for (const ReferenceSolver& r : solver_registry())
    if (std::find(out.begin(), out.end(), r.formulation.name()) == out.end()) out.push_back(r.formulation.name());
  return out;
}

const char* to_string(Precision p) { return p == Precision::quad ? "quad (cpp_bin_float_quad, 113-bit)" : "binary64"; }

void register_reference_solver(ReferenceSolver s) {
  if (!s.run) throw InputError(cat("register_reference_solver: '", s.name, "' has no run function"));
  // The name is a key of the reference cache and of every report's settings.
  const std::string& f = s.formulation.name();
  if (!is_name(f))
    throw InputError(cat("register_reference_solver: '", s.name, "': the formulation name '", f, "' is not ", kNameRule));
  if (s.formulation == Formulation::analytic)
    throw InputError(cat("register_reference_solver: '", s.name, "': 'analytic' is the closed form, not a solver's formulation"));
  for (const ReferenceSolver& o : solver_registry())
    if (o.equations == s.equations && o.formulation == s.formulation)
      throw InputError(cat("register_reference_solver: ", s.equations, " / ", to_string(s.formulation),
                           " is already solved by '", o.name, "'"));
  solver_registry().push_back(std::move(s));
}

const ReferenceSolver* find_reference_solver(const Problem& p, Formulation f) {
  for (const ReferenceSolver& s : solver_registry())
    if (s.equations == p.family->equations() && s.formulation == f) return &s;
  return nullptr;
}

std::vector<Formulation> applicable_formulations(const Problem& p) {
  // The family declares the formulations that solve it, the default first (problems/family.hpp); the
  // analytic one applies only where its closed form does.
  std::vector<Formulation> out;
  for (const std::string& name : p.family->formulations(p)) {
    const auto f = formulation_from_string(name);
    if (!f) continue;
    if (*f == Formulation::analytic ? !analytic_not_applicable(p).empty() : find_reference_solver(p, *f) == nullptr)
      continue;
    out.push_back(*f);
  }
  return out;
}

Formulation default_formulation(const Problem& p) {
  const auto f = applicable_formulations(p);
  if (f.empty())
    throw InputError(cat("reference: no formulation solves problem '", p.name, "' of the ", std::string(p.family->name()),
                         " family"));
  return f.front();
}


struct ReferenceJob::Impl {
  const Problem* p = nullptr;
  std::vector<double> times;
  ReferenceSettings settings;
  Formulation f{};
  const ReferenceSolver* solver = nullptr;
  std::string cache_path;
  nlohmann::json key;
  ReferenceSolution r;
  bool finished = false;
  // The two runs: the reference and its estimate (docs/metrics.md, "Reference error estimate").
  std::unique_ptr<AnalyticEvaluation> analytic[2];
  std::optional<ReferenceRun> run[2];
  std::vector<double> unit_seconds;
};

namespace {

/// Refuses, before it starts, a reference whose solve would take more steps than the limit
/// (reference_step_limit: W = 1e8 or a span of 1e9 ran for hours and then failed at the limit).
/// Pilot solves over the first w of the span, w = span 10^-3, 10^-5, ..., each with a budget of
/// kPilotSteps: a pilot that ends within its budget gives the rate, steps ~ n span / w; one that runs
/// out shows at least kPilotSteps span / w. A pilot costs at most kPilotSteps steps (~10 ms on one
/// body). The estimate is the rate at the start of the span: a problem that speeds up later (a
/// contact, a flip) is still stopped by the limit itself while it runs.
void estimate_reference_work(const Problem& p, const std::vector<double>& times, const ReferenceSettings& settings,
                             const ReferenceSolver& solver) {
  constexpr std::size_t kPilotSteps = 2000;
  const std::size_t limit = reference_step_limit();
  const double t0 = times.front(), span = times.back() - t0;
  if (!(span > 0) || limit <= kPilotSteps) return;
  const auto refuse = [&](double steps, bool at_least, double seconds) {
    throw InputError(cat("reference for problem '", p.name, "': its solve would take ", at_least ? "more than " : "about ",
                         format_or_dash(steps, 2), " steps over [", format_or_dash(t0, 6), ", ", format_or_dash(times.back(), 6),
                         "] (estimated from its first ", format_or_dash(seconds, 2), " s of simulated time), more than the ",
                         "limit of ", std::to_string(limit),
                         " (RIGIDBENCH_REFERENCE_MAX_STEPS; ~15 minutes per 10^8 steps on one body): shorten the span or "
                         "lower the angular velocities and loads"));
  };
  struct Pilot {
    explicit Pilot(std::size_t n) { t_pilot_limit = n; }
    ~Pilot() { t_pilot_limit = 0; }
    Pilot(const Pilot&) = delete;
    Pilot& operator=(const Pilot&) = delete;
  };
  for (double w = span * 1e-3;; w *= 1e-2) {
    if (!(t0 + w > t0)) return;  // below the resolution of t: nothing to learn
    const double ratio = span / w;
    try {
      const Pilot budget(kPilotSteps);
      const ReferenceRun run = solver.run(p, {t0, t0 + w}, settings.tolerance, settings);
      const double steps = double(std::max<std::size_t>(run.steps, 1)) * ratio;
      if (steps > double(limit)) refuse(steps, false, w);
      return;
    } catch (const ReferenceStepLimit&) {
      if (double(kPilotSteps) * ratio > double(limit)) refuse(double(kPilotSteps) * ratio, true, w);
    }
  }
}

/// The closed form's work is known exactly: pieces of psi's quadrature, held in memory until
/// assembled. A piece (31 points, in double and in extended precision) costs as much as ~6 steps of
/// the ODE reference's two solves (measured: 118 us against 18 us of CPU, free body J1 = 1e-3), so
/// the step limit bounds both to the same time.
void check_analytic_work(const Problem& p, const std::vector<double>& times, double pieces) {
  constexpr double kStepsPerPiece = 6;
  if (pieces * kStepsPerPiece <= double(reference_step_limit())) return;
  throw InputError(cat("reference for problem '", p.name, "': the closed form would integrate psi in ",
                       format_or_dash(pieces, 2), " quadrature pieces over [", format_or_dash(times.front(), 6), ", ",
                       format_or_dash(times.back(), 6), "] (one per 0.1 rad of the fastest rotation, each the work of ~",
                       format_or_dash(kStepsPerPiece, 1), " steps), more than the limit of ",
                       std::to_string(reference_step_limit()),
                       " steps (RIGIDBENCH_REFERENCE_MAX_STEPS): shorten the span or lower the angular velocities"));
}

}  // namespace

ReferenceJob::ReferenceJob(const Problem& p, std::vector<double> times, const ReferenceSettings& settings)
    : impl_(std::make_unique<Impl>()) {
  Impl& j = *impl_;
  j.p = &p;
  j.times = std::move(times);
  j.settings = settings;
  const Formulation f = j.f = settings.formulation.value_or(default_formulation(p));
  const auto ok = applicable_formulations(p);
  if (std::find(ok.begin(), ok.end(), f) == ok.end())
    throw InputError(cat("reference: formulation '", to_string(f), "' does not apply to problem '", p.name, "'",
                         f == Formulation::analytic ? cat(" (", analytic_not_applicable(p), ")") : std::string()));
  if (j.times.empty() || j.times.front() != p.t0) throw InputError("reference: the time grid must start at t0");
  for (std::size_t i = 1; i < j.times.size(); ++i)
    if (!(j.times[i] > j.times[i - 1])) throw InputError("reference: the time grid must be increasing");
  if (f != Formulation::analytic && (!(settings.tolerance > 0) || !(settings.tolerance * settings.loosen < 1) || !(settings.loosen > 1)))
    throw InputError("reference: the tolerance times the loosening factor of the estimate must be in (0, 1), the factor > 1");
  j.solver = f == Formulation::analytic ? nullptr : find_reference_solver(p, f);
  if (settings.precision == Precision::quad && f != Formulation::analytic && !j.solver->quad)
    throw InputError("reference: quad precision is available for the rigid-body kirchhoff, newton_euler and analytic references");

  if (!settings.cache_dir.empty()) {
    j.key = cache_key(p, j.times, settings, f);
    j.r.cache_key = hex(fnv1a(j.key.dump().data(), j.key.dump().size()));
    j.cache_path = (std::filesystem::path(settings.cache_dir) / (j.r.cache_key + ".ref")).string();
    if (cache_load(j.cache_path, j.key, p.bodies.size(), j.r)) {
      j.r.times = j.times;
      return;  // no units
    }
  }
  if (f == Formulation::analytic) {
    // The closed form in double against the same closed form in extended precision: the estimate is
    // the double evaluation's own error (elliptic functions, the psi quadrature, the rotations).
    // In quad, extended precision is an upper bound of the quad evaluation's error.
    j.analytic[0] = torque_free_evaluation(p, j.times, settings.precision == Precision::quad ? AnalyticPrecision::quad
                                                                                              : AnalyticPrecision::binary64);
    j.analytic[1] = torque_free_evaluation(p, j.times, AnalyticPrecision::extended);
  }
  j.unit_seconds.assign(units(), 0.0);
}

ReferenceJob::~ReferenceJob() = default;

std::size_t ReferenceJob::units() const {
  const Impl& j = *impl_;
  if (j.r.from_cache) return 0;
  if (j.analytic[0]) return j.analytic[0]->segments() + j.analytic[1]->segments();
  return 2;
}

void ReferenceJob::run_unit(std::size_t i) {
  Impl& j = *impl_;
  if (i >= units()) throw std::logic_error("ReferenceJob::run_unit: no such unit");
  const auto start = std::chrono::steady_clock::now();
  // The work estimates run here, in a unit, not when the job is made: an error in a unit is what the
  // task graph and the MPI ranks' exchange hand on (a refusal in the constructor left the other ranks
  // waiting for a reference that never came).
  if (j.analytic[0]) {
    check_analytic_work(*j.p, j.times, j.analytic[0]->work());
    const std::size_t n0 = j.analytic[0]->segments();
    if (i < n0) j.analytic[0]->run_segment(i);
    else j.analytic[1]->run_segment(i - n0);
  } else {
    // The estimate (unit 1): the same solver at a looser tolerance. |y_tol - y_loose| >= |e_loose| -
    // |e_tol| >= |e_tol| whenever the looser run is at least twice as wrong, so the difference bounds
    // the reference's error from above (by ~loosen where the error follows the tolerance) and costs
    // ~loosen^(-1/7) of the main run (RKF78; Dormand-Prince ~loosen^(-1/5)) instead of the
    // ~100^(1/7) = 1.9 (100^(1/5) = 2.5) of a 100x tighter one.
    // Checked against the closed form and quad precision (docs/decisions.md, "Reference error").
    const double tol = j.settings.tolerance * (i == 0 ? 1.0 : j.settings.loosen);
    try {
      estimate_reference_work(*j.p, j.times, j.settings, *j.solver);  // before this unit's solve
      j.run[i] = j.solver->run(*j.p, j.times, tol, j.settings);
    } catch (const odeint::step_adjustment_error& e) {
      throw InputError(cat("reference: odeint could not meet the tolerance: ", e.what()));
    } catch (const odeint::no_progress_error& e) {
      throw InputError(cat("reference: odeint made no progress: ", e.what()));
    }
  }
  j.unit_seconds[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

ReferenceSolution ReferenceJob::finish() {
  Impl& j = *impl_;
  if (j.finished) throw std::logic_error("ReferenceJob::finish: called twice");
  j.finished = true;
  ReferenceSolution& r = j.r;
  if (r.from_cache) return std::move(r);
  const auto start = std::chrono::steady_clock::now();
  const ReferenceSettings& settings = j.settings;
  const std::vector<double>& times = j.times;
  r.times = times;
  r.precision = to_string(settings.precision);
  std::vector<State> second;
  if (j.analytic[0]) {
    const AnalyticSolution a = j.analytic[0]->finish();
    const AnalyticSolution aq = j.analytic[1]->finish();
    r.kind = "analytic";
    r.formulation = "analytic_torque_free";
    r.stepper = "closed form; " + a.variant;
    r.notes = a.variant;
    r.tolerance = settings.precision == Precision::quad ? 1e-30 : 10 * std::numeric_limits<double>::epsilon();
    r.states = a.states;
    second = aq.states;
    r.steps = 0;
  } else {
    if (!j.run[0] || !j.run[1]) throw std::logic_error("ReferenceJob::finish: a unit has not run");
    r.states = std::move(j.run[0]->states);
    second = std::move(j.run[1]->states);
    r.steps = j.run[0]->steps;
    r.notes = j.run[0]->notes;
    r.kind = "odeint";
    r.formulation = j.solver->name;
    const ReferenceStepper which = effective_stepper(*j.p, j.f, settings);
    r.stepper = !j.run[0]->stepper.empty()                 ? j.run[0]->stepper
                : which == ReferenceStepper::bulirsch_stoer ? "bulirsch_stoer_dense_out (odeint, interpolation error controlled)"
                                                            : grid_stepper_description(which);
    r.tolerance = settings.tolerance;
  }
  if (r.states.size() != times.size() || second.size() != times.size())
    throw std::logic_error("reference: observer count does not match the grid");
  // A reference that is not finite is no reference (std::max below would read its NaN estimate as 0):
  // the problem lies outside what binary64 can integrate - an energy that overflows, |W| h beyond any
  // step - and says so, instead of rows of nan judged as the truth (and cached).
  for (std::size_t i = 0; i < times.size(); ++i)
    for (const State* s : {&r.states[i], &second[i]})
      for (const BodyState& b : s->bodies)
        if (!(b.R.allFinite() && b.W.allFinite() && b.x.allFinite() && b.v.allFinite()))
          throw InputError(cat("reference for problem '", j.p->name, "': the solution is not finite at t = ",
                               format_or_dash(times[i], 6),
                               ": the problem is outside what binary64 can integrate (check the size of its angular "
                               "velocities, loads and span)"));
  // Per grid time, the worst body (one body for every family but body_system).
  for (std::size_t i = 0; i < times.size(); ++i) {
    double ea = 0, ew = 0;
    for (std::size_t k = 0; k < r.states[i].bodies.size(); ++k) {
      const BodyState &a = r.states[i].bodies[k], &b = second[i].bodies[k];
      ea = std::max(ea, so3::angle_between(a.R, b.R));
      ew = std::max(ew, (a.W - b.W).norm());
      r.error_estimate.position = std::max(r.error_estimate.position, (a.x - b.x).norm());
      r.error_estimate.velocity = std::max(r.error_estimate.velocity, (a.v - b.v).norm());
    }
    r.estimate_attitude.push_back(ea);
    r.estimate_omega.push_back(ew);
    r.error_estimate.attitude = std::max(r.error_estimate.attitude, ea);
    r.error_estimate.omega = std::max(r.error_estimate.omega, ew);
  }
  // The work of every unit and of this combination (with workers, more than the wall clock).
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (double s : j.unit_seconds) r.seconds += s;
  if (!j.cache_path.empty()) cache_store(j.cache_path, j.key, r);
  return std::move(r);
}

nlohmann::json reference_key(const Problem& p, const std::vector<double>& times, const ReferenceSettings& settings) {
  if (times.empty()) throw InputError("reference: the time grid must start at t0");
  return cache_key(p, times, settings, settings.formulation.value_or(default_formulation(p)));
}

ReferenceSolution compute_reference(const Problem& p, const std::vector<double>& times,
                                    const ReferenceSettings& settings) {
  // The units (the reference and its estimate, or the closed form's segments) side by side on the
  // cores this thread may use; the result does not depend on how many (task_graph.hpp).
  ReferenceJob job(p, times, settings);
  TaskGraph graph;
  for (std::size_t i = 0; i < job.units(); ++i) graph.add([&job, i] { job.run_unit(i); });
  graph.run(parallel::workers());
  return job.finish();
}

ReferenceSolution kirchhoff_reference(const Problem& p, const std::vector<double>& times,
                                      const ReferenceSettings& settings) {
  ReferenceSettings s = settings;
  s.formulation = Formulation::kirchhoff;
  return compute_reference(p, times, s);
}

ReferenceSettings ReferenceOptions::settings() const {
  ReferenceSettings s;
  if (!formulation.empty()) {
    s.formulation = formulation_from_string(formulation);
    if (!s.formulation) {
      std::string known;
      for (const std::string& n : formulation_names()) known += cat(known.empty() ? "" : ", ", n);
      throw InputError(cat("unknown reference formulation '", formulation, "' (known: ", known, ")"));
    }
  }
  if (precision == "quad") s.precision = Precision::quad;
  else if (precision != "double") throw InputError(cat("--reference-precision must be double or quad (got '", precision, "')"));
  s.tolerance = tol ? *tol : s.precision == Precision::quad ? 1e-25 : 1e-13;
  if (!std::isfinite(s.tolerance) || s.tolerance <= 0 || s.tolerance >= 1)
    throw InputError(cat("the reference tolerance must be in (0, 1) (got ", format_number(s.tolerance, 4), ")"));
  if (s.precision == Precision::binary64 && s.tolerance < 1e-15)
    throw InputError(cat("--reference-tol ", format_number(s.tolerance, 4),
                         " is below what double precision can meet; use --reference-precision quad"));
  s.cache_dir = no_cache ? std::string() : cache_dir.empty() ? default_cache_dir() : cache_dir;
  return s;
}

}  // namespace rigidbench
