#include "metric_table.hpp"

#include <array>

namespace rigidbench {
namespace {

using R = VerdictRule;
using S = MetricSection;

constexpr MetricDef metric(std::string_view name, S section, std::string_view label, std::string_view what,
                           std::string_view units, R rule, double order_factor = 1, bool gating = true,
                           std::string_view note = {}) {
  return MetricDef{name, section, label, what, units, rule, order_factor, gating, note, nullptr, 0, nullptr, nullptr};
}

// The metrics that are not errors against the reference (docs/metrics.md, "Second quotient of
// precision", "Invariants", "Cost"); the runner, the bench and the gate compute them.
constexpr MetricDef kQii = metric("q_ii", S::q_ii, "Q_II (configuration)",
    "second quotient of precision |xi(h)-xi(h/2)| / |xi(h/2)-xi(h/4)| on the configuration (9 director "
    "components of R, plus x)", "1", R::second_quotient);
constexpr MetricDef kQiiFull = metric("q_ii_full", S::q_ii, "Q_II (whole state)",
    "second quotient of precision on the whole state (R and W)", "1", R::second_quotient, 1, false,
    "informational: the whole state, not the configuration norm");
constexpr MetricDef kInvariants = metric("invariants", S::invariants, "invariant drift",
    "drift max_n |I_n - I_anchor| / S_I of each invariant the problem's family declares", "1 (relative to S_I)",
    R::claim);
constexpr MetricDef kNsPerStep = metric("ns_per_step", S::cost, "time per step",
    "wall-clock time of one step (min over repetitions)", "ns", R::none, 1, false);
constexpr MetricDef kRatio = metric("ratio_to_baseline", S::cost, "time per step / baseline",
    "time per step over the in-run baseline's", "1", R::none, 1, false);
constexpr MetricDef kInstructions = metric("instructions_per_step", S::cost, "instructions per step",
    "callgrind instructions per step (bench)", "instructions", R::speed);

}  // namespace

// The error metrics against the reference, one file each in verification/error_metrics/ (docs/metrics.md,
// "Errors against the reference"): each defines its MetricDef with its ErrorMeasure.
namespace metric_defs {
extern const MetricDef attitude_error_final, attitude_error_max, omega_error_final, omega_error_max, h1_distance,
    q_error, E_error;
// An adaptive scheme's tolerance ladder (docs/adaptive.md, "Verdicts"), defined beside the study that
// measures them (verification/tolerance_ladder.cpp) with their thresholds.
extern const MetricDef tolerance_proportionality, rejected_steps, estimator_order;
// The measures of a pair (docs/metrics.md, "Measures of a pair"), one file each in verification/measures/.
extern const MetricDef rerun_difference;
}  // namespace metric_defs

namespace {

// The single list of the metrics. Order = report order. Copied once, at the first call, from
// definitions that are all constant-initialized (no order of initialization between files matters).
std::span<const MetricDef> table() {
  static const auto t = std::to_array<MetricDef>({
      metric_defs::attitude_error_final, metric_defs::attitude_error_max, metric_defs::omega_error_final,
      metric_defs::omega_error_max, metric_defs::h1_distance, metric_defs::q_error, metric_defs::E_error,
      kQii, kQiiFull, kInvariants, metric_defs::rerun_difference, metric_defs::tolerance_proportionality, metric_defs::rejected_steps,
      metric_defs::estimator_order, kNsPerStep, kRatio, kInstructions});
  return t;
}

}  // namespace

const char* to_string(VerdictRule r) {
  switch (r) {
    case R::order: return "order";
    case R::order_at_least: return "order_at_least";
    case R::second_quotient: return "second_quotient";
    case R::claim: return "claim";
    case R::tolerance_slope: return "tolerance_slope";
    case R::estimator_slope: return "estimator_slope";
    case R::at_most: return "at_most";
    case R::speed: return "speed";
    case R::none: return "none";
  }
  return "?";
}

const char* to_string(MetricSection s) {
  switch (s) {
    case S::convergence: return "convergence";
    case S::paper_measures: return "paper_measures";
    case S::q_ii: return "q_ii";
    case S::invariants: return "invariants";
    case S::measures: return "measures";
    case S::tolerance_ladder: return "tolerance_ladder";
    case S::cost: return "cost";
  }
  return "?";
}

std::span<const MetricDef> metric_table() { return table(); }

const MetricDef* find_metric(std::string_view name) {
  for (const MetricDef& m : table())
    if (m.name == name) return &m;
  return nullptr;
}

bool is_measure(const MetricDef& m) { return m.section == S::measures; }

bool is_error_metric(const MetricDef& m) {
  return m.section == S::convergence || m.section == S::paper_measures;
}

}  // namespace rigidbench
