#pragma once
// The tolerance ladder of an adaptive scheme (SchemeInfo::adaptive; docs/adaptive.md): what the step
// ladder is to a fixed-step scheme. Level k runs the scheme with abs = rel = tol_k = tol0 10^(-k/2)
// over the convergence span, observed on the reference's grid through the integration driver (one
// driver step per output interval: integrator.hpp, "Adaptive schemes"), and measures against the
// reference what its users ask:
// - tolerance proportionality: the slope of log error against log tol over the levels above the
//   reference's floor, with its standard error, and the band of error / tol;
// - the effective order: minus the slope of log error against log accepted steps (work-precision);
// - the controller's rejected-step fraction;
// - the invariants' drift at each tolerance, evaluated by the problem from the canonical state, and
//   the scheme's exact claims judged on it as on the step ladders (runner.cpp);
// - the cost per unit of simulated time: accepted steps, right-hand sides, load evaluations, time.
// Q_II and the step ladder's order verdicts do not apply: the output interval is not a step.
#include <map>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../integrators/registry.hpp"
#include "../problems/problem.hpp"
#include "../reference/reference.hpp"
#include "metrics.hpp"

namespace rigidbench {

/// tol_k = tol0 10^(-k/2), k = 0 .. levels-1.
/// Observed at no more than `max_intervals` output intervals of the reference's grid (every d-th
/// point, d the smallest divisor of the grid's intervals that gives so few): an exact-landing scheme
/// cannot step past an output time, and on a fine grid the grid, not the tolerance, would set its steps.
struct ToleranceLadder {
  double tol0 = 1e-5;
  int levels = 9;
  int max_intervals = 20;
  /// Timed runs of each level: the first one measures, the others (identical results) only time it;
  /// the level's seconds are the fastest run's and seconds_max the slowest's (the figure's error bars).
  /// verify sets kTimingRepetitions when it measures cost.
  int repetitions = 1;
  double tol(int k) const;
  /// d for a grid of m intervals.
  static std::size_t stride(std::size_t m, int max_intervals);
};

/// The verdict thresholds (docs/adaptive.md, "Verdicts").
/// Proportionality: the error follows the tolerance, |slope - s| <= this (pass; s =
/// expected_proportionality, 1 but for a declared estimate order); beyond it by more
/// than two standard errors of the slope: fail; in between, undefined (as the bounded rule of the
/// invariants). A controller of the local error per step of an order-p method with an order-(p-1)
/// estimate (local extrapolation) gives a global error ~ tol^(p/p) = tol; the allowance covers the
/// transients of the controller.
constexpr double kProportionalityTolerance = 0.25;
/// Rejected steps: at most this fraction of the attempted steps at every level. odeint's controller
/// (safety 0.9, growth at most 5x) rejects a few percent on smooth problems; one rejected step in
/// three means its step proposals do not fit its own error test.
constexpr double kMaxRejectedFraction = 1.0 / 3.0;
/// The dense grid of a scheme with dense output: at most this many intervals of the reference's grid
/// (every d-th point, ToleranceLadder::stride), on which its interpolant is measured.
constexpr int kDenseIntervals = 1024;
/// Timed runs per level when verify measures cost (ToleranceLadder::repetitions).
constexpr int kTimingRepetitions = 3;
/// Levels above the reference floor (and not grid-bound) a slope needs.
constexpr int kMinToleranceLevels = 3;
/// The ladders a user may ask for (--tol0, --tol-levels; Python's tol0, tol_levels): tol0 in
/// [1e-16, 0.1] (a looser tolerance controls nothing; a tighter one is below what a double resolves)
/// and [3, 24] levels (a slope needs three; 24 run tol0 down by 10^-11.5).
constexpr double kMinTol0 = 1e-16, kMaxTol0 = 0.1;
constexpr int kMaxToleranceLevels = 24;
/// The ladder a user asked for, the defaults where a value is not given; InputError out of range.
ToleranceLadder user_tolerance_ladder(std::optional<double> tol0, std::optional<int> levels);
/// Throws InputError unless L's tol0 and levels are in that range.
void check_tolerance_ladder(const ToleranceLadder& L);
/// Of a command or call whose `adaptive` switch chooses the ladder (score, ladder): the ladder when
/// adaptive, nothing otherwise - and InputError when a tolerance was given without the switch.
std::optional<ToleranceLadder> adaptive_tolerance_ladder(bool adaptive, std::optional<double> tol0, std::optional<int> levels);

struct ToleranceLevel {
  double tol = kNaN;
  bool ok = true;
  std::string reason;
  /// Every error metric of the metric table at this tolerance, by name (attitude_error_max, ...,
  /// h1_distance, q_error, E_error): each computed by the metric's own measure on the output grid, as
  /// on a level of a step ladder (runner.cpp), so a new error metric is measured here too. Empty
  /// where the level broke down; read back from an older report, the four it wrote.
  std::map<std::string, double, std::less<>> errors;
  /// errors[metric], NaN where it is not there.
  double error(std::string_view metric) const;
  /// A scheme with dense output (SchemeInfo::dense_output): the same error metrics over a second run
  /// of this tolerance observed on the dense grid (ToleranceStudy::dense_intervals), i.e. the error of
  /// its interpolant between its steps - DiffEqDevTools' dense errors - with that run's accepted
  /// steps (its first step is chosen from the first output interval, so they may differ from the
  /// level's by a few). Empty otherwise, or where that run broke down.
  std::map<std::string, double, std::less<>> dense_errors;
  std::uint64_t dense_accepted_steps = 0;
  /// A translating problem (a body system): max over the grid, worst body, of |x - x_ref|, and at the
  /// last output time; NaN otherwise, and where the level broke down.
  bool translating = false;
  double position_error = kNaN, position_error_final = kNaN;
  /// 100x the reference's own estimate of its error (attitude: max over the output times; a
  /// translating problem: and position, max over the grid), or 100 ulps: below it the level is not
  /// used for the slopes.
  double floor = kNaN;
  bool above_floor = false;
  /// Fewer than two accepted steps per output interval: an exact-landing scheme's steps were set by
  /// the output grid, not by its tolerance (its error then stays at the grid step's as the tolerance
  /// falls). Not used for the slopes. Never for a scheme with dense output (SchemeInfo::dense_output).
  bool grid_bound = false;
  Counters counters;
  double rejected_fraction = kNaN;  // rejected / (accepted + rejected)
  double seconds = 0;          ///< wall clock of one run: the fastest of the repetitions
  double seconds_max = kNaN;   ///< the slowest of them (NaN with one run)
  /// max over the grid of |I - I_0| / S_I, per invariant of the problem by name (p.invariants() order).
  std::vector<std::pair<std::string, double>> invariant_drift;
  /// What the scheme's invariant claims are judged on (runner.cpp, as on the step ladders): per
  /// invariant, I at the first output time at or after its from_time (I_0 when it holds from t0; NaN
  /// if never reached) and max |I - that| over the output times from then on. Not written: the
  /// pair's judged invariants are (PairResult::invariants).
  std::vector<double> invariant_anchor, invariant_max_dev;
};

/// The error a level is judged by (docs/adaptive.md, "What is judged"): the attitude error, and on a
/// translating problem the larger of it and the position error. The tolerance bounds the quaternion's
/// and the position's components alike (abs = rel = tol on every component of the state), so both are
/// read against it; on a gas of spheres the attitudes carry no error worth the name, the positions do.
double judged_error(const ToleranceLevel& lv);

/// The slope of log error against log tol that the scheme's controller makes (SchemeInfo::
/// error_estimate_order): 1 for local extrapolation, p / (q + 1) for an order-q estimate of an
/// order-p method.
double expected_proportionality(const SchemeInfo& info);

/// The estimator's own order (docs/adaptive.md, "The estimator's own order"; Drake's ErrEstOrder test
/// as the model), for a scheme that exposes its estimate (HasErrorEstimate): the estimate of one
/// uncontrolled step from the initial state at h_k = h0 2^(-k/2), k = 0 .. kEstimatorLevels - 1, h0
/// the output interval, and the slope of log estimate against log h over the finest contiguous levels
/// above round-off (at most kEstimatorFit), against q + 1. Reported beside the verdicts, not gating.
struct EstimatorOrder {
  std::vector<double> h, estimate;
  LineFit fit;
  int points = 0;          // levels fitted
  double expected = kNaN;  // q + 1
  Verdict verdict = Verdict::undefined;
  std::string note;
};
constexpr int kEstimatorLevels = 28, kEstimatorFit = 5;
/// |slope - (q + 1)| within this passes; beyond it by two standard errors fails.
constexpr double kEstimatorTolerance = 0.5;

struct ToleranceStudy {
  std::string integrator, problem;
  bool translating = false;  // the levels' judged error includes the position error
  double tol0 = kNaN;
  double span = 0;  // of the convergence study: the costs below are per unit of it
  std::size_t output_intervals = 0;  // where the errors and drifts were taken (ToleranceLadder::stride)
  std::size_t dense_intervals = 0;   // a scheme with dense output: its dense grid (0: not measured)
  int repetitions = 1;               // timed runs per level (ToleranceLadder::repetitions)
  std::vector<ToleranceLevel> levels;
  LineFit proportionality;      // log10 judged error against log10 tol, levels above the floor
  double expected_slope = 1;    // expected_proportionality(scheme)
  LineFit omega_proportionality;
  double ratio_min = kNaN, ratio_max = kNaN;  // judged error / tol over those levels
  LineFit work;                 // log10 judged error against log10 accepted steps
  double effective_order = kNaN;  // -work.slope
  double rejected_fraction = kNaN;  // the largest over the levels that ran
  Verdict proportionality_verdict = Verdict::undefined, rejection_verdict = Verdict::undefined;
  std::string proportionality_note, rejection_note;
  std::optional<EstimatorOrder> estimator;  // a scheme that exposes its error estimate
};

/// The estimator's order of s on p from its initial state, h0 the largest step; nullopt when the
/// scheme does not expose its estimate.
std::optional<EstimatorOrder> estimator_order(const Problem& p, const SchemeEntry& s, double h0);

/// The error of a level in an error metric of the metric table (ToleranceLevel::errors); NaN where it
/// was not measured. tolerance_measures: the metric is an error metric, which every level measures.
double tolerance_level_error(const ToleranceLevel& lv, std::string_view metric);
bool tolerance_measures(std::string_view metric);

/// Runs the ladder of an adaptive scheme entry on p against ref (computed on the grid of the
/// convergence span). InputError for a scheme that is not adaptive.
/// Why an adaptive run's counters cannot be a run's (no accepted step, fewer right-hand sides than
/// attempted steps, more shortened steps than accepted ones); empty when they can. A level whose
/// run ended with such counters breaks down with this reason, for a scheme run here as for a run
/// replayed from files (docs/adaptive.md, "Counters").
std::string impossible_counts(const Counters& c);
/// InputError when the user gave an adaptive scheme's abs_tolerance or rel_tolerance (--set): the
/// tolerance ladder sets them at every level, and a value that is not used is not recorded as used.
void require_ladder_tolerances(const SchemeEntry& s);

/// `measures`, when given, receives the metric table's measures of a pair computed on the ladder's
/// level runs (measure_pair; a level run again at its tolerance on the same output grid).
ToleranceStudy tolerance_study(const Problem& p, const SchemeEntry& s, const ReferenceSolution& ref,
                               const ToleranceLadder& L = {},
                               std::vector<std::pair<std::string, MeasureResult>>* measures = nullptr);

}  // namespace rigidbench
