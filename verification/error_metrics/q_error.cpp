// Paper 001's q-error as printed (eqs. 35-36; docs/metrics.md, "Paper 001's measures"):
// | |q_h|^2_H1 - |q|^2_H1 |^(1/2) / |q|_H1, with |q|^2 = sum_bodies theta^2 + |Omega|^2 (+ |x|^2 + |v|^2)
// (theta the rotation angle of R, Omega = R W). A difference of squared norms, hence slope p/2.
#include <algorithm>
#include <cmath>
#include <vector>

#include "../../core/so3.hpp"
#include "error_metric.hpp"
#include "../metrics.hpp"

namespace rigidbench::metric_defs {
namespace {

using namespace error_metric;

double error(const ErrorInputs& in, const LevelRun& run) {
  const bool tr = in.p.translating();
  std::vector<double> qh(in.M() + 1, 0.0), qr(in.M() + 1, 0.0);
  for (std::size_t j = 0; j <= in.M(); ++j)
    for (std::size_t b = 0; b < in.p.bodies.size(); ++b) {
      const BodyState& r = in.ref.states[j].bodies[b];
      const Mat3 Rh = attitude_at(run.xi, j, b, tr);
      const Vec3 Wh = vector_at(run.xi, j, b, tr, kOmega);
      const Vec3 Om_h = Rh * Wh, Om_r = r.R * r.W;
      const double th_h = so3::angle(Rh), th_r = so3::angle(r.R);
      qh[j] += th_h * th_h + Om_h.squaredNorm();
      qr[j] += th_r * th_r + Om_r.squaredNorm();
      if (tr) {
        const Vec3 xh = vector_at(run.xi, j, b, tr, kPosition), vh = vector_at(run.xi, j, b, tr, kVelocity);
        qh[j] += xh.squaredNorm() + vh.squaredNorm();
        qr[j] += r.x.squaredNorm() + r.v.squaredNorm();
      }
    }
  const double dt = in.L.obs_dt();
  return std::sqrt(std::abs(trapezoid(qh, dt) - trapezoid(qr, dt))) / std::sqrt(trapezoid(qr, dt));
}
// Floor: the reference moves |q|^2_H1 by ~2 |q| r_H1 (r_H1 its own H1 estimate), so the 100x margin
// applies to the squared quantity: q_err^2 >= 100 * 2 r_H1 / |q|; or 100 ulps of the squared quantity.
double floor(const ErrorInputs& in) {
  const bool tr = in.p.translating();
  std::vector<double> qn(in.M() + 1, 0.0);
  for (std::size_t j = 0; j <= in.M(); ++j)
    for (const BodyState& b : in.ref.states[j].bodies) {
      const double th = so3::angle(b.R);
      qn[j] += th * th + (b.R * b.W).squaredNorm() + (tr ? b.x.squaredNorm() + b.v.squaredNorm() : 0.0);
    }
  const double q_ref_norm = std::sqrt(trapezoid(qn, in.L.obs_dt()));
  return std::max(std::sqrt(kRefFloorFactor * 2 * reference_h1_estimate(in) / std::max(q_ref_norm, 1e-300)),
                  std::sqrt(kRoundoffUlps * in.eps));
}
double one(const ErrorInputs&) { return 1.0; }

constexpr ErrorMeasure kQError{error, floor, one, one};

}  // namespace

extern const MetricDef q_error{
    "q_error", MetricSection::paper_measures, "paper 001 q-error as printed",
    "paper 001 eqs. 35-36 as printed: | |q_h|^2_H1 - |q|^2_H1 |^(1/2) / |q|_H1", "1", VerdictRule::order, 0.5, false,
    "paper 001 eq. 35-36 as printed (difference of squared H1 norms): expected slope p/2", &kQError};

}  // namespace rigidbench::metric_defs
