#pragma once
// Every metric rigidbench reports, declared once: its report key, where it sits in a result, what it
// measures, its unit, the rule that turns it into a verdict (docs/metrics.md) and, for an error
// metric, how it is computed (an ErrorMeasure, defined in the metric's own file under
// verification/error_metrics/). The runner computes and judges the metrics by walking this table, the report writer emits it (top-level "metrics" of a
// verify report, so the renderer and any other reader label and select metrics from the report), and
// compare and the gate select what they compare from it. A metric added here appears everywhere.
#include <span>
#include <string_view>

namespace rigidbench {

/// How a metric becomes a verdict (docs/metrics.md names each rule).
enum class VerdictRule {
  order,            // fitted slope of log error vs log h within kSlopeTolerance of factor * p
  order_at_least,   // slope >= factor * p - kSlopeTolerance (an error that may superconverge)
  second_quotient,  // |Q_II / 2^p - 1| <= kQiiTolerance at every sample time of the primary level
  claim,            // invariant drift: the scheme's claim for its kind picks exact, bounded or none
  tolerance_slope,  // tolerance ladder: slope of log error vs log tol within `band` of p/(q+1); beyond it by two
                    // standard errors of the slope fails, in between undefined
  estimator_slope,  // slope of log error estimate vs log h of one uncontrolled step within `band` of q+1, the same rule
  at_most,          // a value <= band (rejected steps / attempted steps of a tolerance ladder; a measure)
  speed,            // instructions per step against the gate baseline (bench; the gate's speed rule)
  none,             // reported only
};
const char* to_string(VerdictRule r);

/// Where a metric sits in a result of the report (the JSON key of its section).
enum class MetricSection { convergence, paper_measures, q_ii, invariants, measures, tolerance_ladder, cost };
const char* to_string(MetricSection s);

struct ErrorInputs;     // verification/error_metrics/error_metric.hpp
struct LevelRun;        // verification/runner.hpp
struct ToleranceStudy;  // verification/tolerance_ladder.hpp
struct MeasureInputs;   // verification/measures/measure.hpp
struct MeasureValue;    // verification/measures/measure.hpp
enum class Verdict;     // verification/metrics.hpp

/// How an error metric (sections convergence and paper_measures) is computed from one level's observed
/// run and the reference on the ladder's observation grid (docs/metrics.md, "Errors against the
/// reference"): the level's error, the floor below which a level is not used for the rate (100x the
/// reference's own estimate where the metric is taken, or round-off), and the scale S of the rounding
/// a run may accumulate (kRoundoffUlpsPerStep ulps of S per step; the gate's allowance).
struct ErrorMeasure {
  double (*level_error)(const ErrorInputs&, const LevelRun&);
  double (*floor)(const ErrorInputs&);
  double (*rounding_scale)(const ErrorInputs&);
  /// The error's own size: a failed order is not settled on errors of a tenth of it or more, which
  /// no longer say how the error depends on h (docs/metrics.md, "Sequential ladders"). For most
  /// metrics the rounding scale; for a geodesic angle its range, pi.
  double (*saturation)(const ErrorInputs&);
};

struct MetricDef {
  std::string_view name;     // the key in its section (invariants: the section itself)
  MetricSection section;
  std::string_view label;    // a few words for a plot's title or a table's header
  std::string_view what;     // one line: what it measures
  std::string_view units;
  VerdictRule rule;
  double order_factor = 1;   // rules order/order_at_least: expected slope = order_factor * p
  bool gating = true;        // a failed verdict fails `verify` and the gate
  std::string_view note;     // said with every verdict of this metric
  const ErrorMeasure* error = nullptr;  // error metrics: how the runner computes it; null otherwise
  /// Rules tolerance_slope, estimator_slope: the allowance around the expected slope; at_most:
  /// the largest fraction that passes.
  double band = 0;
  /// Section tolerance_ladder: the verdict of a tolerance study in this metric (the study computes it by
  /// the metric's rule, verdicts.hpp), which the checks of a pair and the gate read by the metric's name.
  Verdict (*tolerance_verdict)(const ToleranceStudy&) = nullptr;
  /// Section measures: how the runner computes the measure of a pair (one number and a note), in the
  /// measure's own file under verification/measures/; judged by the rule (none or at_most).
  MeasureValue (*measure)(const MeasureInputs&) = nullptr;
};

/// The table, in report order.
std::span<const MetricDef> metric_table();
/// nullptr when no metric has that name.
const MetricDef* find_metric(std::string_view name);
/// True for the measures of a pair (section measures: one number each, computed by MetricDef::measure).
bool is_measure(const MetricDef& m);
/// True for the error metrics whose per-level errors the runner computes against the reference
/// (sections convergence and paper_measures).
bool is_error_metric(const MetricDef& m);

}  // namespace rigidbench
