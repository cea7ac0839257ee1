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
#include <exception>
#include <limits>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../core/cancel.hpp"
#include "any_integrator.hpp"

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

/// An exception the observer threw, carried through the loop's handler of the scheme's exceptions
/// (integrate_here): the observer is the harness's own code, and what it throws is not the scheme's
/// breakdown.
struct ObserverThrew {
  std::exception_ptr what;
};

/// The text of the exception being handled (what() of a std::exception).
std::string current_exception_text();
/// Called in a handler of the exception the scheme threw at step `at` of the grid: out made that
/// step's breakdown ("the scheme threw: ..."), cold code outside the loop.
void scheme_threw(IntegrationOutcome& out, const FixedSteps& grid, std::int64_t at);

/// The loop itself, in this process (integrate below decides where it runs).
///
/// An exception the scheme's step() or read() throws - an engine's library refusing a state (Simbody,
/// ODE's error handler), a library's bad_alloc - ends the run as a breakdown at that step with its
/// text, like a failed StepStatus: the pair breaks down and the others go on (docs/engines.md,
/// "Faults"). The handler wraps the whole loop, so the steps themselves run as without it.
template <class S, Observer Obs>
IntegrationOutcome integrate_here(S& s, const FixedSteps& grid, const ObservationPlan& plan, State& x, Obs&& observe) {
  IntegrationOutcome out;
  out.steps = grid.from;
  out.t = grid.time(grid.from);
  std::int64_t at = grid.from;  // the step being taken, for the handler below
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
    try {
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
    } catch (...) {
      throw ObserverThrew{std::current_exception()};
    }
    return true;
  };
  constexpr bool observing = !std::is_same_v<std::remove_cvref_t<Obs>, NoObserver>;
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
  try {
    if constexpr (observing)
      if (plan.initial && !look(0, grid.steps > grid.from ? grid.size(grid.from) : grid.h)) return out;
    for (; at < uniform; ++at)
      if (!advance(at, t0 + double(at) * h, h)) return out;
    if (uniform < last && !advance(uniform, t0 + double(uniform) * h, grid.size(uniform))) return out;
  } catch (const ObserverThrew& e) {
    std::rethrow_exception(e.what);
  } catch (...) {
    scheme_threw(out, grid, at);
    return out;
  }
  out.steps = last;
  out.t = grid.time(last);
  return out;
}

using ObserveFn = std::function<StepStatus(const Observation&, const State&)>;
struct RunClock;
/// The run of an isolated scheme (SchemeInfo::isolate) in a child process, observed here; with
/// `clock`, the child's loop is timed there and its counters brought back.
IntegrationOutcome integrate_isolated(AnyIntegrator& s, const FixedSteps& grid, const ObservationPlan& plan, State& x,
                                      const ObserveFn& observe, RunClock* clock = nullptr);

/// A scheme that takes whole runs elsewhere: a program spoken to over a pipe
/// (verification/program_scheme.hpp, docs/programs.md), for which one exchange per step would
/// measure the pipe. It is handed the grid and the plan, brings back the observed states and calls
/// `observe` on each in order, as the loop here would; with `clock`, the run's cost as the program
/// measured it. Every run of such a scheme goes through here (integrate, timed_run).
class RunsElsewhere {
 public:
  virtual IntegrationOutcome run_elsewhere(const FixedSteps& grid, const ObservationPlan& plan, State& x,
                                           const ObserveFn& observe, RunClock* clock) = 0;

 protected:
  ~RunsElsewhere() = default;
};

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
///
/// A stop requested (core/cancel.hpp: Ctrl-C in the Python module) ends the run at its next
/// observation, as a breakdown with kCancelledReason - in the child's parent for an isolated scheme,
/// which then ends the child.
template <class S, Observer Obs>
IntegrationOutcome integrate(S& s, const FixedSteps& grid, const ObservationPlan& plan, State& x, Obs&& observe) {
  const auto watched = [&](const Observation& o, const State& y) -> StepStatus {
    if (cancel_requested()) return StepStatus::breakdown(kCancelledReason);
    if constexpr (std::is_void_v<std::invoke_result_t<Obs&, const Observation&, const State&>>) {
      observe(o, y);
      return StepStatus::success();
    } else {
      return observe(o, y);
    }
  };
  if constexpr (std::is_base_of_v<AnyIntegrator, S>) {
    if (auto* w = dynamic_cast<detail::RunsElsewhere*>(&s)) return w->run_elsewhere(grid, plan, x, watched, nullptr);
    if (s.info().isolate) return detail::integrate_isolated(s, grid, plan, x, watched);
  }
  return detail::integrate_here(s, grid, plan, x, watched);
}

/// Steps alone: no state read out, no observer. In this process: the benchmarks' timing loops
/// (batches resumed with `from`) and instruction counts of schemes that are not isolated. What is
/// timed or counted of any scheme goes through timed_run below, which isolates where integrate does.
template <class S>
IntegrationOutcome integrate(S& s, const FixedSteps& grid) {
  State unused;
  if constexpr (std::is_base_of_v<AnyIntegrator, S>) {
    if (auto* w = dynamic_cast<detail::RunsElsewhere*>(&s))
      return w->run_elsewhere(grid, ObservationPlan::none(), unused,
                              [](const Observation&, const State&) { return StepStatus::success(); }, nullptr);
  }
  return detail::integrate_here(s, grid, ObservationPlan::none(), unused, NoObserver{});
}

/// A run of steps alone with its cost: the loop's thread CPU time and wall time, measured where the
/// loop runs, and the scheme's counters after it. For a scheme timed elsewhere (a program, an
/// isolated scheme), also the wall time of the whole run as this process saw it: the loop plus the
/// request, the pipe and the answer (or the fork), what a caller of the scheme pays (NaN otherwise).
struct TimedRun {
  IntegrationOutcome outcome;
  double cpu_seconds = 0, wall_seconds = 0;
  Counters counters;
  double exchange_wall_seconds = std::numeric_limits<double>::quiet_NaN();
};
namespace detail {
struct RunClock {
  double cpu_seconds = 0, wall_seconds = 0;
  Counters counters;
};
double thread_cpu_seconds();
double wall_seconds();
}  // namespace detail

/// Every cost measurement's run (verify's cost per step, bench's work-precision and adaptive run
/// times and step counts): the steps of `grid` from the state the scheme was reset to, timed. The
/// same decision as integrate's: an isolated scheme's run is made in its child process and timed
/// there (the fork is not in the figure), a program's is timed by the program (its loop, not the pipe), so that an engine aborting in a cost run is that run's
/// breakdown, not the end of the process (docs/engines.md, "Faults"); the scheme here is then at the
/// child's final state. `bodies`: the problem's.
inline TimedRun timed_run(AnyIntegrator& s, const FixedSteps& grid, std::size_t bodies) {
  TimedRun r;
  auto* elsewhere = dynamic_cast<detail::RunsElsewhere*>(&s);
  if (elsewhere != nullptr || s.info().isolate) {
    detail::RunClock c;
    State x(bodies);
    const auto none = [](const Observation&, const State&) { return StepStatus::success(); };
    const double wall0 = detail::wall_seconds();
    r.outcome = elsewhere != nullptr ? elsewhere->run_elsewhere(grid, ObservationPlan::none(), x, none, &c)
                                     : detail::integrate_isolated(s, grid, ObservationPlan::none(), x, none, &c);
    r.exchange_wall_seconds = detail::wall_seconds() - wall0;
    r.cpu_seconds = c.cpu_seconds;
    r.wall_seconds = c.wall_seconds;
    r.counters = c.counters;
    return r;
  }
  const double cpu0 = detail::thread_cpu_seconds(), wall0 = detail::wall_seconds();
  r.outcome = integrate(s, grid);
  r.cpu_seconds = detail::thread_cpu_seconds() - cpu0;
  r.wall_seconds = detail::wall_seconds() - wall0;
  r.counters = s.counters();
  return r;
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
