#include "snapshot.hpp"

#include <algorithm>
#include <cmath>

#include "../core/json_fields.hpp"
#include "../core/json_numbers.hpp"
#include "../core/json_schema.hpp"
#include "../core/types.hpp"
#include "../reports/pair_report.hpp"
#include "../verification/metric_table.hpp"

namespace rigidbench {

using nlohmann::json;
using json_numbers::as_num;

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

using json_fields::ns_of;
std::vector<std::string> string_array(const json& a) {
  std::vector<std::string> v;
  for (const json& x : a) v.push_back(x.get<std::string>());
  return v;
}
json json_nums(const std::vector<double>& v) {
  json a = json::array();
  for (double x : v) a.push_back(std::isfinite(x) ? json(x) : json(nullptr));
  return a;
}

/// "integrator/problem" split at its slash (the schema's key pattern has exactly one).
std::pair<std::string, std::string> key_parts(const std::string& key) {
  const auto p = key.find('/');
  return {key.substr(0, p), p == std::string::npos ? std::string() : key.substr(p + 1)};
}

/// A snapshot's environment and revision, from a report's tool and machine's CPU and the valgrind
/// that counted its instructions ("" without counts).
GateSnapshot head_of(const ToolInfo& tool, const std::string& cpu, const std::string& valgrind) {
  GateSnapshot s;
  s.environment = {tool.compiler, tool.flags, tool.build_type, valgrind, cpu};
  s.git_revision = tool.git_revision;
  return s;
}

LadderSnapshot ladder_of(const json& c) {
  LadderSnapshot l{ns_of(c.at("h")), ns_of(c.at("error")), ns_of(c.at("floor")), std::nullopt,
                   c.at("verdict").get<std::string>()};
  if (c.contains("rounding")) l.rounding = ns_of(c.at("rounding"));
  return l;
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
    }
  }
  if (r.tolerance) {  // an adaptive scheme's verdicts, its error and its work at each tolerance (docs/adaptive.md)
    p.checks.emplace_back("tolerance_proportionality", to_string(r.tolerance->proportionality_verdict));
    p.checks.emplace_back("rejected_steps", to_string(r.tolerance->rejection_verdict));
    ToleranceSnapshot t = tolerance_snapshot(*r.tolerance);
    for (auto& named : t.ladders) p.convergence.push_back(std::move(named));
    p.work = std::move(t.work);
  }
  for (const auto& [name, inv] : r.invariants) {
    if (inv.claim == "none") continue;
    p.checks.emplace_back("invariant:" + name, inv.verdict);
    if (inv.failed_at_roundoff) p.roundoff_failures.push_back("invariant:" + name);
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
  return {e.integrator, e.problem, e.instructions_per_step, e.ratio_to_baseline, {}, {}};
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
         same_num(ratio_to_baseline, o.ratio_to_baseline) && same_num(tol, o.tol) &&
         same_num(instructions_per_time, o.instructions_per_time);
}

const LadderSnapshot* PairSnapshot::ladder(const std::string& metric) const { return find_named(convergence, metric); }
const std::string* PairSnapshot::check(const std::string& name) const { return find_named(checks, name); }
bool PairSnapshot::failed_at_roundoff(const std::string& c) const {
  return std::find(roundoff_failures.begin(), roundoff_failures.end(), c) != roundoff_failures.end();
}

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
  SpeedSnapshot q{w.integrator, w.problem, kNaN, kNaN, {}, {}};
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
      if (const BenchEntry* q = b.entry(e.integrator, e.problem); q && std::isfinite(q->ratio_to_baseline))
        e.ratio_to_baseline = std::isfinite(e.ratio_to_baseline) ? std::min(e.ratio_to_baseline, q->ratio_to_baseline)
                                                                 : q->ratio_to_baseline;
    s.speed.push_back(std::move(e));
  }
  sort_by_key(s.speed);
  return checked(std::move(s), "the speed snapshot of the bench reports");
}

GateSnapshot GateSnapshot::read(const json& j, const std::string& origin) {
  validate_document(j, DocumentSchema::gate_snapshot, origin);
  GateSnapshot s;
  const json& env = j.at("environment");
  s.environment = {env.at("compiler").get<std::string>(), env.at("flags").get<std::string>(),
                   env.at("build_type").get<std::string>(), env.at("valgrind").get<std::string>(), std::nullopt};
  if (env.contains("machine")) s.environment.machine = env.at("machine").get<std::string>();
  s.git_revision = j.at("git_revision").get<std::string>();
  if (j.contains("selection")) {
    const json& sel = j.at("selection");
    s.selection = SnapshotSelection{string_array(sel.value("integrators", json::array())),
                                    string_array(sel.value("problems", json::array())), sel.value("shard", "")};
  }
  for (auto it = j.at("accuracy").begin(); it != j.at("accuracy").end(); ++it) {
    PairSnapshot p;
    std::tie(p.integrator, p.problem) = key_parts(it.key());
    const json& e = it.value();
    p.status = e.at("status").get<std::string>();
    if (e.contains("seconds")) p.seconds = e.at("seconds").get<double>();
    if (e.contains("version")) p.version = e.at("version").get<std::string>();
    if (e.contains("convergence"))
      for (auto m = e.at("convergence").begin(); m != e.at("convergence").end(); ++m)
        p.convergence.emplace_back(m.key(), ladder_of(m.value()));
    if (e.contains("checks"))
      for (auto c = e.at("checks").begin(); c != e.at("checks").end(); ++c) p.checks.emplace_back(c.key(), c.value().get<std::string>());
    if (e.contains("roundoff_failures")) p.roundoff_failures = string_array(e.at("roundoff_failures"));
    if (e.contains("work")) {
      const json& w = e.at("work");
      p.work = WorkSnapshot{ns_of(w.at("tol")), ns_of(w.at("accepted_steps")), ns_of(w.at("rhs_evaluations")),
                            ns_of(w.at("load_evaluations"))};
    }
    s.accuracy.push_back(std::move(p));
  }
  for (auto it = j.at("speed").begin(); it != j.at("speed").end(); ++it) {
    const auto [integrator, problem] = key_parts(it.key());
    SpeedSnapshot q{integrator, problem, as_num(it.value().at("instructions_per_step")),
                    as_num(it.value().at("ratio_to_baseline")), {}, {}};
    if (it.value().contains("tolerance")) {
      q.tol = ns_of(it.value().at("tolerance").at("tol"));
      q.instructions_per_time = ns_of(it.value().at("tolerance").at("instructions_per_time"));
    }
    s.speed.push_back(std::move(q));
  }
  return s;  // a json object's keys come sorted: accuracy and speed are in key order already
}

json GateSnapshot::to_json() const {
  json s;
  s["kind"] = "rigidbench-gate-snapshot";
  s["schema_version"] = "1.0";
  s["environment"] = {{"compiler", environment.compiler},
                      {"flags", environment.flags},
                      {"build_type", environment.build_type},
                      {"valgrind", environment.valgrind}};
  if (environment.machine) s["environment"]["machine"] = *environment.machine;
  s["git_revision"] = git_revision;
  if (selection) {
    if (!selection->integrators.empty()) s["selection"]["integrators"] = selection->integrators;
    if (!selection->problems.empty()) s["selection"]["problems"] = selection->problems;
    if (!selection->shard.empty()) s["selection"]["shard"] = selection->shard;
    if (!s.contains("selection")) s["selection"] = json::object();
  }
  json acc = json::object();
  for (const PairSnapshot& p : accuracy) {
    json e = {{"status", p.status}};
    if (p.seconds) e["seconds"] = *p.seconds;
    if (p.version) e["version"] = *p.version;
    if (p.status != "skipped" || !p.convergence.empty() || !p.checks.empty()) {
      e["convergence"] = json::object();
      for (const auto& [name, l] : p.convergence) {
        json& m = e["convergence"][name];
        m = {{"h", json_nums(l.h)}, {"error", json_nums(l.error)}, {"floor", json_nums(l.floor)}, {"verdict", l.verdict}};
        if (l.rounding) m["rounding"] = json_nums(*l.rounding);
      }
      e["checks"] = json::object();
      for (const auto& [name, v] : p.checks) e["checks"][name] = v;
    }
    if (!p.roundoff_failures.empty()) e["roundoff_failures"] = p.roundoff_failures;
    if (p.work)
      e["work"] = {{"tol", json_nums(p.work->tol)},
                   {"accepted_steps", json_nums(p.work->accepted_steps)},
                   {"rhs_evaluations", json_nums(p.work->rhs_evaluations)},
                   {"load_evaluations", json_nums(p.work->load_evaluations)}};
    acc[p.key()] = std::move(e);
  }
  s["accuracy"] = std::move(acc);
  json speed_part = json::object();
  for (const SpeedSnapshot& q : speed) {
    auto num = [](double x) { return std::isfinite(x) ? json(x) : json(nullptr); };
    speed_part[q.key()] = {{"instructions_per_step", num(q.instructions_per_step)},
                           {"ratio_to_baseline", num(q.ratio_to_baseline)}};
    if (q.adaptive())
      speed_part[q.key()]["tolerance"] = {{"tol", json_nums(q.tol)}, {"instructions_per_time", json_nums(q.instructions_per_time)}};
  }
  s["speed"] = std::move(speed_part);
  return s;
}

}  // namespace rigidbench
