#pragma once
// Trajectory scoring (`rigidbench ladder` / `rigidbench score`, docs/trajectory-files.md): any
// program, in any language, integrates the problem on the ladder of steps that `ladder` prints and
// writes one trajectory per step size; rigidbench replays those files through the integrator
// contract and judges them with the same runner, metrics and verdicts as a compiled scheme. The
// program's claims are declared, never inferred; invariants are evaluated by the problem from the
// states read (never taken from the file's own invariant columns).
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rigidbench/integrators/declared_scheme.hpp"
#include "rigidbench/verification/suite.hpp"

namespace rigidbench {

/// One trajectory as read from a file: every step of one level, t_n = t0 + n h, n = 0..N.
struct RecordedTrajectory {
  std::string file;
  bool csv = true;
  std::vector<double> t;
  std::vector<State> states;
  /// Where sample n is in the file, for messages: "line n+2" (CSV, after the header) or "sample n".
  std::string where(std::size_t n) const;
};

/// The column names of a trajectory of `p` (the `simulate` format): t, then per body R11..R33,
/// W1..W3 (and x1..x3, v1..v3 for translating families), suffixed _<body> when there are several.
std::vector<std::string> trajectory_columns(const Problem& p);

/// Reads a trajectory in the `simulate` CSV or JSON format (extra columns, such as invariants, are
/// ignored). Throws InputError naming the file, the row (CSV line or JSON sample) and the column for
/// a missing column, a field that is not a finite number, a row of the wrong width (a truncated
/// file), an R that is not a rotation (|R^T R - I| > kRotationTolerance or det R < 0), or more than
/// `max_rows` rows.
RecordedTrajectory read_trajectory(const std::string& file, const Problem& p, std::size_t max_rows);
/// The two readers behind read_trajectory, on a stream or a parsed document (`file` names it in
/// messages); the fuzz target fuzz/trajectory.cpp drives them without a file system.
RecordedTrajectory read_trajectory_csv(std::istream& in, const std::string& file, const Problem& p, std::size_t max_rows);
RecordedTrajectory trajectory_from_json(const nlohmann::json& j, const std::string& file, const Problem& p,
                                        std::size_t max_rows);
inline constexpr double kRotationTolerance = 1e-6;
/// Bounded nesting for JSON trajectories and manifests (untrusted; core/json_input.hpp): they need 2.
inline constexpr int kTrajectoryJsonDepth = 16;

/// Which file holds which level: `manifest.json` in the folder ({"levels": [{"h": h, "file":
/// name}, ...]}, h matching a ladder step to 1e-9 relative), else level<k>.csv or level<k>.json.
/// Throws InputError for a missing level, an h that is not on the ladder, or a level given twice.
std::vector<std::string> trajectory_files(const std::string& dir, const Ladder& L);

/// Everything an outside program must produce for `score` (docs/trajectory-files.md): the problem
/// (its problem file, the initial state, inertia), the ladder h_k and step counts, the file each
/// level goes to, the columns, and the output grid (every step t0 + n h_k).
nlohmann::ordered_json ladder_description(const Problem& p, const Ladder& L, int order);

struct ScoreRequest {
  Problem problem;
  SchemeDeclaration scheme;      // name, order, claims (families: the problem's equations)
  std::string trajectories;      // the folder
  LadderRequest ladder;
  ReferenceSettings reference;
  bool progress = true;
};

/// Reads and checks every level's file against the ladder (row count, times t0 + n h, the initial
/// state), then verifies the recorded scheme like any other. Throws InputError for bad files.
SuiteResult score_trajectories(const ScoreRequest& req);

}  // namespace rigidbench
