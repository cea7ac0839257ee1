// The attitude error against the reference (docs/metrics.md, "Errors against the reference"): the
// geodesic angle |log(R_ref^T R_h)|, worst body, at t_end and as the maximum over the observation grid.
#include <algorithm>
#include <numbers>

#include "error_metric.hpp"
#include "../metrics.hpp"

namespace rigidbench::metric_defs {
namespace {

using namespace error_metric;

double at_end(const ErrorInputs& in, const LevelRun& run) { return worst_attitude_error(in, run, in.M()); }
double over_grid(const ErrorInputs& in, const LevelRun& run) {
  return max_over_grid(in, [&](std::size_t j) { return worst_attitude_error(in, run, j); });
}
// Floors: 100x the reference's own attitude estimate where the metric is taken, or 100 ulps of 1 rad.
double floor_at_end(const ErrorInputs& in) {
  return std::max(kRefFloorFactor * in.ref.estimate_attitude[in.M()], kRoundoffUlps * in.eps);
}
double floor_over_grid(const ErrorInputs& in) {
  const double worst = max_over_grid(in, [&](std::size_t j) { return in.ref.estimate_attitude[j]; });
  return std::max(kRefFloorFactor * worst, kRoundoffUlps * in.eps);
}
double radian(const ErrorInputs&) { return 1.0; }  // angles: rounding relative to 1 rad
// A geodesic angle on SO(3) is at most pi: an error of 0.1 rad is not saturated (bullet_gyro_none on
// heavy_top_realisable errs by 0.105 rad at every level, an order-0 failure).
double half_turn(const ErrorInputs&) { return std::numbers::pi; }

constexpr ErrorMeasure kAtEnd{at_end, floor_at_end, radian, half_turn};
constexpr ErrorMeasure kOverGrid{over_grid, floor_over_grid, radian, half_turn};

}  // namespace

extern const MetricDef attitude_error_final{
    "attitude_error_final", MetricSection::convergence, "attitude error at t_end",
    "geodesic angle |log(R_ref^T R_h)| at t_end, worst body", "rad", VerdictRule::order, 1, true, {}, &kAtEnd};
extern const MetricDef attitude_error_max{
    "attitude_error_max", MetricSection::convergence, "max attitude error",
    "geodesic angle |log(R_ref^T R_h)|, max over the observation grid, worst body", "rad", VerdictRule::order, 1, true,
    {}, &kOverGrid};

}  // namespace rigidbench::metric_defs
