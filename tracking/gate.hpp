#pragma once
// The CI gate (docs/gate.md): compares a snapshot of the current run with a blessed baseline, and
// fails closed - whatever cannot be compared is a failure, never a silent pass.
//   accuracy: per level, an error above 10^0.1 x the baseline's plus both runs' reference floors
//             fails, and so does a current floor + rounding above 10x the baseline's (it does not
//             follow from the same reference); an order, Q_II or invariant verdict turning from
//             pass to fail fails; a ladder (level count, h) that differs, a pair or check missing
//             on either side, a pair that broke down: fail. The tolerances hold under
//             floating-point reassociation, so a baseline blessed by one compiler and flag set
//             gates a build by another. Inputs are checked first: a key twice in one object, a
//             pair twice in a report, a negative error, floor, count or cost is bad input.
//   speed:    instructions per step above +2 % fail; they are bound to the toolchain that counted
//             them: a baseline from another compiler, flag set or valgrind is stale; wall-clock
//             ratios only warn.
//   stale:    errors that improved by more than 0.3 decades, or speed counted by another
//             toolchain: exit 4, a failure unless the caller passes allow_stale.
//   expectations: with an expected-findings list, a current failing verdict that is not listed fails
//             and a listed one that passes fails (strict); listed failures pass.
#include <nlohmann/json.hpp>

#include "../core/shard.hpp"
#include "snapshot.hpp"
#include <string>
#include <vector>

namespace rigidbench {

struct Expectations;

struct GateRules {
  double log10_rise = 0.1;               // an error may rise by 26 % (plus the floors) before failing
  double log10_improvement_stale = 0.3;  // an error that fell by 2x (minus the floors): re-bless
  double allowance_trust = 10;           // a current floor + rounding above 10x the baseline's is not believed
  double instruction_rise = 0.02;
  // An adaptive pair's accepted steps or right-hand sides per unit time at one tolerance may rise by
  // 25 % (another compiler's rounding moves a controller's decisions by a few percent; a controller
  // change that doubles the steps fails); fallen to half or less: re-bless (docs/adaptive.md).
  double work_rise = 0.25;
  double work_fall_stale = 0.5;
  double wallclock_rise_warn = 0.10;
  /// A time rise is a regression (a warning) only when the Mann-Whitney test of the repetitions says
  /// the current ones tend to be slower at this one-sided significance (docs/gate.md, "Times").
  double time_significance = 0.05;
};

struct GateOptions {
  GateRules rules;
  bool allow_stale = false;    // stale rows warn instead of failing (exit 0 when nothing else fails)
  bool require_rebless = false;  // improved rows make the baseline stale (exit 4): keep the gain by re-blessing
  bool accuracy_only = false;  // do not compare speed (another toolchain, or no valgrind)
  bool speed_only = false;     // do not compare accuracy (gate --against: two builds' benchmarks)
  std::vector<std::string> integrators, problems;  // globs restricting both sides (empty: all)
  Shard shard;                                     // only this shard's pairs, both sides
  const Expectations* expect = nullptr;
};

struct GateRow {
  std::string integrator, problem, metric;
  /// pass | fail | missing | stale | improved | warn | expected_failure | unexpected_pass
  std::string status;
  std::string baseline, current, message;
  double seconds = 0;  // the current run's time for this row's pair, shared among its rows
  bool failing = false;  // counts as a failure of the gate
};

struct GateResult {
  std::vector<GateRow> rows;
  std::vector<std::string> notes;  // what was not compared and why (accuracy-only, environments)
  int failures = 0, warnings = 0, stale = 0, expected = 0;
  /// Rows better than the baseline beyond its band (an error, a verdict fail -> pass, the work or the
  /// instructions): reported; with require_rebless they make the baseline stale.
  int improved = 0;
  bool allow_stale = false, require_rebless = false;
  /// 0 pass; 1 a regression, missing data or a broken expectation; 4 only stale rows (re-bless)
  /// and allow_stale not given, or improved rows and require_rebless given.
  int exit_code() const {
    return failures > 0 ? 1 : (stale > 0 && !allow_stale) || (improved > 0 && require_rebless) ? 4 : 0;
  }
};

/// Compares two snapshots (tracking/snapshot.hpp).
GateResult gate_compare(const GateSnapshot& baseline, const GateSnapshot& current, const GateOptions& options = {});
/// The same, on two snapshot documents read with GateSnapshot::read: InputError (with the JSON path)
/// when either is not a gate snapshot.
GateResult gate_compare(const nlohmann::json& baseline, const nlohmann::json& current, const GateOptions& options = {});

std::string gate_table(const GateResult& g);
/// A short Markdown summary for a pull request or a CI job summary ($GITHUB_STEP_SUMMARY; docs/gate.md,
/// "Summaries"): the outcome and counts in one line, then one table row per check that did not pass
/// (failed first), the notes; a passing gate is three lines.
std::string gate_markdown(const GateResult& g);
/// The same as JSON (reports/schema/gate-summary-1.0.schema.json): outcome, exit code, counts, and
/// every row that did not pass with its baseline, current value and message.
nlohmann::ordered_json gate_summary_json(const GateResult& g);
/// JUnit XML following the Ant/Jenkins schema (reports/schema/junit.xsd): a testcase per row with
/// classname, name and time; failures and errors carry a type and a message with the measured
/// value, the threshold and how far past it. Each testcase's time is its pair's own work (pairs run in
/// parallel, so these may add up to more than the run); the suite's is `wall_seconds`, the whole gate
/// run's (references and benchmarks included), or without it the sum of the testcases.
std::string gate_junit(const GateResult& g, const std::string& timestamp, const std::string& hostname,
                       double wall_seconds = 0);

}  // namespace rigidbench
