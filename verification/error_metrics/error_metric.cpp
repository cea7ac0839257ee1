#include "error_metric.hpp"

#include <algorithm>

#include "../../core/so3.hpp"
#include "../../core/state.hpp"
#include "../metrics.hpp"

namespace rigidbench::error_metric {

Mat3 attitude_at(const Eigen::MatrixXd& xi, std::size_t j, std::size_t body, bool translating) {
  const Eigen::Index row = Eigen::Index(j), o = Eigen::Index(body) * observables_per_body(translating);
  Mat3 R;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) R(a, b) = xi(row, o + 3 * a + b);
  return R;
}

Vec3 vector_at(const Eigen::MatrixXd& xi, std::size_t j, std::size_t body, bool translating, int offset) {
  const Eigen::Index row = Eigen::Index(j), o = Eigen::Index(body) * observables_per_body(translating) + offset;
  return Vec3(xi(row, o), xi(row, o + 1), xi(row, o + 2));
}

double worst_attitude_error(const ErrorInputs& in, const LevelRun& run, std::size_t j) {
  const bool tr = in.p.translating();
  double e = 0;
  for (std::size_t b = 0; b < in.ref.states[j].bodies.size(); ++b)
    e = std::max(e, so3::angle_between(in.ref.states[j].bodies[b].R, attitude_at(run.xi, j, b, tr)));
  return e;
}

double worst_omega_error(const ErrorInputs& in, const LevelRun& run, std::size_t j) {
  const bool tr = in.p.translating();
  double e = 0;
  for (std::size_t b = 0; b < in.ref.states[j].bodies.size(); ++b)
    e = std::max(e, (vector_at(run.xi, j, b, tr, kOmega) - in.ref.states[j].bodies[b].W).norm());
  return e;
}

double reference_omega_scale(const ErrorInputs& in) {
  double w = 0;
  for (std::size_t j = 0; j <= in.M(); ++j)
    for (const BodyState& b : in.ref.states[j].bodies) w = std::max(w, b.W.norm());
  return w;
}

double reference_h1_estimate(const ErrorInputs& in) {
  const auto& ea = in.ref.estimate_attitude;
  const auto& ew = in.ref.estimate_omega;
  const double nb = double(in.p.bodies.size());
  std::vector<double> r(in.M() + 1);
  for (std::size_t j = 0; j <= in.M(); ++j) {
    double wj = 0;
    for (const BodyState& b : in.ref.states[j].bodies) wj = std::max(wj, b.W.norm());
    const double rom = ew[j] + wj * ea[j];  // spatial Omega = R W
    r[j] = ea[j] * ea[j] + rom * rom;
    if (in.p.translating()) {  // per-time position/velocity estimates are not kept: their maxima bound them
      const double ep = in.ref.error_estimate.position, ev = in.ref.error_estimate.velocity;
      r[j] += nb * (ep * ep + ev * ev);
    }
  }
  return std::sqrt(trapezoid(r, in.L.obs_dt()));
}

}  // namespace rigidbench::error_metric
