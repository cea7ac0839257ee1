#include "long_time.hpp"

#include "../integrators/integrate.hpp"

#include <chrono>
#include <cmath>
#include <limits>

namespace rigidbench {

std::string classify_energy_growth(double a, double final_deviation, std::int64_t steps, bool* uncertain,
                                   double stderr_a) {
  if (uncertain) *uncertain = false;
  constexpr double eps = std::numeric_limits<double>::epsilon();
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
  std::vector<double> inv(defs.size());
  p.evaluate_invariants(p.initial, inv.data());
  const double E0 = inv[ie];
  // S_E as the verification's invariant verdicts take it (verification/runner.cpp).
  r.scale = std::abs(E0) > 1e-6 * defs[ie].natural_scale ? std::abs(E0) : defs[ie].natural_scale;
  // Checkpoints: 8 per decade from step 100 (or 1) to the last.
  std::vector<std::int64_t> marks;
  for (int k = 0;; ++k) {
    const auto n = std::int64_t(std::llround(std::pow(10.0, 2.0 + k / 8.0)));
    if (n >= steps) break;
    if (marks.empty() || n > marks.back()) marks.push_back(n);
  }
  marks.push_back(steps);
  auto integ = s.make(p);
  integ->reset(p.initial, p.t0);
  State x = p.initial;
  double running = 0;
  std::size_t next = 0;
  // Every step is observed: the running maximum must not miss a peak between checkpoints. The energy
  // alone, through the evaluator made for a run observed step by step (Problem::invariant_along: the
  // same value, the work between steps kept).
  auto energy = p.invariant_along(ie);
  const IntegrationOutcome run =
      integrate(*integ, FixedSteps{p.t0, h, steps}, {.every = 1}, x, [&](const Observation& o, const State& xo) {
        const double dev = std::abs(energy(xo) - E0) / r.scale;
        if (!std::isfinite(dev)) return StepStatus::breakdown(cat("the energy is not finite at step ", std::to_string(o.steps)));
        running = std::max(running, dev);
        r.steps_run = o.steps;
        if (next < marks.size() && o.steps == marks[next]) {
          r.t.push_back(double(o.steps) * h);
          r.max_deviation.push_back(running);
          ++next;
        }
        return StepStatus::success();
      });
  if (!run.ok) {
    r.status = "breakdown";
    r.reason = run.reason;
  }
  // The fit over the last three decades of checkpoints (the first ones are the transient of the
  // first oscillations), where the deviation is above zero.
  std::vector<double> lx, ly;
  const double t_last = r.t.empty() ? 0.0 : r.t.back();
  for (std::size_t k = 0; k < r.t.size(); ++k)
    if (r.t[k] >= t_last * 1e-3 && r.max_deviation[k] > 0)
      lx.push_back(std::log10(r.t[k])), ly.push_back(std::log10(r.max_deviation[k]));
  if (lx.size() >= 3) r.fit = fit_line(lx, ly);
  if (r.status == "ok")
    r.behaviour = classify_energy_growth(r.fit.slope, r.max_deviation.empty() ? kNaN : r.max_deviation.back(), r.steps_run,
                                         &r.uncertain, r.fit.stderr_slope);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace rigidbench
