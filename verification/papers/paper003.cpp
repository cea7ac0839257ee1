// Paper 003 (Massa & Vignolo, docs/bibliography.md [MV]): the Newton-Euler (right-invariant), Kirchhoff
// (left-invariant) and Lagrange (jet coordinates: Euler angles) formulations are one dynamics. The
// harness solves each as its own reference (problems/formulations/); here they are compared with each
// other and with the closed-form solutions (torque-free: reference/analytic.hpp; the heavy symmetric top:
// reference/lagrange_top.hpp), within their own error estimates.
#include <cmath>
#include <cstdio>

#include "../../core/json_numbers.hpp"
#include "../../core/so3.hpp"
#include "../../problems/catalogue.hpp"
#include "../../reference/lagrange_top.hpp"
#include "../../reference/reference.hpp"
#include "papers.hpp"
#include "../runner.hpp"

namespace rigidbench::papers {

using json_numbers::num;
using nlohmann::ordered_json;

namespace {
/// Output times per problem: 200 intervals over the problem's span.
constexpr int kIntervals = 200;
/// Agreement "within the error estimates": at every time, the distance between two solutions is at most
/// the sum of their error estimates there, with the margin the harness gives every reference
/// (kRefFloorFactor = 100: errors below 100x the estimate are never used, docs/metrics.md), plus the
/// rounding each run accumulates, kRoundoffUlpsPerStep ulps per accepted step (the gate's rounding
/// allowance, docs/gate.md), which both runs of an estimate share and it cannot see. The finding gives
/// the distance against the bare estimates + rounding too: the estimate (the distance to a 10x looser
/// run) is not a strict bound - it is up to 2.4x too small here (docs/findings.md, "Paper 003").
double rounding(const ReferenceSolution& r) { return kRoundoffUlpsPerStep * double(std::max<std::size_t>(r.steps, 1)) * kEps; }
}  // namespace

void paper003(PaperSuiteResult& out, bool progress) {
  for (const char* name : {"free_body", "dzhanibekov", "heavy_top"}) {
    const Problem p = catalogue_problem(name);
    std::vector<double> times;
    for (int k = 0; k <= kIntervals; ++k) times.push_back(p.t0 + (p.t_end - p.t0) * double(k) / kIntervals);
    std::vector<ReferenceSolution> sol;
    // The closed forms first: torque-free (an applicable formulation, analytic) or the Lagrange top.
    if (lagrange_top_not_applicable(p).empty()) sol.push_back(lagrange_top_reference(p, times));
    for (Formulation f : applicable_formulations(p)) {
      ReferenceSettings s;
      s.formulation = f;
      sol.push_back(compute_reference(p, times, s));
    }
    // Every pair of solutions: the closed form (first, where it applies) against each formulation, and
    // the formulations against each other.
    for (std::size_t a = 0; a < sol.size(); ++a)
      for (std::size_t b = a + 1; b < sol.size(); ++b) {
        const ReferenceSolution &A = sol[a], &B = sol[b];
        double worst_att = 0, worst_w = 0, worst_ratio = 0, worst_bare = 0;
        for (std::size_t i = 0; i < times.size(); ++i) {
          const BodyState &x = A.states[i].body(), &y = B.states[i].body();
          const double att = so3::angle_between(x.R, y.R), dw = (x.W - y.W).norm();
          const double w_scale = std::max(x.W.norm(), 1e-300);
          const double est_att = A.estimate_attitude[i] + B.estimate_attitude[i];
          const double est_w = A.estimate_omega[i] + B.estimate_omega[i];
          const double round = rounding(A) + rounding(B);
          worst_att = std::max(worst_att, att), worst_w = std::max(worst_w, dw);
          worst_bare = std::max({worst_bare, att / (est_att + round), dw / (est_w + round * w_scale)});
          worst_ratio = std::max({worst_ratio, att / (kRefFloorFactor * est_att + round),
                                  dw / (kRefFloorFactor * est_w + round * w_scale)});
        }
        const bool exact = A.kind == "analytic" || B.kind == "analytic";
        PaperItem it{"003",
                     exact ? "formulations against the closed-form solution" : "the formulations against each other",
                     "", p.name,
                     "the Newton-Euler, Kirchhoff and Lagrange (Euler-angle) formulations describe one dynamics: their "
                     "solutions agree (and agree with the exact one) within their error estimates (x100, the margin the "
                     "harness gives a reference)",
                     worst_ratio <= 1 ? Verdict::pass : Verdict::fail, "", ordered_json::object()};
        it.integrator = cat(A.formulation, " vs ", B.formulation);
        it.data = {{"a", {{"formulation", A.formulation}, {"kind", A.kind}, {"tolerance", A.tolerance},
                          {"error_estimate_attitude", A.error_estimate.attitude}, {"error_estimate_omega", A.error_estimate.omega},
                          {"steps", A.steps}, {"rounding", rounding(A)},
                          {"notes", A.notes}}},
                   {"b", {{"formulation", B.formulation}, {"kind", B.kind}, {"tolerance", B.tolerance},
                          {"error_estimate_attitude", B.error_estimate.attitude}, {"error_estimate_omega", B.error_estimate.omega},
                          {"steps", B.steps}, {"rounding", rounding(B)},
                          {"notes", B.notes}}},
                   {"times", times.size()},
                   {"max_attitude_difference_rad", worst_att},
                   {"max_omega_difference", worst_w},
                   {"max_difference_over_allowance", num(worst_ratio)},
                   {"max_difference_over_bare_estimates", num(worst_bare)}};
        it.finding = cat("over [", format_number(p.t0, 3), ", ", format_number(p.t_end, 3), "] at ",
                         std::to_string(times.size()), " times: attitude ", format_number(worst_att, 3), " rad, W ",
                         format_number(worst_w, 3), " rad/s apart: at most ", format_number(worst_bare, 3),
                         " of the sum of their estimates and rounding (", std::to_string(A.steps), " and ",
                         std::to_string(B.steps), " steps), ", format_number(worst_ratio, 3),
                         " of the allowance with the harness's 100x margin");
        if (progress) std::fprintf(stderr, "paper 003: %-12s %-45s %s\n", name, it.integrator.c_str(), it.finding.c_str());
        out.items.push_back(std::move(it));
      }
  }
}

}  // namespace rigidbench::papers
