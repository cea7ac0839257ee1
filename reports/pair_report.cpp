#include "pair_report.hpp"

#include <cmath>

#include "../core/json_fields.hpp"
#include "../core/json_numbers.hpp"
#include "../integrators/registry.hpp"
#include "../problems/problem_file.hpp"
#include "../verification/metric_table.hpp"

namespace rigidbench {

using nlohmann::ordered_json;

namespace {

using json_numbers::num;
using json_numbers::nums;

// ---- writing: one function per section (docs/reports.md) ----

ordered_json convergence_json(const Convergence& c) {
  ordered_json j;
  j["h"] = nums(c.h);
  j["error"] = nums(c.error);
  j["slope"] = num(c.fit.slope);
  j["stderr"] = num(c.fit.stderr_slope);
  j["r2"] = num(c.fit.r2);
  j["local_slopes"] = nums(c.local_slopes);
  j["expected"] = num(c.expected);
  j["expected_is_lower_bound"] = c.at_least;
  j["verdict"] = to_string(c.verdict);
  j["asymptotic"] = c.asymptotic;
  j["floor"] = nums(c.floor);
  if (!c.rounding.empty()) j["rounding"] = nums(c.rounding);
  j["gating"] = c.gating;
  j["note"] = c.note;
  return j;
}

ordered_json qii_level_json(const QiiLevel& q) {
  ordered_json j;
  j["h"] = num(q.h);
  j["samples"] = ordered_json::array();
  for (std::size_t i = 0; i < q.sample_t.size(); ++i)
    j["samples"].push_back({{"t", num(q.sample_t[i])}, {"value", num(q.sample_value[i])}});
  j["median"] = num(q.median);
  j["min"] = num(q.min);
  j["max"] = num(q.max);
  j["defined_points"] = q.defined_points;
  j["undefined_points"] = q.undefined_points;
  j["verdict"] = to_string(q.verdict);
  j["note"] = q.note;
  return j;
}

ordered_json qii_json(const QiiResult& q) {
  ordered_json j;
  if (q.primary >= 0) {
    j = qii_level_json(q.levels[std::size_t(q.primary)]);
  } else {
    j = {{"h", nullptr}, {"samples", ordered_json::array()}, {"median", nullptr}, {"min", nullptr},
         {"max", nullptr}, {"verdict", "undefined"}, {"note", q.selection}};
  }
  j["expected"] = num(q.expected);
  j["components"] = q.components;
  j["selection"] = q.selection;
  j["levels"] = ordered_json::array();
  for (const auto& l : q.levels) j["levels"].push_back(qii_level_json(l));
  return j;
}

ordered_json scheme_json(const SchemeRecord& s) {
  ordered_json j = {{"title", s.title},
                    {"source", s.source},
                    {"order", s.order},
                    {"kind", s.kind},
                    {"representation", s.representation},
                    {"notes", s.notes},
                    {"builtin", s.builtin},
                    {"origin", s.origin}};
  if (s.version) j["version"] = *s.version;
  return j;
}

ordered_json settings_json(const SettingsRecord& s) {
  ordered_json j;
  j["h0"] = num(s.h0);
  j["levels"] = s.levels;
  j["h"] = nums(s.h);
  j["t0"] = num(s.t0);
  j["t_end"] = num(s.t_end);
  j["observation_interval"] = num(s.observation_interval);
  j["observation_points"] = s.observation_points;
  j["q_ii_norm"] = s.q_ii_norm;
  if (s.problem) j["problem"] = *s.problem;
  if (s.scheme) j["scheme"] = *s.scheme;
  return j;
}

ordered_json level_json(const LevelRecord& l) {
  ordered_json j{{"h", num(l.h)}};
  if (l.steps) j["steps"] = *l.steps;
  j["status"] = l.status;
  if (l.seconds) j["seconds"] = num(*l.seconds);
  // Where and why the level broke down (the pair's reason names the first such level only).
  if (l.breakdown) j["breakdown"] = {{"t", num(l.breakdown->first)}, {"reason", l.breakdown->second}};
  return j;
}

ordered_json invariant_json(const InvariantRecord& i) {
  ordered_json growth = nullptr;
  if (i.growth)
    growth = {{"exponent", num(i.growth->slope)}, {"stderr", num(i.growth->stderr_slope)}, {"limit", kBoundedGrowth}};
  ordered_json j;
  if (i.kind) j["kind"] = *i.kind;
  j["description"] = i.description;
  j["claim"] = i.claim;
  j["initial"] = num(i.initial);
  j["scale"] = num(i.scale);
  j["roundoff_scale"] = num(i.roundoff_scale);
  j["drift"] = num(i.drift);
  j["drift_by_level"] = nums(i.drift_by_level);
  j["first_half"] = num(i.first_half);
  j["second_half"] = num(i.second_half);
  j["judged_level"] = i.judged_level ? ordered_json(*i.judged_level) : ordered_json(nullptr);
  j["growth"] = growth;
  j["threshold"] = num(i.threshold);
  j["verdict"] = i.verdict;
  j["failed_at_roundoff"] = i.failed_at_roundoff;
  j["note"] = i.note;
  return j;
}

ordered_json anatomy_json(const ErrorAnatomy& a) {
  return {{"axis", a.axis.description},
          {"axis_frame", a.axis.body ? "body" : "space"},
          {"axis_components", {num(a.axis.axis[0]), num(a.axis.axis[1]), num(a.axis.axis[2])}},
          {"t", num(a.t)},
          {"h", nums(a.h)},
          {"total", nums(a.total)},
          {"phase", nums(a.phase)},
          {"shape", nums(a.shape)},
          {"note", "final attitude error per level: delta = log(R_ref^T R) for a body axis, "
                   "log(R R_ref^T) for a spatial one; phase = delta . axis (rad, signed), shape = "
                   "|delta - phase axis|, total = |delta| (docs/metrics.md, Error anatomy)"}};
}

ordered_json structure_json(const StructureResult& st) {
  ordered_json j = ordered_json::object();
  for (const StructureCheck* c : {&st.symmetric, &st.symplectic})
    j[c->property] = {{"claimed", c->claimed},
                      {"observed", to_string(c->observed)},
                      {"verdict", c->claimed && c->observed != Observed::not_checked ? ordered_json(to_string(c->verdict))
                                                                                      : ordered_json(nullptr)},
                      {"h", nums(c->h)},
                      {"defect", nums(c->defect)},
                      {"allowance", nums(c->allowance)},
                      {"slope", num(c->slope)},
                      {"note", c->note}};
  j["order_parity"] = st.order_parity;
  return j;
}

ordered_json reference_json(const ReferenceRecord& ref) {
  return {{"kind", ref.kind},
          {"formulation", ref.formulation},
          {"stepper", ref.stepper},
          {"tolerance", num(ref.tolerance)},
          {"error_estimate", num(ref.error_estimate)},
          {"error_estimate_attitude", num(ref.error_estimate_attitude)},
          {"error_estimate_omega", num(ref.error_estimate_omega)},
          {"steps", ref.steps},
          {"precision", ref.precision},
          {"notes", ref.notes},
          {"seconds", num(ref.seconds)},
          {"from_cache", ref.from_cache}};
}

constexpr const char* kDefaultCostSource = "wall clock, min of repetitions of a fixed-work run (informational)";
constexpr const char* kDeclaredBy = "the program that wrote the trajectories (not measured by rigidbench)";

ordered_json cost_json(const CostResult& c, const std::string& baseline, const std::string& rk4_baseline) {
  ordered_json j = {{"ns_per_step", num(c.ns_per_step)},
                    {"instructions_per_step", nullptr},
                    {"ratio_to_baseline", num(c.ratio_to_baseline)},
                    {"baseline", baseline},
                    {"ratio_to_rk4", num(c.ratio_to_rk4)},
                    {"rk4_baseline", rk4_baseline},
                    {"load_evaluations_per_step", num(c.load_evaluations_per_step)},
                    {"newton_iterations_per_step", num(c.newton_iterations_per_step)},
                    {"source", c.source.empty() ? std::string(kDefaultCostSource) : c.source},
                    {"h", num(c.h)},
                    {"steps", c.steps},
                    {"repetitions", c.repetitions}};
  if (std::isfinite(c.call_overhead_ns)) j["call_overhead_ns"] = c.call_overhead_ns;
  if (c.declared)
    j["declared"] = {{"by", kDeclaredBy}, {"machine", c.machine}, {"method", c.method}, {"ns_per_step_by_level", nums(c.ns_by_level)}};
  return j;
}

constexpr const char* kHistoryNote =
    "finest level that ran, observation grid thinned to <= ~256 points; invariants as (I - I0)/S_I; Q_II at its "
    "primary level";

ordered_json history_json(const History& H) {
  ordered_json inv = ordered_json::object();
  for (const auto& [name, dev] : H.invariants) inv[name] = nums(dev);
  return {{"level", H.level},
          {"h", num(H.h)},
          {"note", kHistoryNote},
          {"t", nums(H.t)},
          {"attitude_error", nums(H.attitude_error)},
          {"invariants", inv},
          {"q_ii", {{"h", num(H.q_ii_h)}, {"t", nums(H.q_ii_t)}, {"value", nums(H.q_ii)}}}};
}

ordered_json long_time_json(const LongTimeEnergy& L) {
  return {{"status", L.status},
          {"reason", L.reason},
          {"h", num(L.h)},
          {"steps", L.steps},
          {"steps_run", L.steps_run},
          {"scale", num(L.scale)},
          {"t", nums(L.t)},
          {"max_deviation", nums(L.max_deviation)},
          {"exponent", num(L.fit.slope)},
          {"exponent_stderr", num(L.fit.stderr_slope)},
          {"behaviour", L.behaviour},
          {"uncertain", L.uncertain},
          {"seconds", num(L.seconds)}};
}

ordered_json tolerance_json(const ToleranceStudy& T) {
  ordered_json levels = ordered_json::array();
  for (const ToleranceLevel& l : T.levels) {
    ordered_json drift = ordered_json::object();
    for (std::size_t i = 0; i < l.invariant_drift.size() && i < T.invariant_names.size(); ++i)
      drift[T.invariant_names[i]] = num(l.invariant_drift[i]);
    const Counters& c = l.counters;
    ordered_json errors = ordered_json::object();
    for (const auto& [name, e] : l.errors) errors[name] = num(e);
    // attitude_error ... omega_error_final: the four error metrics the first adaptive reports wrote,
    // kept under their keys for readers of those (errors holds every error metric).
    levels.push_back({{"tol", num(l.tol)},
                      {"status", l.ok ? "ok" : "breakdown"},
                      {"reason", l.reason},
                      {"attitude_error", num(l.error("attitude_error_max"))},
                      {"omega_error", num(l.error("omega_error_max"))},
                      {"attitude_error_final", num(l.error("attitude_error_final"))},
                      {"omega_error_final", num(l.error("omega_error_final"))},
                      {"errors", errors},
                      {"floor", num(l.floor)},
                      {"above_floor", l.above_floor},
                      {"grid_bound", l.grid_bound},
                      {"accepted_steps", c.accepted_steps},
                      {"rejected_steps", c.rejected_steps},
                      {"shortened_steps", c.shortened_steps},
                      {"rhs_evaluations", c.rhs_evaluations},
                      {"load_evaluations", c.load_evaluations},
                      {"rejected_fraction", num(l.rejected_fraction)},
                      {"seconds", num(l.seconds)},
                      {"invariant_drift", drift}});
    if (std::isfinite(l.seconds_max)) levels.back()["seconds_max"] = l.seconds_max;
    if (!l.dense_errors.empty()) {
      ordered_json d = ordered_json::object();
      for (const auto& [name, e] : l.dense_errors) d[name] = num(e);
      levels.back()["dense"] = {{"errors", d}, {"accepted_steps", l.dense_accepted_steps}};
    }
    if (T.translating) {  // a body system: its positions are judged too (judged_error)
      levels.back()["position_error"] = num(l.position_error);
      levels.back()["position_error_final"] = num(l.position_error_final);
    }
  }
  ordered_json out = {{"tol0", num(T.tol0)},
          {"span", num(T.span)},
          {"output_intervals", T.output_intervals},
          {"dense_intervals", T.dense_intervals},
          {"timing_repetitions", T.repetitions},
          {"levels", levels},
          {"proportionality",
           {{"slope", num(T.proportionality.slope)},
            {"stderr", num(T.proportionality.stderr_slope)},
            {"expected", T.expected_slope},
            {"tolerance", kProportionalityTolerance},
            {"verdict", to_string(T.proportionality_verdict)},
            {"note", T.proportionality_note}}},
          {"omega_slope", num(T.omega_proportionality.slope)},
          {"omega_slope_stderr", num(T.omega_proportionality.stderr_slope)},
          {"error_over_tolerance", {{"min", num(T.ratio_min)}, {"max", num(T.ratio_max)}}},
          {"effective_order", num(T.effective_order)},
          {"rejected_fraction",
           {{"max", num(T.rejected_fraction)},
            {"allowed", kMaxRejectedFraction},
            {"verdict", to_string(T.rejection_verdict)},
            {"note", T.rejection_note}}}};
  if (T.estimator) {
    const EstimatorOrder& E = *T.estimator;
    out["estimator"] = {{"h", nums(E.h)},
                        {"estimate", nums(E.estimate)},
                        {"slope", num(E.fit.slope)},
                        {"stderr", num(E.fit.stderr_slope)},
                        {"points", E.points},
                        {"expected", num(E.expected)},
                        {"tolerance", kEstimatorTolerance},
                        {"verdict", to_string(E.verdict)},
                        {"note", E.note}};
  }
  return out;
}

constexpr const char* kTrueVsPrinted =
    "paper 001's printed q-error compares squared H1 norms, so a scheme of order p shows slope p/2 in it; "
    "the true H1 distance (convergence.h1_distance) shows slope p.";

// ---- from a run's result ----

SchemeRecord scheme_of(const PairResult& r, const SchemeInfo& info) {
  SchemeRecord s{std::string(info.title), std::string(info.source), info.order, to_string(info.kind),
                 std::string(info.representation), std::string(info.notes), r.origin == SchemeOrigin::builtin,
                 to_string(r.origin), std::nullopt};
  if (!info.version.empty()) s.version = std::string(info.version);
  return s;
}

SettingsRecord settings_of(const PairResult& r, const SchemeInfo& info, const Problem* p) {
  const Ladder& L = r.ladder;
  SettingsRecord s{L.h0, L.levels, r.h, L.t0, L.t_end(), L.obs_dt(), L.m + 1,
                   "configuration (9 director components of R), paper 000 Appendix A", std::nullopt, std::nullopt};
  if (p) s.problem = problem_to_json(*p);
  if (!info.settings.empty()) {
    ordered_json sch = ordered_json::object();  // every declared setting, given or default
    for (const SettingInfo& si : info.settings) sch[std::string(si.name)] = r.scheme_settings.get(si);
    s.scheme = sch;
  }
  return s;
}

InvariantRecord invariant_of(const InvariantResult& i) {
  InvariantRecord o{i.kind,       i.description, to_string(i.claim), i.initial,    i.scale,     i.roundoff_scale,
                    i.drift,      i.drift_by_level, i.first_half,    i.second_half, std::nullopt, std::nullopt,
                    i.threshold,  to_string(i.verdict), i.failed_at_roundoff, i.note};
  if (i.judged_level >= 0) o.judged_level = i.judged_level;
  // The judged level's growth exponent of the running maximum deviation (the bounded rule).
  if (i.claim == Claim::bounded && i.judged_level >= 0 && std::size_t(i.judged_level) < i.growth_by_level.size())
    o.growth = i.growth_by_level[std::size_t(i.judged_level)];
  return o;
}

ReferenceRecord reference_of(const ReferenceSolution& ref) {
  return {ref.kind,  ref.formulation, ref.stepper, ref.tolerance, ref.error_estimate.max(), ref.error_estimate.attitude,
          ref.error_estimate.omega, std::int64_t(ref.steps), ref.precision, ref.notes, ref.seconds, ref.from_cache};
}

// ---- reading ----
// The schema requires few fields (reports of earlier versions, hand-made ones): everything else is
// read where present and of its type, and takes its default otherwise - never an exception that is
// not the input's fault to report.

using json_fields::at_or_null;
using json_fields::b_at;
using json_fields::i_at;
using json_fields::n_at;
using json_fields::n_of;
using json_fields::ns_at;
using json_fields::ns_of;
using json_fields::s_at;

Verdict verdict_named(const std::string& s) {
  for (Verdict v : {Verdict::pass, Verdict::fail, Verdict::undefined})
    if (s == to_string(v)) return v;
  return Verdict::undefined;
}
Observed observed_named(const std::string& s) {
  for (Observed o : {Observed::preserved, Observed::broken, Observed::undecided, Observed::not_checked})
    if (s == to_string(o)) return o;
  return Observed::not_checked;
}

template <class J>
Convergence convergence_from(const J& j) {
  Convergence c;
  c.h = ns_at(j, "h");
  c.error = ns_at(j, "error");
  c.fit.slope = n_at(j, "slope");
  c.fit.stderr_slope = n_at(j, "stderr");
  c.fit.r2 = n_at(j, "r2");
  c.local_slopes = ns_at(j, "local_slopes");
  c.expected = n_at(j, "expected");
  c.at_least = b_at(j, "expected_is_lower_bound", false);
  c.verdict = verdict_named(s_at(j, "verdict"));
  for (const auto& a : at_or_null(j, "asymptotic")) c.asymptotic.push_back(a.is_boolean() && a.template get<bool>());
  c.floor = ns_at(j, "floor");
  c.rounding = ns_at(j, "rounding");
  c.gating = b_at(j, "gating", true);
  c.note = s_at(j, "note");
  return c;
}

template <class J>
QiiLevel qii_level_from(const J& j) {
  QiiLevel q;
  q.h = n_at(j, "h");
  for (const auto& s : at_or_null(j, "samples")) {
    q.sample_t.push_back(n_at(s, "t"));
    q.sample_value.push_back(n_at(s, "value"));
  }
  q.median = n_at(j, "median");
  q.min = n_at(j, "min");
  q.max = n_at(j, "max");
  q.defined_points = std::size_t(std::max<std::int64_t>(0, i_at(j, "defined_points")));
  q.undefined_points = std::size_t(std::max<std::int64_t>(0, i_at(j, "undefined_points")));
  q.verdict = verdict_named(s_at(j, "verdict"));
  q.note = s_at(j, "note");
  return q;
}

template <class J>
QiiResult qii_from(const J& j) {
  QiiResult q;
  q.expected = n_at(j, "expected");
  for (const auto& c : at_or_null(j, "components"))
    if (c.is_string()) q.components.push_back(c.template get<std::string>());
  q.selection = s_at(j, "selection");
  for (const auto& l : at_or_null(j, "levels")) q.levels.push_back(qii_level_from(l));
  // The primary level is the one the top-level fields repeat (none: they are null, with the selection as note).
  const ordered_json top = ordered_json::parse(j.dump());
  for (std::size_t k = 0; k < q.levels.size() && q.primary < 0; ++k) {
    const ordered_json lj = qii_level_json(q.levels[k]);
    bool same = true;
    for (auto it = lj.begin(); it != lj.end() && same; ++it) same = top.contains(it.key()) && top.at(it.key()) == it.value();
    if (same) q.primary = int(k);
  }
  return q;
}

template <class J>
InvariantRecord invariant_from(const J& j) {
  InvariantRecord i;
  if (at_or_null(j, "kind").is_string()) i.kind = j.at("kind").template get<std::string>();
  i.description = s_at(j, "description");
  i.claim = s_at(j, "claim", "none");
  i.initial = n_at(j, "initial");
  i.scale = n_at(j, "scale");
  i.roundoff_scale = n_at(j, "roundoff_scale");
  i.drift = n_at(j, "drift");
  i.drift_by_level = ns_at(j, "drift_by_level");
  i.first_half = n_at(j, "first_half");
  i.second_half = n_at(j, "second_half");
  if (at_or_null(j, "judged_level").is_number_integer()) i.judged_level = j.at("judged_level").template get<int>();
  if (const auto& g = at_or_null(j, "growth"); g.is_object()) {
    LineFit f;
    f.slope = n_at(g, "exponent");
    f.stderr_slope = n_at(g, "stderr");
    i.growth = f;
  }
  i.threshold = n_at(j, "threshold");
  i.verdict = s_at(j, "verdict", "undefined");
  i.failed_at_roundoff = b_at(j, "failed_at_roundoff", false);
  i.note = s_at(j, "note");
  return i;
}

template <class J>
ErrorAnatomy anatomy_from(const J& j) {
  ErrorAnatomy a;
  a.axis.description = s_at(j, "axis");
  a.axis.body = s_at(j, "axis_frame") != "space";
  const std::vector<double> axis = ns_at(j, "axis_components");
  for (std::size_t k = 0; k < 3; ++k) a.axis.axis[Eigen::Index(k)] = k < axis.size() ? axis[k] : kNaN;
  a.t = n_at(j, "t");
  a.h = ns_at(j, "h");
  a.total = ns_at(j, "total");
  a.phase = ns_at(j, "phase");
  a.shape = ns_at(j, "shape");
  return a;
}

template <class J>
StructureResult structure_from(const J& j) {
  StructureResult st;
  for (StructureCheck* c : {&st.symmetric, &st.symplectic}) {
    c->property = c == &st.symmetric ? "symmetric" : "symplectic";
    const auto& e = at_or_null(j, c->property.c_str());
    c->claimed = b_at(e, "claimed", false);
    c->observed = observed_named(s_at(e, "observed"));
    c->verdict = verdict_named(s_at(e, "verdict"));
    c->h = ns_at(e, "h");
    c->defect = ns_at(e, "defect");
    c->allowance = ns_at(e, "allowance");
    c->slope = n_at(e, "slope");
    c->note = s_at(e, "note");
  }
  st.order_parity = s_at(j, "order_parity");
  return st;
}

template <class J>
ReferenceRecord reference_from(const J& j) {
  return {s_at(j, "kind"),           s_at(j, "formulation"),         s_at(j, "stepper"),
          n_at(j, "tolerance"),      n_at(j, "error_estimate"),      n_at(j, "error_estimate_attitude"),
          n_at(j, "error_estimate_omega"), i_at(j, "steps"),         s_at(j, "precision"),
          s_at(j, "notes"),          n_at(j, "seconds"),             b_at(j, "from_cache", false)};
}

template <class J>
CostResult cost_from(const J& j) {
  CostResult c;
  c.ns_per_step = n_at(j, "ns_per_step");
  c.ratio_to_baseline = n_at(j, "ratio_to_baseline");
  c.ratio_to_rk4 = n_at(j, "ratio_to_rk4");
  c.load_evaluations_per_step = n_at(j, "load_evaluations_per_step");
  c.newton_iterations_per_step = n_at(j, "newton_iterations_per_step");
  c.source = s_at(j, "source");
  c.h = n_at(j, "h");
  c.steps = int(i_at(j, "steps"));
  c.repetitions = int(i_at(j, "repetitions"));
  c.call_overhead_ns = n_at(j, "call_overhead_ns");
  if (const auto& d = at_or_null(j, "declared"); d.is_object()) {
    c.declared = true;
    c.machine = s_at(d, "machine");
    c.method = s_at(d, "method");
    c.ns_by_level = ns_at(d, "ns_per_step_by_level");
  }
  return c;
}

template <class J>
History history_from(const J& j) {
  History H;
  H.level = int(i_at(j, "level", -1));
  H.h = n_at(j, "h");
  H.t = ns_at(j, "t");
  H.attitude_error = ns_at(j, "attitude_error");
  if (const auto& inv = at_or_null(j, "invariants"); inv.is_object())
    for (auto it = inv.begin(); it != inv.end(); ++it) H.invariants.emplace_back(it.key(), ns_of(it.value()));
  const auto& q = at_or_null(j, "q_ii");
  H.q_ii_h = n_at(q, "h");
  H.q_ii_t = ns_at(q, "t");
  H.q_ii = ns_at(q, "value");
  return H;
}

template <class J>
LongTimeEnergy long_time_from(const J& j) {
  LongTimeEnergy L;
  L.status = s_at(j, "status", "ok");
  L.reason = s_at(j, "reason");
  L.h = n_at(j, "h");
  L.steps = i_at(j, "steps");
  L.steps_run = i_at(j, "steps_run");
  L.scale = n_at(j, "scale");
  L.t = ns_at(j, "t");
  L.max_deviation = ns_at(j, "max_deviation");
  L.fit.slope = n_at(j, "exponent");
  L.fit.stderr_slope = n_at(j, "exponent_stderr");
  L.behaviour = s_at(j, "behaviour", "undefined");
  L.uncertain = b_at(j, "uncertain", false);
  L.seconds = n_at(j, "seconds");
  return L;
}

template <class J>
ToleranceStudy tolerance_from(const J& j) {
  ToleranceStudy T;
  T.tol0 = n_at(j, "tol0");
  T.span = n_at(j, "span");
  T.output_intervals = std::size_t(i_at(j, "output_intervals"));
  if (at_or_null(j, "dense_intervals").is_number()) T.dense_intervals = std::size_t(i_at(j, "dense_intervals"));
  T.repetitions = at_or_null(j, "timing_repetitions").is_number() ? int(i_at(j, "timing_repetitions")) : 1;
  const auto u64 = [](const J& o, const char* k) { return std::uint64_t(std::max<std::int64_t>(0, i_at(o, k))); };
  for (const auto& l : at_or_null(j, "levels")) {
    ToleranceLevel lv;
    lv.tol = n_at(l, "tol");
    lv.ok = s_at(l, "status", "ok") == "ok";
    lv.reason = s_at(l, "reason");
    if (const auto& errors = at_or_null(l, "errors"); errors.is_object()) {
      for (auto it = errors.begin(); it != errors.end(); ++it) lv.errors[it.key()] = n_at(errors, it.key().c_str());
    } else {  // a report from before every error metric was measured: the four it wrote
      for (const auto& [key, metric] : {std::pair{"attitude_error", "attitude_error_max"}, {"omega_error", "omega_error_max"},
                                        {"attitude_error_final", "attitude_error_final"},
                                        {"omega_error_final", "omega_error_final"}})
        if (l.contains(key)) lv.errors[metric] = n_at(l, key);
    }
    if (l.contains("position_error")) {
      T.translating = true;
      lv.position_error = n_at(l, "position_error");
      lv.position_error_final = n_at(l, "position_error_final");
    }
    lv.floor = n_at(l, "floor");
    lv.above_floor = b_at(l, "above_floor", false);
    lv.grid_bound = b_at(l, "grid_bound", false);
    lv.counters.accepted_steps = u64(l, "accepted_steps");
    lv.counters.rejected_steps = u64(l, "rejected_steps");
    lv.counters.shortened_steps = u64(l, "shortened_steps");
    lv.counters.rhs_evaluations = u64(l, "rhs_evaluations");
    lv.counters.load_evaluations = u64(l, "load_evaluations");
    lv.rejected_fraction = n_at(l, "rejected_fraction");
    lv.seconds = n_at(l, "seconds");
    if (at_or_null(l, "seconds_max").is_number()) lv.seconds_max = n_at(l, "seconds_max");
    if (const auto& dense = at_or_null(l, "dense"); dense.is_object()) {
      const auto& errors = at_or_null(dense, "errors");
      if (errors.is_object())
        for (auto it = errors.begin(); it != errors.end(); ++it) lv.dense_errors[it.key()] = n_at(errors, it.key().c_str());
      lv.dense_accepted_steps = u64(dense, "accepted_steps");
    }
    const auto& drift = at_or_null(l, "invariant_drift");
    if (drift.is_object()) {
      std::vector<std::string> names;
      for (auto it = drift.begin(); it != drift.end(); ++it) {
        names.push_back(it.key());
        lv.invariant_drift.push_back(n_of(it.value()));
      }
      if (T.invariant_names.empty()) T.invariant_names = names;
    }
    T.levels.push_back(std::move(lv));
  }
  const auto& pr = at_or_null(j, "proportionality");
  T.proportionality.slope = n_at(pr, "slope");
  T.proportionality.stderr_slope = n_at(pr, "stderr");
  T.proportionality_verdict = verdict_named(s_at(pr, "verdict"));
  if (const double e = n_at(pr, "expected"); std::isfinite(e)) T.expected_slope = e;
  T.proportionality_note = s_at(pr, "note");
  T.omega_proportionality.slope = n_at(j, "omega_slope");
  T.omega_proportionality.stderr_slope = n_at(j, "omega_slope_stderr");
  const auto& band = at_or_null(j, "error_over_tolerance");
  T.ratio_min = n_at(band, "min");
  T.ratio_max = n_at(band, "max");
  T.effective_order = n_at(j, "effective_order");
  const auto& rj = at_or_null(j, "rejected_fraction");
  T.rejected_fraction = n_at(rj, "max");
  T.rejection_verdict = verdict_named(s_at(rj, "verdict"));
  T.rejection_note = s_at(rj, "note");
  if (const auto& es = at_or_null(j, "estimator"); es.is_object()) {
    EstimatorOrder E;
    E.h = ns_at(es, "h");
    E.estimate = ns_at(es, "estimate");
    E.fit.slope = n_at(es, "slope");
    E.fit.stderr_slope = n_at(es, "stderr");
    E.points = int(i_at(es, "points"));
    E.expected = n_at(es, "expected");
    E.verdict = verdict_named(s_at(es, "verdict"));
    E.note = s_at(es, "note");
    T.estimator = std::move(E);
  }
  return T;
}

template <class J>
SettingsRecord settings_from(const J& j) {
  SettingsRecord s;
  s.h0 = n_at(j, "h0");
  s.levels = int(i_at(j, "levels"));
  s.h = ns_at(j, "h");
  s.t0 = n_at(j, "t0");
  s.t_end = n_at(j, "t_end");
  s.observation_interval = n_at(j, "observation_interval");
  s.observation_points = i_at(j, "observation_points");
  s.q_ii_norm = s_at(j, "q_ii_norm");
  if (const auto& p = at_or_null(j, "problem"); !p.is_null()) s.problem = ordered_json::parse(p.dump());
  if (const auto& sc = at_or_null(j, "scheme"); !sc.is_null()) s.scheme = ordered_json::parse(sc.dump());
  return s;
}

template <class J>
SchemeRecord scheme_from(const J& sc) {
  SchemeRecord s{s_at(sc, "title"), s_at(sc, "source"),   int(i_at(sc, "order")), s_at(sc, "kind"),
                 s_at(sc, "representation"), s_at(sc, "notes"), b_at(sc, "builtin", true), s_at(sc, "origin"),
                 std::nullopt};
  if (at_or_null(sc, "version").is_string()) s.version = sc.at("version").template get<std::string>();
  return s;
}

template <class J>
PairReport read_pair(const J& j) {
  PairReport r;
  r.integrator = s_at(j, "integrator");
  r.problem = s_at(j, "problem");
  r.status = s_at(j, "status");
  r.reason = s_at(j, "reason");
  if (r.skipped()) return r;
  if (const auto& sc = at_or_null(j, "scheme"); sc.is_object()) r.scheme = scheme_from(sc);
  r.settings = settings_from(at_or_null(j, "settings"));
  for (const auto& l : at_or_null(j, "levels")) {
    LevelRecord level{n_at(l, "h"), std::nullopt, s_at(l, "status"), std::nullopt, std::nullopt};
    if (at_or_null(l, "seconds").is_number()) level.seconds = n_at(l, "seconds");
    if (at_or_null(l, "steps").is_number_integer()) level.steps = l.at("steps").template get<std::int64_t>();
    if (const auto& b = at_or_null(l, "breakdown"); b.is_object()) level.breakdown = std::pair{n_at(b, "t"), s_at(b, "reason")};
    r.levels.push_back(std::move(level));
  }
  // In the metric table's order, as written.
  for (const MetricDef& m : metric_table()) {
    if (!is_error_metric(m)) continue;
    const std::string name(m.name);
    const auto& section = at_or_null(j, to_string(m.section));
    if (section.is_object() && section.contains(name))
      (m.section == MetricSection::convergence ? r.convergence : r.paper_measures)
          .emplace_back(name, convergence_from(section.at(name)));
  }
  r.q_ii = qii_from(at_or_null(j, "q_ii"));
  r.q_ii_full = qii_from(at_or_null(j, "q_ii_full"));
  if (const auto& inv = at_or_null(j, "invariants"); inv.is_object())
    for (auto it = inv.begin(); it != inv.end(); ++it) r.invariants.emplace_back(it.key(), invariant_from(it.value()));
  if (const auto& a = at_or_null(j, "error_anatomy"); a.is_object()) r.anatomy = anatomy_from(a);
  if (const auto& st = at_or_null(j, "structure"); st.is_object()) r.structure = structure_from(st);
  if (const auto& ref = at_or_null(j, "reference"); ref.is_object()) r.reference = reference_from(ref);
  const auto& cost = at_or_null(j, "cost");
  r.cost = cost_from(cost);
  r.cost_baseline = s_at(cost, "baseline");
  r.cost_rk4_baseline = s_at(cost, "rk4_baseline");
  if (const auto& h = at_or_null(j, "history"); h.is_object()) r.history = history_from(h);
  if (const auto& lt = at_or_null(j, "long_time_energy"); lt.is_object()) r.long_time = long_time_from(lt);
  if (const auto& tl = at_or_null(j, "tolerance_ladder"); tl.is_object()) r.tolerance = tolerance_from(tl);
  if (at_or_null(j, "seconds").is_number()) r.seconds = n_at(j, "seconds");
  return r;
}

}  // namespace

const Convergence* PairReport::ladder(const std::string& metric) const {
  for (const auto& [name, c] : convergence)
    if (name == metric) return &c;
  return nullptr;
}

PairReport PairReport::of(const PairResult& r, const Problem* p) {
  PairReport o;
  o.integrator = r.integrator;
  o.problem = r.problem;
  o.status = r.status;
  o.reason = r.reason;
  if (r.status == "skipped") return o;
  if (r.info == nullptr) throw std::logic_error("PairReport::of: a result of '" + r.integrator + "' without its SchemeInfo");
  const SchemeInfo& info = *r.info;
  o.scheme = scheme_of(r, info);
  o.settings = settings_of(r, info, p);
  for (std::size_t k = 0; k < r.h.size(); ++k) {
    LevelRecord level{r.h[k], r.ladder.steps(int(k)), r.level_status[k], r.level_seconds[k], std::nullopt};
    if (k < r.level_failed_at.size() && r.level_status[k] == "breakdown")
      level.breakdown = std::pair{r.level_failed_at[k], r.level_cause[k]};
    o.levels.push_back(std::move(level));
  }
  // Sections in the metric table's order (verification/metric_table.hpp).
  for (const MetricDef& m : metric_table()) {
    if (!is_error_metric(m)) continue;
    const auto& from = m.section == MetricSection::convergence ? r.convergence : r.paper_measures;
    if (const auto it = from.find(std::string(m.name)); it != from.end())
      (m.section == MetricSection::convergence ? o.convergence : o.paper_measures).emplace_back(it->first, it->second);
  }
  o.q_ii = r.q_ii;
  o.q_ii_full = r.q_ii_full;
  for (const InvariantResult& i : r.invariants) o.invariants.emplace_back(i.name, invariant_of(i));
  o.anatomy = r.anatomy;
  o.structure = r.structure;
  if (r.reference) o.reference = reference_of(*r.reference);
  o.cost = r.cost;
  o.cost_baseline = std::string(baseline_scheme().info->name);
  o.cost_rk4_baseline = std::string(rk4_baseline_scheme().info->name);
  if (r.history.level >= 0) o.history = r.history;
  o.long_time = r.long_time;
  o.tolerance = r.tolerance;
  o.seconds = r.seconds;
  return o;
}

PairReport PairReport::read(const ordered_json& j) { return read_pair(j); }
PairReport PairReport::read(const nlohmann::json& j) { return read_pair(j); }

ordered_json PairReport::to_json() const {
  ordered_json j;
  j["integrator"] = integrator;
  j["problem"] = problem;
  j["status"] = status;
  j["reason"] = reason;
  if (skipped()) return j;
  if (scheme) j["scheme"] = scheme_json(*scheme);
  j["settings"] = settings_json(settings);
  // The step ladder's sections; an adaptive scheme has its tolerance ladder instead (below).
  if (!tolerance) {
    j["levels"] = ordered_json::array();
    for (const LevelRecord& l : levels) j["levels"].push_back(level_json(l));
    j["convergence"] = ordered_json::object();
    j["paper_measures"] = ordered_json::object();
    for (const auto& [name, c] : convergence) j["convergence"][name] = convergence_json(c);
    for (const auto& [name, c] : paper_measures) j["paper_measures"][name] = convergence_json(c);
    j["q_ii"] = qii_json(q_ii);
    j["q_ii_full"] = qii_json(q_ii_full);
  }
  // Both ladders: an adaptive scheme's invariant claims are judged on its tolerance ladder.
  if (!tolerance || !invariants.empty()) {
    j["invariants"] = ordered_json::object();
    for (const auto& [name, i] : invariants) j["invariants"][name] = invariant_json(i);
  }
  if (!tolerance) {
    if (anatomy) j["error_anatomy"] = anatomy_json(*anatomy);
    if (structure) j["structure"] = structure_json(*structure);
    j["true_vs_printed_note"] = kTrueVsPrinted;
  }
  if (reference) j["reference"] = reference_json(*reference);
  j["cost"] = cost_json(cost, cost_baseline, cost_rk4_baseline);
  if (history) j["history"] = history_json(*history);
  if (long_time) j["long_time_energy"] = long_time_json(*long_time);
  if (tolerance) j["tolerance_ladder"] = tolerance_json(*tolerance);
  if (seconds) j["seconds"] = num(*seconds);
  return j;
}

}  // namespace rigidbench
