#pragma once
// The verdict functions of docs/metrics.md, one per rule of the metric table
// (verification/metric_table.hpp): the observed order of an error metric, the second quotient of
// precision, an invariant's exact or bounded claim, and a tolerance ladder's slopes and rejected
// fraction. The runner (runner.cpp) and the tolerance study (tolerance_ladder.cpp) compute the
// measures and call these; nothing else decides a verdict.
#include <vector>

#include "metric_table.hpp"
#include "runner.hpp"

namespace rigidbench {

/// Per-level errors of one error metric and the floor below which a level is not used for its rate.
struct ErrorSeries {
  std::vector<double> error;
  double floor = 0;
  /// Per level: kRoundoffUlpsPerStep ulps per step of the quantity's scale, N_k eps S - the rounding a
  /// run may accumulate, by which two builds of the same code may differ (the gate's allowance,
  /// docs/gate.md "Tolerances"); a level whose error is not above it is left out of the order fit.
  std::vector<double> rounding;
  double saturation = kNaN;  // ErrorMeasure::saturation
  double eps = kEps;         // the scheme's unit of rounding (ErrorInputs::eps)
};

/// Rules order / order_at_least (docs/metrics.md, "Observed order"), with the metric's gating and note.
Convergence judge_order(const MetricDef& m, const std::vector<double>& h, const ErrorSeries& s, int order);

/// Rules tolerance_slope and estimator_slope (docs/metrics.md, "Tolerance proportionality", "The
/// estimator's order"): the fitted slope within m.band of `expected` passes; beyond it by more than two
/// standard errors of the slope fails; in between, or without a fit, undefined (the shape of the
/// bounded rule of the invariants).
Verdict judge_slope(const MetricDef& m, const LineFit& fit, double expected);
/// Rule at_most: fraction <= m.band passes, above it fails; NaN (nothing ran) undefined.
Verdict judge_at_most(const MetricDef& m, double fraction);

/// A measure's verdict: rule at_most by judge_at_most, rule none undefined (reported only).
Verdict judge_measure(const MetricDef& m, double value);

/// Rule second_quotient on the observables `comps` of the level runs (docs/metrics.md, "Second
/// quotient of precision"): every admissible h, the primary level and its verdict.
QiiResult assess_qii(const Problem& p, const std::vector<LevelRun>& runs, const Ladder& L, int order,
                     const std::vector<int>& comps, const std::vector<std::string>& names, double eps = kEps);

/// Rule claim (docs/metrics.md, "Invariants"): the scheme's claim for the invariant's kind picks
/// judge_exact, judge_bounded or no verdict. `ir` carries the drifts; sets verdict, threshold, note.
void judge_invariant(InvariantResult& ir, const Problem& p, const Ladder& L);
void judge_exact(InvariantResult& ir, const Problem& p, const Ladder& L);
/// judge_exact with level k's step count steps[k] (N_k of the round-off allowance).
void judge_exact(InvariantResult& ir, const Problem& p, const std::vector<double>& steps);
void judge_bounded(InvariantResult& ir, const Ladder& L);
/// Whether a passed exact claim on the levels run of a sequential ladder stays passed on the levels it
/// planned (`planned`: that ladder's): the finest run level's drift, grown to the planned finest level
/// by the largest factor per level seen so far (at least 2, as the steps), within that level's allowance
/// (docs/metrics.md, "Sequential ladders"). A drift that only a long run shows is not cut off.
bool exact_pass_holds(const InvariantResult& ir, const Problem& p, const Ladder& planned);
/// The same rules on a tolerance ladder, whose level k took steps[k] accepted steps: exact claims by
/// judge_exact's rule with N_k = steps[k]; a bounded claim is not judged there (its rule fits the
/// growth of the deviation over one fixed step's run) and says so.
void judge_invariant_adaptive(InvariantResult& ir, const Problem& p, const std::vector<double>& steps);

}  // namespace rigidbench
