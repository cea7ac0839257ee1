// Paper 001 (Baker & Gonzalez, docs/bibliography.md [BG]): Fig. 1 and the torus of section 4.1 (Figs. 4-7).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "../../core/json_numbers.hpp"
#include "../../integrators/gebhardt_romero.hpp"
#include "../../integrators/registry.hpp"
#include "../../problems/catalogue.hpp"
#include "../../problems/families/body_system.hpp"
#include "papers.hpp"
#include "../runner.hpp"

namespace rigidbench::papers {

using json_numbers::num;
using nlohmann::ordered_json;

/// Paper 001 Fig. 1: pendulum3d, t_N = 10, h = 0.1 2^-k (k = 0..5): E-error slope ~2 for (23), (25)
/// and ~1 for (27); printed q-error slope ~1 (p/2) while the true H1 distance shows p.
void paper001_fig1(PaperSuiteResult& out, bool progress) {
  const Problem p = catalogue_problem("pendulum3d");
  struct Expect {
    const char* scheme;
    double e_slope;
  };
  for (const Expect ex : {Expect{"bg_spatial", 2}, Expect{"bg_newmark", 2}, Expect{"campello_symplectic_euler", 1}}) {
    const SchemeEntry& s = find_scheme(ex.scheme);
    const Ladder L = make_ladder(p, s.info->order, {.h0 = 0.1, .levels = 6});
    const ReferenceSolution ref = kirchhoff_reference(p, L.obs_times());
    const PairResult r = verify_pair(p, s, L, ref);
    const Convergence& e = r.paper_measures.at("E_error");
    const Convergence& q = r.paper_measures.at("q_error");
    const Convergence& h1 = r.convergence.at("h1_distance");
    PaperItem it{"001", "Fig. 1: convergence on the 3-D pendulum", ex.scheme, p.name,
                 cat("E-error slope ~", format_number(ex.e_slope), "; trajectories converge (printed q-error)"),
                 Verdict::undefined, "", {}};
    const bool e_ok = std::abs(e.fit.slope - ex.e_slope) <= kSlopeTolerance;
    const bool h1_ok = std::abs(h1.fit.slope - s.info->order) <= kSlopeTolerance;
    const bool q_ok = std::abs(q.fit.slope - 0.5 * s.info->order) <= kSlopeTolerance;
    it.verdict = r.status == "ok" && e_ok && h1_ok && q_ok ? Verdict::pass : Verdict::fail;
    auto conv = [](const Convergence& c) {
      return ordered_json{{"h", c.h}, {"error", c.error}, {"slope", num(c.fit.slope)}, {"local_slopes", c.local_slopes}};
    };
    it.data = {{"E_error", conv(e)}, {"q_error_as_printed", conv(q)}, {"h1_distance", conv(h1)}};
    it.finding = cat("E-error slope ", format_number(e.fit.slope, 3), ", printed q-error slope ",
                     format_number(q.fit.slope, 3), " (p/2: a difference of squared norms), true H1 slope ",
                     format_number(h1.fit.slope, 3));
    if (progress) std::fprintf(stderr, "paper 001: %-18s %s\n", it.integrator.c_str(), it.finding.c_str());
    out.items.push_back(std::move(it));
  }
}

/// Runs a scheme from the problem's initial state with step h for n steps, calling visit(t, x) after
/// every `every`-th step and the last; returns the breakdown reason ("" when every step succeeded and
/// stayed finite).
template <class Visit>
std::string run_steps(const SchemeEntry& e, const Problem& p, double h, std::int64_t n, std::int64_t every, Visit&& visit) {
  auto integ = e.make(p);
  integ->reset(p.initial, p.t0);
  State x(p.bodies.size());
  const IntegrationOutcome r = integrate(*integ, FixedSteps{p.t0, h, n}, {.every = every, .last = true}, x,
                                         [&](const Observation& o, const State& xo) { visit(o.t, xo); });
  // The findings name h beside this already: the step and its time only.
  return r.ok ? "" : cat("step ", std::to_string(r.steps), " (t = ", format_number(r.t, 6), "): ", r.cause);
}

namespace {

/// What the torus figures share: the two catalogue problems, the impact's initial energy and the
/// angular frequency of its stiffest linear mode.
struct Torus {
  Problem impact, free;
  double E0 = 0, omega_max = 0;
  bool progress = false;
  void say(const PaperItem& it) const {
    if (progress) std::fprintf(stderr, "paper 001: %-26s %s\n", it.integrator.c_str(), it.finding.c_str());
  }
};

/// Fig. 4: the energy by kind over [0, 35] at h = 1e-3 with map (25).
void torus_fig4(const Torus& T, PaperSuiteResult& out) {
  const Problem& impact = T.impact;
  const double E0 = T.E0;
  PaperItem it{"001", "Fig. 4: energy exchange and near-conservation, torus impact (h = 1e-3, t in [0, 35])",
               "bg_newmark", impact.name, "excellent near-conservation of the total energy while it moves between "
               "translational, rotational and strain energies", Verdict::undefined, "", {}};
  ordered_json t = ordered_json::array(), parts = ordered_json::object();
  const char* names[] = {"translational", "rotational", "bending", "axial", "shear", "contact", "wall", "total"};
  std::vector<ordered_json> series(8, ordered_json::array());
  double max_rel = 0;
  const std::string why = run_steps(find_scheme("bg_newmark"), impact, 1e-3, 35000, 100, [&](double tk, const State& x) {
    const SystemEnergy e = system_energy(impact, x);
    const double v[8] = {e.translational, e.rotational, e.bending, e.axial, e.shear, e.contact, e.wall, e.total()};
    t.push_back(tk);
    for (int i = 0; i < 8; ++i) series[std::size_t(i)].push_back(v[i]);
    max_rel = std::max(max_rel, std::abs(e.total() - E0) / E0);
  });
  for (int i = 0; i < 8; ++i) parts[names[i]] = series[std::size_t(i)];
  it.data = {{"h", 1e-3}, {"E0", E0}, {"t", t}, {"energy", parts}, {"max_relative_energy_error", num(max_rel)}};
  it.verdict = why.empty() && max_rel < 1e-2 ? Verdict::pass : Verdict::fail;
  it.finding = why.empty() ? cat("max |E - E0|/E0 = ", format_number(max_rel, 3), " (sampled every 100 steps) over [0, 35]")
                           : "breakdown: " + why;
  T.say(it);
  out.items.push_back(std::move(it));
}

/// One long run of Fig. 5 at step h: its record in the item's data, and the max relative energy
/// error over [0, 250] and [250, 500] (`why` empty when it ran to the end).
struct LongRun {
  ordered_json record;
  double first = 0, second = 0;
  std::string why;
};
LongRun torus_long_run(const Torus& T, const char* scheme, double h) {
  const auto n = std::int64_t(std::llround(500.0 / h));
  const std::int64_t every = std::int64_t(std::llround(0.5 / h));
  ordered_json t = ordered_json::array(), rel = ordered_json::array();
  LongRun r;
  r.why = run_steps(find_scheme(scheme), T.impact, h, n, every, [&](double tk, const State& x) {
    const double e = (T.impact.energy(x) - T.E0) / T.E0;
    t.push_back(tk);
    rel.push_back(e);
    (tk <= 250 ? r.first : r.second) = std::max(tk <= 250 ? r.first : r.second, std::abs(e));
  });
  r.record = {{"h", h},
              {"status", r.why.empty() ? "ok" : "breakdown"},
              {"reason", r.why},
              {"h_omega_max", h * T.omega_max},
              {"max_relative_error_first_half", num(r.first)},
              {"max_relative_error_second_half", num(r.second)},
              {"t", t},
              {"relative_energy_error", rel}};
  return r;
}

/// Fig. 5: long run, h = 1e-2 to t = 500, maps (27) and (25) -- and the same at h = 1e-3.
void torus_fig5(const Torus& T, PaperSuiteResult& out) {
  const double omega_max = T.omega_max;
  for (const char* scheme : {"bg_newmark", "campello_symplectic_euler"}) {
    PaperItem it{"001", "Fig. 5: long-time energy behaviour, torus impact (t in [0, 500])", scheme, T.impact.name,
                 "excellent near-conservation of the total energy over exponentially long times at h = 1e-2",
                 Verdict::undefined, "", {}};
    ordered_json runs = ordered_json::array();
    std::string finding;
    double growth = kNaN;  // max over [250, 500] / max over [0, 250] at h = 1e-3
    for (double h : {1e-2, 1e-3}) {
      const LongRun r = torus_long_run(T, scheme, h);
      runs.push_back(r.record);
      finding += cat(finding.empty() ? "" : "; ", "h = ", format_number(h, 2), " (h omega_max = ",
                     format_number(h * omega_max, 2), "): ",
                     r.why.empty() ? cat("max |E - E0|/E0 ", format_number(r.first, 3), " on [0, 250], ",
                                         format_number(r.second, 3), " on [250, 500]")
                                   : r.why);
      if (h == 1e-3 && r.why.empty()) growth = r.second / r.first;
    }
    // As printed (h = 1e-2) the run is outside the explicit maps' stability limit h < 2/omega_max
    // for the printed stiffnesses: the claim cannot be tested as printed -- shown, not failed (like
    // paper 000's printed loads). The same long run at h = 1e-3 is reported for what it shows.
    it.data = {{"omega_max", omega_max}, {"stability_limit_h", 2 / omega_max}, {"growth_second_half_over_first_at_h_1e-3", num(growth)},
               {"runs", runs}};
    it.verdict = Verdict::undefined;
    it.finding = cat(finding, " (growth x", format_number(growth, 3), "). As printed (h = 1e-2) not reproducible: it exceeds ",
                     "the stability limit 2/omega_max = ", format_number(2 / omega_max, 3),
                     " of the axial bond mode (omega_max = 2 sqrt(K^a/m)/L0 = ", format_number(omega_max, 4), " rad/s)");
    T.say(it);
    out.items.push_back(std::move(it));
  }
}

/// Fig. 6: linear and angular momenta of the free torus to round-off, maps (23) and (25).
void torus_fig6(const Torus& T, PaperSuiteResult& out) {
  const Problem& free = T.free;
  for (const char* scheme : {"bg_spatial", "bg_newmark"}) {
    PaperItem it{"001", "Fig. 6: linear and angular momenta, free torus (h = 1e-3, t in [0, 25])", scheme, free.name,
                 "exact conservation, to machine precision, of linear and angular momenta", Verdict::undefined, "", {}};
    const auto& defs = free.invariants();
    std::vector<double> I0(defs.size()), I(defs.size());
    free.evaluate_invariants(free.initial, I0.data());
    double worst_p = 0, worst_l = 0;
    ordered_json t = ordered_json::array(), dp = ordered_json::array(), dl = ordered_json::array();
    const std::string why = run_steps(find_scheme(scheme), free, 1e-3, 25000, 1, [&](double tk, const State& x) {
      free.evaluate_invariants(x, I.data());
      double p = 0, l = 0;
      for (std::size_t i = 0; i < defs.size(); ++i) {
        const double d = std::abs(I[i] - I0[i]) / defs[i].natural_scale;
        if (defs[i].name.rfind("linear_momentum", 0) == 0) p = std::max(p, d);
        if (defs[i].name.rfind("angular_momentum", 0) == 0) l = std::max(l, d);
      }
      worst_p = std::max(worst_p, p), worst_l = std::max(worst_l, l);
      if (std::llround(tk / 1e-3) % 100 == 0) t.push_back(tk), dp.push_back(p), dl.push_back(l);
    });
    const double thr = free.verification.exact_threshold;
    it.data = {{"h", 1e-3}, {"threshold", thr}, {"t", t}, {"linear_momentum_relative", dp}, {"angular_momentum_relative", dl}};
    it.verdict = why.empty() && worst_p <= thr && worst_l <= thr ? Verdict::pass : Verdict::fail;
    it.finding = why.empty() ? cat("max relative drift over 25 000 steps: linear ", format_number(worst_p, 3), ", angular ",
                                   format_number(worst_l, 3), " (threshold ", format_number(thr, 2), ")")
                             : "breakdown: " + why;
    T.say(it);
    out.items.push_back(std::move(it));
  }
}

/// Fig. 7: the E-error of eqs. 37-38 on [0, 10] for h = 1e-3 2^-k, k = 0..3 (the catalogue ladder).
/// Reference-free: E(0) is known, so the paper's span is kept although the catalogue's convergence
/// span of the impact is [0, 0.5]. The trajectory measures (printed q-error, true H1 distance) need a
/// reference of the impact on [0, 10], and none resolves it: the impact's own flow separates nearby
/// states at ~e^{5.2 t} (docs/decisions.md, "torus_impact's convergence span"), and the Dormand-Prince
/// reference at 1e-13 and its 1e-12 rerun differ by 2.4 in position there. They are not reported
/// rather than fitted to the reference's error.
void torus_fig7(const Torus& T, PaperSuiteResult& out) {
  Problem impact = T.impact;  // the paper's span: [0, 10], its sample times every 2
  impact.verification.t_end = 10.0;
  impact.verification.sample_times = {2, 4, 6, 8, 10};
  const Ladder L = make_ladder(impact, 2);
  const double span = L.t_end() - L.t0;
  struct Expect {
    const char* scheme;
    double e_slope;
  };
  for (const Expect ex : {Expect{"bg_spatial", 2}, Expect{"bg_newmark", 2}, Expect{"campello_symplectic_euler", 1}}) {
    const SchemeEntry& s = find_scheme(ex.scheme);
    std::vector<double> hs, err;
    std::string why;
    for (int k = 0; k < L.levels && why.empty(); ++k) {
      std::vector<double> d2{0.0};
      why = run_steps(s, impact, L.h(k), L.steps(k), L.stride(k), [&](double, const State& x) {
        const double d = impact.energy(x) - T.E0;
        d2.push_back(d * d);
      });
      hs.push_back(L.h(k));
      err.push_back(why.empty() ? std::sqrt(trapezoid(d2, L.obs_dt())) / (T.E0 * std::sqrt(span)) : kNaN);
    }
    const Convergence e = assess_order(hs, err, std::vector<double>(hs.size(), kRoundoffUlps * kEps), ex.e_slope,
                                       kSlopeTolerance, true);
    PaperItem it{"001", "Fig. 7: energy convergence on the torus impact, t in [0, 10]", ex.scheme, impact.name,
                 cat("E-error slope ~", format_number(ex.e_slope), " (the H0 energy error of eqs. 37-38)"),
                 e.verdict, "", {}};
    it.data = {{"E_error", {{"h", e.h}, {"error", e.error}, {"slope", num(e.fit.slope)}, {"local_slopes", e.local_slopes}}}};
    std::string local;
    for (double ls : e.local_slopes) local += cat(local.empty() ? "" : ", ", format_number(ls, 3));
    it.finding = why.empty() ? cat("E-error slope ", format_number(e.fit.slope, 3), " (expected >= ",
                                   format_number(ex.e_slope), "; energy errors may superconverge); local slopes ", local,
                                   e.verdict == Verdict::undefined ? " (irregular: no asymptotic range; the contact onsets)" : "")
                             : "breakdown: " + why;
    T.say(it);
    out.items.push_back(std::move(it));
  }
}

}  // namespace

/// Paper 001 section 4.1, Figs. 4-7, on the 80-particle torus (docs/problems.md P5).
void paper001_torus(PaperSuiteResult& out, bool progress) {
  Torus T{catalogue_problem("torus_impact"), catalogue_problem("torus_free"), 0, 0, progress};
  T.E0 = T.impact.energy(T.impact.initial);
  // The stiffest linear mode of the chain (axial bonds, eq. 51): omega = 2 sqrt(K^a/m)/L0.
  const Bond& bond = body_system_data(T.impact).interactions.bonds[0];
  const double L0 = bond.rest.norm();
  T.omega_max = 2 * std::sqrt(bond.axial / T.impact.bodies[0].mass) / L0;
  torus_fig4(T, out);
  torus_fig5(T, out);
  torus_fig6(T, out);
  torus_fig7(T, out);
}

}  // namespace rigidbench::papers
