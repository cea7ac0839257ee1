#include "runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <sstream>

#include "../core/so3.hpp"
#include "error_metrics/error_metric.hpp"
#include "measures/measure.hpp"
#include "memory.hpp"
#include "metric_table.hpp"
#include "verdicts.hpp"

namespace rigidbench {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

std::vector<double> Ladder::obs_times() const {
  std::vector<double> t(std::size_t(m) + 1);
  for (std::int64_t j = 0; j <= m; ++j) t[std::size_t(j)] = t0 + double(j) * obs_dt();
  return t;
}

OutputGrid adaptive_output_grid(const Problem& p, const ToleranceLadder& T, const LadderRequest& lr) {
  const Ladder L = make_ladder(p, 2, lr);
  const std::int64_t d = std::int64_t(ToleranceLadder::stride(std::size_t(L.m), T.max_intervals));
  return {L.t0, L.obs_dt() * double(d), L.m / d};
}

Ladder make_ladder(const Problem& p, int order, const LadderRequest& req) {
  Ladder L;
  L.t0 = p.t0;
  L.h0 = req.h0 ? *req.h0 : (order == 1 && p.verification.h0_order1 ? *p.verification.h0_order1 : p.verification.h0);
  L.levels = req.levels ? *req.levels : p.verification.levels;
  L.sequential = !req.levels && !req.fixed;
  if (!std::isfinite(L.h0) || L.h0 <= 0) throw InputError("step h0 must be positive and finite (got " + message_number(L.h0) + ")");
  if (L.levels < 3 || L.levels > 24)
    throw InputError("levels must be in [3, 24] (got " + std::to_string(L.levels) + ")");
  const double span = p.verification.t_end.value_or(p.t_end) - p.t0;  // the convergence study's span
  const double n = span / L.h0;
  if (!(n < 1e12)) throw InputError("step h0 = " + message_number(L.h0) + " is too small for the span " + message_number(span));
  L.n0 = std::llround(n);
  if (L.n0 < 1 || std::abs(double(L.n0) * L.h0 - span) > 1e-9 * span)
    throw InputError("the span t_end - t0 = " + message_number(span) + " is not an integer multiple of h0 = " + message_number(L.h0) +
                     " (the ladder h0 2^-k must land on t_end)");
  if (L.n0 > (std::int64_t(1) << 31) >> (L.levels - 1))
    throw InputError("ladder too fine: the finest level would take " + message_number(double(L.n0) * std::pow(2.0, L.levels - 1)) +
                     " steps (limit 2^31)");
  // The grid: at most 2^15 intervals, and one pair's level runs and reference grid within
  // kGridMemoryBudget (many bodies: docs/decisions.md, "Memory of a run"), as far as halving the
  // intervals can go (each must hold a whole number of coarsest steps).
  while (((L.n0 >> L.obs_shift) > 32768 || pair_grid_bytes(p, L.levels, L.n0 >> L.obs_shift) > kGridMemoryBudget) &&
         ((L.n0 >> L.obs_shift) & 1) == 0)
    ++L.obs_shift;
  L.m = L.n0 >> L.obs_shift;
  return L;
}

LevelPlan LevelPlan::of(const Ladder& L, int k) { return {FixedSteps{L.t0, L.h(k), L.steps(k)}, L.stride(k), L.m}; }

LevelRun run_level(AnyIntegrator& integ, const Problem& p, const LevelPlan& plan, const LevelProgress* progress) {
  LevelRun r;
  r.h = plan.steps.h;
  r.steps = plan.steps.steps;
  const double t0 = plan.steps.t0;
  const std::int64_t stride = plan.stride, m = plan.intervals;
  const std::size_t ni = p.invariants().size();
  r.xi.resize(m + 1, p.observables());
  r.energy.assign(std::size_t(m) + 1, kNaN);
  for (std::vector<double>* v : {&r.inv_initial, &r.inv_max_dev, &r.inv_first_half, &r.inv_second_half}) v->assign(ni, 0.0);
  r.inv_obs = Eigen::MatrixXd::Constant(m + 1, Eigen::Index(ni), kNaN);
  std::vector<double> inv(ni);
  const bool tr = p.translating();

  State x = p.initial;
  integ.reset(x, t0);
  // I_0 is the invariant of the problem's initial state (not of the scheme's map-in/map-out of it).
  p.evaluate_invariants(p.initial, r.inv_initial.data());
  // Invariants that hold only once the loads vanish (InvariantDef::from_time) are anchored at the
  // first step at or after that time; the grid time t0 + n h is compared with a few ulps of slack
  // so that a from_time on the grid counts as reached.
  const auto& defs = p.invariants();
  std::vector<char> active(ni, 0);
  r.inv_anchor.assign(ni, kNaN);
  for (std::size_t i = 0; i < ni; ++i)
    if (reached(t0, defs[i].from_time)) active[i] = 1, r.inv_anchor[i] = r.inv_initial[i];
  // xi is column-major: flatten into a row buffer, then copy.
  Eigen::RowVectorXd row(p.observables());

  const auto start = Clock::now();
  const std::int64_t half = r.steps / 2;
  // Observation and errors at the observation times (the same times at every level); invariants and
  // the finiteness check at every state the runner reads (docs/metrics.md, Invariants): the
  // observation grid for a compiled scheme, every row for a recorded trajectory that holds every step
  // (AnyIntegrator::read_every). A non-finite state persists, so a compiled scheme's is caught at the
  // next observation time, at most stride - 1 steps later. The initial observation is the state as
  // the scheme mapped it in; its invariants stay I_0.
  const std::int64_t every = integ.read_every(r.h, stride);
  if (every < 1 || stride % every != 0)
    throw std::logic_error(cat("run_level: '", integ.info().name, "' reads every ", std::to_string(every),
                               " steps, not a divisor of the observation stride ", std::to_string(stride)));
  auto invariants = p.invariants_along();  // the observed states follow one another (Problem::invariants_along)
  const IntegrationOutcome run = integrate(
      integ, plan.steps, {.every = every, .initial = true}, x,
      [&](const Observation& o, const State& xo) {
        if (o.steps > 0) invariants(xo, inv.data());
        else inv = r.inv_initial;
        bool finite = true;
        for (std::size_t i = 0; i < ni && o.steps > 0; ++i) {
          if (!active[i]) {
            if (!std::isfinite(inv[i])) finite = false;
            if (!reached(o.t, defs[i].from_time)) continue;
            active[i] = 1, r.inv_anchor[i] = inv[i];
          }
          const double d = std::abs(inv[i] - r.inv_anchor[i]);
          if (!std::isfinite(d)) finite = false;
          r.inv_max_dev[i] = std::max(r.inv_max_dev[i], d);
          double& half_max = o.steps <= half ? r.inv_first_half[i] : r.inv_second_half[i];
          half_max = std::max(half_max, d);
        }
        if (!finite) return StepStatus::breakdown(non_finite_at(o));
        if (o.steps % stride != 0) return StepStatus::success();
        const Eigen::Index j = Eigen::Index(o.steps / stride);
        flatten(xo, tr, row.data());
        r.xi.row(j) = row;
        r.energy[std::size_t(j)] = p.energy(xo);
        for (std::size_t i = 0; i < ni; ++i) r.inv_obs(j, Eigen::Index(i)) = inv[i];
        if (progress != nullptr) (*progress)(o.steps, r.steps);
        return StepStatus::success();
      });
  r.ok = run.ok;
  r.reason = run.reason;
  r.cause = run.cause;
  r.failed_at = run.ok ? kNaN : run.failed_at;
  r.seconds = since(start);
  r.counters = integ.counters();
  return r;
}

namespace {
std::string num3(double x) { return std::isfinite(x) ? format_number(x, 3) : std::string("-"); }
std::string order_evidence(const Convergence& c) {
  char slope[32];
  std::snprintf(slope, sizeof slope, "%.2f", c.fit.slope);  // the console's column: 1e-15 is 0.00
  return cat("slope ", std::isfinite(c.fit.slope) ? slope : "-", c.at_least ? ", expected at least " : ", expected ", num3(c.expected));
}
/// The level the verdict was decided on: its drift against its threshold (an exact claim), its growth
/// exponent (a bounded one).
std::string invariant_evidence(const InvariantResult& i) {
  const std::size_t k = std::size_t(i.judged_level);
  if (i.claim == Claim::bounded && i.judged_level >= 0 && k < i.growth_by_level.size())
    return cat("growth exponent ", num3(i.growth_by_level[k].slope), " at level ", std::to_string(k), ", bounded below 0.5");
  const double d = i.judged_level >= 0 && k < i.drift_by_level.size() ? i.drift_by_level[k] : i.drift;
  return cat("drift ", num3(d), i.judged_level >= 0 ? cat(" at level ", std::to_string(k)) : std::string(),
             i.verdict == Verdict::fail ? " > " : " <= ", num3(i.threshold),
             i.note.find("falls as h falls") != std::string::npos ? ", and falling as h falls" : "");
}

/// The sample time furthest from 2^p, which decides the verdict (every sample must be within the band).
std::string qii_evidence(const QiiResult& q, const QiiLevel& l) {
  double worst = -1, value = kNaN, t = kNaN;
  for (std::size_t j = 0; j < l.sample_value.size() && j < l.sample_t.size(); ++j) {
    const double dev = std::isfinite(l.sample_value[j]) ? std::abs(l.sample_value[j] / q.expected - 1) : 1e300;
    if (dev > worst) worst = dev, value = l.sample_value[j], t = l.sample_t[j];
  }
  if (worst < 0) return cat(num3(l.median), " (median), expected ", num3(q.expected), " at h = ", num3(l.h));
  return cat(std::isfinite(value) ? num3(value) : std::string("undefined"), " at t = ", num3(t), ", expected ",
             num3(q.expected), " at h = ", num3(l.h));
}
}  // namespace

std::vector<PairResult::Check> PairResult::checks() const {
  std::vector<Check> out;
  if (status == "skipped") return out;
  const auto add = [&out](std::string name, Verdict v, std::string evidence) {
    out.push_back({std::move(name), v == Verdict::fail, v, std::move(evidence)});
  };
  add("status", status == "breakdown" || status == "failed" ? Verdict::fail : Verdict::pass, status == "ok" ? "" : reason);
  for (const auto& [k, c] : convergence)
    if (c.gating) add(k, c.verdict, order_evidence(c));
  for (const QiiResult* q : {&q_ii, &q_ii_full}) {
    const char* name = q == &q_ii ? "q_ii" : "q_ii_full";
    if (find_metric(name)->gating && q->primary >= 0) {
      const QiiLevel& l = q->levels[std::size_t(q->primary)];
      add(name, l.verdict, qii_evidence(*q, l));
    }
  }
  for (const auto& i : invariants)
    if (i.claim != Claim::none) add("invariant:" + i.name, i.verdict, invariant_evidence(i));
  for (const auto& [name, m] : measures)
    if (const MetricDef* d = find_metric(name); d != nullptr && d->gating) add(name, m.verdict, num3(m.value));
  if (structure)
    for (const StructureCheck* c : {&structure->symmetric, &structure->symplectic})
      if (c->claimed && c->observed != Observed::not_checked)
        add("structure:" + c->property, c->verdict, cat("claimed, observed ", to_string(c->observed)));
  if (tolerance)  // an adaptive scheme: the tolerance ladder's gating rows of the metric table
    for (const MetricDef& m : metric_table())
      if (m.section == MetricSection::tolerance_ladder && m.gating)
        add(std::string(m.name), m.tolerance_verdict(*tolerance),
            m.name == "rejected_steps"
                ? cat("largest fraction ", num3(tolerance->rejected_fraction))
                : cat("slope ", num3(tolerance->proportionality.slope), ", expected ", num3(tolerance->expected_slope)));
  return out;
}

bool PairResult::failed() const {
  for (const Check& c : checks())
    if (c.failed) return true;
  return false;
}

namespace {
/// What every assessment starts from: the pair's names, the scheme's declaration and settings, the
/// ladder and the reference; "skipped" with the reason where the scheme does not apply.
PairResult pair_header(const Problem& p, const SchemeEntry& s, const Ladder& L, const ReferenceSolution& ref) {
  PairResult R;
  R.integrator = std::string(s.info->name);
  R.info = s.info;
  R.scheme_settings = s.settings;
  R.origin = s.origin;
  R.problem = p.name;
  R.ladder = L;
  R.reference = &ref;
  if (std::string why = not_applicable(*s.info, p); !why.empty()) {
    R.status = "skipped";
    R.reason = why;
  }
  return R;
}

/// An invariant's result before its drifts: what it is, the scheme's claim, I_0 (or `anchor`, its
/// value where it starts to hold, when that is known) and the scales it is judged against.
InvariantResult invariant_header(const InvariantDef& d, const Problem& p, const SchemeEntry& s, double initial, double anchor) {
  InvariantResult ir;
  ir.name = d.name;
  ir.kind = to_string(d.kind);
  ir.description = d.description;
  ir.claim = claims_on(*s.info, p).of(d.kind, p.has_potential());
  ir.initial = std::isfinite(anchor) ? anchor : initial;
  // Every invariant is judged against its own size (a component too: a drift of 1e-10 in a
  // component of size 4 is not hidden by its vector's 52); the round-off allowance of a component
  // stays relative to its vector (docs/metrics.md, Invariants).
  ir.scale = std::abs(ir.initial) > 1e-6 * d.natural_scale ? std::abs(ir.initial) : d.natural_scale;
  ir.roundoff_scale = d.component ? std::max(d.natural_scale, ir.scale) : ir.scale;
  if (d.kind == InvariantKind::constraint) ir.scale = ir.roundoff_scale = 1.0;
  ir.unit_roundoff = unit_roundoff(s.info->precision);
  return ir;
}

/// An adaptive scheme's invariants: the drifts at each tolerance, and its claims judged as on the step
/// ladders (judge_invariant_adaptive), so that a claim an adaptive scheme makes is never silently dropped.
void assess_adaptive_invariants(PairResult& R, const Problem& p, const SchemeEntry& s) {
  const std::vector<ToleranceLevel>& levels = R.tolerance->levels;
  const auto& defs = p.invariants();
  std::vector<double> I0(defs.size()), steps;
  p.evaluate_invariants(p.initial, I0.data());
  int finest = -1;
  for (std::size_t k = 0; k < levels.size(); ++k) {
    steps.push_back(double(levels[k].counters.accepted_steps));
    if (levels[k].ok) finest = int(k);
  }
  for (std::size_t i = 0; i < defs.size(); ++i) {
    InvariantResult ir = invariant_header(defs[i], p, s, I0[i], finest >= 0 ? levels[std::size_t(finest)].invariant_anchor[i] : kNaN);
    for (const ToleranceLevel& lv : levels)
      ir.drift_by_level.push_back(lv.ok && i < lv.invariant_max_dev.size() ? lv.invariant_max_dev[i] / ir.scale : kNaN);
    if (finest >= 0) ir.drift = ir.drift_by_level[std::size_t(finest)];
    judge_invariant_adaptive(ir, p, steps);
    R.invariants.push_back(std::move(ir));
  }
}
}  // namespace

PairResult assess_adaptive_pair(const Problem& p, const SchemeEntry& s, const Ladder& L, const ReferenceSolution& ref,
                                const ToleranceLadder& T) {
  const auto start = Clock::now();
  PairResult R = pair_header(p, s, L, ref);
  if (R.status == "skipped") return R;
  R.tolerance = tolerance_study(p, s, ref, T, &R.measures);
  for (const ToleranceLevel& lv : R.tolerance->levels)
    if (!lv.ok) {
      R.status = "breakdown";
      R.reason = cat("at tol = ", format_number(lv.tol, 3), ": ", lv.reason);
      break;
    }
  assess_adaptive_invariants(R, p, s);
  R.cost.source = "adaptive: the cost per unit of simulated time at each tolerance is in tolerance_ladder";
  R.seconds = since(start);
  return R;
}

std::vector<std::pair<std::string, MeasureResult>> measure_pair(const MeasureInputs& in) {
  std::vector<std::pair<std::string, MeasureResult>> out;
  for (const MetricDef& m : metric_table()) {  // each computed by its own file (verification/measures/)
    if (!is_measure(m)) continue;
    if (!m.measure) throw std::logic_error(cat("measure_pair: the measure '", m.name, "' declares no computation"));
    MeasureValue v = m.measure(in);
    out.emplace_back(std::string(m.name), MeasureResult{v.value, judge_measure(m, v.value), std::move(v.note)});
  }
  return out;
}

PairResult verify_pair(const Problem& p, const SchemeEntry& s, const Ladder& L, const ReferenceSolution& ref) {
  std::vector<LevelRun> runs;
  if (not_applicable(*s.info, p).empty())
    for (int k = 0; k < L.levels && ladder_decision(p, s, L, runs, ref).empty(); ++k) {
      auto integ = s.make(p);
      runs.push_back(run_level(*integ, p, L, k));
    }
  return assess_pair(p, s, L, std::move(runs), ref);
}

/// The growth exponent a of D(t) = max over t_j <= t of |I(t_j) - I_anchor| (the running maximum on
/// the observation grid), fitted as log D against log(t - t_a) at kGrowthPoints + 1 log-spaced times
/// over the second half of the run (the last octave; t_a: the first observation from which the
/// invariant holds), with its standard error, as the full suite's long-time study fits its decades
/// (long_time.cpp). The second half alone: a convergence span holds a few periods of the motion, and
/// over earlier octaves D still climbs to the amplitude of a bounded oscillation (fitted over the last
/// four octaves, LGVI's bounded energy error on pendulum3d gave a = 1.77 +- 0.25). NaN with fewer
/// than 3 distinct points above zero. docs/metrics.md, "Invariants" (the bounded rule).
LineFit growth_exponent(const LevelRun& run, std::size_t i, const Ladder& L, double from_time) {
  const Eigen::Index m = run.inv_obs.rows() - 1;
  const double dt = L.obs_dt();
  Eigen::Index ja = 0;
  while (ja <= m && !reached(L.t0 + double(ja) * dt, from_time)) ++ja;
  if (m - ja < 3 || !std::isfinite(run.inv_anchor[i])) return {};
  std::vector<double> D(std::size_t(m - ja + 1), 0.0);
  double running = 0;
  for (Eigen::Index j = ja; j <= m; ++j) {
    const double d = std::abs(run.inv_obs(j, Eigen::Index(i)) - run.inv_anchor[i]);
    if (!std::isfinite(d)) return {};
    running = std::max(running, d);
    D[std::size_t(j - ja)] = running;
  }
  std::vector<double> lx, ly;
  Eigen::Index last = -1;
  for (int q = kGrowthPoints; q >= 0; --q) {  // t - t_a = span 2^(-q/kGrowthPoints): the second half of the run
    const auto j = Eigen::Index(std::floor(double(m - ja) * std::pow(2.0, -double(q) / kGrowthPoints) + 1e-9));
    if (j < 1 || j == last || !(D[std::size_t(j)] > 0)) continue;
    last = j;
    lx.push_back(std::log(double(j) * dt));
    ly.push_back(std::log(D[std::size_t(j)]));
  }
  return lx.size() >= 3 ? fit_line(lx, ly) : LineFit{};
}

namespace {

/// One error metric of the table over the ladder (docs/metrics.md, "Errors against the reference"):
/// its error at every level that ran (NaN where a level broke down), its floor, and per level the
/// rounding a run may accumulate, kRoundoffUlpsPerStep ulps of the metric's scale per step.
ErrorSeries error_series(const ErrorInputs& in, const std::vector<LevelRun>& runs, const ErrorMeasure& e) {
  ErrorSeries s;
  s.error.assign(runs.size(), kNaN);
  for (std::size_t k = 0; k < runs.size(); ++k)
    if (runs[k].ok) s.error[k] = e.level_error(in, runs[k]);
  s.floor = e.floor(in);
  const double scale = e.rounding_scale(in);
  s.rounding.resize(std::size_t(in.L.levels));
  for (std::size_t k = 0; k < s.rounding.size(); ++k)
    s.rounding[k] = kRoundoffUlpsPerStep * in.eps * double(in.L.steps(int(k))) * scale;
  s.eps = in.eps;
  // Most metrics' size is their rounding scale (the same function): not evaluated twice (the omega
  // and H1 scales walk the whole reference grid).
  s.saturation = e.saturation == e.rounding_scale ? scale : e.saturation(in);
  return s;
}

/// The final attitude error of every level that ran split into phase and shape (anatomy.hpp); empty
/// where the problem has no phase axis.
std::optional<ErrorAnatomy> error_anatomy(const ErrorInputs& in, const std::vector<LevelRun>& runs,
                                          const std::vector<double>& h) {
  const auto axis = phase_axis(in.p);
  if (!axis) return std::nullopt;
  const std::size_t nl = runs.size(), M = in.M();
  ErrorAnatomy a{*axis, in.L.t_end(), h, std::vector<double>(nl, kNaN), std::vector<double>(nl, kNaN),
                 std::vector<double>(nl, kNaN)};
  for (std::size_t k = 0; k < nl; ++k) {
    if (!runs[k].ok) continue;
    const Mat3 Rh = error_metric::attitude_at(runs[k].xi, M, 0, in.p.translating());
    const ErrorSplit e = split_attitude_error(a.axis, Rh, in.ref.states[M].body().R);
    a.total[k] = e.total, a.phase[k] = e.phase, a.shape[k] = e.shape;
  }
  return a;
}

/// The finest level that ran to the end, or -1.
int finest_ok(const std::vector<LevelRun>& runs) {
  int finest = -1;
  for (std::size_t k = 0; k < runs.size(); ++k)
    if (runs[k].ok) finest = int(k);
  return finest;
}

/// The invariants' drifts per level and their verdicts (docs/metrics.md, Invariants).
void assess_invariants(PairResult& R, const Problem& p, const SchemeEntry& s, const Ladder& L,
                       const std::vector<LevelRun>& runs, int finest) {
  const std::size_t nl = std::size_t(L.levels);
  const auto& defs = p.invariants();
  for (std::size_t i = 0; i < defs.size(); ++i) {
    // I_0, or for an invariant that holds from a later time its value there (finest level that ran).
    InvariantResult ir = invariant_header(defs[i], p, s, runs[0].inv_initial[i],
                                          finest >= 0 ? runs[std::size_t(finest)].inv_anchor[i] : kNaN);
    for (std::size_t k = 0; k < nl; ++k) {
      ir.drift_by_level.push_back(runs[k].ok ? runs[k].inv_max_dev[i] / ir.scale : kNaN);
      ir.first_half_by_level.push_back(runs[k].ok ? runs[k].inv_first_half[i] / ir.scale : kNaN);
      ir.second_half_by_level.push_back(runs[k].ok ? runs[k].inv_second_half[i] / ir.scale : kNaN);
      ir.growth_by_level.push_back(runs[k].ok ? growth_exponent(runs[k], i, L, defs[i].from_time) : LineFit{});
    }
    if (finest >= 0) {
      const LevelRun& fr = runs[std::size_t(finest)];
      ir.drift = ir.drift_by_level[std::size_t(finest)];
      ir.first_half = fr.inv_first_half[i] / ir.scale;
      ir.second_half = fr.inv_second_half[i] / ir.scale;
    }
    judge_invariant(ir, p, L);
    R.invariants.push_back(std::move(ir));
  }
}

/// Time histories for the plots, on the thinned observation grid.
void fill_history(PairResult& R, const ErrorInputs& in, const std::vector<LevelRun>& runs, int finest) {
  const Problem& p = in.p;
  const Ladder& L = in.L;
  const std::size_t M = std::size_t(L.m);
  const auto& defs = p.invariants();
  const std::size_t thin = std::max<std::size_t>(1, (M + 255) / 256);
  const auto times = L.obs_times();
  if (finest >= 0) {
    History& H = R.history;
    H.level = finest;
    H.h = L.h(finest);
    const LevelRun& fr = runs[std::size_t(finest)];
    for (std::size_t j = 0; j <= M; j += thin) {
      H.t.push_back(times[j]);
      H.attitude_error.push_back(error_metric::worst_attitude_error(in, fr, j));
    }
    for (std::size_t i = 0; i < defs.size(); ++i) {
      std::vector<double> dev;
      for (std::size_t j = 0; j <= M; j += thin)
        dev.push_back((fr.inv_obs(Eigen::Index(j), Eigen::Index(i)) -
                       (std::isfinite(fr.inv_anchor[i]) ? fr.inv_anchor[i] : fr.inv_initial[i])) / R.invariants[i].scale);
      H.invariants.emplace_back(defs[i].name, std::move(dev));
    }
  }
  if (R.q_ii.primary >= 0) {
    const QiiLevel& ql = R.q_ii.levels[std::size_t(R.q_ii.primary)];
    R.history.q_ii_h = ql.h;
    for (std::size_t j = thin; j <= M && j - 1 < ql.series.size(); j += thin) {  // series starts at t_1
      R.history.q_ii_t.push_back(times[j]);
      R.history.q_ii.push_back(ql.series[j - 1]);
    }
  }
}

}  // namespace

namespace {

/// The ladder of the first n levels of L (the same steps and observation grid).
Ladder first_levels(const Ladder& L, std::size_t n) {
  Ladder F = L;
  F.levels = int(n);
  return F;
}

/// The verdict-bearing part of a pair's assessment from the runs of L's levels (every one of them):
/// the levels, every error metric's ladder, Q_II and the invariants (docs/metrics.md). What a
/// sequential ladder's decision reads; assess_pair adds the rest.
PairResult assess_verdicts(const Problem& p, const SchemeEntry& s, const Ladder& L, const std::vector<LevelRun>& runs,
                           const ReferenceSolution& ref) {
  PairResult R = pair_header(p, s, L, ref);
  if (R.status == "skipped") return R;
  if (ref.times.size() != std::size_t(L.m) + 1)
    throw std::logic_error("verify_pair: reference grid does not match the ladder's observation grid");
  if (runs.size() != std::size_t(L.levels)) throw std::logic_error("assess_pair: one run per level of the ladder");
  const int order = s.info->order;
  for (const LevelRun& run : runs) {
    R.h.push_back(run.h);
    R.levels.push_back({run.h, L.steps(int(R.levels.size())), run.ok ? "ok" : "breakdown", run.seconds,
                        run.ok ? std::nullopt : std::optional(LevelBreakdown{run.failed_at, run.cause})});
    if (!run.ok && R.status == "ok") {
      R.status = "breakdown";
      R.reason = run.reason;
    }
  }
  // Every error metric of the table, computed by its own file (verification/error_metrics/).
  const ErrorInputs in{p, L, ref, unit_roundoff(s.info->precision)};
  for (const MetricDef& m : metric_table()) {
    if (!is_error_metric(m)) continue;
    if (!m.error) throw std::logic_error(cat("verify_pair: the error metric '", m.name, "' declares no ErrorMeasure"));
    (m.section == MetricSection::convergence ? R.convergence : R.paper_measures)[std::string(m.name)] =
        judge_order(m, R.h, error_series(in, runs, *m.error), order);
  }
  // ---- second quotient of precision ----
  std::vector<int> all_comps(std::size_t(p.observables()));
  for (int i = 0; i < p.observables(); ++i) all_comps[std::size_t(i)] = i;
  for (const MetricDef& m : metric_table()) {
    if (m.section != MetricSection::q_ii) continue;
    if (m.name == "q_ii")  // the configuration norm of paper 000's tables
      R.q_ii = assess_qii(p, runs, L, order, p.configuration_observables(), {"R (9 director components)"}, in.eps);
    else if (m.name == "q_ii_full")
      R.q_ii_full = assess_qii(p, runs, L, order, all_comps, {"R (9)", "W (3)"}, in.eps);
    else
      throw std::logic_error(cat("verify_pair: no observables declared for the Q_II metric '", m.name, "'"));
  }
  assess_invariants(R, p, s, L, runs, finest_ok(runs));
  return R;
}

/// Whether Q_II is stable: its primary level passes, or fails by far (a quarter of 2^p) or at three
/// triples in a row whose deviation no longer shrinks by 1.5x (assess_qii's pre-asymptotic rule);
/// 'f': the finer triples' differences are at round-off, or none is clear of it.
char qii_state(const QiiResult& q) {
  if (q.primary < 0) return 'o';
  if (std::size_t(q.primary) + 1 != q.levels.size()) return 'f';
  const QiiLevel& pl = q.levels[std::size_t(q.primary)];
  if (pl.verdict == Verdict::pass) return 'd';
  if (pl.verdict != Verdict::fail) return 'o';
  if (pl.max_deviation >= 0.25) return 'd';
  // Three failing triples in a row whose deviation does not shrink: two were not enough where contact
  // makes it noisy (campello_symplectic_euler's W norm on particle_gas failed at two and passed at the third).
  if (q.primary < 2) return 'o';
  for (int k = q.primary - 1; k >= q.primary - 2; --k) {
    const QiiLevel &a = q.levels[std::size_t(k)], &b = q.levels[std::size_t(k + 1)];
    if (a.verdict != Verdict::fail || a.max_deviation >= 1.5 * b.max_deviation) return 'o';
  }
  return 'd';
}

/// Whether a sequential ladder may stop with these runs (the precondition) ...
bool may_stop(const Ladder& L, const std::vector<LevelRun>& runs) {
  return L.sequential && runs.size() >= std::size_t(kMinDecidingLevels) && runs.back().ok;
}

/// ... and, given it, what the verdict-bearing assessment R of the runs says (ladder_decision); L the
/// planned ladder.
std::string decision_of(const PairResult& R, const Problem& p, const Ladder& L) {
  std::string states;
  // The claims: gating error metrics (an informational one, the printed q-error near its floor, would
  // hold a ladder whose claims are settled), Q_II and the claimed invariants.
  for (const auto* section : {&R.convergence, &R.paper_measures})
    for (const auto& [name, c] : *section)
      if (c.gating) states += order_state(c);
  states += qii_state(R.q_ii);
  states += qii_state(R.q_ii_full);
  for (const InvariantResult& ir : R.invariants)
    if (ir.claim == Claim::exact) states += ir.verdict == Verdict::fail || exact_pass_holds(ir, p, L) ? 'd' : 'o';
    else if (ir.claim == Claim::bounded) states += ir.verdict == Verdict::undefined ? 'o' : 'd';
  if (states.find('o') != std::string::npos) return "";
  return states.find('f') != std::string::npos ? "floor" : "decided";
}

}  // namespace

char order_state(const Convergence& c) {
  if (c.error.empty() || !std::isfinite(c.error.back())) return 'o';
  if (!(c.error.back() > c.floor.back())) return 'f';
  const double slope = c.fit.slope, se = c.fit.stderr_slope, tol = kSlopeTolerance;
  if (c.verdict == Verdict::undefined || !std::isfinite(slope) || !std::isfinite(se)) return 'o';
  // Four levels in the asymptotic range, three local slopes that agree: with three, an erratic ladder
  // settled on a wrong slope (campello_symplectic_euler on torus_free: local slopes 1.84, 0.96, 1.51,
  // 1.43, then 1.01).
  if (std::count(c.asymptotic.begin(), c.asymptotic.end(), true) < 4) return 'o';
  // The finest local slope must agree: a fit over few levels whose local slopes still climb toward
  // p (lgvi's q-error on heavy_top: 0.85, 0.57, 0.86, then 0.89, 1.06) is not yet a failure.
  const double last = c.local_slopes.empty() ? kNaN : c.local_slopes.back();
  if (!std::isfinite(last)) return 'o';
  // A failure is not settled on saturated errors, a tenth of the error's own size or more (the
  // metric's ErrorMeasure::saturation; pi for an angle): ode_step on dzhanibekov from h0 = 0.08 errs
  // by 1.6-6 rad at its first four levels (slope 0.05), and its finer levels leave the order
  // undefined, not failed. (An order-0 scheme whose errors are that large then runs its budget.)
  const bool saturated = !(c.error.back() < 0.1 * c.saturation);
  if (c.at_least) {
    const double low = c.expected - tol;
    return (slope - 2 * se >= low && last >= low) || (slope + 2 * se < low && last < low && !saturated) ? 'd' : 'o';
  }
  const double dev = std::abs(slope - c.expected), last_dev = std::abs(last - c.expected);
  return (dev + 2 * se <= tol && last_dev <= tol) || (dev - 2 * se > tol && last_dev > tol && !saturated) ? 'd' : 'o';
}

std::string ladder_decision(const Problem& p, const SchemeEntry& s, const Ladder& L, const std::vector<LevelRun>& runs,
                            const ReferenceSolution& ref) {
  if (!may_stop(L, runs)) return "";
  return decision_of(assess_verdicts(p, s, first_levels(L, runs.size()), runs, ref), p, L);
}

PairResult assess_pair(const Problem& p, const SchemeEntry& s, const Ladder& L, std::vector<LevelRun> runs,
                       const ReferenceSolution& ref) {
  const auto start = Clock::now();
  if (runs.size() > std::size_t(L.levels) || (!L.sequential && runs.size() != std::size_t(L.levels)))
    throw std::logic_error("assess_pair: one run per level of the ladder");
  if (!not_applicable(*s.info, p).empty()) return pair_header(p, s, L, ref);
  const Ladder ran = first_levels(L, runs.size());
  PairResult R = assess_verdicts(p, s, ran, runs, ref);
  R.levels_planned = L.levels;
  if (!L.sequential) R.ladder_stop = "fixed";
  else if (may_stop(L, runs)) R.ladder_stop = decision_of(R, p, L);
  if (R.ladder_stop.empty() && runs.size() == std::size_t(L.levels)) R.ladder_stop = "budget";
  if (R.ladder_stop.empty()) throw std::logic_error("assess_pair: a sequential ladder stopped before its claims were decided");
  double level_seconds = 0;
  for (const LevelRun& run : runs) level_seconds += run.seconds;
  R.structure = assess_structure(p, s, L.h0);
  const ErrorInputs in{p, ran, ref, unit_roundoff(s.info->precision)};
  R.anatomy = error_anatomy(in, runs, R.h);
  R.measures = measure_pair({p, s, runs, ref, [&](std::size_t k) {
                               const auto integ = s.make(p);
                               return run_level(*integ, p, ran, int(k));
                             }});
  fill_history(R, in, runs, finest_ok(runs));
  R.seconds = level_seconds + since(start);  // the pair's work, whether its levels ran together or not
  return R;
}

CostResult measure_cost(const Problem& p, const SchemeEntry& s, double h, int steps, int repetitions) {
  CostResult c;
  c.h = h;
  c.steps = steps;
  c.repetitions = repetitions;
  c.source = s.cost_note;
  c.call_overhead_ns = s.call_overhead_ns;
  c.not_comparable = s.not_comparable;
  if (!not_applicable(*s.info, p).empty()) return c;
  auto integ = s.make(p);
  double best = std::numeric_limits<double>::infinity(), best_exchange = best;
  Counters cnt;
  for (int r = 0; r < repetitions; ++r) {
    integ->reset(p.initial, p.t0);
    // timed_run: an isolated scheme (an engine that may abort) is timed in its child process.
    const TimedRun run = timed_run(*integ, FixedSteps{p.t0, h, steps}, p.bodies.size());
    if (!run.outcome.ok) {  // broke down: no cost figure, and the report says why
      c.breakdown = run.outcome.reason;
      return c;
    }
    best = std::min(best, run.wall_seconds);
    best_exchange = std::min(best_exchange, run.exchange_wall_seconds);  // NaN for a scheme timed here
    cnt = run.counters;
  }
  c.ns_per_step = best / steps * 1e9;
  if (std::isfinite(best_exchange)) c.exchange_ns_per_step = best_exchange / steps * 1e9;
  c.load_evaluations_per_step = double(cnt.load_evaluations) / steps;
  c.newton_iterations_per_step = double(cnt.newton_iterations) / steps;
  return c;
}

}  // namespace rigidbench
