// The angular velocity error against the reference (docs/metrics.md, "Errors against the reference"):
// |W_h - W_ref| in body components, worst body, at t_end and as the maximum over the observation grid.
#include <algorithm>

#include "error_metric.hpp"
#include "../metrics.hpp"

namespace rigidbench::metric_defs {
namespace {

using namespace error_metric;

double at_end(const ErrorInputs& in, const LevelRun& run) { return worst_omega_error(in, run, in.M()); }
double over_grid(const ErrorInputs& in, const LevelRun& run) {
  return max_over_grid(in, [&](std::size_t j) { return worst_omega_error(in, run, j); });
}
// Floors: 100x the reference's own estimate where the metric is taken, or 100 ulps of the largest
// |W| (at least 1).
double floor_at_end(const ErrorInputs& in) {
  return std::max(kRefFloorFactor * in.ref.estimate_omega[in.M()],
                  kRoundoffUlps * in.eps * std::max(1.0, reference_omega_scale(in)));
}
double floor_over_grid(const ErrorInputs& in) {
  const double worst = max_over_grid(in, [&](std::size_t j) { return in.ref.estimate_omega[j]; });
  return std::max(kRefFloorFactor * worst, kRoundoffUlps * in.eps * std::max(1.0, reference_omega_scale(in)));
}
double omega_scale(const ErrorInputs& in) { return std::max(1.0, reference_omega_scale(in)); }

constexpr ErrorMeasure kAtEnd{at_end, floor_at_end, omega_scale, omega_scale};
constexpr ErrorMeasure kOverGrid{over_grid, floor_over_grid, omega_scale, omega_scale};

}  // namespace

extern const MetricDef omega_error_final{
    "omega_error_final", MetricSection::convergence, "angular velocity error at t_end",
    "|W_h - W_ref| at t_end, worst body", "rad/s", VerdictRule::order, 1, true, {}, &kAtEnd};
extern const MetricDef omega_error_max{
    "omega_error_max", MetricSection::convergence, "max angular velocity error",
    "|W_h - W_ref|, max over the observation grid, worst body", "rad/s", VerdictRule::order, 1, true, {}, &kOverGrid};

}  // namespace rigidbench::metric_defs
