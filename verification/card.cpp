#include "card.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "../core/cancel.hpp"
#include "../core/hash.hpp"
#include "../core/so3.hpp"
#include "../integrators/integrate.hpp"
#include "../problems/catalogue.hpp"
#include "../reference/analytic.hpp"
#include "suite.hpp"

namespace rigidbench {

namespace {

/// A relative error this small is the run's round-off, not a trend: 1e-12 in double, the same number
/// of ulps (~4 500) of a single-precision scheme's arithmetic (SchemeInfo::precision), 5.4e-4.
double roundoff_of(double eps) { return 1e-12 / kEps * eps; }

// The final state of N steps of h from p's initial state; the outcome says whether it completed.
IntegrationOutcome final_state(const Problem& p, const SchemeEntry& s, double h, std::int64_t N, State& out) {
  auto integ = s.make(p);
  integ->reset(p.initial, p.t0);
  State x = p.initial;
  out = p.initial;
  return integrate(*integ, FixedSteps{p.t0, h, N}, ObservationPlan{.every = 0, .last = true}, x,
                   [&](const Observation&, const State& xo) { out = xo; });
}

// The slope of log e against log h over the errors above round-off (NaN with fewer than two).
double loglog_slope(const std::vector<double>& h, const std::vector<double>& e, double roundoff) {
  std::vector<double> x, y;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (e[k] > roundoff) x.push_back(std::log(h[k])), y.push_back(std::log(e[k]));
  return x.size() >= 2 ? fit_line(x, y).slope : kNaN;
}

bool has_intermediate_axis(const Vec3& J) {
  const double tol = 1e-9 * J(2);
  return J(1) - J(0) > tol && J(2) - J(1) > tol;
}

double omega_norm(const Problem& p) { return (p.initial.body().R * p.initial.body().W).norm(); }

}  // namespace

std::int64_t probe_steps(double span, double omega, double h_omega, std::int64_t at_least, const char* probe) {
  const double n = std::round(span * omega / h_omega);
  if (!(n >= double(at_least)))
    throw InputError(cat("card: the ", probe, " at h|omega| = ", format_number(h_omega, 3), " would take ", format_number(n, 3),
                         " step(s) over its ", format_number(span, 4), " s (at least ", std::to_string(at_least),
                         " are needed: a longer span or a smaller h|omega|)"));
  if (n > double(kMaxProbeSteps))
    throw InputError(cat("card: the ", probe, " at h|omega| = ", format_number(h_omega, 3), " would take ", format_number(n, 3),
                         " steps (at most ", std::to_string(kMaxProbeSteps), "): a larger h|omega| or a shorter span"));
  return std::int64_t(n);
}

// ---- the gyroscopic term ----

std::string gyroscopic_verdict(GyroscopicProbe& g) {
  const double sep = g.separation, roundoff = roundoff_of(g.eps);
  const auto converges = [&](const std::vector<double>& e, double slope) {
    const double last = e.back();
    return last <= 0.1 * sep && (last <= roundoff || slope >= 0.5);
  };
  g.slope_exact = loglog_slope(g.h, g.error_exact, roundoff);
  g.slope_constant = loglog_slope(g.h, g.error_constant, roundoff);
  const auto show = [](double x) { return format_or_dash(x, 3); };
  const std::string numbers = cat("at h = ", show(g.h.back()), ": |W - W_exact| / |W0| = ", show(g.error_exact.back()),
                                  " (slope ", show(g.slope_exact), "), |W - W0| / |W0| = ", show(g.error_constant.back()),
                                  " (slope ", show(g.slope_constant), "); the two flows end ", show(sep), " apart");
  if (!(sep > 1e-3)) {
    g.evidence = cat("not decided: the exact flow barely moves W on this span (", numbers, ")");
    return g.verdict = "undefined";
  }
  if (converges(g.error_exact, g.slope_exact)) {
    g.evidence = cat("converges to the torque-free flow with the term: ", numbers);
    return g.verdict = "present";
  }
  if (converges(g.error_constant, g.slope_constant)) {
    g.evidence = cat("W stays at its initial value, the flow of J W' = 0 without omega x J omega: ", numbers);
    return g.verdict = "absent";
  }
  g.evidence = cat("converges to neither the flow with the term nor the one without (a term of the wrong sign or size): ",
                   numbers);
  return g.verdict = "wrong";
}

GyroscopicProbe probe_gyroscopic(const Problem& p, const SchemeEntry& s, double t_span, double h0, int levels) {
  GyroscopicProbe g;
  const double T = p.t0 + t_span;
  const Vec3 W0 = p.initial.body().W;
  const Vec3 W_exact = torque_free_analytic(p, {p.t0, T}).states.back().body().W;
  g.separation = (W_exact - W0).norm() / W0.norm();
  g.eps = unit_roundoff(s.info->precision);
  for (int k = 0; k < levels; ++k) {
    const double h = h0 / double(1 << k);
    const auto N = std::int64_t(std::llround(t_span / h));
    State x;
    const IntegrationOutcome r = final_state(p, s, t_span / double(N), N, x);
    if (!r.ok) {
      g.evidence = cat("a run broke down at h = ", format_number(h, 3), ": ", r.reason);
      g.verdict = "undefined";
      return g;
    }
    g.h.push_back(t_span / double(N));
    g.error_exact.push_back((x.body().W - W_exact).norm() / W0.norm());
    g.error_constant.push_back((x.body().W - W0).norm() / W0.norm());
  }
  gyroscopic_verdict(g);
  return g;
}

// ---- invariants against h|omega| ----

double separatrix_distance(const Problem& p, const State& x) {
  Mat3 Q;
  Vec3 J;
  principal_axes(p.inertia(), Q, J);
  if (!has_intermediate_axis(J)) return kNaN;
  const Vec3 W = Q * x.body().W;  // principal components
  const double twoE = W.dot(J.asDiagonal() * W);
  const double L2 = (J.asDiagonal() * W).squaredNorm();
  const double D = L2 / twoE;  // J1 <= D <= J3; J2 on the separatrix
  return D >= J(1) ? (D - J(1)) / (J(2) - J(1)) : (J(1) - D) / (J(1) - J(0));
}

namespace {

// The energy's behaviour at one step size, louder names for a drift (docs/card.md). Within the
// problem's threshold for an exact invariant (the one the verification's exact claims are held to) it
// is exact, whatever its growth: rounding that accumulates with a bias over 10^5 steps.
void classify_point(SweepPoint& pt, double exact_threshold) {
  const InvariantGrowth& e = pt.invariants.front();
  pt.energy_amplitude = e.max_deviation.empty() ? kNaN : e.max_deviation.back();
  pt.energy_rate = e.drift_rate;
  if (pt.status != "ok") return;
  const std::string& b = e.behaviour;
  // A drift that has used up the energy stops growing (the running maximum saturates near 1): the
  // exponent then reads "bounded". A deviation that ends most of the way to its maximum on one side,
  // and is a tenth of the energy, is that drift.
  const bool saturated = pt.energy_amplitude >= 0.1 && std::abs(e.final_mean) >= 0.5 * pt.energy_amplitude;
  if (pt.energy_amplitude <= exact_threshold) pt.energy = "exact";
  else if (b == "linear_drift" || b == "faster_than_linear" || saturated)
    pt.energy = e.final_mean > 0 ? "gaining" : "losing";
  else if (b == "roundoff") pt.energy = "exact";
  else pt.energy = b;  // bounded | random_walk | undefined
}

int loudness(const std::string& energy) {
  for (int i = 0; const char* n : {"exact", "bounded", "random_walk", "losing", "gaining"}) {
    if (energy == n) return i;
    ++i;
  }
  return -1;
}

}  // namespace

EnergySweep sweep_energy(const Problem& p, const SchemeEntry& s, const std::vector<double>& h_omega, double t_span) {
  EnergySweep sw;
  sw.problem = p.name;
  sw.omega = omega_norm(p);
  sw.t_span = t_span;
  // The energy, |L| and the spatial momentum's components, as the problem declares them.
  std::vector<std::size_t> which;
  for (InvariantKind kind : {InvariantKind::energy, InvariantKind::casimir, InvariantKind::momentum})
    for (std::size_t i = 0; i < p.invariants().size(); ++i)
      if (p.invariants()[i].kind == kind && !std::isfinite(p.invariants()[i].from_time)) which.push_back(i);
  for (double ho : h_omega) probe_steps(t_span, sw.omega, ho, 100, "energy sweep");  // every point, before any runs
  int worst = -1;
  for (double ho : h_omega) {
    if (cancel_requested()) break;
    SweepPoint pt;
    pt.h_omega = ho;
    pt.steps = probe_steps(t_span, sw.omega, ho, 100, "energy sweep");
    pt.h = t_span / double(pt.steps);
    State last = p.initial;
    LongTimeRun run = long_time_run(p, s, pt.h, pt.steps, which, [&](const State& x) { last = x; });
    pt.status = run.status;
    pt.reason = run.reason;
    pt.invariants = std::move(run.invariants);
    pt.sigma_start = separatrix_distance(p, p.initial);
    pt.sigma_end = separatrix_distance(p, last);
    pt.toward_intermediate = pt.sigma_end < 0.9 * pt.sigma_start;
    classify_point(pt, p.verification.exact_threshold);
    if (pt.toward_intermediate && !std::isfinite(sw.toward_from_h_omega)) sw.toward_from_h_omega = ho;
    if (pt.status != "ok" && !std::isfinite(sw.breakdown_from_h_omega)) sw.breakdown_from_h_omega = ho;
    if (loudness(pt.energy) > worst) {
      worst = loudness(pt.energy);
      sw.summary = pt.energy;
      sw.summary_h_omega = pt.h_omega;
      sw.summary_amplitude = pt.energy_amplitude;
    }
    sw.points.push_back(std::move(pt));
  }
  return sw;
}

// ---- the Dzhanibekov flip ----

namespace {

// The times where the intermediate principal component of W changes sign along a run observed at
// every state, by linear interpolation between the two states around the change.
struct CrossingCounter {
  Vec3 axis;
  double t_prev = kNaN, w_prev = kNaN;
  std::vector<double> times;
  void see(double t, const State& x) {
    const double w = axis.dot(x.body().W);
    if (std::isfinite(w_prev) && ((w_prev < 0 && w >= 0) || (w_prev > 0 && w <= 0)))
      times.push_back(t_prev + (t - t_prev) * w_prev / (w_prev - w));
    t_prev = t, w_prev = w;
  }
};

}  // namespace

FlipStudy study_flips(const Problem& p, const SchemeEntry& s, const std::vector<double>& h_omega, int intervals) {
  FlipStudy f;
  f.problem = p.name;
  f.exact_interval = torque_free_flip_interval(p);
  if (!std::isfinite(f.exact_interval)) return f;
  f.t_span = intervals * f.exact_interval;
  Mat3 Q;
  Vec3 J;
  principal_axes(p.inertia(), Q, J);
  const Vec3 axis = Q.row(1).transpose();  // the intermediate principal axis
  // The exact flow's flips on the span, from the closed form on a grid fine enough to see each one.
  const int n_grid = 200 * intervals;
  std::vector<double> grid(n_grid + 1);
  for (int i = 0; i <= n_grid; ++i) grid[i] = p.t0 + f.t_span * double(i) / n_grid;
  grid.back() = p.t0 + f.t_span;
  const AnalyticSolution exact = torque_free_analytic(p, grid);
  CrossingCounter ex{axis, kNaN, kNaN, {}};
  for (int i = 0; i <= n_grid; ++i) ex.see(grid[i], exact.states[i]);
  const double omega = omega_norm(p);
  for (double ho : h_omega) probe_steps(f.t_span, omega, ho, 20, "flip study");
  for (double ho : h_omega) {
    if (cancel_requested()) break;
    FlipPoint pt;
    pt.h_omega = ho;
    const std::int64_t N = probe_steps(f.t_span, omega, ho, 20, "flip study");
    pt.h = f.t_span / double(N);
    pt.flips_expected = int(ex.times.size());
    CrossingCounter seen{axis, kNaN, kNaN, {}};
    seen.see(p.t0, p.initial);
    auto integ = s.make(p);
    integ->reset(p.initial, p.t0);
    State x = p.initial;
    const IntegrationOutcome r = integrate(*integ, FixedSteps{p.t0, pt.h, N}, {.every = 1}, x,
                                           [&](const Observation& o, const State& xo) { seen.see(o.t, xo); });
    if (!r.ok) pt.status = "breakdown", pt.reason = r.reason;
    pt.flips_seen = int(seen.times.size());
    if (seen.times.size() >= 2) {
      pt.interval = (seen.times.back() - seen.times.front()) / double(seen.times.size() - 1);
      pt.interval_error = (pt.interval - f.exact_interval) / f.exact_interval;
    }
    f.points.push_back(std::move(pt));
  }
  return f;
}

// ---- the largest safe step ----

SafeStep search_safe_step(const SafeStepTrial& trial, std::int64_t n0, int observations, double omega, double t_span) {
  SafeStep r;
  r.omega = omega;
  r.t_span = t_span;
  const auto h_omega = [&](std::int64_t n) { return omega * t_span / (double(n) * observations); };
  std::int64_t safe = 0, unsafe = 0;  // n (0: none yet); a larger n is a smaller step
  std::string why;
  const auto run = [&](std::int64_t n) {
    ++r.runs;
    auto failed = trial(n);
    if (failed) why = *failed;
    return !failed;
  };
  if (!run(n0)) {
    r.unsafe_h_omega = h_omega(n0);
    r.limited_by = why;
    return r;
  }
  safe = n0;
  // Doubling the step: halving n.
  while (safe > 1) {
    const std::int64_t n = safe / 2;
    if (run(n)) safe = n;
    else {
      unsafe = n;
      break;
    }
  }
  std::string limited = unsafe ? why : std::string();
  // Bisection (geometric) between the safe and the unsafe n.
  while (unsafe && safe - unsafe > 1 && double(safe) / double(unsafe) > 1.03) {
    const auto mid = std::clamp<std::int64_t>(std::llround(std::sqrt(double(safe) * double(unsafe))), unsafe + 1, safe - 1);
    if (run(mid)) safe = mid;
    else unsafe = mid, limited = why;
  }
  r.safe_h_omega = h_omega(safe);
  if (unsafe) r.unsafe_h_omega = h_omega(unsafe);
  r.limited_by = limited;
  return r;
}

SafeStep find_safe_step(const Problem& p, const SchemeEntry& s, const SafeStepLimits& limits, double min_h_omega) {
  const double T = p.t_end - p.t0, omega = omega_norm(p);
  const int M = limits.observations;
  std::vector<double> times(M + 1);
  for (int i = 0; i <= M; ++i) times[i] = p.t0 + T * double(i) / M;
  times.back() = p.t_end;
  const std::vector<State> ref = torque_free_analytic(p, times).states;
  const double E0 = p.energy(p.initial);
  const SafeStepTrial trial = [&](std::int64_t n) -> std::optional<std::string> {
    const std::int64_t N = n * M;
    double attitude = 0, energy = 0;
    auto integ = s.make(p);
    integ->reset(p.initial, p.t0);
    State x = p.initial;
    const IntegrationOutcome r = integrate(*integ, FixedSteps{p.t0, T / double(N), N}, {.every = 1}, x,
                                           [&](const Observation& o, const State& xo) {
                                             energy = std::max(energy, std::abs(p.energy(xo) - E0) / std::abs(E0));
                                             if (o.steps % n == 0)
                                               attitude = std::max(attitude, so3::angle_between(xo.body().R, ref[std::size_t(o.steps / n)].body().R));
                                           });
    if (!r.ok) return "breakdown";
    if (!(attitude <= limits.attitude)) return "attitude";
    if (!(energy <= limits.energy)) return "energy";
    return std::nullopt;
  };
  const auto n0 = std::max<std::int64_t>(1, std::int64_t(std::ceil(omega * T / (M * min_h_omega))));
  SafeStep r = search_safe_step(trial, n0, M, omega, T);
  r.problem = p.name;
  return r;
}

// ---- determinism ----

std::string run_fingerprint(const Problem& p, const SchemeEntry& s, double h, std::int64_t steps) {
  std::uint64_t f = kFnv1aOffset;
  const bool translating = p.translating();
  std::vector<double> xi(p.initial.bodies.size() * std::size_t(observables_per_body(translating)));
  auto integ = s.make(p);
  integ->reset(p.initial, p.t0);
  State x = p.initial;
  const IntegrationOutcome r = integrate(*integ, FixedSteps{p.t0, h, steps}, {.every = 1}, x,
                                         [&](const Observation&, const State& xo) {
                                           flatten(xo, translating, xi.data());
                                           f = fnv1a(std::string_view(reinterpret_cast<const char*>(xi.data()),
                                                                      xi.size() * sizeof(double)), f);
                                         });
  if (!r.ok) return {};
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(f));
  return hex;
}

Determinism check_determinism(const Problem& p, const SchemeEntry& s, double h, std::int64_t steps) {
  Determinism d;
  d.fingerprint = run_fingerprint(p, s, h, steps);
  if (d.fingerprint.empty()) {
    d.note = "the run broke down: nothing to compare";
    return d;
  }
  d.same_process = run_fingerprint(p, s, h, steps) == d.fingerprint ? "identical" : "differs";
  std::string a, b;
  {
    std::jthread t1([&] { a = run_fingerprint(p, s, h, steps); });
    std::jthread t2([&] { b = run_fingerprint(p, s, h, steps); });
  }
  d.across_threads = a == d.fingerprint && b == d.fingerprint ? "identical" : "differs";
  d.note = cat(std::to_string(steps), " steps of h = ", format_number(h, 3), " on ", p.name, ", every state's bits hashed");
  return d;
}

// ---- the card ----

namespace {

// ns per unit of simulated time at an attitude error of 1e-6 rad: where the ladder's errors cross it
// (log-log interpolation between the two levels around it), else along the fitted slope from the
// nearest level.
void cost_at_accuracy(CardCost& c, const Convergence& a) {
  constexpr double target = 1e-6;
  std::vector<double> h, e;
  for (std::size_t k = 0; k < a.h.size(); ++k)
    if (std::isfinite(a.error[k]) && a.error[k] > 0) h.push_back(a.h[k]), e.push_back(a.error[k]);
  if (h.empty() || !std::isfinite(c.ns_per_step)) {
    c.note = "not measured: no attitude error or no cost on free_body";
    return;
  }
  double h_at = kNaN;
  for (std::size_t k = 0; k + 1 < h.size(); ++k)
    if (e[k] >= target && e[k + 1] <= target && e[k] > e[k + 1]) {
      const double s = std::log(e[k] / e[k + 1]) / std::log(h[k] / h[k + 1]);
      h_at = h[k] * std::pow(target / e[k], 1 / s);
      c.note = "interpolated between two levels of the ladder";
    }
  if (!std::isfinite(h_at) && a.fit.slope > 0.25) {
    const std::size_t k = e.front() < target ? 0 : h.size() - 1;
    h_at = h[k] * std::pow(target / e[k], 1 / a.fit.slope);
    c.note = cat("extrapolated from h = ", format_number(h[k], 3), " with the fitted slope ", format_number(a.fit.slope, 3));
  }
  if (!std::isfinite(h_at)) {
    c.note = "the attitude error does not fall with h: no step reaches 1e-6 rad";
    return;
  }
  c.ns_per_time_at_1e6 = c.ns_per_step / h_at;
}

// The verification's parts of the card: orders, Q_II and checks of each pair; the cost on free_body.
void read_verification(ConformanceCard& card, const SuiteResult& r) {
  for (const PairResult& pr : r.results) {
    if (pr.status == "skipped") continue;
    for (const char* metric : {"attitude_error_max", "omega_error_max"}) {
      const auto it = pr.convergence.find(metric);
      if (it == pr.convergence.end()) continue;
      const Convergence& c = it->second;
      CardOrder o{pr.problem, metric, c.expected, c.fit.slope, c.fit.stderr_slope, c.verdict, kNaN, kNaN};
      for (std::size_t k = 0; k < c.h.size(); ++k)
        if (c.asymptotic[k]) o.h_min = std::fmin(o.h_min, c.h[k]), o.h_max = std::fmax(o.h_max, c.h[k]);
      card.orders.push_back(o);
    }
    const std::vector<PairResult::Check> checks = pr.checks();
    if (pr.q_ii.primary >= 0) {
      // The median at the primary level, with the verdict the pair's check gives (the one the gate and
      // the claims below read, decided at the sample times).
      const QiiLevel& q = pr.q_ii.levels[std::size_t(pr.q_ii.primary)];
      Verdict v = q.verdict;
      for (const PairResult::Check& c : checks)
        if (c.name == "q_ii") v = c.verdict;
      card.q_ii.push_back({pr.problem, pr.q_ii.expected, q.median, q.h, v});
    }
    for (const PairResult::Check& c : checks) card.claims.push_back({pr.problem, c.name, c.verdict, c.evidence, ""});
    if (pr.problem != "free_body") continue;
    card.cost.runtime = to_string(pr.origin);
    card.cost.ns_per_step = pr.cost.ns_per_step;
    card.cost.ratio_to_rk4 = pr.cost.ratio_to_rk4;
    if (const auto it = pr.convergence.find("attitude_error_max"); it != pr.convergence.end()) cost_at_accuracy(card.cost, it->second);
  }
}

// Claims weaker than what the sweep measured: an invariant the scheme claims bounded (or not at all)
// that stayed exact (round-off, or within the problem's threshold for an exact claim) at every step size
// of the sweep.
void compare_claims(ConformanceCard& card, const SchemeInfo& info, double exact_threshold) {
  const auto exact_everywhere = [&](const std::string& prefix) {
    bool any = false;
    for (const SweepPoint& pt : card.energy.points) {
      if (pt.status != "ok") return false;
      for (const InvariantGrowth& g : pt.invariants)
        if (g.name.rfind(prefix, 0) == 0) {
          any = true;
          if (g.behaviour != "roundoff" && !(!g.max_deviation.empty() && g.max_deviation.back() <= exact_threshold)) return false;
        }
    }
    return any;
  };
  const struct {
    const char* prefix;
    Claim claim;
    const char* what;
  } rows[] = {{"energy", info.claims.energy, "energy"},
              {"casimir", info.claims.casimir, "|L| (the body momentum's norm)"},
              {"momentum", info.claims.momentum, "the spatial angular momentum"}};
  for (const auto& row : rows)
    if (row.claim != Claim::exact && exact_everywhere(row.prefix))
      card.beyond_claims.push_back(cat(row.what, ": claimed ", to_string(row.claim), ", exact (round-off or within ", format_number(exact_threshold, 2), ") at every h|omega| of the sweep on ",
                                       card.energy.problem));
}

}  // namespace

void check_card_request(CardRequest& req) {
  if (req.h_omega.empty()) throw InputError("card: the sweep needs at least one h|omega|");
  std::sort(req.h_omega.begin(), req.h_omega.end());
  req.h_omega.erase(std::unique(req.h_omega.begin(), req.h_omega.end()), req.h_omega.end());
  for (double x : req.h_omega)
    if (!(x > 0 && x <= 2)) throw InputError(cat("card: h|omega| = ", format_number(x, 6), " is not in (0, 2]"));
  if (!(req.sweep_span > 0 && req.sweep_span <= 1e4))
    throw InputError(cat("card: the sweep's span must be in (0, 1e4] s (got ", format_number(req.sweep_span, 6), ")"));
  if (req.flip_intervals < 2 || req.flip_intervals > 100)
    throw InputError("card: flip_intervals must be in 2 .. 100 (an interval is measured between two flips)");
  if (!(req.safe_min_h_omega > 0 && req.safe_min_h_omega <= 1))
    throw InputError(cat("card: the safe-step search must start at h|omega| in (0, 1] (got ", format_number(req.safe_min_h_omega, 6), ")"));
  if (req.determinism_steps < 1) throw InputError("card: the determinism run needs at least one step");
}

namespace {

// The probes at fixed steps (after the verification), each through the driver on the torque-free
// problems; a stop request (Ctrl-C in Python) ends them between probes.
void run_probes(ConformanceCard& card, const SchemeEntry& s, const CardRequest& req) {
  const Problem free_body = catalogue_problem("free_body"), dzhanibekov = catalogue_problem("dzhanibekov");
  const SchemeInfo& info = *s.info;
  if (std::string why = not_applicable(info, free_body); !why.empty() || info.adaptive) {
    card.status = "not_applicable";
    card.reason = info.adaptive ? "an adaptive scheme chooses its own steps: the probes at a fixed h|omega| do not apply "
                                  "(its tolerance ladder is in the verification above)"
                                : why;
    return;
  }
  // Every run's length checked before the first runs (a bad sweep is refused, not found at its end).
  const double tau = torque_free_flip_interval(dzhanibekov);
  for (double ho : req.h_omega) {
    probe_steps(req.sweep_span, omega_norm(free_body), ho, 100, "energy sweep");
    probe_steps(req.flip_intervals * tau, omega_norm(dzhanibekov), ho, 20, "flip study");
  }
  // 2 s of free_body (W turns by a third of its size) at h|omega| from 0.0275 down by halves.
  card.gyroscopic = probe_gyroscopic(free_body, s, 2.0, 0.02, 4);
  if (!cancel_requested()) card.energy = sweep_energy(free_body, s, req.h_omega, req.sweep_span);
  if (!cancel_requested()) card.flip = study_flips(dzhanibekov, s, req.h_omega, req.flip_intervals);
  if (!cancel_requested()) card.safe_step = find_safe_step(free_body, s, SafeStepLimits{}, req.safe_min_h_omega);
  if (!cancel_requested()) card.determinism = check_determinism(free_body, s, 0.01, req.determinism_steps);
  compare_claims(card, info, free_body.verification.exact_threshold);
  // A scheme that breaks down wherever it runs (a class that raises, a step that always fails) has no
  // card to read: said as such, with the first reason, rather than a card of "undefined" rows.
  const bool sweep_broke = !card.energy.points.empty() && std::all_of(card.energy.points.begin(), card.energy.points.end(),
                                                                       [](const SweepPoint& p) { return p.status != "ok"; });
  if (card.gyroscopic.h.empty() && sweep_broke) {
    card.status = "breakdown";
    card.reason = card.gyroscopic.evidence;
  }
}

}  // namespace

ConformanceCard make_card(const SchemeEntry& s, CardRequest req) {
  check_card_request(req);
  const auto start = std::chrono::steady_clock::now();
  ConformanceCard card;
  const SchemeInfo& info = *s.info;
  card.scheme = std::string(info.name);
  card.title = std::string(info.title);
  card.source = std::string(info.source);
  card.kind = to_string(info.kind);
  card.order = info.order;
  card.settings.insert(s.settings.values.begin(), s.settings.values.end());
  if (req.verification) {
    SuiteRequest q;
    q.schemes = {s};
    q.problems = {"free_body", "dzhanibekov"};
    q.progress = false;
    q.jobs = req.jobs;
    q.measure_cost = req.measure_cost;
    q.long_time_steps = 0;
    read_verification(card, run_suite(q));
  } else {
    card.cost.note = "not measured: the card was made without the verification";
  }
  if (req.known)
    for (CardClaim& k : card.claims)
      if (k.verdict == Verdict::fail)
        if (const ExpectedFailure* e = req.known->find(card.scheme, k.problem, k.check)) k.known = e->reason;
  if (!cancel_requested()) run_probes(card, s, req);
  card.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return card;
}

}  // namespace rigidbench
