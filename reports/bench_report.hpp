#pragma once
// The bench report as a type (reports/schema/bench-1.0.schema.json, docs/reports.md): what
// `rigidbench bench` measured - per scheme x problem the time and instructions per step, the
// work-precision series, the scaling study - and the build and machine that measured it. One
// serialiser (`to_json`) and one reader (`read`, which validates against the schema); the gate,
// the history, shard merging and compare work on this type.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "../benchmarks/bench_suite.hpp"
#include "../core/fields.hpp"
#include "../core/shard.hpp"
#include "provenance.hpp"

namespace rigidbench {

struct BenchReport {
  ToolInfo tool;
  MachineInfo machine;
  std::string started;
  double duration_s = 0;
  std::vector<std::string> command;
  std::string baseline;                ///< the scheme every ratio_to_baseline is to
  std::vector<std::string> baselines;  ///< every in-run baseline scheme (the first is `baseline`)
  std::string google_benchmark_json;   ///< Google Benchmark's own output ("" if none)
  std::string icount_tool;             ///< the valgrind that counted instructions ("" if none)
  std::string icount_note;
  std::optional<Shard> shard;          ///< one shard of a sweep (bench --shard k/N)
  std::vector<BenchEntry> entries;
  std::string work_metric = "attitude_error_final";
  std::vector<WorkSeries> work;
  std::vector<ScalingSeries> scaling;
  std::vector<std::string> merged_from;  ///< the shard reports this one merges (merge)

  /// The entry of a pair, or null.
  const BenchEntry* entry(const std::string& integrator, const std::string& problem) const;

  /// The report of a bench run by this build.
  static BenchReport of(const BenchResult& b, const std::vector<std::string>& command, const std::string& started);
  /// The one reader: validated against the bench schema first (InputError naming `origin` and the
  /// JSON path). A field an older report lacks reads as NaN (null when written again).
  static BenchReport read(const nlohmann::json& j, const std::string& origin);
  /// The one serialiser, with the figure styles of the schemes it names (reports/styles.hpp).
  nlohmann::ordered_json to_json() const;
  /// What to_json writes, field by field (field_json::shape): checked against the schema by a test.
  static nlohmann::ordered_json declared_shape();
};

/// The `rigidbench bench` report of a run: BenchReport::of(b, command, started).to_json().
nlohmann::ordered_json bench_report(const BenchResult& b, const std::vector<std::string>& command,
                                    const std::string& started);

// ---- what a bench report writes of each result (core/fields.hpp) ----

template <>
struct Fields<BenchEntry> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(integrator), RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(h),
                      RIGIDBENCH_FIELD(ns_per_step), RIGIDBENCH_FIELD(ns_per_step_median), RIGIDBENCH_FIELD(repetitions),
                      RIGIDBENCH_FIELD(ratio_to_baseline), RIGIDBENCH_FIELD(instructions_per_step),
                      RIGIDBENCH_FIELD(instruction_ratio_to_baseline), RIGIDBENCH_FIELD(ratio_to_rk4),
                      RIGIDBENCH_FIELD(instruction_ratio_to_rk4),
                      field("load_evaluations_per_step", RIGIDBENCH_AT(loads_per_step)),
                      field("newton_iterations_per_step", RIGIDBENCH_AT(newton_per_step)),
                      field("jacobian_evaluations_per_step", RIGIDBENCH_AT(jacobians_per_step)),
                      RIGIDBENCH_FIELD(flops_per_step), field("transcendental_calls_per_step", RIGIDBENCH_AT(calls_per_step)),
                      RIGIDBENCH_FIELD(instructions_per_flop), RIGIDBENCH_FIELD(ratio_samples, Written::if_set),
                      RIGIDBENCH_FIELD(breakdown, Written::if_set)};
  }
};

template <>
struct Fields<WorkPoint> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(error), RIGIDBENCH_FIELD(cpu_seconds),
                      RIGIDBENCH_FIELD(instructions), RIGIDBENCH_FIELD(pareto_cpu), RIGIDBENCH_FIELD(pareto_instructions),
                      // An adaptive pair's point (h null), and the slowest repetition where there were several.
                      RIGIDBENCH_FIELD(tol, Written::if_set), RIGIDBENCH_FIELD(cpu_seconds_max, Written::if_set)};
  }
};

template <>
struct Fields<WorkSeries> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(integrator), RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(points)};
  }
};

template <>
struct Fields<ScalingPoint> {
  static constexpr auto list() {
    return std::tuple{field("bodies", RIGIDBENCH_AT(n)), RIGIDBENCH_FIELD(ns_per_step), RIGIDBENCH_FIELD(instructions_per_step)};
  }
};

template <>
struct Fields<ScalingSeries> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(integrator), RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(points),
                      group("ns_growth", field("exponent", RIGIDBENCH_AT(ns_fit.slope)),
                            field("stderr", RIGIDBENCH_AT(ns_fit.stderr_slope)), field("r2", RIGIDBENCH_AT(ns_fit.r2))),
                      group("instruction_growth", field("exponent", RIGIDBENCH_AT(instruction_fit.slope)),
                            field("stderr", RIGIDBENCH_AT(instruction_fit.stderr_slope)),
                            field("r2", RIGIDBENCH_AT(instruction_fit.r2)))};
  }
};

template <>
struct Fields<Shard> {
  static constexpr auto list() { return std::tuple{RIGIDBENCH_FIELD(index), RIGIDBENCH_FIELD(count)}; }
};

}  // namespace rigidbench
