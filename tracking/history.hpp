#pragma once
// The run history (docs/history.md): `verify`, `bench` and `gate` record what they measured - the
// revision, date and environment, every error at every level of every ladder, every gating verdict,
// instructions and time per step - in one SQLite file, and `rigidbench history` turns it into the
// trend document (reports/schema/history-1.0.schema.json) that the report renders: per scheme x
// problem, instructions per step and the error at a fixed h across revisions, with change points
// flagged by the gate's own rule. Any number of processes may record into one file at once (two CI
// jobs on one runner): every write is one SQLite transaction taken with BEGIN IMMEDIATE and a busy
// timeout, so writers queue rather than interleave.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rigidbench {

/// The file used when none is named: $RIGIDBENCH_HISTORY, else rigidbench-history.sqlite in the
/// current folder.
std::string default_history_path();

/// One run to record. At least one document; those present are validated against their schemas
/// before anything is written.
struct HistoryRun {
  std::string command;      ///< verify | bench | gate
  std::string recorded_at;  ///< ISO 8601 UTC, the run's start (empty: the document's "started", else now)
  std::string outcome;      ///< pass | fail (the run's exit: verdicts, or the gate), empty when not judged
  nlohmann::json verify;    ///< a verify report (quick suite or a selection), or null
  nlohmann::json bench;     ///< a bench report, or null
  nlohmann::json snapshot;  ///< a gate snapshot (taken only when `verify` is null), or null
};

/// What a window of the history holds, and the trend document built from it.
struct HistoryQuery {
  std::vector<std::string> integrators, problems;  ///< names or globs; empty: all
  std::string metric = "attitude_error_final";     ///< the error shown (a convergence metric)
  double h = 0;                                    ///< the step the error is read at; 0: chosen per pair
  int last = 100;                                  ///< the newest revisions shown
};

/// A change point of one series (docs/history.md, "Change points"): the first revision whose value
/// left the tolerance band around the value at the previous change point (or the series' start).
struct ChangePoint {
  std::size_t index = 0;  ///< the point that left the band
  double before = 0;      ///< the value the band was centred on
  double after = 0;       ///< the value that left it
  bool worse = false;     ///< larger (more instructions, larger error)
};

/// The gate's rule along a series: a point starts a new segment when
///   v > factor * v_ref + a_ref + a_v   (worse)   or   v_ref > factor * v + a_ref + a_v   (better),
/// with v_ref the segment's first value and a the per-point absolute allowance (none: 0). Non-finite
/// points are skipped. factor 1.02 for instructions per step, 10^0.1 for errors (docs/metrics.md).
std::vector<ChangePoint> change_points(const std::vector<double>& values, double factor,
                                       const std::vector<double>& allowance = {});

/// A history file, opened for recording (created when absent) or for reading (it must exist).
class HistoryDb {
 public:
  enum class Mode { record, read };
  /// Throws InputError naming the path when it cannot be opened or created, is not a rigidbench
  /// history (another SQLite file, or no database at all), or was written by a newer rigidbench.
  HistoryDb(const std::string& path, Mode mode);
  ~HistoryDb();
  HistoryDb(const HistoryDb&) = delete;
  HistoryDb& operator=(const HistoryDb&) = delete;

  const std::string& path() const;
  /// Records one run in one transaction (all of it or nothing); returns its id.
  std::int64_t record(const HistoryRun& run);
  /// Records several runs in one transaction: every run is validated first, and either all are
  /// recorded or none (history --import a b). Returns their ids in order.
  std::vector<std::int64_t> record(const std::vector<HistoryRun>& runs);
  /// The number of runs recorded.
  std::int64_t runs() const;
  /// SQLite's own consistency check ("ok" when sound).
  std::string integrity_check() const;
  /// The trend document (schema history-1.0) of the newest q.last revisions.
  nlohmann::ordered_json trends(const HistoryQuery& q) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rigidbench
