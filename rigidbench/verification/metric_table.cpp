#include "rigidbench/verification/metric_table.hpp"

#include <array>

namespace rigidbench {
namespace {

using R = VerdictRule;
using S = MetricSection;

constexpr MetricDef metric(std::string_view name, S section, std::string_view label, std::string_view what,
                           std::string_view units, R rule, double order_factor = 1, bool gating = true,
                           std::string_view note = {}) {
  return MetricDef{name, section, label, what, units, rule, order_factor, gating, note};
}

// The single declaration of the metrics (docs/metrics.md, "Errors against the reference", "Second
// quotient of precision", "Invariants", "Cost"). Order = report order.
constexpr std::array kTable{
    metric("attitude_error_final", S::convergence, "attitude error at t_end",
              "geodesic angle |log(R_ref^T R_h)| at t_end, worst body", "rad", R::order),
    metric("attitude_error_max", S::convergence, "max attitude error",
              "geodesic angle |log(R_ref^T R_h)|, max over the observation grid, worst body", "rad", R::order),
    metric("omega_error_final", S::convergence, "angular velocity error at t_end", "|W_h - W_ref| at t_end, worst body", "rad/s", R::order),
    metric("omega_error_max", S::convergence, "max angular velocity error", "|W_h - W_ref|, max over the observation grid, worst body",
              "rad/s", R::order),
    metric("h1_distance", S::convergence, "true H1 distance",
              "true H1 distance (int sum_bodies |dx|^2 + |dv|^2 + e_R^2 + |dOmega|^2 dt)^(1/2)", "mixed", R::order),
    metric("q_error", S::paper_measures, "paper 001 q-error as printed",
              "paper 001 eqs. 35-36 as printed: | |q_h|^2_H1 - |q|^2_H1 |^(1/2) / |q|_H1", "1", R::order, 0.5, false,
              "paper 001 eq. 35-36 as printed (difference of squared H1 norms): expected slope p/2"),
    metric("E_error", S::paper_measures, "paper 001 E-error", "paper 001 eqs. 37-38: |E_h - E(0)|_H0 / |E(0)|_H0", "1",
              R::order_at_least, 1, false,
              "paper 001 eq. 37-38 relative H0 energy error; order p is a lower bound (energy errors may "
              "superconverge); informational"),
    metric("q_ii", S::q_ii, "Q_II (configuration)",
              "second quotient of precision |xi(h)-xi(h/2)| / |xi(h/2)-xi(h/4)| on the configuration (9 director "
              "components of R, plus x)", "1", R::second_quotient),
    metric("q_ii_full", S::q_ii, "Q_II (whole state)", "second quotient of precision on the whole state (R and W)", "1",
              R::second_quotient, 1, false, "informational: the whole state, not the configuration norm"),
    metric("invariants", S::invariants, "invariant drift",
              "drift max_n |I_n - I_anchor| / S_I of each invariant the problem's family declares", "1 (relative to S_I)",
              R::claim),
    metric("ns_per_step", S::cost, "time per step", "wall-clock time of one step (min over repetitions)", "ns", R::none, 1, false),
    metric("ratio_to_baseline", S::cost, "time per step / baseline", "time per step over the in-run baseline's", "1", R::none, 1, false),
    metric("instructions_per_step", S::cost, "instructions per step", "callgrind instructions per step (bench)", "instructions", R::speed),
};

}  // namespace

const char* to_string(VerdictRule r) {
  switch (r) {
    case R::order: return "order";
    case R::order_at_least: return "order_at_least";
    case R::second_quotient: return "second_quotient";
    case R::claim: return "claim";
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
    case S::cost: return "cost";
  }
  return "?";
}

std::span<const MetricDef> metric_table() { return kTable; }

const MetricDef* find_metric(std::string_view name) {
  for (const MetricDef& m : kTable)
    if (m.name == name) return &m;
  return nullptr;
}

bool is_error_metric(const MetricDef& m) {
  return m.section == S::convergence || m.section == S::paper_measures;
}

}  // namespace rigidbench
