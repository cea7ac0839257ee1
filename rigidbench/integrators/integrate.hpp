#pragma once
// The integration driver: the one loop that advances a scheme over time. Every run of the harness
// goes through it - the levels of the step ladder, `simulate`, the long-time energy run, the structure
// probes, the paper studies, the cost measurements and the instruction counts of the benchmarks - so
// that how time advances, when the state is read out and what counts as a breakdown are decided once
// (docs/architecture.md, The integration driver).
//
// In the spirit of Boost.Odeint's integrate_n_steps / integrate_times with an observer, on the
// harness's own contract (integrators/integrator.hpp), where the scheme owns its state:
//
//   s.reset(x0, t0);                                   // the caller maps in (and may chain runs)
//   IntegrationOutcome r = integrate(s, FixedSteps{t0, h, N}, ObservationPlan{.every = k}, x,
//                                    [&](const Observation& o, const State& x) { ... });
//
// - time: step n runs from t_n = t0 + n h, computed and never accumulated (docs/metrics.md, The step
//   ladder), so every level of a ladder meets the common observation grid exactly;
// - observations: after every k-th step (and optionally at the start and after the last step) the
//   driver reads the canonical state into x, refuses a non-finite one, and hands it to the observer
//   with its time and index. Invariants and errors are the observer's business: the problem evaluates
//   them from that state, never the scheme (docs/metrics.md, Invariants);
// - breakdowns: a step that fails, a non-finite observed state, or an observer that returns a failed
//   StepStatus ends the run with ok = false and one reason, worded here for all of them.
//
// Schemes that choose their own steps (error-controlled, dense output) enter through the same
// Observation / observer / IntegrationOutcome: they are observed at requested times rather than every
// k-th step, and the outcome's counts say how many steps that took. FixedSteps is the plan for the
// schemes of today; an adaptive plan sits beside it, with the same observer.
#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

/// N steps of h from t0. Step n runs from t_n = t0 + n h. With `land_on`, the last step is shortened
/// (or lengthened by round-off) to end exactly there - `simulate`'s t_end; without it every step is h
/// (the ladder, whose span is N h by construction). `from` > 0 resumes a run on the same grid at step
/// `from` (the scheme holding the state at t_from): the times stay t0 + n h.
struct FixedSteps {
  double t0 = 0, h = 0;
  std::int64_t steps = 0;
  std::optional<double> land_on = std::nullopt;
  std::int64_t from = 0;
  /// t_n; t_N is land_on where given.
  double time(std::int64_t n) const { return land_on && n == steps ? *land_on : t0 + double(n) * h; }
  /// The size of step n (n < N).
  double size(std::int64_t n) const { return land_on && n + 1 == steps ? *land_on - (t0 + double(n) * h) : h; }
  /// The N >= 1 steps of h that cover [t0, t_end], the last landing on t_end (shortened by less than
  /// h). InputError for a non-finite or non-positive h, an empty span, a step longer than the span (it
  /// would not be the h asked for), or more than max_steps steps.
  static FixedSteps covering(double t0, double t_end, double h, double max_steps);
};

/// When the driver reads the state out and calls the observer.
struct ObservationPlan {
  std::int64_t every = 1;  // after every k-th step (0: never between the ends)
  bool initial = false;    // once before the first step (index 0), the state as the scheme mapped it in
  bool last = false;       // after the last step, also when N is not a multiple of `every`
  /// No observation at all: the run's cost alone (the benchmarks' instruction counts).
  static ObservationPlan none() { return {.every = 0}; }
};

struct Observation {
  std::int64_t index = 0;  // 0: the initial state; j: after step j*every (the grid's observation j)
  std::int64_t steps = 0;  // steps taken so far (counted from the grid's t0)
  double t = 0;            // the state's time
  double h = 0;            // the size of the last step taken (the first step's for the initial state)
};

struct IntegrationOutcome {
  bool ok = true;
  std::string reason;       // on a breakdown: which step or observation, and why
  std::string cause;        // on a breakdown: why alone (the scheme's reason, "non-finite state", the observer's)
  std::int64_t steps = 0;   // steps completed from the grid's t0 (the failed one not counted)
  double t = 0;             // the time reached
  /// On a breakdown: the time of the first state not obtained (the failed step's end, or the time of
  /// the observation refused) - where a report says the run broke down.
  double failed_at = 0;
};

/// The breakdown wordings every run of the harness uses (they appear in reports).
std::string step_breakdown(std::int64_t n, double t, double h, std::string_view why);
std::string non_finite_at(const Observation& o);

/// An observer is called as obs(o, x) and returns void, or a StepStatus whose failure ends the run
/// as a breakdown with its reason (e.g. an invariant that is no longer finite).
template <class O>
concept Observer = std::invocable<O&, const Observation&, const State&>;

struct NoObserver {
  void operator()(const Observation&, const State&) const {}
};

namespace detail {

/// The loop itself, in this process (integrate below decides where it runs).
template <class S, Observer Obs>
IntegrationOutcome integrate_here(S& s, const FixedSteps& grid, const ObservationPlan& plan, State& x, Obs&& observe) {
  IntegrationOutcome out;
  out.steps = grid.from;
  out.t = grid.time(grid.from);
  // Reads the state at observation `index`; false ends the run (out says why).
  const auto look = [&](std::int64_t index, double h) {
    s.read(x);
    const Observation o{index, out.steps, out.t, h};
    if (!all_finite(x)) {
      out.ok = false;
      out.reason = non_finite_at(o);
      out.cause = "non-finite state";
      out.failed_at = o.t;
      return false;
    }
    if constexpr (std::is_void_v<std::invoke_result_t<Obs&, const Observation&, const State&>>) {
      observe(o, x);
    } else {
      StepStatus st = observe(o, x);
      if (!st.ok) {
        out.ok = false;
        out.reason = out.cause = std::move(st.reason);
        out.failed_at = o.t;
        return false;
      }
    }
    return true;
  };
  constexpr bool observing = !std::is_same_v<std::remove_cvref_t<Obs>, NoObserver>;
  if constexpr (observing)
    if (plan.initial && !look(0, grid.steps > grid.from ? grid.size(grid.from) : grid.h)) return out;
  // Step n from t_n with size hn; false ends the run. The grid is copied into locals so that the
  // scheme's (possibly virtual) step cannot make the loop reload it: the instruction counts of the
  // benchmarks measure the scheme, not the driver (a few instructions per step).
  const double t0 = grid.t0, h = grid.h;
  const std::int64_t every = plan.every, last = grid.steps;
  const bool observe_last = plan.last;
  const auto advance = [&](std::int64_t n, double t, double hn) {
    StepStatus st = s.step(t, hn);
    if (!st.ok) [[unlikely]] {
      out.ok = false;
      out.reason = step_breakdown(n, t, hn, st.reason);
      out.cause = std::move(st.reason);
      out.steps = n;
      out.t = t;
      out.failed_at = t + hn;
      return false;
    }
    if constexpr (observing) {
      const std::int64_t done = n + 1;
      if ((every > 0 && done % every == 0) || (observe_last && done == last)) {
        out.steps = done;
        out.t = grid.time(done);
        if (!look(every > 0 ? (done + every - 1) / every : 1, hn)) return false;
      }
    }
    return true;
  };
  // Every step but a landing last one is h.
  const std::int64_t uniform = grid.land_on && last > grid.from ? last - 1 : last;
  for (std::int64_t n = grid.from; n < uniform; ++n)
    if (!advance(n, t0 + double(n) * h, h)) return out;
  if (uniform < last && !advance(uniform, t0 + double(uniform) * h, grid.size(uniform))) return out;
  out.steps = last;
  out.t = grid.time(last);
  return out;
}

using ObserveFn = std::function<StepStatus(const Observation&, const State&)>;
/// The run of an isolated scheme (SchemeInfo::isolate) in a child process, observed here.
IntegrationOutcome integrate_isolated(AnyIntegrator& s, const FixedSteps& grid, const ObservationPlan& plan, State& x,
                                      const ObserveFn& observe);

}  // namespace detail

/// Runs the steps of `grid` on a scheme that has been reset to grid.t0, observing per `plan` into x
/// (sized to the problem). S is a concrete scheme (the benchmarks) or AnyIntegrator.
///
/// Isolated schemes. A scheme whose SchemeInfo says `isolate` (an engine whose library may abort the
/// process: DART's Debian build on a non-finite joint position) runs in a child process, forked once
/// per run: the child steps and sends each observed state through a pipe; the observer runs here, on
/// the same states, in the same order. A child that dies (a signal, an exit) is the run's breakdown,
/// with the signal and the last line the child wrote to its standard error, and the harness goes on
/// with the next pair. After a run that completes, the scheme is reset here to the child's final
/// state, so that runs chain (`from`) as in-process ones do; the scheme's counters() are the child's
/// and are not brought back. A fork costs a few milliseconds a run; the cost measurements
/// (steps alone, below) run in this process, since they time the scheme, not a fork.
template <class S, Observer Obs>
IntegrationOutcome integrate(S& s, const FixedSteps& grid, const ObservationPlan& plan, State& x, Obs&& observe) {
  if constexpr (std::is_base_of_v<AnyIntegrator, S>) {
    if (s.info().isolate)
      return detail::integrate_isolated(s, grid, plan, x, [&](const Observation& o, const State& y) -> StepStatus {
        if constexpr (std::is_void_v<std::invoke_result_t<Obs&, const Observation&, const State&>>) {
          observe(o, y);
          return StepStatus::success();
        } else {
          return observe(o, y);
        }
      });
  }
  return detail::integrate_here(s, grid, plan, x, observe);
}

/// Steps alone: no state read out, no observer (what the cost measurements time). Always in this
/// process, isolated schemes too: a fault in a cost measurement ends the process (docs/engines.md,
/// "Faults").
template <class S>
IntegrationOutcome integrate(S& s, const FixedSteps& grid) {
  State unused;
  return detail::integrate_here(s, grid, ObservationPlan::none(), unused, NoObserver{});
}

/// Steps, then the final state read into x and checked finite: one map Phi_h, or a run whose end
/// alone matters.
template <class S>
IntegrationOutcome integrate(S& s, const FixedSteps& grid, State& x) {
  return integrate(s, grid, {.every = 0, .last = true}, x, [](const Observation&, const State&) {});
}

/// One run of a problem from its initial state with step h to t_end (the last step landing on it),
/// recording t0, every `every`-th step and t_end. Throws InputError for a bad h/t_end; a breakdown
/// ends the run early (ok, reason).
struct Trajectory {
  std::vector<double> t;
  std::vector<State> states;
  bool ok = true;
  std::string reason;
};
Trajectory simulate(AnyIntegrator& integ, const Problem& p, double h, double t_end, std::int64_t every = 1);
/// The same, handing each written state to `sink` as it is produced instead of keeping it: memory
/// independent of the number of steps. The Trajectory returned holds only ok and reason.
Trajectory simulate(AnyIntegrator& integ, const Problem& p, double h, double t_end, std::int64_t every,
                    const std::function<void(double, const State&)>& sink);

}  // namespace rigidbench
