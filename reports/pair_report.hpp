#pragma once
// A pair's result as the report writes it (reports/schema/report-1.0.schema.json, `results[]`;
// docs/reports.md): the type of what a verify report holds for one scheme x problem. `PairResult`
// (verification/runner.hpp) is what the run computes; `PairReport::of` projects it onto what is
// written (the reference's states and the per-level halves of the invariants stay behind), `to_json`
// writes it and `read` reads it back - one serialiser and one reader, so that writing what was read
// gives the same document (tested on the quick suite's report). The gate and the history read pairs
// through it.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../core/fields.hpp"
#include "../verification/anatomy.hpp"
#include "../verification/long_time.hpp"
#include "../verification/runner.hpp"
#include "../verification/structure.hpp"

namespace rigidbench {

/// What the report says of the scheme (SchemeInfo's words, and where the scheme came from).
struct SchemeRecord {
  std::string title, source;
  int order = 0;
  std::string kind, representation, notes;
  bool builtin = true;
  std::string origin;
  std::optional<std::string> version;  ///< an engine's library version
  std::optional<std::string> identity;  ///< what the history keys an outside scheme by (SchemeInfo::identity)
  std::optional<std::string> precision;  ///< "float32" for a scheme in single precision (SchemeInfo::precision)
};

/// The step ladder and what the run was given.
struct SettingsRecord {
  double h0 = 0;
  int levels = 0;
  std::vector<double> h;
  double t0 = 0, t_end = 0, observation_interval = 0;
  std::int64_t observation_points = 0;
  std::string q_ii_norm;
  std::optional<nlohmann::ordered_json> problem;  ///< the problem as a problem file (docs/problem-files.md)
  std::optional<nlohmann::ordered_json> scheme;   ///< every declared setting of the scheme, given or default
  /// How the step ladder ended (PairResult::ladder_stop) and the levels it planned; `levels` and `h` are
  /// the levels that ran (reports of 0.4 and earlier: absent, every level ran).
  std::optional<std::string> ladder_stop;
  std::optional<int> levels_planned;
};

struct PairReport {
  std::string integrator, problem, status, reason;
  // Below: absent (empty) for a skipped pair.
  std::optional<SchemeRecord> scheme;  ///< always written; the schema does not require it
  SettingsRecord settings;
  std::vector<LevelOutcome> levels;
  std::vector<std::pair<std::string, Convergence>> convergence, paper_measures;  ///< in the metric table's order
  QiiResult q_ii, q_ii_full;
  /// As judged, in the problem's order (InvariantResult; its per-level halves and growth fits are not
  /// written, but the judged level's growth is).
  std::vector<std::pair<std::string, InvariantResult>> invariants;
  std::vector<std::pair<std::string, MeasureResult>> measures;  // the metric table's measures of a pair
  std::optional<ErrorAnatomy> anatomy;
  std::optional<StructureResult> structure;
  std::optional<ReferenceSummary> reference;
  CostResult cost;
  std::optional<History> history;
  std::optional<LongTimeEnergy> long_time;
  std::optional<ToleranceStudy> tolerance;  ///< an adaptive scheme's tolerance ladder (docs/adaptive.md)
  std::optional<double> seconds;  ///< the pair's own work; always written, not required

  bool skipped() const { return status == "skipped"; }
  const Convergence* ladder(const std::string& metric) const;

  /// What the report writes of a run's result (`p`: the problem, written into settings; may be null).
  static PairReport of(const PairResult& r, const Problem* p);
  /// The one reader, for one element of a report's `results` that follows the report schema (validate
  /// the report first: the reader takes the schema's guarantees for granted).
  static PairReport read(const nlohmann::ordered_json& j);
  static PairReport read(const nlohmann::json& j);  ///< the same, from a report read with sorted keys
  /// The one serialiser.
  nlohmann::ordered_json to_json() const;
  /// What to_json writes, field by field (field_json::shape): checked against the schema by a test.
  static nlohmann::ordered_json declared_shape();
};

// ---- what the report writes of each record (core/fields.hpp; the results' own: result_fields.hpp) ----

template <>
struct Fields<SchemeRecord> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(title), RIGIDBENCH_FIELD(source), RIGIDBENCH_FIELD(order),
                      RIGIDBENCH_FIELD(kind), RIGIDBENCH_FIELD(representation), RIGIDBENCH_FIELD(notes),
                      RIGIDBENCH_FIELD(builtin), RIGIDBENCH_FIELD(origin), RIGIDBENCH_FIELD(version, Written::if_set),
                      RIGIDBENCH_FIELD(identity, Written::if_set), RIGIDBENCH_FIELD(precision, Written::if_set)};
  }
};

template <>
struct Fields<SettingsRecord> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(h0), RIGIDBENCH_FIELD(levels), RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(t0),
                      RIGIDBENCH_FIELD(t_end), RIGIDBENCH_FIELD(observation_interval),
                      RIGIDBENCH_FIELD(observation_points), RIGIDBENCH_FIELD(q_ii_norm),
                      RIGIDBENCH_FIELD(problem, Written::if_set), RIGIDBENCH_FIELD(scheme, Written::if_set),
                      RIGIDBENCH_FIELD(ladder_stop, Written::if_set), RIGIDBENCH_FIELD(levels_planned, Written::if_set)};
  }
};

}  // namespace rigidbench
