#include "rigidbench/reports/report.hpp"

#include "rigidbench/core/build_info.hpp"
#include "rigidbench/core/json_numbers.hpp"
#include "rigidbench/reports/styles.hpp"
#include "rigidbench/verification/scoring.hpp"

#include <benchmark/benchmark.h>

#include <sys/utsname.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace rigidbench {

using nlohmann::ordered_json;

namespace {

using json_numbers::num;
using json_numbers::nums;

std::string first_line_of(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) {
      const auto c = line.find(':');
      if (c != std::string::npos) {
        std::string v = line.substr(c + 1);
        v.erase(0, v.find_first_not_of(" \t"));
        return v;
      }
    }
  return "unknown";
}

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
    j["samples"].push_back({{"t", q.sample_t[i]}, {"value", num(q.sample_value[i])}});
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

}  // namespace

namespace detail {
const char* git_revision();  // generated at build time (cmake/git_revision.cmake)
}

std::string iso8601_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

ordered_json tool_info() {
  return {{"name", "rigidbench"},
          {"version", build_info().version},
          {"git_revision", detail::git_revision()},
          {"compiler", std::string(build_info().compiler_id) + " " + __VERSION__},
          {"flags", build_info().cxx_flags},
          {"build_type", build_info().build_type}};
}

ordered_json metrics_json() {
  ordered_json a = ordered_json::array();
  for (const MetricDef& m : metric_table())
    a.push_back({{"name", m.name},
                 {"section", to_string(m.section)},
                 {"label", m.label},
                 {"what", m.what},
                 {"units", m.units},
                 {"rule", to_string(m.rule)},
                 {"expected_slope", m.rule == VerdictRule::order || m.rule == VerdictRule::order_at_least
                                        ? ordered_json(format_number(m.order_factor, 3) + " p")
                                        : ordered_json(nullptr)},
                 {"gating", m.gating}});
  return a;
}

ordered_json report_envelope(double seconds, const std::vector<std::string>& command, const std::string& started) {
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["tool"] = tool_info();
  j["machine"] = machine_info();
  j["started"] = started;
  j["duration_s"] = seconds;
  j["command"] = command;
  j["metrics"] = metrics_json();
  return j;
}

ordered_json paper_report(const PaperSuiteResult& s, const std::vector<std::string>& command, const std::string& started) {
  ordered_json j = report_envelope(s.seconds, command, started);
  j["suite"] = "paper";
  j["results"] = ordered_json::array();
  int failed = 0;
  j["paper_reproductions"] = ordered_json::array();
  for (const PaperItem& i : s.items) {
    j["paper_reproductions"].push_back({{"paper", i.paper},
                                        {"item", i.item},
                                        {"integrator", i.integrator},
                                        {"problem", i.problem},
                                        {"claim", i.claim},
                                        {"verdict", to_string(i.verdict)},
                                        {"finding", i.finding},
                                        {"data", i.data}});
    failed += i.verdict == Verdict::fail;
  }
  j["summary"] = {{"pairs", 0}, {"ok", 0}, {"skipped", 0}, {"breakdown", 0}, {"failed_verdicts", failed}};
  add_styles(j);
  return j;
}

void add_benchmark_context() {
  const auto tool = tool_info();
  for (const char* k : {"version", "git_revision", "compiler", "flags", "build_type"})
    benchmark::AddCustomContext(cat("rigidbench_", k), tool[k].get<std::string>());
  benchmark::AddCustomContext("rigidbench_baseline", std::string(baseline_scheme().info->name));
}

ordered_json machine_info() {
  ordered_json m;
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  m["hostname"] = host;
  utsname u{};
  if (uname(&u) == 0) {
    m["os"] = std::string(u.sysname) + " " + u.release;
    m["arch"] = u.machine;
  }
  m["cpu"] = first_line_of("/proc/cpuinfo", "model name");
  m["hardware_threads"] = std::thread::hardware_concurrency();
  m["memory"] = first_line_of("/proc/meminfo", "MemTotal");
  return m;
}

namespace {

// The sections of a pair's JSON (docs/reports.md; reports/schema/report-1.0.schema.json).
ordered_json scheme_json(const PairResult& r, const SchemeInfo& info) {
  ordered_json s = {{"title", info.title},
                    {"source", info.source},
                    {"order", info.order},
                    {"kind", to_string(info.kind)},
                    {"representation", info.representation},
                    {"notes", info.notes},
                    {"builtin", r.origin == SchemeOrigin::builtin},
                    {"origin", to_string(r.origin)}};
  if (!info.version.empty()) s["version"] = info.version;
  return s;
}

ordered_json settings_json(const PairResult& r, const SchemeInfo& info, const Problem* p) {
  const Ladder& L = r.ladder;
  ordered_json settings;
  settings["h0"] = L.h0;
  settings["levels"] = L.levels;
  settings["h"] = nums(r.h);
  settings["t0"] = L.t0;
  settings["t_end"] = L.t_end();
  settings["observation_interval"] = L.obs_dt();
  settings["observation_points"] = L.m + 1;
  settings["q_ii_norm"] = "configuration (9 director components of R), paper 000 Appendix A";
  if (p) settings["problem"] = problem_to_json(*p);
  if (!info.settings.empty()) {
    ordered_json sch = ordered_json::object();  // every declared setting, given or default
    for (const SettingInfo& si : info.settings) sch[std::string(si.name)] = r.scheme_settings.get(si);
    settings["scheme"] = sch;
  }
  return settings;
}

/// The judged level's growth exponent of the running maximum deviation (the bounded rule), else null.
ordered_json growth_json(const InvariantResult& i) {
  if (i.claim != Claim::bounded || i.judged_level < 0 || std::size_t(i.judged_level) >= i.growth_by_level.size())
    return nullptr;
  const LineFit& g = i.growth_by_level[std::size_t(i.judged_level)];
  return {{"exponent", num(g.slope)}, {"stderr", num(g.stderr_slope)}, {"limit", kBoundedGrowth}};
}

ordered_json invariant_json(const InvariantResult& i) {
  return {{"kind", i.kind},
          {"description", i.description},
          {"claim", to_string(i.claim)},
          {"initial", num(i.initial)},
          {"scale", num(i.scale)},
          {"roundoff_scale", num(i.roundoff_scale)},
          {"drift", num(i.drift)},
          {"drift_by_level", nums(i.drift_by_level)},
          {"first_half", num(i.first_half)},
          {"second_half", num(i.second_half)},
          {"judged_level", i.judged_level >= 0 ? ordered_json(i.judged_level) : ordered_json(nullptr)},
          {"growth", growth_json(i)},
          {"threshold", num(i.threshold)},
          {"verdict", to_string(i.verdict)},
          {"failed_at_roundoff", i.failed_at_roundoff},
          {"note", i.note}};
}

ordered_json anatomy_json(const ErrorAnatomy& a) {
  return {{"axis", a.axis.description},
          {"axis_frame", a.axis.body ? "body" : "space"},
          {"axis_components", {a.axis.axis[0], a.axis.axis[1], a.axis.axis[2]}},
          {"t", a.t},
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
                                   {"verdict", c->claimed && c->observed != Observed::not_checked
                                                   ? ordered_json(to_string(c->verdict))
                                                   : ordered_json(nullptr)},
                                   {"h", nums(c->h)},
                                   {"defect", nums(c->defect)},
                                   {"allowance", nums(c->allowance)},
                                   {"slope", num(c->slope)},
                                   {"note", c->note}};
  j["order_parity"] = st.order_parity;
  return j;
}

ordered_json reference_json(const ReferenceSolution& ref) {
  return {{"kind", ref.kind},
          {"formulation", ref.formulation},
          {"stepper", ref.stepper},
          {"tolerance", ref.tolerance},
          {"error_estimate", num(ref.error_estimate.max())},
          {"error_estimate_attitude", num(ref.error_estimate.attitude)},
          {"error_estimate_omega", num(ref.error_estimate.omega)},
          {"steps", ref.steps},
          {"precision", ref.precision},
          {"notes", ref.notes},
          {"seconds", ref.seconds},
          {"from_cache", ref.from_cache}};
}

ordered_json cost_json(const CostResult& c) {
  ordered_json j = {{"ns_per_step", num(c.ns_per_step)},
                    {"instructions_per_step", nullptr},
                    {"ratio_to_baseline", num(c.ratio_to_baseline)},
                    {"baseline", baseline_scheme().info->name},
                    {"ratio_to_rk4", num(c.ratio_to_rk4)},
                    {"rk4_baseline", rk4_baseline_scheme().info->name},
                    {"load_evaluations_per_step", num(c.load_evaluations_per_step)},
                    {"newton_iterations_per_step", num(c.newton_iterations_per_step)},
                    {"source", c.source.empty()
                                   ? std::string("wall clock, min of repetitions of a fixed-work run (informational)")
                                   : c.source},
                    {"h", num(c.h)},
                    {"steps", c.steps},
                    {"repetitions", c.repetitions}};
  if (std::isfinite(c.call_overhead_ns)) j["call_overhead_ns"] = c.call_overhead_ns;
  if (c.declared) {
    ordered_json by = ordered_json::array();
    for (double x : c.ns_by_level) by.push_back(num(x));
    j["declared"] = {{"by", "the program that wrote the trajectories (not measured by rigidbench)"},
                     {"machine", c.machine},
                     {"method", c.method},
                     {"ns_per_step_by_level", by}};
  }
  return j;
}

ordered_json history_json(const History& H) {
  ordered_json inv = ordered_json::object();
  for (const auto& [name, dev] : H.invariants) inv[name] = nums(dev);
  return {{"level", H.level},
          {"h", H.h},
          {"note", "finest level that ran, observation grid thinned to <= ~256 points; invariants as "
                   "(I - I0)/S_I; Q_II at its primary level"},
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
          {"seconds", L.seconds}};
}

}  // namespace

ordered_json pair_to_json(const PairResult& r, const Problem* p) {
  ordered_json j;
  j["integrator"] = r.integrator;
  j["problem"] = r.problem;
  j["status"] = r.status;
  j["reason"] = r.reason;
  if (r.status == "skipped") return j;
  if (r.info == nullptr) throw std::logic_error("pair_to_json: a result of '" + r.integrator + "' without its SchemeInfo");
  const SchemeInfo& info = *r.info;
  const Ladder& L = r.ladder;
  j["scheme"] = scheme_json(r, info);
  j["settings"] = settings_json(r, info, p);
  j["levels"] = ordered_json::array();
  for (std::size_t k = 0; k < r.h.size(); ++k) {
    ordered_json level{{"h", r.h[k]}, {"steps", L.steps(int(k))}, {"status", r.level_status[k]}, {"seconds", r.level_seconds[k]}};
    // Where and why the level broke down (the pair's reason names the first such level only).
    if (k < r.level_failed_at.size() && r.level_status[k] == "breakdown")
      level["breakdown"] = {{"t", r.level_failed_at[k]}, {"reason", r.level_cause[k]}};
    j["levels"].push_back(std::move(level));
  }
  // Sections in the metric table's order (verification/metric_table.hpp).
  j["convergence"] = ordered_json::object();
  j["paper_measures"] = ordered_json::object();
  for (const MetricDef& m : metric_table()) {
    if (!is_error_metric(m)) continue;
    const auto& from = m.section == MetricSection::convergence ? r.convergence : r.paper_measures;
    if (const auto it = from.find(std::string(m.name)); it != from.end())
      j[to_string(m.section)][std::string(m.name)] = convergence_json(it->second);
  }
  j["q_ii"] = qii_json(r.q_ii);
  j["q_ii_full"] = qii_json(r.q_ii_full);
  j["invariants"] = ordered_json::object();
  for (const auto& i : r.invariants) j["invariants"][i.name] = invariant_json(i);
  if (r.anatomy) j["error_anatomy"] = anatomy_json(*r.anatomy);
  if (r.structure) j["structure"] = structure_json(*r.structure);
  j["true_vs_printed_note"] =
      "paper 001's printed q-error compares squared H1 norms, so a scheme of order p shows slope p/2 in it; "
      "the true H1 distance (convergence.h1_distance) shows slope p.";
  if (r.reference) j["reference"] = reference_json(*r.reference);
  j["cost"] = cost_json(r.cost);
  if (r.history.level >= 0) j["history"] = history_json(r.history);
  if (r.long_time) j["long_time_energy"] = long_time_json(*r.long_time);
  j["seconds"] = r.seconds;
  return j;
}

ordered_json suite_report(const SuiteResult& s, const std::vector<std::string>& command, const std::string& started) {
  ordered_json j = report_envelope(s.seconds, command, started);
  j["suite"] = s.suite;
  j["settings"] = {{"jobs", s.jobs}};
  if (!s.shard.all())
    j["shard"] = {{"index", s.shard.index}, {"count", s.shard.count}, {"pairs_total", s.pairs_total}, {"ordinals", s.ordinals}};
  int ok = 0, skipped = 0, breakdown = 0, failed = 0;
  j["results"] = ordered_json::array();
  for (const auto& r : s.results) {
    const Problem* p = nullptr;
    for (const auto& q : s.problems)
      if (q.name == r.problem) p = &q;
    j["results"].push_back(pair_to_json(r, p));
    ok += r.status == "ok";
    skipped += r.status == "skipped";
    breakdown += r.status == "breakdown";
    failed += r.failed();
  }
  j["summary"] = {{"pairs", s.results.size()},
                  {"ok", ok},
                  {"skipped", skipped},
                  {"breakdown", breakdown},
                  {"failed_verdicts", failed}};
  add_styles(j);
  return j;
}

void add_expectations(ordered_json& j, const ExpectationReport& e, const std::string& origin) {
  ordered_json out = ordered_json::array();
  for (const auto& o : e.outcomes)
    out.push_back({{"integrator", o.integrator}, {"problem", o.problem}, {"check", o.check}, {"outcome", o.outcome},
                   {"reason", o.reason}});
  j["expectations"] = {{"file", origin}, {"outcomes", out}};
  j["summary"]["expected_failures"] = e.expected_failures;
  j["summary"]["unexpected_failures"] = e.unexpected_failures;
  j["summary"]["unexpected_passes"] = e.unexpected_passes;
  j["summary"]["unknown_checks"] = e.unknown_checks;
}

std::string report_file_for(const std::string& out) {
  namespace fs = std::filesystem;
  if (out.empty()) throw InputError("--out: an empty path");
  std::string ext = fs::path(out).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  const fs::path file = ext == ".json" ? fs::path(out) : fs::path(out) / "report.json";
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) throw InputError(cat("--out '", out, "': '", dir.string(), "' is not a folder"));
  const fs::path above = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec) && !fs::is_directory(above, ec))
    throw InputError(cat("--out '", out, "': folder '", above.string(), "' does not exist"));
  if (fs::is_directory(file, ec)) throw InputError(cat("--out '", out, "': '", file.string(), "' is a folder"));
  return file.string();
}

void write_report_file(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec) && !fs::create_directory(dir, ec) && !fs::is_directory(dir))
    throw IoError(cat("cannot write '", path, "': cannot create folder '", dir.string(), "': ", ec.message()));
  write_atomic(path, content);
}

void check_trajectory_path(const std::string& path) {
  const auto ext = std::filesystem::path(path).extension().string();
  if (ext != ".csv" && ext != ".json")
    throw InputError("--out '" + path + "': the trajectory format is chosen by the extension, .csv or .json");
}

}  // namespace rigidbench
