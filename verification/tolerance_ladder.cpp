#include "tolerance_ladder.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "../integrators/integrate.hpp"
#include "error_metrics/error_metric.hpp"
#include "measures/measure.hpp"
#include "metric_table.hpp"
#include "runner.hpp"
#include "verdicts.hpp"

// The tolerance ladder's rows of the metric table (verification/metric_table.hpp): what the study below
// measures and judges, by the rules of verdicts.hpp, with their thresholds.
namespace rigidbench::metric_defs {

extern const MetricDef tolerance_proportionality{
    "tolerance_proportionality", MetricSection::tolerance_ladder, "tolerance proportionality",
    "slope of log error (attitude, or the larger of attitude and position) against log tol over the levels above "
    "the reference floor and not grid-bound",
    "1", VerdictRule::tolerance_slope, 1, true, {}, nullptr, kProportionalityTolerance,
    [](const ToleranceStudy& t) { return t.proportionality_verdict; }};
extern const MetricDef rejected_steps{
    "rejected_steps", MetricSection::tolerance_ladder, "rejected steps",
    "the controller's rejected steps over its attempted steps, the largest over the levels", "1",
    VerdictRule::at_most, 1, true, {}, nullptr, kMaxRejectedFraction,
    [](const ToleranceStudy& t) { return t.rejection_verdict; }};
extern const MetricDef estimator_order{
    "estimator_order", MetricSection::tolerance_ladder, "error estimator's order",
    "slope of log error estimate against log h of one uncontrolled step from the initial state", "1",
    VerdictRule::estimator_slope, 1, false,
    "informational: the band is a first choice, not yet a measured spread (docs/adaptive.md)", nullptr,
    kEstimatorTolerance,
    [](const ToleranceStudy& t) { return t.estimator ? t.estimator->verdict : Verdict::undefined; }};

}  // namespace rigidbench::metric_defs

namespace rigidbench {

double ToleranceLevel::error(std::string_view metric) const {
  const auto it = errors.find(metric);
  return it == errors.end() ? kNaN : it->second;
}

double tolerance_level_error(const ToleranceLevel& lv, std::string_view metric) { return lv.error(metric); }

bool tolerance_measures(std::string_view metric) {
  const MetricDef* m = find_metric(metric);
  return m != nullptr && is_error_metric(*m);
}

double judged_error(const ToleranceLevel& lv) {
  const double a = lv.error("attitude_error_max");
  return std::isnan(lv.position_error) || !lv.ok ? a : std::max(a, lv.position_error);
}

double expected_proportionality(const SchemeInfo& info) {
  if (info.error_estimate_order < 0 || info.order < 1) return 1.0;
  return double(info.order) / double(info.error_estimate_order + 1);
}

double ToleranceLadder::tol(int k) const { return tol0 * std::pow(10.0, -0.5 * double(k)); }

std::size_t ToleranceLadder::stride(std::size_t m, int max_intervals) {
  for (std::size_t d = 1; d <= m; ++d)
    if (m % d == 0 && m / d <= std::size_t(std::max(1, max_intervals))) return d;
  return m;
}

namespace {

using Clock = std::chrono::steady_clock;

/// The reference's floor on the output times: 100x its own attitude estimate there (and, translating,
/// its position estimate: kept as the maximum over the grid only), or 100 ulps of the scheme's arithmetic.
double reference_floor(const ReferenceSolution& ref, std::size_t stride, bool translating, double eps) {
  double est = translating ? ref.error_estimate.position : 0.0;
  for (std::size_t j = 0; j < ref.estimate_attitude.size(); j += stride) est = std::max(est, ref.estimate_attitude[j]);
  return std::max(kRefFloorFactor * est, kRoundoffUlps * eps);
}

/// The other timed runs of a level: the same scheme from the same state on the same output times (a
/// deterministic run gives the same result), timed only - no errors or invariants evaluated.
void time_repetitions(ToleranceLevel& lv, const Problem& p, const SchemeEntry& s, const SchemeSettings& set,
                      const FixedSteps& grid, int repetitions) {
  for (int r = 1; r < repetitions; ++r) {
    const std::unique_ptr<AnyIntegrator> again = s.make(p, set);
    State y = p.initial;
    again->reset(y, grid.t0);
    const auto t_start = Clock::now();
    integrate(*again, grid, {.every = 1}, y, [](const Observation&, const State&) {});
    const double secs = std::chrono::duration<double>(Clock::now() - t_start).count();
    lv.seconds_max = std::max(std::isnan(lv.seconds_max) ? lv.seconds : lv.seconds_max, secs);
    lv.seconds = std::min(lv.seconds, secs);
  }
}

/// The output grid of a tolerance ladder, every stride-th time of the reference's grid, as a ladder of
/// one level, and the reference on it: what the error metrics read (error_metric.hpp), so that a
/// tolerance level is measured by them exactly as a level of a step ladder is.
struct OutputGridReference {
  Ladder grid;
  ReferenceSolution ref;
};
OutputGridReference on_output_grid(const ReferenceSolution& ref, std::size_t stride) {
  OutputGridReference o{{}, ref};
  const std::size_t M = (ref.times.size() - 1) / stride;
  o.grid.t0 = ref.times.front();
  o.grid.h0 = (ref.times.back() - o.grid.t0) / double(M);
  o.grid.levels = 1;
  o.grid.n0 = o.grid.m = std::int64_t(M);
  o.ref.times.clear(), o.ref.states.clear(), o.ref.estimate_attitude.clear(), o.ref.estimate_omega.clear();
  for (std::size_t j = 0; j <= M; ++j) {
    o.ref.times.push_back(ref.times[j * stride]);
    o.ref.states.push_back(ref.states[j * stride]);
    if (j * stride < ref.estimate_attitude.size()) o.ref.estimate_attitude.push_back(ref.estimate_attitude[j * stride]);
    if (j * stride < ref.estimate_omega.size()) o.ref.estimate_omega.push_back(ref.estimate_omega[j * stride]);
  }
  return o;
}

/// Every error metric of the metric table on one run, by name, each by its own measure.
std::map<std::string, double, std::less<>> every_error(const ErrorInputs& in, const LevelRun& run) {
  std::map<std::string, double, std::less<>> e;
  for (const MetricDef& m : metric_table())
    if (is_error_metric(m)) e[std::string(m.name)] = m.error->level_error(in, run);
  return e;
}

/// The scheme's settings with abs = rel = tol (the ladder sets both at every level).
SchemeSettings settings_at(const SchemeEntry& s, double tol) {
  SchemeSettings set = s.settings;
  set.values[std::string(kAbsTolerance.name)] = tol;
  set.values[std::string(kRelTolerance.name)] = tol;
  return set;
}

/// What a level's run says about the invariants: the drift from I_0 over the output times (each
/// relative to its natural scale), and the anchor and deviation the exact claims are judged on.
void tolerance_invariants(ToleranceLevel& lv, const Problem& p, const LevelRun& run) {
  const auto& defs = p.invariants();
  lv.invariant_drift.clear();
  for (std::size_t i = 0; i < defs.size(); ++i) {
    double& drift = lv.invariant_drift.emplace_back(defs[i].name, 0.0).second;
    for (Eigen::Index j = 1; j < run.inv_obs.rows(); ++j)  // rows not reached are NaN: std::max keeps the drift
      drift = std::max(drift, std::abs(run.inv_obs(j, Eigen::Index(i)) - run.inv_initial[i]) / defs[i].natural_scale);
  }
  lv.invariant_anchor = run.inv_anchor;
  lv.invariant_max_dev = run.inv_max_dev;
  if (!lv.ok) std::fill(lv.invariant_max_dev.begin(), lv.invariant_max_dev.end(), kNaN);
}

/// Every error metric of the table on a level that ran to the end, and on a translating problem the
/// position error over the grid and at its end (judged_error).
void tolerance_errors(ToleranceLevel& lv, const Problem& p, const OutputGridReference& out, const LevelRun& run) {
  lv.translating = p.translating();
  if (!lv.ok) return;
  const ErrorInputs in{p, out.grid, out.ref};
  lv.errors = every_error(in, run);
  if (!p.translating()) return;
  lv.position_error = 0;
  for (std::size_t j = 0; j <= in.M(); ++j) {
    lv.position_error_final = 0;
    for (std::size_t b = 0; b < out.ref.states[j].bodies.size(); ++b)
      lv.position_error_final =
          std::max(lv.position_error_final,
                   (error_metric::vector_at(run.xi, j, b, true, error_metric::kPosition) - out.ref.states[j].bodies[b].x).norm());
    lv.position_error = std::max(lv.position_error, lv.position_error_final);
  }
}

/// A scheme with dense output: the level's tolerance again, observed on the dense grid, measured by
/// every error metric there (ToleranceLevel::dense_errors). Errors only: the level's invariants,
/// counts and time are those of its run on the output grid.
void dense_errors(ToleranceLevel& lv, const Problem& p, const SchemeEntry& s, const OutputGridReference& dense) {
  const std::unique_ptr<AnyIntegrator> integ = s.make(p, settings_at(s, lv.tol));
  const std::int64_t M = dense.grid.m;
  const LevelRun run = run_level(*integ, p, LevelPlan{FixedSteps{dense.grid.t0, dense.grid.h0, M}, 1, M});
  if (!run.ok) return;
  lv.dense_errors = every_error(ErrorInputs{p, dense.grid, dense.ref}, run);
  lv.dense_accepted_steps = run.counters.accepted_steps;
}

/// A tolerance level's plan: one driver step per output interval, observed at every one.
LevelPlan output_plan(const OutputGridReference& out) {
  const std::int64_t M = out.grid.m;
  return LevelPlan{FixedSteps{out.grid.t0, out.grid.h0, M}, 1, M};
}

/// One level: the scheme at abs = rel = tol through the study loop's level runner (run_level) on the
/// output plan; its run kept in `keep` when given (the measures of the pair).
ToleranceLevel run_tolerance_level(const Problem& p, const SchemeEntry& s, const OutputGridReference& out, double tol,
                                   int repetitions, double floor, LevelRun* keep) {
  ToleranceLevel lv;
  lv.tol = tol;
  const SchemeSettings set = settings_at(s, tol);
  const std::unique_ptr<AnyIntegrator> integ = s.make(p, set);
  const std::int64_t M = out.grid.m;
  const LevelPlan plan = output_plan(out);
  LevelRun run = run_level(*integ, p, plan);
  lv.seconds = run.seconds;
  if (run.ok) time_repetitions(lv, p, s, set, plan.steps, repetitions);
  lv.ok = run.ok;
  lv.reason = run.reason;
  lv.counters = run.counters;
  // Counts that cannot be a run's are not judged as one (a level of zero steps was grid-bound,
  // so excluded, and a failed slope turned undefined): the level breaks down, which fails closed.
  if (const std::string why = impossible_counts(lv.counters); run.ok && !why.empty()) {
    lv.ok = false;
    lv.reason = cat("the scheme's counters are not a run's: ", why);
  }
  const double attempted = double(lv.counters.accepted_steps + lv.counters.rejected_steps);
  lv.rejected_fraction = attempted > 0 ? double(lv.counters.rejected_steps) / attempted : kNaN;
  tolerance_invariants(lv, p, run);
  tolerance_errors(lv, p, out, run);
  lv.floor = floor;
  lv.above_floor = lv.ok && judged_error(lv) > lv.floor;
  // A scheme with dense output steps past the output times: its steps are its tolerance's whatever the
  // grid (a loose tolerance's steps may span several output intervals), so it is never grid-bound.
  lv.grid_bound = !s.info->dense_output && lv.counters.accepted_steps < 2 * std::uint64_t(M);
  if (keep != nullptr) *keep = std::move(run);
  return lv;
}

/// The proportionality verdict and the fits of a tolerance study, over the levels above the floor and
/// not grid-bound (log10 tol, judged error, omega error, accepted steps of each).
void judge_proportionality(ToleranceStudy& st, const SchemeInfo& info, const std::vector<double>& lt,
                           const std::vector<double>& le, const std::vector<double>& lw, const std::vector<double>& ls) {
  const std::size_t used = lt.size();
  if (used >= std::size_t(kMinToleranceLevels)) {
    st.proportionality = fit_line(lt, le);
    st.omega_proportionality = fit_line(lt, lw);
    st.work = fit_line(ls, le);
    st.effective_order = -st.work.slope;
    st.proportionality_verdict = judge_slope(metric_defs::tolerance_proportionality, st.proportionality, st.expected_slope);
    st.proportionality_note = cat(st.translating ? "log error (the larger of attitude and position) against log tol: slope "
                                                 : "log error against log tol: slope ", format_number(st.proportionality.slope, 3), " +- ",
                                  format_number(st.proportionality.stderr_slope, 2), " over ", std::to_string(used),
                                  " levels above the reference floor and not grid-bound (pass within ",
                                  format_number(st.expected_slope, 3), " +- ", format_number(kProportionalityTolerance, 2),
                                  ", fail beyond that by two standard errors)",
                                  info.error_estimate_order < 0
                                      ? ""
                                      : cat("; expected ", std::to_string(info.order), "/(",
                                            std::to_string(info.error_estimate_order), " + 1): an order-",
                                            std::to_string(info.order), " method whose error estimate is of order ",
                                            std::to_string(info.error_estimate_order)));
  } else {
    st.proportionality_note = cat(std::to_string(used), " level(s) above the reference floor and not grid-bound (",
                                  std::to_string(kMinToleranceLevels), " needed): the slope is not defined");
  }
}

}  // namespace

std::optional<EstimatorOrder> estimator_order(const Problem& p, const SchemeEntry& s, double h0) {
  const std::unique_ptr<AnyIntegrator> integ = s.make(p, s.settings);
  State x = p.initial, before = p.initial, after = p.initial;  // read() fills a state of the problem's bodies
  integ->reset(x, p.t0);
  integ->read(before);
  EstimatorOrder E;
  const int q = s.info->error_estimate_order >= 0 ? s.info->error_estimate_order : s.info->order - 1;
  E.expected = double(q + 1);
  // The contract (integrator.hpp, HasErrorEstimate; docs/python.md): an estimate of one step not
  // taken. A scheme whose estimate fails, or which moves while estimating, fails the check with the
  // reason - the run and its report go on (the check is the estimator's, not the pair's).
  try {
    if (!integ->error_estimate(p.t0, h0)) return std::nullopt;
  } catch (const InputError& e) {
    E.verdict = Verdict::fail;
    E.note = cat("error_estimate failed: ", e.what());
    return E;
  }
  // Round-off: a few thousand ulps of the state's largest component (the estimate is a difference of
  // two solutions of the same step, each rounded at every stage).
  double scale = 1;
  for (const BodyState& b : p.initial.bodies) scale = std::max({scale, b.W.norm(), b.x.norm()});
  const double floor = 1e4 * unit_roundoff(s.info->precision) * scale;
  for (int k = 0; k < kEstimatorLevels; ++k) {
    const double h = h0 * std::pow(2.0, -0.5 * double(k));
    E.h.push_back(h);
    try {
      E.estimate.push_back(*integ->error_estimate(p.t0, h));
    } catch (const InputError& e) {
      E.verdict = Verdict::fail;
      E.note = cat("error_estimate failed at h = ", format_number(h, 3), ": ", e.what());
      return E;
    }
    integ->read(after);
    if (!same_state(before, after)) {
      E.verdict = Verdict::fail;
      E.note = cat("error_estimate(t, h = ", format_number(h, 3),
                   ") changed the scheme's state: an estimate is of one step not taken (docs/adaptive.md)");
      return E;
    }
  }
  std::vector<double> lh, le;  // the finest contiguous levels above the floor
  for (int k = kEstimatorLevels - 1; k >= 0 && int(lh.size()) < kEstimatorFit; --k) {
    const double e = E.estimate[std::size_t(k)];
    if (std::isfinite(e) && e > floor) {
      lh.insert(lh.begin(), std::log10(E.h[std::size_t(k)]));
      le.insert(le.begin(), std::log10(e));
    } else if (!lh.empty()) {
      break;
    }
  }
  E.points = int(lh.size());
  if (E.points < 3) {
    E.note = cat(std::to_string(E.points), " step(s) with an estimate above round-off (", message_number(floor),
                 "; 3 needed): the order is not defined");
    return E;
  }
  E.fit = fit_line(lh, le);
  E.verdict = judge_slope(metric_defs::estimator_order, E.fit, E.expected);
  E.note = cat("log estimate against log h over the ", std::to_string(E.points), " finest steps above round-off: slope ",
               format_number(E.fit.slope, 3), " +- ", format_number(E.fit.stderr_slope, 2), ", expected ", format_number(E.expected, 3),
               " (q + 1 for an estimate of order q = ", std::to_string(q), ") within ",
               format_number(kEstimatorTolerance, 2));
  return E;
}

std::string impossible_counts(const Counters& c) {
  if (c.accepted_steps == 0) return "0 accepted steps over the span (a run that moved took at least one)";
  if (c.rhs_evaluations < c.accepted_steps + c.rejected_steps)
    return cat(std::to_string(c.rhs_evaluations), " right-hand sides for ", std::to_string(c.accepted_steps + c.rejected_steps),
               " attempted steps (every step, accepted or not, evaluates the right-hand side at least once)");
  if (c.shortened_steps > c.accepted_steps)
    return cat(std::to_string(c.shortened_steps), " shortened steps of ", std::to_string(c.accepted_steps), " accepted");
  return {};
}

void check_tolerance_ladder(const ToleranceLadder& L) {
  if (!(L.tol0 >= kMinTol0 && L.tol0 <= kMaxTol0) || L.levels < kMinToleranceLevels || L.levels > kMaxToleranceLevels)
    throw InputError(cat("the tolerance ladder's tol0 must be in [", message_number(kMinTol0), ", ", message_number(kMaxTol0),
                         "] and its levels in [", std::to_string(kMinToleranceLevels), ", ",
                         std::to_string(kMaxToleranceLevels), "] (got ", message_number(L.tol0), " and ",
                         std::to_string(L.levels), "; --tol0, --tol-levels; docs/adaptive.md)"));
}

ToleranceLadder user_tolerance_ladder(std::optional<double> tol0, std::optional<int> levels) {
  ToleranceLadder L;
  if (tol0) L.tol0 = *tol0;
  if (levels) L.levels = *levels;
  check_tolerance_ladder(L);
  return L;
}

std::optional<ToleranceLadder> adaptive_tolerance_ladder(bool adaptive, std::optional<double> tol0, std::optional<int> levels) {
  if (adaptive) return user_tolerance_ladder(tol0, levels);
  if (tol0 || levels)
    throw InputError("a tolerance ladder (--tol0, --tol-levels; Python: tol0, tol_levels) describes an adaptive scheme's runs: "
                     "give --adaptive (Python: adaptive=True)");
  return std::nullopt;
}

void require_ladder_tolerances(const SchemeEntry& s) {
  if (!s.info->adaptive) return;
  for (const SettingInfo* k : {&kAbsTolerance, &kRelTolerance})
    if (s.settings.values.count(k->name))
      throw InputError(cat("--set ", std::string(s.info->name), ".", std::string(k->name),
                           ": the tolerance ladder sets an adaptive scheme's tolerances at every level (--tol0, "
                           "--tol-levels choose the ladder); a value given here would not be used (`simulate` runs one "
                           "tolerance)"));
}

ToleranceStudy tolerance_study(const Problem& p, const SchemeEntry& s, const ReferenceSolution& ref,
                               const ToleranceLadder& L, std::vector<std::pair<std::string, MeasureResult>>* measures) {
  if (!s.info->adaptive)
    throw InputError(cat("'", std::string(s.info->name), "' chooses no steps of its own: it is judged on the step ladder"));
  require_ladder_tolerances(s);
  check_tolerance_ladder(L);
  if (ref.times.size() < 2) throw std::logic_error("tolerance_study: a reference on a grid of at least two times");
  ToleranceStudy st;
  st.integrator = std::string(s.info->name);
  st.problem = p.name;
  st.translating = p.translating();
  st.span = ref.times.back() - ref.times.front();
  st.tol0 = L.tol0;
  st.expected_slope = expected_proportionality(*s.info);
  st.repetitions = std::max(1, L.repetitions);
  const std::size_t stride = ToleranceLadder::stride(ref.times.size() - 1, L.max_intervals);
  st.output_intervals = (ref.times.size() - 1) / stride;
  std::vector<double> lt, le, lw, ls;  // log10 tol, judged error, omega error, accepted steps
  std::vector<LevelRun> runs;         // kept for the measures of the pair
  const double floor = reference_floor(ref, stride, st.translating, unit_roundoff(s.info->precision));
  const OutputGridReference out = on_output_grid(ref, stride);
  std::optional<OutputGridReference> dense;
  if (s.info->dense_output) {
    dense = on_output_grid(ref, ToleranceLadder::stride(ref.times.size() - 1, kDenseIntervals));
    st.dense_intervals = std::size_t(dense->grid.m);
  }
  for (int k = 0; k < L.levels; ++k) {
    LevelRun* keep = measures != nullptr ? &runs.emplace_back() : nullptr;
    ToleranceLevel lv = run_tolerance_level(p, s, out, L.tol(k), std::max(1, L.repetitions), floor, keep);
    if (dense && lv.ok) dense_errors(lv, p, s, *dense);
    if (lv.ok) st.rejected_fraction = std::isnan(st.rejected_fraction) ? lv.rejected_fraction
                                                                       : std::max(st.rejected_fraction, lv.rejected_fraction);
    if (lv.above_floor && !lv.grid_bound) {
      lt.push_back(std::log10(lv.tol));
      le.push_back(std::log10(judged_error(lv)));
      lw.push_back(std::log10(std::max(lv.error("omega_error_max"), 1e-300)));
      ls.push_back(std::log10(double(std::max<std::uint64_t>(lv.counters.accepted_steps, 1))));
      const double ratio = judged_error(lv) / lv.tol;
      st.ratio_min = std::isnan(st.ratio_min) ? ratio : std::min(st.ratio_min, ratio);
      st.ratio_max = std::isnan(st.ratio_max) ? ratio : std::max(st.ratio_max, ratio);
    }
    st.levels.push_back(std::move(lv));
  }
  judge_proportionality(st, *s.info, lt, le, lw, ls);
  st.estimator = estimator_order(p, s, out.grid.h0);
  if (measures != nullptr)
    *measures = measure_pair({p, s, runs, ref, [&](std::size_t k) {
                                const auto integ = s.make(p, settings_at(s, L.tol(int(k))));
                                return run_level(*integ, p, output_plan(out));
                              }});
  bool all_ran = true;
  for (const ToleranceLevel& lv : st.levels) all_ran = all_ran && lv.ok;
  if (!std::isnan(st.rejected_fraction)) {
    st.rejection_verdict = judge_at_most(metric_defs::rejected_steps, st.rejected_fraction);
    st.rejection_note = cat("largest rejected fraction over the levels ", format_number(st.rejected_fraction, 3),
                            " (allowed ", format_number(kMaxRejectedFraction, 3), ")");
  }
  if (!all_ran) {
    for (const ToleranceLevel& lv : st.levels)
      if (!lv.ok) {
        st.proportionality_note += cat("; tol ", format_number(lv.tol, 3), " broke down: ", lv.reason);
        break;
      }
  }
  return st;
}

}  // namespace rigidbench
