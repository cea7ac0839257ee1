#include "long_time.hpp"

#include "../integrators/integrate.hpp"

#include <chrono>
#include <cmath>
#include <limits>

namespace rigidbench {

std::string classify_energy_growth(double a, double final_deviation, std::int64_t steps, bool* uncertain,
                                   double stderr_a, double eps) {
  if (uncertain) *uncertain = false;
  if (std::isfinite(final_deviation) && final_deviation <= 10 * eps * std::sqrt(double(std::max<std::int64_t>(steps, 1))))
    return "roundoff";
  if (!std::isfinite(a)) return "undefined";
  if (uncertain && std::isfinite(stderr_a))
    for (double boundary : {0.25, 0.75, 1.5})
      if (std::abs(a - boundary) < 2 * stderr_a) *uncertain = true;
  if (a < 0.25) return "bounded";
  if (a < 0.75) return "random_walk";
  if (a < 1.5) return "linear_drift";
  return "faster_than_linear";
}

namespace {

// Checkpoints of a run of `steps` steps: 8 per decade from step 100 (or 1) to the last.
std::vector<std::int64_t> checkpoints(std::int64_t steps) {
  std::vector<std::int64_t> marks;
  for (int k = 0;; ++k) {
    const auto n = std::int64_t(std::llround(std::pow(10.0, 2.0 + k / 8.0)));
    if (n >= steps) break;
    if (marks.empty() || n > marks.back()) marks.push_back(n);
  }
  marks.push_back(steps);
  return marks;
}

// The exponent of the running maximum: the fit over the last three decades of checkpoints (the first
// ones are the transient of the first oscillations), where the deviation is above zero; and the
// behaviour it indicates once the run completed.
void classify(InvariantGrowth& g, std::int64_t steps_run, bool completed, double eps) {
  std::vector<double> lx, ly;
  const double t_last = g.t.empty() ? 0.0 : g.t.back();
  for (std::size_t k = 0; k < g.t.size(); ++k)
    if (g.t[k] >= t_last * 1e-3 && g.max_deviation[k] > 0)
      lx.push_back(std::log10(g.t[k])), ly.push_back(std::log10(g.max_deviation[k]));
  if (lx.size() >= 3) g.fit = fit_line(lx, ly);
  if (completed)
    g.behaviour = classify_energy_growth(g.fit.slope, g.max_deviation.empty() ? kNaN : g.max_deviation.back(), steps_run,
                                         &g.uncertain, g.fit.stderr_slope, eps);
}

}  // namespace

LongTimeRun long_time_run(const Problem& p, const SchemeEntry& s, double h, std::int64_t steps,
                          const std::vector<std::size_t>& which, const std::function<void(const State&)>& each) {
  LongTimeRun r;
  const auto& defs = p.invariants();
  std::vector<double> inv(defs.size());
  p.evaluate_invariants(p.initial, inv.data());
  const std::size_t m = which.size();
  std::vector<double> I0(m), running(m, 0.0), head(m, 0.0), tail(m, 0.0);
  std::vector<std::function<double(const State&)>> value(m);
  r.invariants.resize(m);
  for (std::size_t i = 0; i < m; ++i) {
    const InvariantDef& d = defs.at(which[i]);
    InvariantGrowth& g = r.invariants[i];
    g.name = d.name;
    I0[i] = inv[which[i]];
    // S_I as the verification's invariant verdicts take it (verification/runner.cpp): |I0|, or the
    // natural scale where I0 is near zero or the invariant is one component of a vector.
    g.scale = std::abs(I0[i]) > 1e-6 * d.natural_scale ? std::abs(I0[i]) : d.natural_scale;
    if (d.component) g.scale = std::max(g.scale, d.natural_scale);
    // Each invariant through the evaluator made for a run observed step by step
    // (Problem::invariant_along: the same value, the work between steps kept).
    value[i] = p.invariant_along(which[i]);
  }
  const std::vector<std::int64_t> marks = checkpoints(steps);
  const std::int64_t tenth = std::max<std::int64_t>(1, steps / 10);
  auto integ = s.make(p);
  integ->reset(p.initial, p.t0);
  State x = p.initial;
  std::size_t next = 0;
  // Every step is observed: the running maximum must not miss a peak between checkpoints.
  const IntegrationOutcome run =
      integrate(*integ, FixedSteps{p.t0, h, steps}, {.every = 1}, x, [&](const Observation& o, const State& xo) {
        for (std::size_t i = 0; i < m; ++i) {
          const double dev = (value[i](xo) - I0[i]) / r.invariants[i].scale;
          if (!std::isfinite(dev))
            return StepStatus::breakdown(cat("the ", r.invariants[i].name, " is not finite at step ", std::to_string(o.steps)));
          running[i] = std::max(running[i], std::abs(dev));
          if (o.steps <= tenth) head[i] += dev;
          if (o.steps > steps - tenth) tail[i] += dev;
        }
        if (each) each(xo);
        r.steps_run = o.steps;
        if (next < marks.size() && o.steps == marks[next]) {
          for (std::size_t i = 0; i < m; ++i) {
            r.invariants[i].t.push_back(double(o.steps) * h);
            r.invariants[i].max_deviation.push_back(running[i]);
          }
          ++next;
        }
        return StepStatus::success();
      });
  if (!run.ok) {
    r.status = "breakdown";
    r.reason = run.reason;
  }
  for (std::size_t i = 0; i < m; ++i) {
    classify(r.invariants[i], r.steps_run, run.ok, unit_roundoff(s.info->precision));
    // The centres of the first and last tenths are (tenth + 1) / 2 and steps - (tenth - 1) / 2 steps in.
    if (!run.ok) continue;
    r.invariants[i].final_mean = tail[i] / double(std::min(tenth, steps));
    if (steps >= 2 * tenth && steps > 1)
      r.invariants[i].drift_rate = (tail[i] - head[i]) / double(tenth) / (double(steps - tenth) * h);
  }
  return r;
}

LongTimeEnergy long_time_energy(const Problem& p, const SchemeEntry& s, double h, std::int64_t steps) {
  LongTimeEnergy r;
  r.h = h;
  r.steps = steps;
  if (std::string why = not_applicable(*s.info, p); !why.empty()) {
    r.status = "not_applicable";
    r.reason = why;
    return r;
  }
  const auto& defs = p.invariants();
  std::size_t ie = defs.size();
  for (std::size_t i = 0; i < defs.size(); ++i)
    if (defs[i].kind == InvariantKind::energy && !std::isfinite(defs[i].from_time)) ie = i;
  if (ie == defs.size()) {
    r.status = "not_applicable";
    r.reason = "the problem declares no energy conserved from t0 (time-dependent loads)";
    return r;
  }
  const auto start = std::chrono::steady_clock::now();
  LongTimeRun run = long_time_run(p, s, h, steps, {ie});
  InvariantGrowth& g = run.invariants.front();
  r.status = run.status;
  r.reason = std::move(run.reason);
  r.steps_run = run.steps_run;
  r.scale = g.scale;
  r.t = std::move(g.t);
  r.max_deviation = std::move(g.max_deviation);
  r.fit = g.fit;
  r.behaviour = g.behaviour;
  r.uncertain = g.uncertain;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace rigidbench
