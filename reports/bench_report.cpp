#include "bench_report.hpp"

#include <cmath>

#include "../core/json_schema.hpp"
#include "../integrators/registry.hpp"
#include "field_json.hpp"
#include "report.hpp"
#include "styles.hpp"

namespace rigidbench {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

/// Every scheme the report names, in its order (the styles the renderer draws them with).
std::vector<std::string> scheme_names(const BenchReport& r) {
  std::vector<std::string> names;
  for (const BenchEntry& e : r.entries) names.push_back(e.integrator);
  for (const WorkSeries& w : r.work) names.push_back(w.integrator);
  for (const ScalingSeries& s : r.scaling) names.push_back(s.integrator);
  return names;
}

}  // namespace

/// The report's fields, in its order.
template <>
struct Fields<BenchReport> {
  static constexpr auto list() {
    return std::tuple{
        field("schema_version", RIGIDBENCH_WRITES(kSchemaVersion)),
        field("kind", RIGIDBENCH_WRITES("bench")),
        RIGIDBENCH_FIELD(tool), RIGIDBENCH_FIELD(machine), RIGIDBENCH_FIELD(started), RIGIDBENCH_FIELD(duration_s),
        RIGIDBENCH_FIELD(command), RIGIDBENCH_FIELD(baseline), RIGIDBENCH_FIELD(baselines),
        group("timing", field("source", RIGIDBENCH_WRITES("Google Benchmark CPU time per step, min over interleaved repetitions")),
              RIGIDBENCH_FIELD(google_benchmark_json)),
        group("instruction_counts", field("tool", RIGIDBENCH_AT(icount_tool)), field("note", RIGIDBENCH_AT(icount_note))),
        RIGIDBENCH_FIELD(shard, Written::if_set),
        field("results", RIGIDBENCH_AT(entries)),
        group("work_precision", field("error_metric", RIGIDBENCH_AT(work_metric)), field("series", RIGIDBENCH_AT(work))),
        RIGIDBENCH_FIELD(scaling, Written::if_set),
        field("styles", [](const BenchReport& r) { return styles_json(scheme_names(r)); }),
        RIGIDBENCH_FIELD(merged_from, Written::if_set)};
  }
};



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
  BenchReport r = field_json::read_as<BenchReport>(j);
  if (!j.contains("baselines")) r.baselines = {r.baseline};  // a report from before the RK4 baseline
  return r;
}

ordered_json BenchReport::to_json() const { return field_json::write(*this); }
ordered_json BenchReport::declared_shape() { return field_json::declared_shape<BenchReport>(); }

ordered_json bench_report(const BenchResult& b, const std::vector<std::string>& command, const std::string& started) {
  return BenchReport::of(b, command, started).to_json();
}

}  // namespace rigidbench
