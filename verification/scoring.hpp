#pragma once
// Trajectory scoring (`rigidbench ladder` / `rigidbench score`, docs/trajectory-files.md): any
// program, in any language, integrates the problem on the ladder of steps that `ladder` prints and
// writes one trajectory per step size; rigidbench replays those files through the integrator
// contract and judges them with the same runner, metrics and verdicts as a compiled scheme. The
// program's claims are declared, never inferred; invariants are evaluated by the problem from the
// states read (never taken from the file's own invariant columns).
#include <iosfwd>
#include <optional>
#include <string_view>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../integrators/declared_scheme.hpp"
#include "suite.hpp"

namespace rigidbench {

/// How a file writes the attitude (docs/trajectory-files.md, "Conventions"). The columns are named by
/// the form: R11 ... R33 for a matrix, q1 ... q4 for a quaternion.
enum class AttitudeForm {
  matrix_row_major,     // "R": the column Rij holds R_ij (R maps body to space components)
  matrix_column_major,  // "R_column_major": the column Rij holds R_ji (a column-major array written in order)
  quaternion_wxyz,      // "quaternion_wxyz": q1 is the scalar part (Hamilton, R(q) maps body to space)
  quaternion_xyzw,      // "quaternion_xyzw": q4 is the scalar part (Eigen's, Bullet's and MuJoCo's storage)
};
/// Whose components a file's angular velocity has: body (W1 W2 W3) or space/world (w1 w2 w3, w = R W).
enum class OmegaFrame { body, world };
/// Which times a file holds: every step t0 + n h, or the observation grid alone t0 + j stride h (the
/// grid the errors are measured on, the same at every level: `ladder` prints it).
enum class RowGrid { every_step, observation };
struct FileConventions {
  AttitudeForm attitude = AttitudeForm::matrix_row_major;
  OmegaFrame omega = OmegaFrame::body;
};
/// The names used in manifests, options and messages; the parsers throw InputError listing the names.
std::string_view to_string(AttitudeForm a);
std::string_view to_string(OmegaFrame f);
std::string_view to_string(RowGrid g);
AttitudeForm attitude_form_from_string(std::string_view s);
OmegaFrame omega_frame_from_string(std::string_view s);
RowGrid row_grid_from_string(std::string_view s);

/// One trajectory as read from a file: the rows of one level, converted to the canonical state (R,
/// body W) from the file's conventions.
struct RecordedTrajectory {
  std::string file;
  bool csv = true;
  std::vector<double> t;
  std::vector<State> states;
  /// The first row with a non-finite value (a run that blew up), if any: its time and what was
  /// read there. The rows before it are the level's states; the rest of the file is not read.
  std::optional<LevelBreakdown> breakdown;
  /// Where sample n is in the file, for messages: "line n+2" (CSV, after the header) or "sample n".
  std::string where(std::size_t n) const;
};

/// The column names of a trajectory of `p`: t, then per body the attitude (R11..R33 or q1..q4), the
/// angular velocity (W1..W3 in body or w1..w3 in world components) and, for translating families,
/// x1..x3, v1..v3; suffixed _<body> when there are several. The default is the `simulate` format.
std::vector<std::string> trajectory_columns(const Problem& p, const FileConventions& c = {});

/// Reads a trajectory in CSV or JSON (extra columns, such as invariants, are ignored) and converts it
/// to the canonical state: R from a matrix as written or from the unit quaternion (q and -q alike),
/// W = R^T w from a world-frame w. Throws InputError naming the file, the row (CSV line or JSON
/// sample) and the column for a missing or duplicated column, a field that is not a number (a non-finite
/// one - nan, inf, a JSON null - ends the trajectory as a breakdown instead), a row of the wrong
/// width (a truncated file), an attitude that is not a rotation in its declared form (|R^T R - I| >
/// kRotationTolerance or det R < 0; | |q| - 1 | > kRotationTolerance), or more than `max_rows` rows.
RecordedTrajectory read_trajectory(const std::string& file, const Problem& p, std::size_t max_rows,
                                   const FileConventions& c = {});
/// The two readers behind read_trajectory, on a stream or a parsed document (`file` names it in
/// messages); the fuzz target fuzz/trajectory.cpp drives them without a file system.
RecordedTrajectory read_trajectory_csv(std::istream& in, const std::string& file, const Problem& p, std::size_t max_rows,
                                       const FileConventions& c = {});
RecordedTrajectory trajectory_from_json(const nlohmann::json& j, const std::string& file, const Problem& p,
                                        std::size_t max_rows, const FileConventions& c = {});
inline constexpr double kRotationTolerance = 1e-6;
/// Why R from outside code (a file's row, a Python scheme's read()) is not a rotation within
/// kRotationTolerance - "R is not a rotation (max |R^T R - I| = 1, det R = 0; ...)" - or empty. A zero
/// matrix would otherwise be scored with attitude error 0 (log of R_ref^T 0 is 0).
std::string rotation_problem(const Mat3& R);
/// Bounded nesting for JSON trajectories and manifests (untrusted; core/json_input.hpp): they need 3.
inline constexpr int kTrajectoryJsonDepth = 16;


/// A file set as the folder and its manifest describe it.
struct TrajectorySet {
  struct Level {
    std::string file;
    std::optional<RowGrid> grid;               // declared (else inferred from the rows)
    std::optional<LevelBreakdown> breakdown;   // declared by the program
  };
  std::vector<Level> levels;                   // one per ladder level
  std::optional<AttitudeForm> attitude;        // declared by the manifest
  std::optional<OmegaFrame> omega;
  std::optional<DeclaredCost> cost;
};

/// Which file holds which level, and what the manifest declares: `manifest.json` in the folder
/// ({"levels": [{"h": h, "file": name, "grid": ..., "breakdown": {"t": t, "reason": why}}, ...],
/// "attitude": ..., "angular_velocity": ..., "grid": ..., "cost": {...}}, every key optional; h
/// matching a ladder step to 1e-9 relative), else level<k>.csv or level<k>.json. Throws InputError for
/// a missing level, an h that is not on the ladder, a level given twice (also as both .csv and .json),
/// an unknown key or value, or a file that is not a regular file.
TrajectorySet trajectory_set(const std::string& dir, const Ladder& L);

/// Everything an outside program must produce for `score` (docs/trajectory-files.md): the problem
/// (its problem file, the initial state, inertia), the ladder h_k and step counts, the file each
/// level goes to, the columns, and the output grid (every step t0 + n h_k).
nlohmann::ordered_json ladder_description(const Problem& p, const Ladder& L, int order);

/// What an adaptive scheme's program must produce (docs/trajectory-files.md, "Adaptive schemes"):
/// the problem, the tolerances tol_k of the ladder T, the output times verify observes an adaptive
/// scheme at (t0 + j dt, j = 0..outputs: the step ladders' observation grid, thinned to at most
/// T.max_intervals intervals), a file per tolerance, and the manifest that declares each run's counts.
nlohmann::ordered_json tolerance_ladder_description(const Problem& p, const ToleranceLadder& T, const LadderRequest& lr = {});

/// An adaptive scheme's file set as its manifest.json describes it (docs/trajectory-files.md,
/// "Adaptive schemes"): per tolerance of the ladder, in ladder order, its file and the counts the
/// program declared; the conventions. Throws InputError for a missing manifest, an unknown key, a tol
/// off the ladder, a tolerance given twice or not at all, a count that is not a non-negative integer,
/// or a file that is not a regular file.
struct AdaptiveTrajectorySet {
  struct Level {
    double tol = 0;
    std::string file;
    Counters counters;
    double seconds = kNaN;  ///< the run's time as the program declared it (NaN: none)
  };
  std::vector<Level> levels;
  /// The manifest's "cost": where and how the program timed its runs (each level's "seconds");
  /// never measured here (docs/trajectory-files.md, "Adaptive schemes").
  struct DeclaredCost {
    std::string machine, method;
  };
  std::optional<DeclaredCost> cost;
  std::optional<AttitudeForm> attitude;
  std::optional<OmegaFrame> omega;
};
AdaptiveTrajectorySet adaptive_trajectory_set(const std::string& dir, const ToleranceLadder& T);

struct ScoreRequest {
  Problem problem;
  SchemeDeclaration scheme;      // name, order, claims (families: the problem's equations)
  std::string trajectories;      // the folder
  /// The conventions and the grid as options (`score --attitude ... --angular-velocity ... --grid`);
  /// unset: the manifest's, else the defaults (R, body W, inferred grid). Given both ways, they must agree.
  std::optional<AttitudeForm> attitude;
  std::optional<OmegaFrame> omega;
  std::optional<RowGrid> grid;
  LadderRequest ladder;
  ReferenceSettings reference;
  bool progress = true;
  /// An adaptive scheme's file set (`score --adaptive`): a file per tolerance of this ladder on the
  /// output times, with the counts in manifest.json; judged on the tolerance ladder.
  std::optional<ToleranceLadder> tolerance;
};

/// Reads and checks every level's file against the ladder (its grid - every step or the observation
/// grid, declared or told by the row count -, the times on it, the initial state), then verifies the
/// recorded scheme like any other: errors on the observation grid, invariants at every row. A level
/// that ends early (a non-finite row, a declared breakdown) is a breakdown from its time on. Throws
/// InputError for bad files.
SuiteResult score_trajectories(const ScoreRequest& req);

}  // namespace rigidbench
