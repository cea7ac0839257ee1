#pragma once
// The gate snapshot as a type (docs/gate.md, "What is compared"; its schema is
// reports/schema/gate-snapshot-1.0.schema.json): what the gate holds a run to - per pair
// the gating error ladders and verdicts, per pair the instruction counts - and the environment that
// produced them. One reader (`read`, which validates against the schema) and one serialiser
// (`to_json`); the gate and the history work on this type, never on the JSON.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../reports/bench_report.hpp"
#include "../reports/verify_report.hpp"
#include "../verification/metrics.hpp"

namespace rigidbench {

/// Values by name, sorted by name (the order of a JSON object as nlohmann::json reads it, and so the
/// order the gate's rows come in).
template <class T>
using Named = std::vector<std::pair<std::string, T>>;

/// One gating error metric of a pair: per level, h, the error, the reference's floor and the
/// accumulated-rounding allowance; NaN where a value could not be computed (a breakdown: null in JSON).
struct LadderSnapshot {
  std::vector<double> h, error, floor;
  std::optional<std::vector<double>> rounding;  ///< absent: no allowance (0 at every level)
  std::string verdict = "undefined";            ///< the order verdict: pass | fail | undefined
  /// The rounding allowance of level k; 0 where there is none or it is not finite.
  double rounding_at(std::size_t k) const;
  /// A report's ladder of one error metric (its rounding only where the report writes one).
  static LadderSnapshot of(const Convergence& c);
  bool operator==(const LadderSnapshot&) const;  // NaN equal to NaN: the same snapshot read twice
};

/// An adaptive pair's work at each tolerance of its tolerance ladder (docs/adaptive.md), per unit of
/// simulated time: accepted steps, right-hand sides, load evaluations; NaN where the level broke down.
/// Its errors are the ladder kToleranceErrorLadder of PairSnapshot::convergence (h = the tolerances).
struct WorkSnapshot {
  std::vector<double> tol, accepted_steps, rhs_evaluations, load_evaluations;
  bool operator==(const WorkSnapshot&) const;  // NaN equal to NaN
};
/// The names of an adaptive pair's error ladders in the snapshot: the attitude error at each
/// tolerance, and on a translating problem (a body system) the position error too.
inline constexpr const char* kToleranceErrorLadder = "tolerance_attitude_error";
inline constexpr const char* kTolerancePositionLadder = "tolerance_position_error";

/// An adaptive pair's error ladders (h = the tolerances; their verdict is the check
/// tolerance_proportionality, so "undefined" here), by name, and its work per unit of simulated time.
struct ToleranceSnapshot {
  std::vector<std::pair<std::string, LadderSnapshot>> ladders;
  WorkSnapshot work;
};
ToleranceSnapshot tolerance_snapshot(const ToleranceStudy& st);

/// One scheme x problem pair of a verify run.
struct PairSnapshot {
  std::string integrator, problem;
  std::string status;                  ///< ok | skipped | breakdown | failed
  std::optional<double> seconds;       ///< the pair's own work in the run
  std::optional<std::string> version;  ///< the scheme's version where it is not rigidbench's (an engine's library)
  Named<LadderSnapshot> convergence;   ///< the gating error metrics (metric table), by name
  Named<std::string> checks;           ///< every other gating verdict by check name (PairResult::checks)
  std::optional<WorkSnapshot> work;  ///< an adaptive pair's work per tolerance

  std::string key() const { return integrator + "/" + problem; }
  const LadderSnapshot* ladder(const std::string& metric) const;
  const std::string* check(const std::string& name) const;
  bool operator==(const PairSnapshot&) const = default;
};

/// One pair of a bench run: instructions per step (callgrind) and the wall-clock ratio to the
/// in-run baseline scheme; NaN when not measured.
struct SpeedSnapshot {
  std::string integrator, problem;
  double instructions_per_step = 0, ratio_to_baseline = 0;
  std::vector<double> ratio_samples;  ///< each repetition's time ratio (BenchEntry::ratio_samples)
  /// An adaptive pair (docs/adaptive.md): per tolerance of its ladder, the instructions of a whole run
  /// per unit of simulated time (instructions_per_step and the ratio are then NaN); empty otherwise.
  std::vector<double> tol, instructions_per_time;
  bool adaptive() const { return !tol.empty(); }
  std::string key() const { return integrator + "/" + problem; }
  bool operator==(const SpeedSnapshot&) const;
};

/// What produced the numbers: instruction counts are bound to the toolchain that counted them.
struct SnapshotEnvironment {
  std::string compiler, flags, build_type;
  std::string valgrind;                ///< empty: the run had no instruction counts
  std::optional<std::string> machine;  ///< the CPU's model name
  bool operator==(const SnapshotEnvironment&) const = default;
};

/// The pairs a baseline was blessed for (an outside scheme's own baseline): a gate without
/// --integrator/--problem compares exactly those.
struct SnapshotSelection {
  std::vector<std::string> integrators, problems;
  std::string shard;
  bool operator==(const SnapshotSelection&) const = default;
};

/// A tolerance of the gate for some of its rows, kept in the baseline (docs/gate.md, "Tolerances of
/// your own"): the rows whose scheme, problem and check match the globs take it in place of the
/// run's; later entries override earlier ones. A baseline re-blessed over this one keeps them.
struct GateTolerance {
  std::string integrator = "*", problem = "*", check = "*";
  std::optional<double> error_band;             ///< decades an error may rise (GateRules::log10_rise)
  std::optional<double> instruction_tolerance;  ///< fraction instructions may rise (GateRules::instruction_rise)
  std::string reason;                           ///< why (shown in the rows it widens)
  bool operator==(const GateTolerance&) const = default;
};

struct GateSnapshot {
  SnapshotEnvironment environment;
  std::string git_revision;
  std::optional<SnapshotSelection> selection;
  std::vector<GateTolerance> tolerances;  ///< a baseline's own (GateTolerance); empty in a run's snapshot
  std::vector<PairSnapshot> accuracy;  ///< sorted by key()
  std::vector<SpeedSnapshot> speed;    ///< sorted by key()

  const PairSnapshot* pair(const std::string& integrator, const std::string& problem) const;
  const SpeedSnapshot* speed_of(const std::string& integrator, const std::string& problem) const;
  bool operator==(const GateSnapshot&) const = default;

  /// The snapshot of a verify report and of a bench report of the same build (null: no speed).
  /// Throws InputError when the snapshot would not follow its schema (a report's schema admits
  /// values a snapshot's refuses, e.g. a negative floor).
  static GateSnapshot of_reports(const VerifyReport& verify, const BenchReport* bench = nullptr);
  /// A speed-only snapshot of bench reports of one build (gate --against): the instruction counts
  /// of the first, and per pair the smallest wall-clock ratio over all of them (the interleaved
  /// timing passes).
  static GateSnapshot of_benches(const std::vector<BenchReport>& bench_reports);
  /// The one reader: validated against the schema first (InputError naming `origin` and the path).
  static GateSnapshot read(const nlohmann::json& j, const std::string& origin);
  /// The one serialiser; valid against the schema, keys sorted (a blessed baseline's diff shows what moved).
  nlohmann::json to_json() const;
  /// What to_json writes, field by field (field_json::shape): checked against the schema by a test.
  static nlohmann::ordered_json declared_shape();
};

}  // namespace rigidbench
