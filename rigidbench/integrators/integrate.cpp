#include "rigidbench/integrators/integrate.hpp"

#include <cmath>

namespace rigidbench {

std::string step_breakdown(std::int64_t n, double t, double h, std::string_view why) {
  return cat("step ", std::to_string(n), " (t = ", message_number(t), ", h = ", message_number(h), "): ", std::string(why));
}

std::string non_finite_at(const Observation& o) {
  if (o.steps == 0) return cat("non-finite initial state (t = ", message_number(o.t), ")");
  return cat("non-finite state at the observation after step ", std::to_string(o.steps - 1), " (t = ", message_number(o.t),
             ", h = ", message_number(o.h), ")");
}

FixedSteps FixedSteps::covering(double t0, double t_end, double h, double max_steps) {
  if (!std::isfinite(h) || h <= 0) throw InputError("step h must be positive and finite (got " + message_number(h) + ")");
  if (!std::isfinite(t_end) || !std::isfinite(t0) || t_end <= t0)
    throw InputError("t_end must be finite and greater than t0 = " + message_number(t0) + " (got " + message_number(t_end) + ")");
  const double span = t_end - t0;
  // A step longer than the span would be cut to the span: another h than the one asked for.
  if (h > span * (1 + 1e-9))
    throw InputError("step h = " + message_number(h) + " is longer than the span t_end - t0 = " + message_number(span) +
                     " (no step of that size fits; give h <= " + message_number(span) + ")");
  const double nd = std::ceil(span / h - 1e-9);
  if (!(nd <= max_steps))
    throw InputError("step h = " + message_number(h) + " needs " + message_number(nd) + " steps to cover [" + message_number(t0) + ", " + message_number(t_end) +
                     "], more than the limit of " + message_number(max_steps));
  return {t0, h, std::max<std::int64_t>(1, std::int64_t(nd)), t_end};
}

Trajectory simulate(AnyIntegrator& integ, const Problem& p, double h, double t_end, std::int64_t every) {
  Trajectory kept;
  Trajectory tr = simulate(integ, p, h, t_end, every, [&](double t, const State& s) {
    kept.t.push_back(t);
    kept.states.push_back(s);
  });
  tr.t = std::move(kept.t);
  tr.states = std::move(kept.states);
  return tr;
}

Trajectory simulate(AnyIntegrator& integ, const Problem& p, double h, double t_end, std::int64_t every,
                    const std::function<void(double, const State&)>& sink) {
  if (every < 1) throw InputError("--every must be >= 1");
  const FixedSteps grid = FixedSteps::covering(p.t0, t_end, h, 2e9);
  State x(p.bodies.size());
  integ.reset(p.initial, p.t0);
  const IntegrationOutcome r = integrate(integ, grid, {.every = every, .initial = true, .last = true}, x,
                                         [&](const Observation& o, const State& s) { sink(o.t, s); });
  Trajectory tr;
  tr.ok = r.ok;
  tr.reason = r.reason;
  return tr;
}

}  // namespace rigidbench
