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
};

/// The `rigidbench bench` report of a run: BenchReport::of(b, command, started).to_json().
nlohmann::ordered_json bench_report(const BenchResult& b, const std::vector<std::string>& command,
                                    const std::string& started);

}  // namespace rigidbench
