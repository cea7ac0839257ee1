// The true H1 distance to the reference (docs/metrics.md, "Errors against the reference"):
// (int_t0^tN sum_bodies e_R^2 + |Omega_h - Omega_ref|^2 (+ |x_h - x|^2 + |v_h - v|^2) dt)^(1/2), with
// e_R the geodesic attitude error and Omega = R W the spatial angular velocity, by the trapezoid rule
// on the observation grid.
#include <algorithm>
#include <cmath>
#include <vector>

#include "../../core/so3.hpp"
#include "error_metric.hpp"
#include "../metrics.hpp"

namespace rigidbench::metric_defs {
namespace {

using namespace error_metric;

double distance(const ErrorInputs& in, const LevelRun& run) {
  const bool tr = in.p.translating();
  std::vector<double> f(in.M() + 1, 0.0);
  for (std::size_t j = 0; j <= in.M(); ++j)
    for (std::size_t b = 0; b < in.p.bodies.size(); ++b) {
      const BodyState& r = in.ref.states[j].bodies[b];
      const Mat3 Rh = attitude_at(run.xi, j, b, tr);
      const Vec3 Wh = vector_at(run.xi, j, b, tr, kOmega);
      const double eR = so3::angle_between(r.R, Rh);
      const Vec3 Om_h = Rh * Wh, Om_r = r.R * r.W;  // spatial angular velocities
      f[j] += eR * eR + (Om_h - Om_r).squaredNorm();
      if (tr) {
        const Vec3 xh = vector_at(run.xi, j, b, tr, kPosition), vh = vector_at(run.xi, j, b, tr, kVelocity);
        f[j] += (xh - r.x).squaredNorm() + (vh - r.v).squaredNorm();
      }
    }
  return std::sqrt(trapezoid(f, in.L.obs_dt()));
}
// Floor: 100x the reference's own H1 estimate, or 100 ulps of the integrand's scale over the span.
double floor(const ErrorInputs& in) {
  return std::max(kRefFloorFactor * reference_h1_estimate(in),
                  kRoundoffUlps * in.eps * std::sqrt(in.span()) * (1 + reference_omega_scale(in)));
}
double scale(const ErrorInputs& in) { return std::sqrt(in.span()) * (1 + reference_omega_scale(in)); }

constexpr ErrorMeasure kDistance{distance, floor, scale, scale};

}  // namespace

extern const MetricDef h1_distance{
    "h1_distance", MetricSection::convergence, "true H1 distance",
    "true H1 distance (int sum_bodies |dx|^2 + |dv|^2 + e_R^2 + |dOmega|^2 dt)^(1/2)", "mixed", VerdictRule::order, 1,
    true, {}, &kDistance};

}  // namespace rigidbench::metric_defs
