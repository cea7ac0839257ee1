#include "pair_report.hpp"

#include <cmath>

#include "../integrators/registry.hpp"
#include "../problems/problem_file.hpp"
#include "../verification/metric_table.hpp"
#include "field_json.hpp"
#include "provenance.hpp"
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
                 to_string(r.origin), std::nullopt, std::nullopt, std::nullopt};
  if (!info.version.empty()) s.version = std::string(info.version);
  if (!info.precision.empty()) s.precision = std::string(info.precision);
  // The code the results came from, where it is not rigidbench's revision (docs/history.md).
  // rigidbench's own schemes and engines are that revision's (their libraries pinned by its build).
  if (r.origin != SchemeOrigin::builtin) {
    if (!info.identity.empty()) s.identity = std::string(info.identity);
    else if (!info.version.empty()) s.identity = s.version;
    else if (r.origin == SchemeOrigin::registered) s.identity = program_identity();
  }
  return s;
}

SettingsRecord settings_of(const PairResult& r, const SchemeInfo& info, const Problem* p) {
  const Ladder& L = r.ladder;
  SettingsRecord s{L.h0, L.levels, r.h, L.t0, L.t_end(), L.obs_dt(), L.m + 1,
                   "configuration (9 director components of R), paper 000 Appendix A", std::nullopt, std::nullopt,
                   std::nullopt, std::nullopt};
  if (p) s.problem = problem_to_json(*p);
  if (!r.ladder_stop.empty()) s.ladder_stop = r.ladder_stop, s.levels_planned = r.levels_planned;
  if (!info.settings.empty()) {
    ordered_json sch = ordered_json::object();  // every declared setting, given or default
    for (const SettingInfo& si : info.settings) sch[std::string(si.name)] = r.scheme_settings.get(si);
    s.scheme = sch;
  }
  return s;
}

// ---- reading ----
// The schema requires few fields (reports of earlier versions, hand-made ones): everything else is
// read where present and of its type, and takes its default otherwise - never an exception that is
// not the input's fault to report.

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

/// A section's error ladders in the metric table's order (also from a report read with sorted keys):
/// the table's error metrics of that section, as written.
template <MetricSection S>
void in_table_order(std::vector<std::pair<std::string, Convergence>>& ladders) {
  std::vector<std::pair<std::string, Convergence>> out;
  for (const MetricDef& m : metric_table())
    if (is_error_metric(m) && m.section == S)
      for (auto& [name, c] : ladders)
        if (name == m.name) out.emplace_back(name, std::move(c));
  ladders = std::move(out);
}

/// Which sections a pair's report has (docs/reports.md): a skipped pair its first four fields only;
/// the step ladder's sections, or an adaptive scheme's tolerance ladder instead.
bool ran(const PairReport& r) { return !r.skipped(); }
bool on_steps(const PairReport& r) { return !r.skipped() && !r.tolerance; }

}  // namespace

template <>
struct Fields<PairReport> {
  static void after_read(PairReport& r) {
    for (auto& [name, i] : r.invariants) i.name = name;
    in_table_order<MetricSection::convergence>(r.convergence);
    in_table_order<MetricSection::paper_measures>(r.paper_measures);
  }
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(integrator), RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(status), RIGIDBENCH_FIELD(reason),
        RIGIDBENCH_FIELD(scheme, Written::if_set), RIGIDBENCH_FIELD(settings, ran), RIGIDBENCH_FIELD(levels, on_steps),
        RIGIDBENCH_FIELD(convergence, on_steps), RIGIDBENCH_FIELD(paper_measures, on_steps),
        computed("q_ii", [](const PairReport& r) { return qii_json(r.q_ii); },
                 [](PairReport& r, const ordered_json& j) { r.q_ii = qii_from(j); }, on_steps),
        computed("q_ii_full", [](const PairReport& r) { return qii_json(r.q_ii_full); },
                 [](PairReport& r, const ordered_json& j) { r.q_ii_full = qii_from(j); }, on_steps),
        // Both ladders: an adaptive scheme's invariant claims are judged on its tolerance ladder.
        RIGIDBENCH_FIELD(invariants, [](const PairReport& r) { return ran(r) && (!r.tolerance || !r.invariants.empty()); }),
        RIGIDBENCH_FIELD(measures, [](const PairReport& r) { return ran(r) && !r.measures.empty(); }),
        field("error_anatomy", RIGIDBENCH_AT(anatomy), [](const PairReport& r) { return on_steps(r) && r.anatomy; }),
        RIGIDBENCH_FIELD(structure, [](const PairReport& r) { return on_steps(r) && r.structure; }),
        field("true_vs_printed_note", RIGIDBENCH_WRITES(kTrueVsPrinted), on_steps),
        RIGIDBENCH_FIELD(reference, Written::if_set), RIGIDBENCH_FIELD(cost, ran), RIGIDBENCH_FIELD(history, Written::if_set),
        field("long_time_energy", RIGIDBENCH_AT(long_time), Written::if_set),
        field("tolerance_ladder", RIGIDBENCH_AT(tolerance), Written::if_set), RIGIDBENCH_FIELD(seconds, Written::if_set)};
  }
};

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
  o.levels = r.levels;
  // Sections in the metric table's order (verification/metric_table.hpp).
  for (const MetricDef& m : metric_table()) {
    if (!is_error_metric(m)) continue;
    const auto& from = m.section == MetricSection::convergence ? r.convergence : r.paper_measures;
    if (const auto it = from.find(std::string(m.name)); it != from.end())
      (m.section == MetricSection::convergence ? o.convergence : o.paper_measures).emplace_back(it->first, it->second);
  }
  o.q_ii = r.q_ii;
  o.q_ii_full = r.q_ii_full;
  for (const InvariantResult& i : r.invariants) o.invariants.emplace_back(i.name, i);
  o.measures = r.measures;
  o.anatomy = r.anatomy;
  o.structure = r.structure;
  if (r.reference) o.reference = static_cast<const ReferenceSummary&>(*r.reference);
  o.cost = r.cost;
  o.cost.baseline = std::string(baseline_scheme().info->name);
  o.cost.rk4_baseline = std::string(rk4_baseline_scheme().info->name);
  if (r.history.level >= 0) o.history = r.history;
  o.long_time = r.long_time;
  o.tolerance = r.tolerance;
  o.seconds = r.seconds;
  return o;
}

PairReport PairReport::read(const ordered_json& j) { return field_json::read_as<PairReport>(j); }
PairReport PairReport::read(const nlohmann::json& j) { return field_json::read_as<PairReport>(j); }

ordered_json PairReport::to_json() const { return field_json::write(*this); }
ordered_json PairReport::declared_shape() { return field_json::declared_shape<PairReport>(); }

}  // namespace rigidbench
