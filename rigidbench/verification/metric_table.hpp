#pragma once
// Every metric rigidbench reports, declared once: its report key, where it sits in a result, what it
// measures, its unit and the rule that turns it into a verdict (docs/metrics.md). The runner computes
// and judges the metrics by walking this table, the report writer emits it (top-level "metrics" of a
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
  speed,            // instructions per step against the gate baseline (bench; the gate's speed rule)
  none,             // reported only
};
const char* to_string(VerdictRule r);

/// Where a metric sits in a result of the report (the JSON key of its section).
enum class MetricSection { convergence, paper_measures, q_ii, invariants, cost };
const char* to_string(MetricSection s);

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
};

/// The table, in report order.
std::span<const MetricDef> metric_table();
/// nullptr when no metric has that name.
const MetricDef* find_metric(std::string_view name);
/// True for the error metrics whose per-level errors the runner computes against the reference
/// (sections convergence and paper_measures).
bool is_error_metric(const MetricDef& m);

}  // namespace rigidbench
