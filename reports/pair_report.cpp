#include "pair_report.hpp"

#include <cmath>

#include "../core/json_fields.hpp"
#include "../integrators/registry.hpp"
#include "../problems/problem_file.hpp"
#include "../verification/metric_table.hpp"
#include "field_json.hpp"
#include "result_fields.hpp"

namespace rigidbench {

using nlohmann::ordered_json;

namespace {

// ---- writing: one function per section (docs/reports.md) ----

ordered_json qii_json(const QiiResult& q) {
  // The primary level's fields at the top (none: null, with the selection as note), then the section's own.
  ordered_json j = q.primary >= 0 ? field_json::write(q.levels[std::size_t(q.primary)])
                                  : ordered_json{{"h", nullptr}, {"samples", ordered_json::array()}, {"median", nullptr},
                                                 {"min", nullptr}, {"max", nullptr}, {"verdict", "undefined"},
                                                 {"note", q.selection}};
  j.update(field_json::write(q));
  return j;
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
    o.growth = BoundedGrowth{i.growth_by_level[std::size_t(i.judged_level)].slope,
                             i.growth_by_level[std::size_t(i.judged_level)].stderr_slope};
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

template <class J>
QiiResult qii_from(const J& j) {
  QiiResult q = field_json::read_as<QiiResult>(j);
  // The primary level is the one the top-level fields repeat (none: they are null, with the selection as note).
  const ordered_json top = ordered_json::parse(j.dump());
  for (std::size_t k = 0; k < q.levels.size() && q.primary < 0; ++k) {
    const ordered_json lj = field_json::write(q.levels[k]);
    bool same = true;
    for (auto it = lj.begin(); it != lj.end() && same; ++it) same = top.contains(it.key()) && top.at(it.key()) == it.value();
    if (same) q.primary = int(k);
  }
  return q;
}

template <class J>
ToleranceStudy tolerance_from(const J& j) {
  ToleranceStudy T = field_json::read_as<ToleranceStudy>(j);
  for (const ToleranceLevel& l : T.levels) T.translating = T.translating || l.translating;
  return T;
}

template <class J>
PairReport read_pair(const J& j) {
  using field_json::read;
  PairReport r;
  read(at_or_null(j, "integrator"), r.integrator);
  read(at_or_null(j, "problem"), r.problem);
  read(at_or_null(j, "status"), r.status);
  read(at_or_null(j, "reason"), r.reason);
  if (r.skipped()) return r;
  read(at_or_null(j, "scheme"), r.scheme);
  read(at_or_null(j, "settings"), r.settings);
  read(at_or_null(j, "levels"), r.levels);
  // In the metric table's order, as written.
  for (const MetricDef& m : metric_table()) {
    if (!is_error_metric(m)) continue;
    const std::string name(m.name);
    const auto& section = at_or_null(j, to_string(m.section));
    if (section.is_object() && section.contains(name))
      (m.section == MetricSection::convergence ? r.convergence : r.paper_measures)
          .emplace_back(name, field_json::read_as<Convergence>(section.at(name)));
  }
  r.q_ii = qii_from(at_or_null(j, "q_ii"));
  r.q_ii_full = qii_from(at_or_null(j, "q_ii_full"));
  read(at_or_null(j, "invariants"), r.invariants);
  read(at_or_null(j, "error_anatomy"), r.anatomy);
  read(at_or_null(j, "structure"), r.structure);
  read(at_or_null(j, "reference"), r.reference);
  read(at_or_null(j, "cost"), r.cost);
  read(at_or_null(j, "history"), r.history);
  read(at_or_null(j, "long_time_energy"), r.long_time);
  if (const auto& tl = at_or_null(j, "tolerance_ladder"); tl.is_object()) r.tolerance = tolerance_from(tl);
  read(at_or_null(j, "seconds"), r.seconds);
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
      level.breakdown = LevelBreakdown{r.level_failed_at[k], r.level_cause[k]};
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
  o.cost.baseline = std::string(baseline_scheme().info->name);
  o.cost.rk4_baseline = std::string(rk4_baseline_scheme().info->name);
  if (r.history.level >= 0) o.history = r.history;
  o.long_time = r.long_time;
  o.tolerance = r.tolerance;
  o.seconds = r.seconds;
  return o;
}

PairReport PairReport::read(const ordered_json& j) { return read_pair(j); }
PairReport PairReport::read(const nlohmann::json& j) { return read_pair(j); }

ordered_json PairReport::to_json() const {
  using field_json::write;
  ordered_json j;
  j["integrator"] = integrator;
  j["problem"] = problem;
  j["status"] = status;
  j["reason"] = reason;
  if (skipped()) return j;
  if (scheme) j["scheme"] = write(*scheme);
  j["settings"] = write(settings);
  // The step ladder's sections; an adaptive scheme has its tolerance ladder instead (below).
  if (!tolerance) {
    j["levels"] = write(levels);
    j["convergence"] = write(convergence);
    j["paper_measures"] = write(paper_measures);
    j["q_ii"] = qii_json(q_ii);
    j["q_ii_full"] = qii_json(q_ii_full);
  }
  // Both ladders: an adaptive scheme's invariant claims are judged on its tolerance ladder.
  if (!tolerance || !invariants.empty()) j["invariants"] = write(invariants);
  if (!tolerance) {
    if (anatomy) j["error_anatomy"] = write(*anatomy);
    if (structure) j["structure"] = write(*structure);
    j["true_vs_printed_note"] = kTrueVsPrinted;
  }
  if (reference) j["reference"] = write(*reference);
  j["cost"] = write(cost);
  if (history) j["history"] = write(*history);
  if (long_time) j["long_time_energy"] = write(*long_time);
  if (tolerance) j["tolerance_ladder"] = write(*tolerance);
  if (seconds) j["seconds"] = write(*seconds);
  return j;
}

}  // namespace rigidbench
