#include "snapshot.hpp"

#include <algorithm>
#include <cmath>

#include "../core/json_schema.hpp"
#include "../core/types.hpp"
#include "../reports/field_json.hpp"
#include "../reports/pair_report.hpp"
#include "../verification/metric_table.hpp"

namespace rigidbench {

// ---- what a snapshot holds, declared once (core/fields.hpp): its writer and reader follow ----

template <>
struct Fields<LadderSnapshot> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(error), RIGIDBENCH_FIELD(floor), RIGIDBENCH_FIELD(verdict),
                      RIGIDBENCH_FIELD(rounding, Written::if_set)};
  }
};

template <>
struct Fields<WorkSnapshot> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(tol), RIGIDBENCH_FIELD(accepted_steps), RIGIDBENCH_FIELD(rhs_evaluations),
                      RIGIDBENCH_FIELD(load_evaluations)};
  }
};

template <>
struct Fields<PairSnapshot> {
  /// A skipped pair has no ladders or checks (their objects are absent, not empty).
  static bool measured(const PairSnapshot& p) { return p.status != "skipped" || !p.convergence.empty() || !p.checks.empty(); }
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(status), RIGIDBENCH_FIELD(seconds, Written::if_set), RIGIDBENCH_FIELD(version, Written::if_set),
        computed("convergence", [](const PairSnapshot& p) { return measured(p) ? std::optional(p.convergence) : std::nullopt; },
                 [](PairSnapshot& p, std::optional<Named<LadderSnapshot>> c) { p.convergence = c.value_or(Named<LadderSnapshot>{}); },
                 Written::if_set),
        computed("checks", [](const PairSnapshot& p) { return measured(p) ? std::optional(p.checks) : std::nullopt; },
                 [](PairSnapshot& p, std::optional<Named<std::string>> c) { p.checks = c.value_or(Named<std::string>{}); },
                 Written::if_set),
        RIGIDBENCH_FIELD(work, Written::if_set)};
  }
};

/// An adaptive pair's instructions at each tolerance (SpeedSnapshot::tol, instructions_per_time).
struct ToleranceSpeed {
  std::vector<double> tol, instructions_per_time;
};
template <>
struct Fields<ToleranceSpeed> {
  static constexpr auto list() { return std::tuple{RIGIDBENCH_FIELD(tol), RIGIDBENCH_FIELD(instructions_per_time)}; }
};

template <>
struct Fields<SpeedSnapshot> {
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(instructions_per_step), RIGIDBENCH_FIELD(ratio_to_baseline),
        RIGIDBENCH_FIELD(ratio_samples, Written::if_set),
        computed("tolerance",
                 [](const SpeedSnapshot& q) {
                   return q.adaptive() ? std::optional(ToleranceSpeed{q.tol, q.instructions_per_time}) : std::nullopt;
                 },
                 [](SpeedSnapshot& q, const std::optional<ToleranceSpeed>& t) {
                   if (t) q.tol = t->tol, q.instructions_per_time = t->instructions_per_time;
                 },
                 Written::if_set)};
  }
};

template <>
struct Fields<SnapshotEnvironment> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(compiler), RIGIDBENCH_FIELD(flags), RIGIDBENCH_FIELD(build_type),
                      RIGIDBENCH_FIELD(valgrind), RIGIDBENCH_FIELD(machine, Written::if_set)};
  }
};

template <>
struct Fields<GateTolerance> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(integrator), RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(check),
                      RIGIDBENCH_FIELD(error_band, Written::if_set), RIGIDBENCH_FIELD(instruction_tolerance, Written::if_set),
                      RIGIDBENCH_FIELD(reason, Written::if_set)};
  }
};

template <>
struct Fields<SnapshotSelection> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(integrators, Written::if_set), RIGIDBENCH_FIELD(problems, Written::if_set),
                      RIGIDBENCH_FIELD(shard, Written::if_set)};
  }
};

namespace {

/// Pairs keyed "integrator/problem" (the schema's key pattern has exactly one slash), in key order.
template <class P>
Named<P> by_key(const std::vector<P>& pairs) {
  Named<P> out;
  for (const P& p : pairs) out.emplace_back(p.key(), p);
  return out;
}
template <class P>
std::vector<P> from_keys(const Named<P>& named) {
  std::vector<P> out;
  for (const auto& [key, p] : named) {
    const auto slash = key.find('/');
    out.push_back(p);
    out.back().integrator = key.substr(0, slash);
    out.back().problem = slash == std::string::npos ? std::string() : key.substr(slash + 1);
  }
  return out;
}

}  // namespace

template <>
struct Fields<GateSnapshot> {
  static constexpr auto list() {
    return std::tuple{
        field("kind", RIGIDBENCH_WRITES("rigidbench-gate-snapshot")),
        field("schema_version", RIGIDBENCH_WRITES("1.0")), RIGIDBENCH_FIELD(environment),
        RIGIDBENCH_FIELD(git_revision), RIGIDBENCH_FIELD(selection, Written::if_set),
        RIGIDBENCH_FIELD(tolerances, Written::if_set),
        computed("accuracy", [](const GateSnapshot& s) { return by_key(s.accuracy); },
                 [](GateSnapshot& s, const Named<PairSnapshot>& a) { s.accuracy = from_keys(a); }),
        computed("speed", [](const GateSnapshot& s) { return by_key(s.speed); },
                 [](GateSnapshot& s, const Named<SpeedSnapshot>& a) { s.speed = from_keys(a); })};
  }
};


using nlohmann::json;

namespace {

bool same_num(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
bool same_num(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) { return same_num(x, y); });
}

template <class T>
const T* find_named(const Named<T>& v, const std::string& name) {
  for (const auto& [k, x] : v)
    if (k == name) return &x;
  return nullptr;
}
template <class T>
void sort_named(Named<T>& v) {
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}
template <class P>
void sort_by_key(std::vector<P>& v) {
  std::sort(v.begin(), v.end(), [](const P& a, const P& b) { return a.key() < b.key(); });
}
template <class P>
const P* find_pair(const std::vector<P>& v, const std::string& integrator, const std::string& problem) {
  for (const P& p : v)
    if (p.integrator == integrator && p.problem == problem) return &p;
  return nullptr;
}

/// A snapshot's environment and revision, from a report's tool and machine's CPU and the valgrind
/// that counted its instructions ("" without counts).
GateSnapshot head_of(const ToolInfo& tool, const std::string& cpu, const std::string& valgrind) {
  GateSnapshot s;
  s.environment = {tool.compiler, tool.flags, tool.build_type, valgrind, cpu};
  s.git_revision = tool.git_revision;
  return s;
}

/// The verdict a report gives Q_II: its primary level's, "undefined" without one.
std::string verdict_of(const QiiResult& q) {
  return q.primary >= 0 ? to_string(q.levels[std::size_t(q.primary)].verdict) : "undefined";
}

}  // namespace

ToleranceSnapshot tolerance_snapshot(const ToleranceStudy& st) {
  LadderSnapshot l, x;
  WorkSnapshot w;
  const double per = st.span > 0 ? 1.0 / st.span : kNaN;
  for (const ToleranceLevel& lv : st.levels) {
    l.h.push_back(lv.tol);
    l.error.push_back(lv.ok ? lv.error("attitude_error_max") : kNaN);
    l.floor.push_back(lv.floor);
    x.h.push_back(lv.tol);
    x.error.push_back(lv.ok ? lv.position_error : kNaN);
    x.floor.push_back(lv.floor);
    w.tol.push_back(lv.tol);
    w.accepted_steps.push_back(lv.ok ? double(lv.counters.accepted_steps) * per : kNaN);
    w.rhs_evaluations.push_back(lv.ok ? double(lv.counters.rhs_evaluations) * per : kNaN);
    w.load_evaluations.push_back(lv.ok ? double(lv.counters.load_evaluations) * per : kNaN);
  }
  ToleranceSnapshot t{{{kToleranceErrorLadder, std::move(l)}}, std::move(w)};
  if (st.translating) t.ladders.emplace_back(kTolerancePositionLadder, std::move(x));
  return t;
}

namespace {

/// What the gate holds a pair of a verify report to: the gating metrics of the metric table, by the
/// check names of PairResult::checks (runner.hpp), which expectation files use too.
PairSnapshot pair_of_result(const PairReport& r) {
  PairSnapshot p;
  p.integrator = r.integrator;
  p.problem = r.problem;
  p.status = r.status;
  if (r.skipped()) return p;
  if (r.seconds && std::isfinite(*r.seconds)) p.seconds = *r.seconds;
  if (r.scheme) p.version = r.scheme->version;
  p.checks.emplace_back("status", p.status == "ok" ? "pass" : "fail");
  for (const MetricDef& m : metric_table()) {
    if (!m.gating) continue;
    const std::string name(m.name);
    if (m.section == MetricSection::convergence) {
      if (const Convergence* c = r.ladder(name)) p.convergence.emplace_back(name, LadderSnapshot::of(*c));  // else: not applicable
    } else if (m.section == MetricSection::q_ii && (name == "q_ii" || name == "q_ii_full") && !r.tolerance) {
      p.checks.emplace_back(name, verdict_of(name == "q_ii" ? r.q_ii : r.q_ii_full));
    } else if (m.section == MetricSection::measures) {
      for (const auto& [mn, mr] : r.measures)
        if (mn == name) p.checks.emplace_back(name, to_string(mr.verdict));
    } else if (m.section == MetricSection::tolerance_ladder && r.tolerance) {
      p.checks.emplace_back(name, to_string(m.tolerance_verdict(*r.tolerance)));
    }
  }
  if (r.tolerance) {  // an adaptive scheme's error and its work at each tolerance (docs/adaptive.md)
    ToleranceSnapshot t = tolerance_snapshot(*r.tolerance);
    for (auto& named : t.ladders) p.convergence.push_back(std::move(named));
    p.work = std::move(t.work);
  }
  for (const auto& [name, inv] : r.invariants) {
    if (inv.claim == Claim::none) continue;
    p.checks.emplace_back("invariant:" + name, to_string(inv.verdict));
  }
  if (r.structure)
    for (const StructureCheck* c : {&r.structure->symmetric, &r.structure->symplectic})
      if (c->claimed && c->observed != Observed::not_checked)  // the report's verdict is null otherwise
        p.checks.emplace_back(cat("structure:", c->property), to_string(c->verdict));
  sort_named(p.convergence);
  sort_named(p.checks);
  return p;
}

SpeedSnapshot speed_of_entry(const BenchEntry& e) {
  return {e.integrator, e.problem, e.instructions_per_step, e.ratio_to_baseline, e.ratio_samples, {}, {}};
}

/// A snapshot made from reports follows the schema as one read from a file does (a report's schema
/// admits what a snapshot's does not: the gate would compare a negative floor).
GateSnapshot checked(GateSnapshot s, const std::string& origin) {
  validate_document(s.to_json(), DocumentSchema::gate_snapshot, origin);
  return s;
}

}  // namespace

LadderSnapshot LadderSnapshot::of(const Convergence& c) {
  LadderSnapshot l{c.h, c.error, c.floor, std::nullopt, to_string(c.verdict)};
  if (!c.rounding.empty()) l.rounding = c.rounding;  // the report writes one only where there is one
  return l;
}

double LadderSnapshot::rounding_at(std::size_t k) const {
  if (!rounding || k >= rounding->size()) return 0.0;
  return std::isfinite((*rounding)[k]) ? (*rounding)[k] : 0.0;
}

bool LadderSnapshot::operator==(const LadderSnapshot& o) const {
  return same_num(h, o.h) && same_num(error, o.error) && same_num(floor, o.floor) && rounding.has_value() == o.rounding.has_value() &&
         (!rounding || same_num(*rounding, *o.rounding)) && verdict == o.verdict;
}

bool WorkSnapshot::operator==(const WorkSnapshot& o) const {
  return same_num(tol, o.tol) && same_num(accepted_steps, o.accepted_steps) && same_num(rhs_evaluations, o.rhs_evaluations) &&
         same_num(load_evaluations, o.load_evaluations);
}

bool SpeedSnapshot::operator==(const SpeedSnapshot& o) const {
  return integrator == o.integrator && problem == o.problem && same_num(instructions_per_step, o.instructions_per_step) &&
         same_num(ratio_to_baseline, o.ratio_to_baseline) && same_num(ratio_samples, o.ratio_samples) && same_num(tol, o.tol) &&
         same_num(instructions_per_time, o.instructions_per_time);
}

const LadderSnapshot* PairSnapshot::ladder(const std::string& metric) const { return find_named(convergence, metric); }
const std::string* PairSnapshot::check(const std::string& name) const { return find_named(checks, name); }
const PairSnapshot* GateSnapshot::pair(const std::string& integrator, const std::string& problem) const {
  return find_pair(accuracy, integrator, problem);
}
const SpeedSnapshot* GateSnapshot::speed_of(const std::string& integrator, const std::string& problem) const {
  return find_pair(speed, integrator, problem);
}

namespace {
/// An adaptive pair's speed: its bench series' instructions per run over the span of its tolerance
/// ladder (the runs cover the same output times); null without the verify pair.
std::optional<SpeedSnapshot> adaptive_speed(const WorkSeries& w, const VerifyReport& verify) {
  if (w.points.empty() || !std::isfinite(w.points.front().tol)) return std::nullopt;
  const PairReport* r = nullptr;
  for (const PairReport& q : verify.results)
    if (q.integrator == w.integrator && q.problem == w.problem && q.tolerance) r = &q;
  if (r == nullptr || !(r->tolerance->span > 0)) return std::nullopt;
  SpeedSnapshot q{w.integrator, w.problem, kNaN, kNaN, {}, {}, {}};
  for (const WorkPoint& p : w.points) {
    q.tol.push_back(p.tol);
    q.instructions_per_time.push_back(p.instructions / r->tolerance->span);
  }
  return q;
}
}  // namespace

GateSnapshot GateSnapshot::of_reports(const VerifyReport& verify, const BenchReport* bench) {
  GateSnapshot s = head_of(verify.tool, verify.machine.cpu, bench ? bench->icount_tool : "");
  for (const PairReport& r : verify.results) s.accuracy.push_back(pair_of_result(r));
  if (bench) {
    for (const BenchEntry& e : bench->entries) s.speed.push_back(speed_of_entry(e));
    for (const WorkSeries& w : bench->work)
      if (auto q = adaptive_speed(w, verify)) s.speed.push_back(std::move(*q));
  }
  sort_by_key(s.accuracy);
  sort_by_key(s.speed);
  return checked(std::move(s), "the gate snapshot of the reports");
}

GateSnapshot GateSnapshot::of_benches(const std::vector<BenchReport>& benches) {
  if (benches.empty()) throw std::logic_error("GateSnapshot::of_benches: no bench report");
  const BenchReport& first = benches.front();
  GateSnapshot s = head_of(first.tool, first.machine.cpu, first.icount_tool);
  for (const BenchEntry& fe : first.entries) {
    SpeedSnapshot e = speed_of_entry(fe);
    for (const BenchReport& b : benches)
      if (const BenchEntry* q = b.entry(e.integrator, e.problem); q && std::isfinite(q->ratio_to_baseline)) {
        e.ratio_to_baseline = std::isfinite(e.ratio_to_baseline) ? std::min(e.ratio_to_baseline, q->ratio_to_baseline)
                                                                 : q->ratio_to_baseline;
        if (&b != &benches.front()) e.ratio_samples.insert(e.ratio_samples.end(), q->ratio_samples.begin(), q->ratio_samples.end());
      }
    s.speed.push_back(std::move(e));
  }
  sort_by_key(s.speed);
  return checked(std::move(s), "the speed snapshot of the bench reports");
}

GateSnapshot GateSnapshot::read(const json& j, const std::string& origin) {
  validate_document(j, DocumentSchema::gate_snapshot, origin);
  return field_json::read_as<GateSnapshot>(j);  // a json object's keys come sorted: accuracy and speed are in key order
}

json GateSnapshot::to_json() const { return json::parse(field_json::write(*this).dump()); }
nlohmann::ordered_json GateSnapshot::declared_shape() { return field_json::declared_shape<GateSnapshot>(); }

}  // namespace rigidbench
