#pragma once
// Drives an integrator through the contract on a problem: the step ladder of the convergence
// study, single runs for `simulate`, and the assessment of one (scheme, problem) pair against a
// reference, producing every metric of docs/metrics.md.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../integrators/integrate.hpp"
#include "../integrators/registry.hpp"
#include "../problems/problem.hpp"
#include "../reference/reference.hpp"
#include "anatomy.hpp"
#include "long_time.hpp"
#include "metrics.hpp"
#include "structure.hpp"
#include "tolerance_ladder.hpp"

namespace rigidbench {

/// Steps h_k = h0 2^-k, k = 0..levels-1, each an integer number of steps N0 2^k over the span.
/// Observations are taken on one grid common to every level, t_j = t0 + j dt_obs, dt_obs = h0 2^s,
/// with s the smallest shift that keeps at most 2^15 intervals and one pair's grid data within
/// kGridMemoryBudget (memory.hpp), as far as 2^s divides N0; when s = 0 that is the step grid of the
/// coarsest level itself. Invariants are still evaluated after every step.
struct Ladder {
  double t0 = 0, h0 = 0;
  int levels = 0;
  /// A sequential ladder (the default; docs/metrics.md, "Sequential ladders") runs its levels coarse
  /// to fine and stops once the levels run decide every claim (ladder_decision): `levels` is then its
  /// budget. A fixed one (--levels N, a paper's printed steps) runs every level.
  bool sequential = false;
  std::int64_t n0 = 0;   // steps of level 0
  int obs_shift = 0;     // s
  std::int64_t m = 0;    // observation intervals
  double h(int k) const { return h0 / double(std::int64_t(1) << k); }
  /// The level whose step is h to `rel` relative, or -1.
  int level_of(double h, double rel) const {
    for (int k = 0; k < levels; ++k)
      if (std::abs(h - this->h(k)) <= rel * this->h(k)) return k;
    return -1;
  }
  std::int64_t steps(int k) const { return n0 << k; }
  std::int64_t stride(int k) const { return std::int64_t(1) << (obs_shift + k); }
  double obs_dt() const { return h0 * double(std::int64_t(1) << obs_shift); }
  double t_end() const { return t0 + double(n0) * h0; }
  std::vector<double> obs_times() const;
};

struct LadderRequest {
  std::optional<double> h0 = std::nullopt;    // overrides the problem's (and the first-order) h0
  std::optional<int> levels = std::nullopt;  // given: a fixed ladder of that many levels
  bool fixed = false;                         // a fixed ladder of the problem's levels
};
/// Throws InputError if the span is not an integer multiple of h0 (to 1e-9 relative) or h0 <= 0.
Ladder make_ladder(const Problem& p, int order, const LadderRequest& req = {});

/// The output times of an adaptive scheme on p (integrator.hpp, "Adaptive schemes"): the step
/// ladders' observation grid of order 2 (that of the reference tolerance_study is given), every d-th
/// point (ToleranceLadder::stride). One definition for verify, bench and score.
struct OutputGrid {
  double t0 = 0, dt = 0;
  std::int64_t intervals = 0;
  double time_of(std::size_t j) const { return t0 + double(j) * dt; }
};
OutputGrid adaptive_output_grid(const Problem& p, const ToleranceLadder& T = {}, const LadderRequest& lr = {});

struct LevelRun {
  double h = 0;
  std::int64_t steps = 0;
  bool ok = true;
  std::string reason;
  std::string cause;                  // on a breakdown: why alone (IntegrationOutcome::cause)
  double failed_at = 0;               // on a breakdown: the time of the first state not obtained
  Eigen::MatrixXd xi;                 // observables on the common grid (rows: times)
  std::vector<double> energy;         // E on the common grid
  std::vector<double> inv_initial;    // I_0
  /// I at the first step at or after the invariant's from_time (= I_0 when it holds from t0); the
  /// deviations below are measured against it, from that step on.
  std::vector<double> inv_anchor;
  std::vector<double> inv_max_dev;    // max |I(t_j) - I_anchor| over the observation times t_j from from_time on
  std::vector<double> inv_first_half, inv_second_half;
  Eigen::MatrixXd inv_obs;            // invariants on the common grid (rows: times)
  Counters counters;
  double seconds = 0;
};
/// Called at every observation time with the steps done and the level's total (progress of long levels).
using LevelProgress = std::function<void(std::int64_t steps_done, std::int64_t steps_total)>;
/// One level of either ladder, as the study loop runs it (docs/architecture.md, "The study loop"):
/// the driver's steps and which of them are observed. A level k of a step ladder takes N0 2^k steps of
/// h_k and observes every 2^(s+k)-th, on the grid common to the levels (LevelPlan::of); a level of a
/// tolerance ladder takes one driver step per output interval - the scheme chooses its own steps
/// inside it (integrator.hpp, "Adaptive schemes") - and observes every one (tolerance_ladder.cpp).
struct LevelPlan {
  FixedSteps steps;
  std::int64_t stride = 1;     // driver steps per observation interval
  std::int64_t intervals = 0;  // observation intervals: the grid t_0 .. t_intervals
  static LevelPlan of(const Ladder& L, int k);
};
/// The one level runner of both ladders: runs the plan through the integration driver from the
/// problem's initial state and records what the assessment needs - the observables and energy on the
/// grid, and the invariants evaluated by the problem at every state read, anchored where each starts
/// to hold, with their maximum deviation over the run and over each half.
LevelRun run_level(AnyIntegrator& integ, const Problem& p, const LevelPlan& plan, const LevelProgress* progress = nullptr);
inline LevelRun run_level(AnyIntegrator& integ, const Problem& p, const Ladder& L, int k, const LevelProgress* progress = nullptr) {
  return run_level(integ, p, LevelPlan::of(L, k), progress);
}

/// The growth exponent a (D ~ t^a) of the running maximum deviation of invariant i of a level's run
/// over the second half of the run, with its standard error (runner.cpp; docs/metrics.md,
/// "Invariants"); kGrowthPoints + 1 log-spaced times. NaN where it cannot be fitted.
inline constexpr int kGrowthPoints = 8;
LineFit growth_exponent(const LevelRun& run, std::size_t i, const Ladder& L, double from_time);

struct InvariantResult {
  std::string name, kind, description;
  Claim claim = Claim::none;
  double initial = 0, scale = 0;
  /// What the round-off allowance of the verdicts is relative to: S_I itself, or for a component of
  /// a vector invariant the size of the vector (its rounding is relative to the vector, not to a
  /// component that may be much smaller). >= scale.
  double roundoff_scale = 0;
  /// The scheme's unit of rounding (unit_roundoff of SchemeInfo::precision): the allowances are ulps of it.
  double unit_roundoff = kEps;
  double drift = kNaN;                   // at the finest level that ran
  std::vector<double> drift_by_level;    // delta_I per level (NaN where a level broke down)
  /// max |I - I0| / S over each half of a run, per level (NaN where a level broke down), and the
  /// level the bounded claim was judged on (judge_bounded; -1: none): the finest clear of round-off.
  std::vector<double> first_half_by_level, second_half_by_level;
  /// Per level: the growth exponent a of the running maximum deviation, D(t) ~ t^a, fitted with its
  /// standard error over the last four octaves of the run (growth_exponent; docs/metrics.md,
  /// "Invariants"): ~0 bounded, 1/2 a random walk, 1 a linear drift. The bounded rule's measure.
  std::vector<LineFit> growth_by_level;
  int judged_level = -1;
  double first_half = kNaN, second_half = kNaN;  // of the judged level (bounded), else of the finest run
  double threshold = kNaN;
  Verdict verdict = Verdict::undefined;
  std::string note;
};

struct QiiResult {
  double expected = kNaN;
  std::vector<std::string> components;
  int primary = -1;                     // index into levels
  std::vector<QiiLevel> levels;         // one per k = 0 .. levels-3
  std::string selection;                // how the primary level was chosen
};

/// What a program declares it measured about its own steps (docs/trajectory-files.md, "Declared
/// cost"): ns per step at each level (NaN where not given; none on a tolerance ladder, whose runs'
/// seconds are the levels'), with the machine and the method. The report carries it marked as
/// declared; `compare` ranks by it, flagged.
struct DeclaredCost {
  std::vector<double> ns_per_step;
  std::string machine, method;
};

struct CostResult {
  double ns_per_step = kNaN;
  double ratio_to_baseline = kNaN;
  double ratio_to_rk4 = kNaN;  // to the hand-written RK4 (rk4_baseline_scheme()), same problem and h
  std::string baseline, rk4_baseline;  // the schemes the ratios are to (set where the report is made)
  double load_evaluations_per_step = kNaN;
  double newton_iterations_per_step = kNaN;
  double h = kNaN;
  int steps = 0, repetitions = 0;
  /// What the figure is: empty for a compiled scheme's core update (the report says "wall clock ...");
  /// otherwise SchemeEntry::cost_note, or why there is no figure (trajectories scored from files).
  std::string source;
  double call_overhead_ns = kNaN;  // SchemeEntry::call_overhead_ns (a Python scheme's empty step)
  /// A scheme timed elsewhere (a program, an isolated scheme): rigidbench's own wall time per step of
  /// the same run (TimedRun::exchange_wall_seconds, min of the repetitions), beside ns_per_step, the
  /// program's or the child's clock of its loop: what the pipe, the JSON and starting the run add.
  double exchange_ns_per_step = kNaN;
  /// A cost the program declared about itself (trajectories scored from files with a manifest's
  /// "cost"): never measured here, so the report and `compare` flag it. ns_per_step is then the
  /// finest level's declared figure (h that level's step).
  std::optional<DeclaredCost> declared;
  /// SchemeEntry::not_comparable: why this figure is not comparable with rigidbench's own (an outside
  /// step compiled without optimisation); empty where it is.
  std::string not_comparable;
  /// Why there is no figure: the cost run broke down (its reason); empty otherwise.
  std::string breakdown;
};

/// Time histories for the report's plots, on the observation grid thinned to at most ~256 points:
/// invariant deviations (I - I0)/S_I and the attitude error of the finest level that ran, and
/// Q_II(t) of the primary Q_II level.
struct History {
  int level = -1;
  double h = kNaN;
  std::vector<double> t;
  std::vector<std::pair<std::string, std::vector<double>>> invariants;
  std::vector<double> attitude_error;
  double q_ii_h = kNaN;
  std::vector<double> q_ii_t, q_ii;
};

/// A level that ended early: the time of the first state not obtained (where a scheme broke down, or
/// the first a program scored from its files could not produce), and why.
struct LevelBreakdown {
  double t = 0;
  std::string reason;
};

/// What became of one level of a step ladder (a report's `levels[]`).
struct LevelOutcome {
  double h = 0;
  std::optional<std::int64_t> steps;  ///< the schema does not require it
  std::string status;                 ///< ok | breakdown
  std::optional<double> seconds;      ///< not required either
  /// Where (t, the first state not obtained) and why the level broke down; the pair's reason names
  /// the first such level only.
  std::optional<LevelBreakdown> breakdown;
};

struct PairResult {
  std::string integrator, problem;
  /// The scheme's declaration (static storage, like every SchemeInfo): reports read it from here,
  /// so a pair verified through the library with an entry that is not registered reports alike.
  const SchemeInfo* info = nullptr;
  SchemeSettings scheme_settings;  // what --set changed (the report lists every setting's value)
  SchemeOrigin origin = SchemeOrigin::builtin;
  std::string status = "ok";  // ok | skipped | breakdown | failed
  std::string reason;
  Ladder ladder;  // the levels that ran (a sequential ladder's first ones)
  /// How the step ladder ended (docs/metrics.md, "Sequential ladders"): fixed (every level of a fixed
  /// ladder), decided (every claim decided with its margin), floor (what was not decided cannot be by
  /// finer levels: their errors are at the reference's floor or round-off) or budget (the planned
  /// levels ran out first); with the levels planned. Empty for a skipped pair and a tolerance ladder.
  std::string ladder_stop;
  int levels_planned = 0;
  std::vector<double> h;
  std::vector<LevelOutcome> levels;
  std::map<std::string, Convergence> convergence;
  std::map<std::string, Convergence> paper_measures;
  QiiResult q_ii, q_ii_full;
  std::vector<InvariantResult> invariants;
  /// Every measure of the metric table (section measures) by name, in the table's order (measure_pair),
  /// on either ladder.
  std::vector<std::pair<std::string, MeasureResult>> measures;
  const ReferenceSolution* reference = nullptr;
  CostResult cost;
  History history;
  /// The long-time energy run (the `full` suite, SuiteRequest::long_time_steps); informational.
  std::optional<LongTimeEnergy> long_time;
  /// The final attitude error split into phase and shape (anatomy.hpp); empty where the problem has no
  /// phase axis.
  std::optional<ErrorAnatomy> anatomy;
  /// Symmetry and symplecticity of the one-step map (structure.hpp); empty for a skipped pair.
  std::optional<StructureResult> structure;
  /// An adaptive scheme's tolerance ladder (tolerance_ladder.hpp), in place of the step ladder: then
  /// h, the levels, convergence, Q_II, invariants and structure are empty - they do not apply.
  std::optional<ToleranceStudy> tolerance;
  double seconds = 0;
  /// Every gating verdict of the pair by its check name - "status" (the pair ran to the end), each
  /// gating convergence metric, "q_ii"/"q_ii_full", "invariant:<name>", each gating measure,
  /// "structure:<property>" (a claimed property that was measured), an adaptive scheme's gating rows of
  /// the tolerance ladder ("tolerance_proportionality", "rejected_steps") - the names expectation files and the gate use
  /// (docs/gate.md). Empty for a skipped pair.
  struct Check {
    std::string name;
    bool failed = false;
    Verdict verdict = Verdict::undefined;  // failed == (verdict == fail); undefined: could not be judged
    /// The numbers the verdict was decided on, short ("slope 1.02, expected 2"; "drift 3.6e-11 >
    /// 1.4e-11"): what a console row, Python's verify and the gate say beside the check's name.
    std::string evidence;
  };
  std::vector<Check> checks() const;
  /// Any gating verdict failed, or the pair broke down (drives verify's exit code).
  bool failed() const;
};

/// A sequential ladder decides after at least this many levels: three in the asymptotic range of an
/// order fit and two Q_II triples, with one coarse level to spare for a pre-asymptotic start.
constexpr int kMinDecidingLevels = 4;

/// Whether an order fit is decided by its margin (docs/metrics.md, "Sequential ladders"): over at least
/// four levels in its asymptotic range, the fitted slope two standard errors inside the verdict's band
/// (pass) or outside it (fail), and the finest local slope on the same side. 'f': the finest
/// level's error is at its floor (reference or round-off), where finer levels add nothing to the fit.
/// 'd' decided, 'o' open (a finer level is needed). A failure is settled only on errors below a tenth of
/// Convergence::saturation.
char order_state(const Convergence& c);

/// Whether a sequential ladder stops after the levels `runs` (0 .. runs.size()-1 of L, in order):
/// "decided", "floor" (ladder_stop's meanings), or "" when a finer level is needed or L is fixed.
/// Reads the verdict-bearing part of the assessment only (errors, Q_II, invariants).
std::string ladder_decision(const Problem& p, const SchemeEntry& s, const Ladder& L, const std::vector<LevelRun>& runs,
                            const ReferenceSolution& ref);

/// Runs the ladder's levels (each with its own integrator from s.make), coarse to fine and, for a
/// sequential ladder, until ladder_decision stops it, and assesses them.
PairResult verify_pair(const Problem& p, const SchemeEntry& s, const Ladder& L, const ReferenceSolution& ref);
/// The assessment alone, from the runs of the levels k = 0 .. runs.size()-1 in order (run_level; every
/// level of a fixed ladder, a sequential one's up to where ladder_decision stopped it): how the suite
/// assembles a pair whose levels ran as separate work units. verify_pair's result, bit for bit (timing
/// aside).
PairResult assess_pair(const Problem& p, const SchemeEntry& s, const Ladder& L, std::vector<LevelRun> runs,
                       const ReferenceSolution& ref);

/// The assessment of an adaptive scheme: its tolerance ladder against `ref` (on the ladder L's
/// observation grid, shared with the step ladders of the problem), in the place of the step ladder.
PairResult assess_adaptive_pair(const Problem& p, const SchemeEntry& s, const Ladder& L, const ReferenceSolution& ref,
                                const ToleranceLadder& T);

/// ns per step of the core update: min over repetitions of `steps` steps from the initial state.
CostResult measure_cost(const Problem& p, const SchemeEntry& s, double h, int steps = 2000, int repetitions = 5);

}  // namespace rigidbench
