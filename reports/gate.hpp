#pragma once
// The CI gate (docs/metrics.md, The gate): compares a snapshot of the current run with a blessed baseline.
//   accuracy: a log10 error rising by > 0.1 (both at their floor: pass), a fitted order, Q_II or
//             exact-invariant verdict turning from pass to fail -> fail; an error improving by
//             > 0.3 in log10 -> "baseline stale - re-bless";
//   speed:    instructions per step (callgrind) above +2 % -> fail; wall-clock ratios only warn;
//   presence: an entry missing from the current run fails; new entries are listed;
//   environment: compiler, flags, build type or valgrind version differ -> stale (own exit code),
//             no verdicts.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rigidbench {

struct GateRules {
  double log10_rise = 0.1;
  double log10_improvement_stale = 0.3;
  double instruction_rise = 0.02;
  double wallclock_rise_warn = 0.10;
};

struct GateRow {
  std::string integrator, problem, metric;
  std::string status;  // pass | fail | warn | stale | new | missing | skipped
  std::string baseline, current, message;
};

struct GateResult {
  std::vector<GateRow> rows;
  bool environment_stale = false;
  std::string environment_message;
  int failures = 0, warnings = 0, stale = 0;
  /// 0 pass, 1 a regression, 4 the baseline is stale (environment changed or results improved).
  int exit_code() const { return environment_stale || (failures == 0 && stale > 0) ? 4 : failures > 0 ? 1 : 0; }
};

/// The compact gate snapshot of a verify report (and optionally a bench report; null if none).
nlohmann::ordered_json gate_snapshot(const nlohmann::json& verify_report, const nlohmann::json& bench_report);

/// Compares two snapshots. Throws InputError when either is not a gate snapshot.
GateResult gate_compare(const nlohmann::json& baseline, const nlohmann::json& current, const GateRules& rules = {});

std::string gate_table(const GateResult& g);
std::string gate_junit(const GateResult& g);

}  // namespace rigidbench
