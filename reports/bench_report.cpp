#include "bench_report.hpp"

#include <cmath>

#include "../core/json_fields.hpp"
#include "../core/json_numbers.hpp"
#include "../core/json_schema.hpp"
#include "../integrators/registry.hpp"
#include "report.hpp"
#include "styles.hpp"

namespace rigidbench {

using nlohmann::json;
using nlohmann::ordered_json;
using json_numbers::as_num;
using json_numbers::num;

namespace {

/// The number at key k of an object, NaN when absent or null (an older report's missing field).
using json_fields::n_at;
/// The text at key k: "" when absent; a value that is not a string (the schema leaves some untyped)
/// as its JSON text.
std::string text_at(const json& o, const char* k) {
  if (!o.is_object() || !o.contains(k)) return "";
  return o.at(k).is_string() ? o.at(k).get<std::string>() : o.at(k).dump();
}
std::vector<std::string> texts_at(const json& o, const char* k) {
  std::vector<std::string> v;
  if (o.is_object() && o.contains(k) && o.at(k).is_array())
    for (const json& x : o.at(k)) v.push_back(x.is_string() ? x.get<std::string>() : x.dump());
  return v;
}

BenchEntry entry_of(const json& r) {
  BenchEntry e;
  e.integrator = r.at("integrator").get<std::string>();
  e.problem = r.at("problem").get<std::string>();
  e.h = n_at(r, "h");
  e.ns_per_step = n_at(r, "ns_per_step");
  e.ns_per_step_median = n_at(r, "ns_per_step_median");
  e.repetitions = r.contains("repetitions") && r.at("repetitions").is_number_integer() ? r.at("repetitions").get<int>() : 0;
  e.ratio_to_baseline = n_at(r, "ratio_to_baseline");
  e.instructions_per_step = n_at(r, "instructions_per_step");
  e.instruction_ratio_to_baseline = n_at(r, "instruction_ratio_to_baseline");
  e.ratio_to_rk4 = n_at(r, "ratio_to_rk4");
  e.instruction_ratio_to_rk4 = n_at(r, "instruction_ratio_to_rk4");
  e.loads_per_step = n_at(r, "load_evaluations_per_step");
  e.newton_per_step = n_at(r, "newton_iterations_per_step");
  e.jacobians_per_step = n_at(r, "jacobian_evaluations_per_step");
  e.flops_per_step = n_at(r, "flops_per_step");
  e.calls_per_step = n_at(r, "transcendental_calls_per_step");
  e.instructions_per_flop = n_at(r, "instructions_per_flop");
  return e;
}

ordered_json entry_json(const BenchEntry& e) {
  return {{"integrator", e.integrator},
          {"problem", e.problem},
          {"h", num(e.h)},
          {"ns_per_step", num(e.ns_per_step)},
          {"ns_per_step_median", num(e.ns_per_step_median)},
          {"repetitions", e.repetitions},
          {"ratio_to_baseline", num(e.ratio_to_baseline)},
          {"instructions_per_step", num(e.instructions_per_step)},
          {"instruction_ratio_to_baseline", num(e.instruction_ratio_to_baseline)},
          {"ratio_to_rk4", num(e.ratio_to_rk4)},
          {"instruction_ratio_to_rk4", num(e.instruction_ratio_to_rk4)},
          {"load_evaluations_per_step", num(e.loads_per_step)},
          {"newton_iterations_per_step", num(e.newton_per_step)},
          {"jacobian_evaluations_per_step", num(e.jacobians_per_step)},
          {"flops_per_step", num(e.flops_per_step)},
          {"transcendental_calls_per_step", num(e.calls_per_step)},
          {"instructions_per_flop", num(e.instructions_per_flop)}};
}

WorkSeries work_of(const json& s) {
  WorkSeries w{text_at(s, "integrator"), text_at(s, "problem"), {}};
  for (const json& p : s.at("points"))
    w.points.push_back({n_at(p, "h"), n_at(p, "error"), n_at(p, "cpu_seconds"), n_at(p, "instructions"),
                        p.at("pareto_cpu").get<bool>(), p.at("pareto_instructions").get<bool>(),
                        p.contains("tol") ? n_at(p, "tol") : kNaN, p.contains("cpu_seconds_max") ? n_at(p, "cpu_seconds_max") : kNaN});
  return w;
}

ordered_json work_json(const WorkSeries& ws) {
  ordered_json pts = ordered_json::array();
  for (const WorkPoint& p : ws.points) {
    pts.push_back({{"h", num(p.h)},
                   {"error", num(p.error)},
                   {"cpu_seconds", num(p.cpu_seconds)},
                   {"instructions", num(p.instructions)},
                   {"pareto_cpu", p.pareto_cpu},
                   {"pareto_instructions", p.pareto_instructions}});
    if (std::isfinite(p.tol)) pts.back()["tol"] = p.tol;  // an adaptive pair's point (h null)
    if (std::isfinite(p.cpu_seconds_max)) pts.back()["cpu_seconds_max"] = p.cpu_seconds_max;
  }
  return {{"integrator", ws.integrator}, {"problem", ws.problem}, {"points", pts}};
}

LineFit growth_of(const json& g) {
  LineFit f;
  f.slope = n_at(g, "exponent");
  f.stderr_slope = n_at(g, "stderr");
  f.r2 = n_at(g, "r2");
  return f;
}

ordered_json growth_json(const LineFit& f) {
  return {{"exponent", num(f.slope)}, {"stderr", num(f.stderr_slope)}, {"r2", num(f.r2)}};
}

ScalingSeries scaling_of(const json& s) {
  ScalingSeries out{s.at("integrator").get<std::string>(), s.at("problem").get<std::string>(), {},
                    growth_of(s.at("ns_growth")), growth_of(s.at("instruction_growth"))};
  for (const json& p : s.at("points"))
    out.points.push_back({p.at("bodies").get<std::size_t>(), n_at(p, "ns_per_step"), n_at(p, "instructions_per_step")});
  return out;
}

ordered_json scaling_json(const ScalingSeries& s) {
  ordered_json pts = ordered_json::array();
  for (const ScalingPoint& q : s.points)
    pts.push_back({{"bodies", q.n}, {"ns_per_step", num(q.ns_per_step)}, {"instructions_per_step", num(q.instructions_per_step)}});
  return {{"integrator", s.integrator}, {"problem", s.problem}, {"points", pts},
          {"ns_growth", growth_json(s.ns_fit)}, {"instruction_growth", growth_json(s.instruction_fit)}};
}

}  // namespace

const BenchEntry* BenchReport::entry(const std::string& integrator, const std::string& problem) const {
  for (const BenchEntry& e : entries)
    if (e.integrator == integrator && e.problem == problem) return &e;
  return nullptr;
}

BenchReport BenchReport::of(const BenchResult& b, const std::vector<std::string>& command, const std::string& started) {
  BenchReport r;
  r.tool = ToolInfo::current();
  r.machine = MachineInfo::current();
  r.started = started;
  r.duration_s = b.seconds;
  r.command = command;
  r.baseline = std::string(baseline_scheme().info->name);
  r.baselines = {std::string(baseline_scheme().info->name), std::string(rk4_baseline_scheme().info->name)};
  r.google_benchmark_json = b.gbench_json;
  r.icount_tool = b.icount_tool;
  r.icount_note = b.icount_note;
  if (!b.shard.all()) r.shard = b.shard;
  r.entries = b.entries;
  r.work_metric = b.work_metric;
  r.work = b.work;
  r.scaling = b.scaling;
  return r;
}

BenchReport BenchReport::read(const json& j, const std::string& origin) {
  validate_document(j, DocumentSchema::bench, origin);
  BenchReport r;
  r.tool = ToolInfo::read(j.at("tool"));
  r.machine = MachineInfo::read(j.at("machine"));
  r.started = text_at(j, "started");
  r.duration_s = n_at(j, "duration_s");
  r.command = texts_at(j, "command");
  r.baseline = text_at(j, "baseline");
  r.baselines = j.contains("baselines") ? texts_at(j, "baselines") : std::vector<std::string>{r.baseline};
  if (j.contains("timing")) r.google_benchmark_json = text_at(j.at("timing"), "google_benchmark_json");
  r.icount_tool = text_at(j.at("instruction_counts"), "tool");
  r.icount_note = text_at(j.at("instruction_counts"), "note");
  if (j.contains("shard")) r.shard = Shard{j.at("shard").at("index").get<int>(), j.at("shard").at("count").get<int>()};
  for (const json& e : j.at("results")) r.entries.push_back(entry_of(e));
  if (j.at("work_precision").contains("error_metric")) r.work_metric = text_at(j.at("work_precision"), "error_metric");
  for (const json& s : j.at("work_precision").at("series")) r.work.push_back(work_of(s));
  if (j.contains("scaling"))
    for (const json& s : j.at("scaling")) r.scaling.push_back(scaling_of(s));
  r.merged_from = texts_at(j, "merged_from");
  return r;
}

ordered_json BenchReport::to_json() const {
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["kind"] = "bench";
  j["tool"] = tool.to_json();
  j["machine"] = machine.to_json();
  j["started"] = started;
  j["duration_s"] = duration_s;
  j["command"] = command;
  j["baseline"] = baseline;
  j["baselines"] = baselines;
  j["timing"] = {{"source", "Google Benchmark CPU time per step, min over interleaved repetitions"},
                 {"google_benchmark_json", google_benchmark_json}};
  j["instruction_counts"] = {{"tool", icount_tool}, {"note", icount_note}};
  if (shard) j["shard"] = {{"index", shard->index}, {"count", shard->count}};
  j["results"] = ordered_json::array();
  for (const BenchEntry& e : entries) j["results"].push_back(entry_json(e));
  j["work_precision"] = {{"error_metric", work_metric}, {"series", ordered_json::array()}};
  for (const WorkSeries& ws : work) j["work_precision"]["series"].push_back(work_json(ws));
  if (!scaling.empty()) {
    j["scaling"] = ordered_json::array();
    for (const ScalingSeries& s : scaling) j["scaling"].push_back(scaling_json(s));
  }
  add_styles(j);
  if (!merged_from.empty()) j["merged_from"] = merged_from;
  return j;
}

ordered_json bench_report(const BenchResult& b, const std::vector<std::string>& command, const std::string& started) {
  return BenchReport::of(b, command, started).to_json();
}

}  // namespace rigidbench
