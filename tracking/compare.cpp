#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

#include "../core/json_input.hpp"
#include "../core/json_numbers.hpp"
#include "../core/json_schema.hpp"
#include "../core/text_escape.hpp"
#include "../core/types.hpp"
#include "../reports/pair_report.hpp"
#include "../reports/report.hpp"
#include "../reports/verify_report.hpp"

namespace rigidbench {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
using json_numbers::as_num;
using json_numbers::num;
std::string fmt(double x, int digits = 3) { return format_or_dash(x, digits); }

/// Indices of the levels usable for reading values off: in the asymptotic range, finite, positive.
std::vector<std::size_t> usable_levels(const std::vector<double>& h, const std::vector<double>& e,
                                       const std::vector<bool>& usable) {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < h.size() && i < e.size(); ++i)
    if ((i >= usable.size() || usable[i]) && std::isfinite(e[i]) && e[i] > 0 && h[i] > 0) idx.push_back(i);
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return h[a] > h[b]; });
  return idx;
}

/// An unclaimed invariant counts as kept when it passes the test an exact claim would face: at every
/// level max_n |I_n - I_0| / S_I <= max(tau, N_k eps) (docs/metrics.md; not just at the finest h, where a
/// second-order energy error can fall below tau).
bool exact_at_every_level(const InvariantResult& inv, const PairReport& result, double tau) {
  const std::vector<double>& d = inv.drift_by_level;
  if (d.empty()) return false;
  for (std::size_t k = 0; k < d.size(); ++k) {
    if (!std::isfinite(d[k]) || k >= result.levels.size()) return false;
    // A level without its step count (the schema does not require one; found by fuzz/report.cpp,
    // input fuzz/corpus/report/regress-compare-level-without-steps.json): no test can be made, so not kept.
    if (!result.levels[k].steps) return false;
    const double steps = double(*result.levels[k].steps);
    if (d[k] > std::max(tau, steps * std::numeric_limits<double>::epsilon())) return false;
  }
  return true;
}

}  // namespace

LadderValue step_for_error(const std::vector<double>& h, const std::vector<double>& error,
                           const std::vector<bool>& usable, double slope, double target) {
  const auto idx = usable_levels(h, error, usable);
  if (idx.empty() || !(slope > 0) || !(target > 0)) return {kNan, true};
  const double lt = std::log(target);
  // A bracket between consecutive usable levels (coarse to fine): interpolate log h in log e.
  for (std::size_t k = 0; k + 1 < idx.size(); ++k) {
    const std::size_t a = idx[k], b = idx[k + 1];
    const double la = std::log(error[a]), lb = std::log(error[b]);
    if (lt <= std::max(la, lb) && lt >= std::min(la, lb)) {
      if (la == lb) return {h[a], false};
      const double s = (lt - la) / (lb - la);
      return {std::exp(std::log(h[a]) + s * (std::log(h[b]) - std::log(h[a]))), false};
    }
  }
  // Outside: from the level nearest in log error, along e ~ h^slope.
  std::size_t n = idx.front();
  for (std::size_t i : idx)
    if (std::abs(std::log(error[i]) - lt) < std::abs(std::log(error[n]) - lt)) n = i;
  const bool exact = error[n] == target;
  return {h[n] * std::pow(target / error[n], 1.0 / slope), !exact};
}

LadderValue error_at_step(const std::vector<double>& h, const std::vector<double>& error,
                          const std::vector<bool>& usable, double slope, double h_star) {
  const auto idx = usable_levels(h, error, usable);
  if (idx.empty() || !(h_star > 0)) return {kNan, true};
  const double ls = std::log(h_star);
  for (std::size_t k = 0; k + 1 < idx.size(); ++k) {
    const std::size_t a = idx[k], b = idx[k + 1];
    if (h_star <= h[a] && h_star >= h[b]) {
      const double s = (ls - std::log(h[a])) / (std::log(h[b]) - std::log(h[a]));
      return {std::exp(std::log(error[a]) + s * (std::log(error[b]) - std::log(error[a]))), false};
    }
  }
  const std::size_t n = h_star > h[idx.front()] ? idx.front() : idx.back();
  if (h[n] == h_star) return {error[n], false};
  if (!(slope > 0)) return {kNan, true};
  return {error[n] * std::pow(h_star / h[n], slope), true};
}

VerifyReport merge_verify_reports(const std::vector<json>& reports, const std::vector<std::string>& names) {
  if (reports.empty()) throw std::logic_error("merge_verify_reports: no report");
  std::optional<VerifyReport> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const json& r = reports[i];
    if (!r.is_object() || !r.contains("results") || !r["results"].is_array())
      throw InputError(cat("compare: '", names[i], "' is not a rigidbench verify report (no \"results\" array)"));
    // Each input is held to the schema first (a result whose "integrator" was a number was exit 3:
    // nlohmann type_error, found by fuzz/report.cpp).
    VerifyReport v = VerifyReport::read(r, cat("compare: '", names[i], "'"));
    for (const PairReport& x : v.results)
      if (!seen.emplace(x.integrator, x.problem).second)
        throw InputError(cat("compare: the pair (", x.integrator, ", ", x.problem, ") is in two reports (", names[i],
                             " and an earlier one); give each pair once"));
    if (!out) out = std::move(v);
    else out->results.insert(out->results.end(), v.results.begin(), v.results.end());
  }
  if (reports.size() > 1) out->merged_from = names;
  return *out;
}

namespace {

/// The inputs compare can read: a verify report with pair results, a bench report, a target and h.
void check_compare_inputs(const VerifyReport& verify, const CompareOptions& opt) {
  if (verify.results.empty())
    throw InputError("compare: the report has no pair results (the paper suite's report has none; use a quick "
                     "or problem-specific `verify` report)");
  if (!(opt.target > 0) || !std::isfinite(opt.target))
    throw InputError(cat("compare: --target must be a positive error (got ", format_number(opt.target, 4), ")"));
  if (opt.h && !(*opt.h > 0 && std::isfinite(*opt.h)))
    throw InputError(cat("compare: --h must be positive and finite (got ", format_number(*opt.h, 4), ")"));
}

/// Exact claims held or failed; unclaimed invariants observed at round-off (threshold tau).
ordered_json invariant_summary(const PairReport& r, double tau) {
  ordered_json held = ordered_json::array(), failed = ordered_json::array(), observed = ordered_json::array();
  for (const auto& [name, inv] : r.invariants) {
    if (inv.claim == Claim::exact && inv.verdict == Verdict::pass) held.push_back(name);
    else if (inv.claim != Claim::none && inv.verdict == Verdict::fail) failed.push_back(name);
    else if (inv.claim == Claim::none && exact_at_every_level(inv, r, tau)) observed.push_back(name);
  }
  return {{"claimed_and_held", held}, {"claimed_and_failed", failed}, {"unclaimed_exact_at_every_level", observed}};
}

/// The final attitude error split into phase about the symmetry axis and shape (docs/metrics.md,
/// "Error anatomy"), at the level nearest h_fixed that ran: why a scheme ranks where it does. Null
/// where the report has no anatomy.
ordered_json anatomy_near(const PairReport& r, double h_fixed) {
  if (!r.anatomy) return nullptr;
  const ErrorAnatomy& an = *r.anatomy;
  const std::vector<double> &ah = an.h, &tot = an.total, &ph = an.phase, &sh = an.shape;
  std::size_t best = ah.size();
  for (std::size_t k = 0; k < ah.size() && k < tot.size() && k < ph.size() && k < sh.size(); ++k)
    if (std::isfinite(tot[k]) && (best == ah.size() || std::abs(std::log(ah[k] / h_fixed)) <
                                                          std::abs(std::log(ah[best] / h_fixed))))
      best = k;
  if (best == ah.size()) return nullptr;
  return {{"axis", an.axis.description}, {"h", ah[best]}, {"total", num(tot[best])}, {"phase", num(ph[best])},
          {"shape", num(sh[best])}};
}

/// Where a pair's step ran and was timed (the cost's runtime label): "program" (its own clock, in its
/// own runtime), "python", or "native" (compiled into rigidbench or registered by a program linking it).
const char* runtime_of(const PairReport& r) {
  if (!r.scheme) return "native";
  return r.scheme->origin == "program" ? "program" : r.scheme->origin == "python" ? "python" : "native";
}

/// The cost per step of a pair: from the bench report when it has the pair (CPU time, instructions),
/// else the verify report's informational wall clock.
struct StepCost {
  double ns = kNan, instr = kNan;
  ordered_json json;
};
StepCost step_cost(const PairReport& r, const BenchEntry* b) {
  double ns = kNan, instr = kNan, ratio = kNan, iratio = kNan, ratio4 = kNan, iratio4 = kNan, fl = kNan, ipf = kNan;
  std::string source;
  bool declared = false;
  if (b != nullptr) {
    ns = b->ns_per_step;
    ratio = b->ratio_to_baseline;
    instr = b->instructions_per_step;
    iratio = b->instruction_ratio_to_baseline;
    ratio4 = b->ratio_to_rk4;
    iratio4 = b->instruction_ratio_to_rk4;
    fl = b->flops_per_step;
    ipf = b->instructions_per_flop;
    source = "bench: Google Benchmark CPU time (min of interleaved repetitions); callgrind instructions";
    // A program's step is timed by its own clock in its own runtime (docs/programs.md): labelled so,
    // never ranked beside a native step without that label.
    if (std::string_view(runtime_of(r)) == "program")
      source = "bench: the program's own clock of its loop (ns_per_step of its answers), in its runtime; "
               "no instructions (callgrind counts rigidbench, not the program)";
  } else {
    ns = r.cost.ns_per_step;
    ratio = r.cost.ratio_to_baseline;
    ratio4 = r.cost.ratio_to_rk4;
    source = "verify report: wall clock of a fixed-work run (informational)";
    // A program's own figure (score with a declared cost): ranked like a measured one, and flagged.
    if (r.cost.declared) {
      const DeclaredCost& d = *r.cost.declared;
      source = cat("declared by the program (", d.method.empty() ? "?" : d.method, " on ",
                   d.machine.empty() ? "?" : d.machine, "), not measured by rigidbench");
      declared = true;
    }
  }
  StepCost out{ns, instr, {}};
  out.json = {{"ns", num(ns)}, {"ratio_to_baseline", num(ratio)}, {"instructions", num(instr)},
              {"instruction_ratio_to_baseline", num(iratio)}, {"ratio_to_rk4", num(ratio4)},
              {"instruction_ratio_to_rk4", num(iratio4)}, {"flops", num(fl)},
              {"instructions_per_flop", num(ipf)}, {"source", source}, {"declared", declared},
              {"runtime", runtime_of(r)}};
  // An outside step compiled without optimisation (docs/extending.md, "Build type"): ranked, flagged -
  // whether the figure is the bench report's or verify's, the same program's build produced it.
  if (!r.cost.not_comparable.empty()) out.json["not_comparable"] = r.cost.not_comparable;
  return out;
}

/// Rows ranked by cost to the target accuracy in `unit`; schemes without a finite cost come last, unranked.
ordered_json ranked_rows(const ordered_json& rows, const char* unit) {
  std::vector<std::size_t> idx(rows.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  auto key = [&](std::size_t i) { return as_num(rows[i].at("cost_to_target").at(unit)); };
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    const double ka = key(a), kb = key(b);
    if (std::isfinite(ka) != std::isfinite(kb)) return std::isfinite(ka);
    return std::isfinite(ka) && ka < kb;
  });
  ordered_json ranked = ordered_json::array();
  int rank = 0;
  for (std::size_t i : idx) {
    ordered_json row = rows[i];
    ordered_json with_rank;
    with_rank["rank"] = std::isfinite(key(i)) ? ordered_json(++rank) : ordered_json(nullptr);
    for (auto it = row.begin(); it != row.end(); ++it) with_rank[it.key()] = it.value();
    ranked.push_back(with_rank);
  }
  return ranked;
}

/// A pair's ladder as the head-to-head reads it, whichever its axis (docs/adaptive.md, "Head-to-head"):
/// per level the error in the compared metric and whether the level is usable (in the asymptotic
/// range; on a tolerance ladder, above the reference floor and not grid-bound), the costs of each
/// level's run by name, and the slope p of error ~ cost^-p (a step ladder's fitted order, else the
/// scheme's; an adaptive scheme's effective order).
struct CostLadder {
  std::vector<double> error;
  std::vector<bool> usable;
  std::vector<std::pair<const char*, std::vector<double>>> costs;
  double slope = kNan;
};

/// Each cost at the target error: the error against the inverse cost (which falls with it as the
/// error with a step size) read off by step_for_error: log-log interpolation between the bracketing
/// usable levels, outside them along error ~ cost^-slope (then `extrapolated`).
void costs_at_target(const CostLadder& L, double target, ordered_json& out, bool& extrapolated) {
  for (const auto& [name, cost] : L.costs) {
    std::vector<double> inverse;
    for (double c : cost) inverse.push_back(c > 0 ? 1.0 / c : kNan);
    const LadderValue v = step_for_error(inverse, L.error, L.usable, L.slope, target);
    if (std::isfinite(v.value)) extrapolated = extrapolated || v.extrapolated;  // a cost not measured says nothing
    out[name] = num(v.value > 0 ? 1.0 / v.value : kNan);
  }
}

/// The columns every row starts with: who, how it ended, its kind (the scheme's, with `suffix`).
ordered_json row_head(const PairReport& r, const char* suffix = "") {
  ordered_json row;
  row["integrator"] = r.integrator;
  row["status"] = r.status;
  if (!r.reason.empty()) row["reason"] = r.reason;
  if (r.scheme) row["kind"] = r.scheme->kind + suffix;
  return row;
}

/// A step ladder's row: order, Q_II, invariants, error at the fixed h, anatomy, cost per step and the
/// cost to the target (the level costs span/h steps, each at the pair's cost per step), read from the
/// pair's result r (and its bench entry when given).
ordered_json compare_row(const PairReport& r, const MetricDef& metric, const CompareOptions& opt, const ordered_json* pv,
                         double h_fixed, double span, const BenchEntry* bench_row, bool& all_instr) {
  const Convergence* cp = nullptr;
  if (metric.section == MetricSection::convergence)
    cp = r.ladder(opt.metric);
  else
    for (const auto& [name, c] : r.paper_measures)
      if (name == opt.metric) cp = &c;
  if (cp == nullptr)
    throw InputError(cat("compare: metric '", opt.metric, "' is not in the report's ", to_string(metric.section),
                         " of ", r.integrator, " on ", r.problem, " (a report of another rigidbench version?)"));
  const Convergence& c = *cp;
  const double slope = c.fit.slope > 0 ? c.fit.slope : c.expected;
  // Invariants: exact claims held or failed; unclaimed invariants observed at round-off.
  const double tau = pv && pv->contains("exact_threshold") ? as_num(pv->at("exact_threshold")) : 1e-11;
  ordered_json row = row_head(r);
  row["order"] = {{"expected", num(c.expected)}, {"observed", num(c.fit.slope)}, {"stderr", num(c.fit.stderr_slope)},
                  {"verdict", to_string(c.verdict)}};
  const QiiResult& q = r.q_ii;
  const QiiLevel* primary = q.primary >= 0 ? &q.levels[std::size_t(q.primary)] : nullptr;
  row["q_ii"] = {{"h", num(primary ? primary->h : kNan)}, {"median", num(primary ? primary->median : kNan)},
                 {"expected", num(q.expected)}, {"verdict", primary ? to_string(primary->verdict) : "undefined"}};
  row["invariants"] = invariant_summary(r, tau);
  LadderValue eh = error_at_step(c.h, c.error, c.asymptotic, slope, h_fixed);
  // An attitude error is an angle, at most pi: a slope extrapolated past that says nothing more.
  const bool clipped = metric.units == "rad" && std::isfinite(eh.value) && eh.value > std::numbers::pi;
  if (clipped) eh.value = std::numbers::pi;
  row["error_at_h"] = {{"h", h_fixed}, {"error", num(eh.value)}, {"extrapolated", eh.extrapolated}, {"clipped", clipped}};
  // The final attitude error split into phase about the symmetry axis and shape (docs/metrics.md,
  // "Error anatomy"), at the level nearest the fixed h that ran: why a scheme ranks where it does.
  if (ordered_json an = anatomy_near(r, h_fixed); !an.is_null()) row["attitude_anatomy"] = an;
  const StepCost sc = step_cost(r, bench_row);
  row["cost_per_step"] = sc.json;
  CostLadder L{c.error, c.asymptotic, {{"steps", {}}, {"cpu_seconds", {}}, {"instructions", {}}}, slope};
  for (double h : c.h) {
    L.costs[0].second.push_back(span / h);
    L.costs[1].second.push_back(span / h * sc.ns * 1e-9);
    L.costs[2].second.push_back(span / h * sc.instr);
  }
  ordered_json to_target = {{"h", nullptr}};
  bool extrapolated = false;
  costs_at_target(L, opt.target, to_target, extrapolated);
  to_target["h"] = num(span / as_num(to_target["steps"]));
  to_target["extrapolated"] = extrapolated;
  row["cost_to_target"] = to_target;
  if (std::isfinite(as_num(to_target["cpu_seconds"])) && !std::isfinite(as_num(to_target["instructions"]))) all_instr = false;
  return row;
}

/// Where an adaptive pair's costs come from, said in its row.
std::string adaptive_cost_source(const PairReport& r, const WorkSeries* bench) {
  const std::string head = "adaptive: no fixed step; its cost to the target is read off its tolerance ladder";
  if (bench) return head + ", with the bench report's whole runs (thread CPU time, min of repetitions; callgrind instructions)";
  if (r.cost.declared)
    return cat(head, ", with the times declared by the program (", r.cost.declared->method, " on ", r.cost.declared->machine, ")");
  return head + " (verify's wall clock)";
}

/// An adaptive pair's row (docs/adaptive.md): its costs per run (accepted steps, seconds, instructions,
/// right-hand sides, load evaluations) in place of a step's, read to the target like a step ladder's,
/// with the effective order as the slope; the tolerance that reaches it along error ~ tol^slope. No
/// instruction count without a bench report, so a table holding one ranks in CPU seconds. The step
/// ladder's columns that do not apply (Q_II, error at h, cost per step) are null.
ordered_json adaptive_compare_row(const PairReport& r, const CompareOptions& opt, double h_fixed, const WorkSeries* bench,
                                  bool& all_instr) {
  const ToleranceStudy& T = *r.tolerance;
  // The bench report's point at a level's tolerance: its whole run's instructions and thread CPU
  // time (min of its repetitions) - in place of verify's wall clock when given.
  const auto bench_point = [&](double t) -> const WorkPoint* {
    if (bench)
      for (const WorkPoint& q : bench->points)
        if (std::abs(q.tol - t) <= 1e-12 * t) return &q;
    return nullptr;
  };
  CostLadder L{{}, {}, {{"steps", {}}, {"cpu_seconds", {}}, {"instructions", {}}, {"rhs_evaluations", {}}, {"load_evaluations", {}}},
               T.effective_order};
  std::vector<double> tol;
  for (const ToleranceLevel& lv : T.levels) {
    L.error.push_back(lv.ok ? tolerance_level_error(lv, opt.metric) : kNan);
    L.usable.push_back(lv.ok && lv.above_floor && !lv.grid_bound);
    const WorkPoint* q = bench_point(lv.tol);
    const double costs[] = {double(lv.counters.accepted_steps), q ? q->cpu_seconds : lv.seconds, q ? q->instructions : kNan,
                            double(lv.counters.rhs_evaluations), double(lv.counters.load_evaluations)};
    for (std::size_t i = 0; i < L.costs.size(); ++i) L.costs[i].second.push_back(costs[i]);
    tol.push_back(lv.tol);
  }
  ordered_json row = row_head(r, ", adaptive");
  row["order"] = {{"expected", r.scheme && r.scheme->order > 0 ? num(double(r.scheme->order)) : ordered_json(nullptr)},
                  {"observed", num(T.effective_order)}, {"stderr", nullptr}, {"verdict", "undefined"}};
  row["q_ii"] = {{"h", nullptr}, {"median", nullptr}, {"expected", nullptr}, {"verdict", "undefined"}};
  row["invariants"] = invariant_summary(r, 1e-11);
  row["error_at_h"] = {{"h", h_fixed}, {"error", nullptr}, {"extrapolated", false}, {"clipped", false}};
  ordered_json per_step = ordered_json::object();
  for (const char* k : {"ns", "ratio_to_baseline", "instructions", "instruction_ratio_to_baseline", "ratio_to_rk4",
                        "instruction_ratio_to_rk4", "flops", "instructions_per_flop"})
    per_step[k] = nullptr;
  per_step["source"] = adaptive_cost_source(r, bench);
  per_step["declared"] = !bench && r.cost.declared.has_value();
  per_step["runtime"] = runtime_of(r);
  row["cost_per_step"] = per_step;
  ordered_json to_target = {{"h", nullptr}};
  bool extrapolated = false;
  costs_at_target(L, opt.target, to_target, extrapolated);
  const LadderValue tol_t = step_for_error(tol, L.error, L.usable, T.proportionality.slope, opt.target);
  to_target["extrapolated"] = extrapolated || tol_t.extrapolated;
  to_target["tolerance"] = num(tol_t.value);
  row["cost_to_target"] = to_target;
  row["adaptive"] = {{"tolerance_proportionality", to_string(T.proportionality_verdict)},
                     {"slope", num(T.proportionality.slope)},
                     {"rejected_fraction", num(T.rejected_fraction)},
                     {"timing_repetitions", T.repetitions}};
  if (std::isfinite(as_num(to_target["cpu_seconds"])) && !std::isfinite(as_num(to_target["instructions"]))) all_instr = false;
  return row;
}

/// The metric compare reads: an error metric of the table (its ladder is what the comparison reads).
const MetricDef& error_metric(const std::string& name) {
  const MetricDef* mp = find_metric(name);
  if (mp == nullptr || !is_error_metric(*mp)) {
    std::string have;
    for (const MetricDef& m : metric_table())
      if (is_error_metric(m)) have += cat(have.empty() ? "" : ", ", m.name);
    throw InputError(cat("compare: '", name, "' is not an error metric (choose one of: ", have, ")"));
  }
  return *mp;
}

/// The problems in the report's order; each one asked for must be there.
std::vector<std::string> problem_order(const std::vector<PairReport>& pairs, const CompareOptions& opt) {
  std::vector<std::string> order;
  for (const PairReport& r : pairs)
    if (std::find(order.begin(), order.end(), r.problem) == order.end()) order.push_back(r.problem);
  for (const auto& want : opt.problems)
    if (std::find(order.begin(), order.end(), want) == order.end())
      throw InputError(cat("compare: problem '", want, "' is not in the report"));

  return order;
}

}  // namespace

ordered_json compare_reports(const json& verify, const BenchReport* bench, const CompareOptions& opt) {
  if (!verify.is_object() || !verify.contains("results") || !verify["results"].is_array())
    throw InputError("compare: the input is not a rigidbench verify report (no \"results\" array)");
  // The fields read are the schema's (a bench report passed as --report has "results" but no
  // "settings" per result: exit 3 before, found by fuzz/report.cpp).
  return compare_reports(VerifyReport::read(verify, "compare: the verify report"), bench, opt);
}

namespace {

constexpr const char* kCompareMethod =
    "error at h and the step reaching the target are read off the metric's ladder by log-log interpolation "
    "between levels in the asymptotic range; outside it along e ~ h^slope (fitted slope, else the scheme's "
    "order), flagged 'extrapolated'; an angle (units rad) extrapolated past pi is pi, flagged 'clipped'. Cost to target = (span / h*) x cost per step. "
    "An adaptive scheme's cost to target is read off its tolerance ladder the same way, with its costs per run (accepted steps, "
    "right-hand sides, seconds; with a bench report its whole runs' thread CPU time and instructions) in place of h and its "
    "effective order as the slope. Rank: cost to target, in "
    "instructions when every ranked scheme has them, else CPU seconds. A cost per step marked 'declared' is the "
    "figure a scored program gave for itself (its machine and method in the source), ranked beside measured ones "
    "but not measured by rigidbench.";

using BenchIndex = std::map<std::pair<std::string, std::string>, const BenchEntry*>;

/// One problem's table: a row per pair that ran (fixed-step: compare_row; adaptive: adaptive_compare_row),
/// ranked by cost to the target; the pairs that do not apply, with their reasons.
/// The bench report's work-precision series of an adaptive pair (points with a tolerance), or null.
const WorkSeries* work_series_of(const BenchReport* bench, const PairReport& r) {
  if (bench)
    for (const WorkSeries& w : bench->work)
      if (w.integrator == r.integrator && w.problem == r.problem && !w.points.empty() && std::isfinite(w.points.front().tol))
        return &w;
  return nullptr;
}

ordered_json problem_table(const std::string& pname, const std::vector<PairReport>& pairs, const MetricDef& metric,
                           const CompareOptions& opt, const BenchIndex& bench_of, const BenchReport* bench) {
  ordered_json P;
  P["problem"] = pname;
  ordered_json rows = ordered_json::array(), skipped = ordered_json::array();
  double h_fixed = opt.h.value_or(kNan);
  bool all_instr = true;
  for (const PairReport& r : pairs) {
    if (r.problem != pname) continue;
    if (r.skipped()) {
      skipped.push_back({{"integrator", r.integrator}, {"reason", r.reason}});
      continue;
    }
    if (r.tolerance) {  // ranked from its tolerance ladder (docs/adaptive.md, "Head-to-head")
      const auto& lv = r.tolerance->levels;
      if (!std::any_of(lv.begin(), lv.end(), [&](const ToleranceLevel& l) { return l.errors.count(opt.metric) > 0; })) {
        skipped.push_back(
            {{"integrator", r.integrator},
             {"reason", tolerance_measures(opt.metric)
                            ? cat("adaptive: its report's tolerance levels do not hold ", opt.metric,
                                  " (a report written before 0.5, which measures every error metric at every tolerance)")
                            : cat("adaptive: ", opt.metric, " is not an error metric, which is what a tolerance ladder measures")}});
        continue;
      }
      if (!std::isfinite(h_fixed)) h_fixed = r.settings.h0 / 4;
      rows.push_back(adaptive_compare_row(r, opt, h_fixed, work_series_of(bench, r), all_instr));
      continue;
    }
    const SettingsRecord& st = r.settings;
    // settings.problem is the problem as the run saw it; the schema leaves its inside open, so each
    // level is checked before it is read (a missing "h0" was an assertion in nlohmann's const
    // operator[]: found by fuzz/report.cpp).
    const ordered_json* problem = st.problem && st.problem->is_object() ? &*st.problem : nullptr;
    const ordered_json* pv =
        problem && problem->contains("verification") && problem->at("verification").is_object() ? &problem->at("verification")
                                                                                                   : nullptr;
    if (P.find("title") == P.end() && problem && problem->contains("title") && problem->at("title").is_string())
      P["title"] = problem->at("title");
    if (!std::isfinite(h_fixed)) h_fixed = (pv && pv->contains("h0") ? as_num(pv->at("h0")) : st.h0) / 4;
    const double span = st.t_end - st.t0;
    const auto b = bench_of.find({r.integrator, pname});
    rows.push_back(compare_row(r, metric, opt, pv, h_fixed, span, b != bench_of.end() ? b->second : nullptr, all_instr));
  }
  const char* unit = all_instr ? "instructions" : "cpu_seconds";
  P["h_fixed"] = num(h_fixed);
  P["rank_by"] = cat("cost to reach ", opt.metric, " <= ", format_number(opt.target, 3), " in ", unit);
  // The one unit of the ranked column: a row without a cost in it is unranked and shows none, never
  // a cost in the other unit (a column mixing Minstr and ms cannot be read down).
  P["rank_unit"] = unit;
  P["rows"] = ranked_rows(rows, unit);
  P["skipped"] = skipped;
  return P;
}

}  // namespace

ordered_json compare_reports(const VerifyReport& verify, const BenchReport* bench, const CompareOptions& opt) {
  check_compare_inputs(verify, opt);
  // Per-step cost from the bench report when given (CPU time, instructions), keyed (scheme, problem).
  BenchIndex bench_of;
  if (bench)
    for (const BenchEntry& b : bench->entries) bench_of[{b.integrator, b.problem}] = &b;
  const MetricDef& metric = error_metric(opt.metric);
  const std::vector<PairReport>& pairs = verify.results;
  ordered_json out = report_envelope(0, {}, iso8601_now());
  out["kind"] = "compare";
  out["source"] = {{"verify_git_revision", verify.tool.git_revision},
                   {"verify_suite", verify.suite},
                   {"bench", bench != nullptr}};
  out["metric"] = opt.metric;
  out["metric_definition"] = {{"what", metric.what}, {"units", metric.units}, {"rule", to_string(metric.rule)}};
  out["target_error"] = opt.target;
  out["method"] = kCompareMethod;
  out["problems"] = ordered_json::array();
  for (const std::string& pname : problem_order(pairs, opt))
    if (opt.problems.empty() || std::find(opt.problems.begin(), opt.problems.end(), pname) != opt.problems.end())
      out["problems"].push_back(problem_table(pname, pairs, metric, opt, bench_of, bench));
  return out;
}

namespace {

/// The ranked column's unit of a problem's table; a comparison written before rank_unit existed
/// ranked in instructions exactly when its rank_by says so.
std::string rank_unit(const ordered_json& P) {
  if (P.contains("rank_unit") && P["rank_unit"].is_string()) return P["rank_unit"].get<std::string>();
  return P.value("rank_by", "").find("instructions") != std::string::npos ? "instructions" : "cpu_seconds";
}
double cost_scale(const std::string& unit) { return unit == "instructions" ? 1e-6 : 1e3; }
const char* cost_unit_label(const std::string& unit) { return unit == "instructions" ? "Minstr" : "ms"; }

/// "Not applicable: a, b (reason); c (other reason)." - the schemes grouped by their own reasons, in
/// the report's order of first appearance.
std::string skipped_markdown(const ordered_json& skipped) {
  if (skipped.empty()) return "";
  std::vector<std::pair<std::string, std::string>> groups;  // reason, schemes
  for (const auto& k : skipped) {
    const std::string reason = k.value("reason", ""), name = markdown_text(k.value("integrator", ""));
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == reason; });
    if (g == groups.end()) groups.emplace_back(reason, name);
    else g->second += cat(", ", name);
  }
  std::string s;
  for (const auto& [reason, names] : groups) s += cat(s.empty() ? "" : "; ", names, " (", markdown_text(reason), ")");
  return cat("\nNot applicable: ", s, ".\n");
}

}  // namespace

std::string compare_markdown(const ordered_json& c) {
  // Every string that came from a report (titles, reasons, names, keys) goes through markdown_text:
  // a '|' or a line break would cut the table, HTML would be rendered by GitHub.
  std::ostringstream o;
  o << "# Head-to-head comparison\n\n";
  o << "Metric `" << c.value("metric", "") << "`";
  if (c.contains("metric_definition"))
    o << " (" << c["metric_definition"].value("what", "") << ", " << c["metric_definition"].value("units", "") << ")";
  o << ", target error " << fmt(as_num(c["target_error"])) << ". " << markdown_text(c.value("method", "")) << " `~` marks a value read outside the measured asymptotic range.\n";
  for (const auto& P : c["problems"]) {
    o << "\n## " << markdown_text(P.value("problem", ""));
    if (P.contains("title")) o << " — " << markdown_text(P["title"].get<std::string>());
    o << "\n\nRanked by " << markdown_text(P.value("rank_by", "")) << "; error at fixed h = " << fmt(as_num(P["h_fixed"])) << ".";
    for (const auto& r : P["rows"])
      if (r.contains("attitude_anatomy")) {
        o << " Attitude phase: the final attitude error's rotation about " << markdown_text(r["attitude_anatomy"].value("axis", ""))
          << " (signed, rad); shape: the rest.";
        break;
      }
    o << "\n\n";
    if (P["rows"].empty()) {
      o << "No scheme of the report integrates this problem: nothing to rank.\n";
      o << skipped_markdown(P["skipped"]);
      continue;
    }
    const std::string unit = rank_unit(P);
    o << "| rank | scheme | kind | order obs/exp | Q_II (2^p) | exact claims held | unclaimed, exact at every h | "
         "error at h | attitude: phase / shape (h) | ns/step (x odeint, x rk4) | instr/step (x odeint, x rk4) | flops/step (instr/flop) | steps to target | cost to target ("
      << cost_unit_label(unit) << ") |\n";
    o << "|---:|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const auto& r : P["rows"]) {
      auto list = [](const ordered_json& a) {
        std::string s;
        for (const auto& x : a) s += cat(s.empty() ? "" : ", ", markdown_text(x.template get<std::string>()));
        return s.empty() ? std::string("-") : s;
      };
      const auto& inv = r["invariants"];
      std::string claims = list(inv["claimed_and_held"]);
      if (!inv["claimed_and_failed"].empty()) claims += cat(" **FAILED: ", list(inv["claimed_and_failed"]), "**");
      const std::string tilde_e = r["error_at_h"]["extrapolated"].get<bool>() ? "~" : "";
      const auto& ct = r["cost_to_target"];
      const std::string tilde_c = ct["extrapolated"].get<bool>() ? "~" : "";
      const auto& cp = r["cost_per_step"];
      std::string anatomy = "-";
      if (r.contains("attitude_anatomy")) {
        const auto& a = r["attitude_anatomy"];
        anatomy = cat(fmt(as_num(a["phase"])), " / ", fmt(as_num(a["shape"])), " (", fmt(as_num(a["h"])), ")");
      }
      const double c_unit = as_num(ct[unit]);
      const std::string cost = std::isfinite(c_unit) && c_unit > 0 ? tilde_c + fmt(c_unit * cost_scale(unit)) : "-";
      o << "| " << (r["rank"].is_number() ? std::to_string(r["rank"].get<int>()) : std::string("-")) << " | "
        << markdown_text(r.value("integrator", "")) << (r.value("status", "") != "ok" ? cat(" (", markdown_text(r.value("status", "")), ")") : "")
        << (r.contains("adaptive") ? cat(" (tol ", tilde_c, fmt(as_num(ct.value("tolerance", ordered_json()))), ")") : std::string())
        << " | " << markdown_text(r.value("kind", "")) << " | " << fmt(as_num(r["order"]["observed"])) << "/"
        << fmt(as_num(r["order"]["expected"])) << " " << r["order"].value("verdict", "") << " | "
        << fmt(as_num(r["q_ii"]["median"]), 4) << " (" << fmt(as_num(r["q_ii"]["expected"])) << ") "
        << r["q_ii"].value("verdict", "") << " | " << claims << " | " << list(inv["unclaimed_exact_at_every_level"]) << " | "
        << tilde_e
        << (r["error_at_h"].value("clipped", false) ? std::string("pi (clipped)") : fmt(as_num(r["error_at_h"]["error"])))
        << " | " << anatomy << " | " << fmt(as_num(cp["ns"]), 4) << (cp.value("declared", false) ? " declared" : "")
        << (cp.value("runtime", std::string("native")) != "native" ? cat(" (", cp.value("runtime", std::string()), ")") : std::string())
        << (cp.contains("not_comparable") ? " (unoptimised build: not comparable)" : "") << " ("
        << fmt(as_num(cp["ratio_to_baseline"])) << ", " << fmt(as_num(cp.value("ratio_to_rk4", ordered_json()))) << ") | "
        << fmt(as_num(cp["instructions"]), 4) << " (" << fmt(as_num(cp["instruction_ratio_to_baseline"])) << ", "
        << fmt(as_num(cp.value("instruction_ratio_to_rk4", ordered_json()))) << ") | "
        << fmt(as_num(cp.value("flops", ordered_json())), 4) << " ("
        << fmt(as_num(cp.value("instructions_per_flop", ordered_json()))) << ") | " << tilde_c << fmt(as_num(ct["steps"])) << " | "
        << cost << (cp.contains("not_comparable") ? " (unoptimised build)" : "") << " |\n";
    }
    o << skipped_markdown(P["skipped"]);
  }
  return o.str();
}

}  // namespace rigidbench
