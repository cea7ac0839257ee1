// Paper 002 (the Solfec heavy symmetrical top page, docs/bibliography.md [HST]): the Hamiltonian error plots.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "../../core/json_numbers.hpp"
#include "../../integrators/gebhardt_romero.hpp"
#include "../../integrators/registry.hpp"
#include "../../problems/catalogue.hpp"
#include "../../reference/reference.hpp"
#include "papers.hpp"
#include "../runner.hpp"

namespace rigidbench::papers {

using json_numbers::num;
using nlohmann::ordered_json;

namespace {
/// The angle between two symmetry axes d3 = R e3 (atan2: accurate at small angles).
double axis_angle(const Mat3& Ra, const Mat3& Rb) {
  const Vec3 a = Ra.col(2), b = Rb.col(2);
  return std::atan2(a.cross(b).norm(), a.dot(b));
}
/// The state check the 0.1% test lacks (docs/findings.md, "Paper 002"): the symmetry axis must follow
/// the reference's precession and nutation to within this fraction of the axis' largest excursion
/// (0.104 rad over [0, 10]). A run that misses the gravity-driven motion is off by the whole
/// excursion (gravity switched off: 1.0 of it); the RIG maps at h = 0.009 are 0.009 - 0.042 of it.
/// Only the axis is judged: gravity drives it, while the spin phase about it (50 rad/s, 26 degrees per
/// step at h = 0.009) carries the scheme's phase error whatever the load.
constexpr double kAxisFraction = 0.1;

/// What the study shares: the heavy top, its energy, the reference on the h = 0.009 grid (1111 steps,
/// t = 9.999) and the largest excursion of the reference's symmetry axis over it.
struct HeavyTop {
  Problem p;
  double H0 = 0;
  double h9 = 0.009;
  std::int64_t n9 = 0;
  ReferenceSolution ref9;
  double swing = 0;
};

/// One run of a scheme at step h over [0, 10]: the record in the item's data, the largest relative
/// Hamiltonian error and (at h = 0.009) axis error, and the direction of the error's trend.
struct HamiltonianRun {
  bool ok = false;
  double max_rel = 0, max_axis = 0;
  std::string direction;
  ordered_json record;
};
HamiltonianRun hamiltonian_run(const HeavyTop& T, const SchemeEntry& e, double h) {
  const Problem& p = T.p;
  auto integ = e.make(p);
  integ->reset(p.initial, p.t0);
  State x(1);
  const auto n = std::int64_t(std::llround(10.0 / h));
  const std::int64_t every = std::max<std::int64_t>(1, n / 400);
  ordered_json t_s = ordered_json::array(), dh = ordered_json::array();
  double max_rot = 0, sum_t = 0, sum_d = 0, sum_tt = 0, sum_td = 0;
  HamiltonianRun r;
  r.ok = integrate(*integ, FixedSteps{p.t0, h, n}, {.every = 1}, x, [&](const Observation& o, const State& xo) {
           const double rel = (p.energy(xo) - T.H0) / T.H0;
           if (!std::isfinite(rel)) return StepStatus::breakdown("blown up");  // a breakdown, not a number
           const double t = double(o.steps) * h;
           r.max_rel = std::max(r.max_rel, std::abs(rel));
           max_rot = std::max(max_rot, h * xo.body().W.norm());
           if (h == T.h9)
             r.max_axis = std::max(r.max_axis, axis_angle(xo.body().R, T.ref9.states[std::size_t(o.steps)].body().R));
           sum_t += t, sum_d += rel, sum_tt += t * t, sum_td += t * rel;
           if (o.steps % every == 0) t_s.push_back(t), dh.push_back(rel);
           return StepStatus::success();
         }).ok;
  // Direction: least-squares trend of (H - H0)/H0 over the run against its largest excursion.
  const double nn = double(n);
  const double slope = (nn * sum_td - sum_t * sum_d) / (nn * sum_tt - sum_t * sum_t);
  const double trend = slope * 10.0;
  r.direction = !r.ok ? "breakdown"
                : std::abs(trend) < 0.25 * r.max_rel ? "oscillating"
                : trend > 0                           ? "up"
                                                      : "down";
  r.record = {{"h", h},
              {"status", r.ok ? "ok" : "breakdown"},
              {"max_relative_H_error", r.ok ? num(r.max_rel) : ordered_json(nullptr)},
              {"trend_over_span", num(trend)},
              {"direction", r.direction},
              {"direction_source", "observed (not stated by the page, which says only 'decay')"},
              {"rotation_per_step_deg", max_rot * 180.0 / std::numbers::pi},
              {"t", t_s},
              {"relative_H_error", dh}};
  return r;
}

/// Figs. 11-13 for one scheme, and beside it the state check of its symmetry axis at h = 0.009.
void hamiltonian_items(const HeavyTop& T, const SchemeEntry& e, PaperSuiteResult& out, bool progress) {
  const Problem& p = T.p;
  PaperItem it{"002", "Figs. 11-13: Hamiltonian for h in {0.001, 0.003, 0.009}", std::string(e.info->name),
               p.name, "", Verdict::undefined, "", ordered_json::object()};
  const bool rig = e.info->name.substr(0, 4) == "rig_";
  it.claim = rig ? "decay of the Hamiltonian below 0.1% at h = 0.009 (about 26 degrees of rotation per step); "
                   "nearly exact at h = 0.001"
                 : "(not in the paper: the same study for comparison)";
  ordered_json runs = ordered_json::array();
  double max_rel_at_009 = kNaN, axis_at_009 = kNaN;
  std::string directions;
  for (double h : {0.001, 0.003, 0.009}) {
    const HamiltonianRun r = hamiltonian_run(T, e, h);
    directions += (directions.empty() ? "" : ", ") + r.direction;
    if (h == T.h9) max_rel_at_009 = r.ok ? r.max_rel : kNaN, axis_at_009 = r.ok ? r.max_axis : kNaN;
    runs.push_back(r.record);
  }
  it.data = {{"H0", T.H0}, {"runs", runs}};
  it.finding = cat("max |H - H0|/H0 at h = 0.009: ",
                   std::isfinite(max_rel_at_009) ? format_number(max_rel_at_009, 3) : std::string("- (breakdown)"),
                   "; direction at h = 0.001, ",
                   "0.003, 0.009 (observed, not stated by the page): ", directions);
  if (rig) it.verdict = std::isfinite(max_rel_at_009) && max_rel_at_009 < 1e-3 ? Verdict::pass : Verdict::fail;
  if (progress) std::fprintf(stderr, "paper 002: %-18s %s\n", it.integrator.c_str(), it.finding.c_str());
  // Beside it, the state: the symmetry axis against the reference at h = 0.009.
  const double swing = T.swing;
  PaperItem st{"002", "state beside Figs. 11-13: the symmetry axis at h = 0.009", it.integrator, p.name,
               rig ? cat("(not on the page) the axis d3 = R e3 follows the reference within ", format_number(kAxisFraction, 2),
                         " of its largest excursion over [0, 10]: the gravity-driven motion the 0.1% test cannot see")
                   : "(not in the paper: the same check for comparison)",
               Verdict::undefined, "", ordered_json::object()};
  st.data = {{"h", T.h9}, {"max_axis_error_rad", std::isfinite(axis_at_009) ? num(axis_at_009) : ordered_json(nullptr)},
             {"axis_excursion_rad", swing}, {"threshold_rad", kAxisFraction * swing},
             {"reference", {{"formulation", T.ref9.formulation}, {"error_estimate_attitude", T.ref9.error_estimate.attitude}}}};
  st.finding = std::isfinite(axis_at_009)
                   ? cat("max angle between d3 and the reference's: ", format_number(axis_at_009, 3), " rad (",
                         format_number(axis_at_009 / swing, 3), " of the axis' excursion ", format_number(swing, 3), " rad)")
                   : std::string("breakdown at h = 0.009");
  if (rig) st.verdict = std::isfinite(axis_at_009) && axis_at_009 <= kAxisFraction * swing ? Verdict::pass : Verdict::fail;
  out.items.push_back(std::move(it));
  out.items.push_back(std::move(st));
}

/// The weakness docs/problems.md points out: gravity off passes the same test (the potential swing is
/// a few 1e-6 of H); the state error against the reference is what discriminates.
void gravity_off_item(const HeavyTop& T, PaperSuiteResult& out) {
  const Problem& p = T.p;
  Problem off = p;
  off.loads.clear();
  off.name = "heavy_top_gravity_off";
  off.finalize();
  PaperItem w{"002", "weakness of the Hamiltonian check", "rig_neg", off.name,
              "a run with gravity switched off also passes the < 0.1% test", Verdict::undefined, "", {}};
  auto integ = find_scheme("rig_neg").make(off);
  integ->reset(off.initial, off.t0);
  State x(1);
  double max_rel = 0, max_axis_off = 0;
  integrate(*integ, FixedSteps{0.0, T.h9, T.n9}, {.every = 1}, x, [&](const Observation& o, const State& xo) {
    max_rel = std::max(max_rel, std::abs(p.energy(xo) - T.H0) / T.H0);  // the heavy top's H, gravity or not
    max_axis_off = std::max(max_axis_off, axis_angle(xo.body().R, T.ref9.states[std::size_t(o.steps)].body().R));
  });
  double U_swing = 0;
  {
    auto g = find_scheme("odeint_rk4_quat").make(p);
    g->reset(p.initial, p.t0);
    double umin = 1e300, umax = -1e300;
    integrate(*g, FixedSteps{0.0, 1e-3, 10000}, {.every = 1}, x, [&](const Observation&, const State& xo) {
      const double U = p.potential(xo.body().R);
      umin = std::min(umin, U), umax = std::max(umax, U);
    });
    U_swing = (umax - umin) / T.H0;
  }
  w.data = {{"max_relative_H_error_gravity_off", max_rel}, {"potential_swing_over_H0", U_swing},
            {"max_axis_error_rad_gravity_off", max_axis_off}, {"axis_excursion_rad", T.swing}};
  w.verdict = max_rel < 1e-3 ? Verdict::pass : Verdict::fail;
  w.finding = cat("gravity off: max |H - H0|/H0 = ", format_number(max_rel, 3), " (passes the 0.1% test); the ",
                  "potential swings by only ", format_number(U_swing, 3), " of H. The axis check beside it fails ",
                  "the same run: its axis is ", format_number(max_axis_off, 3), " rad off the heavy top's (",
                  format_number(max_axis_off / T.swing, 3), " of the excursion)");
  out.items.push_back(std::move(w));
}

}  // namespace

/// Paper 002: relative Hamiltonian error of the heavy top over [0, 10] at h in {0.001, 0.003, 0.009}.
void paper002(PaperSuiteResult& out, bool progress) {
  HeavyTop T;
  T.p = catalogue_problem("heavy_top");
  T.H0 = T.p.energy(T.p.initial);
  T.n9 = std::int64_t(std::llround(10.0 / T.h9));
  std::vector<double> t9;
  for (std::int64_t k = 0; k <= T.n9; ++k) t9.push_back(T.p.t0 + double(k) * T.h9);
  T.ref9 = compute_reference(T.p, t9);
  for (const State& r : T.ref9.states) T.swing = std::max(T.swing, axis_angle(r.body().R, T.ref9.states[0].body().R));
  for (const SchemeEntry& e : registry())
    if (!e.info->adaptive && not_applicable(*e.info, T.p).empty()) hamiltonian_items(T, e, out, progress);
  gravity_off_item(T, out);
}

}  // namespace rigidbench::papers
