#pragma once
// What an error metric is given (docs/metrics.md, "Errors against the reference"): the problem, the
// ladder and the reference on the ladder's common observation grid, and one level's observed run on
// that grid (LevelRun: the observables xi and the energy). Each error metric is one file beside this
// one that defines its MetricDef with an ErrorMeasure - the level's error, the floor below which a
// level is not used for the rate, and the scale of its accumulated rounding - and is listed once in
// the metric table (verification/metric_table.cpp). The runner computes, floors and judges every
// error metric of the table the same way (runner.cpp, assess_pair); nothing else names them.
//
// The helpers below are the pointwise comparisons several metrics share; each evaluates the same
// expression in the same order wherever it is called, so a metric's value does not depend on which
// other metrics exist.
#include <Eigen/Core>
#include <algorithm>
#include <cstddef>

#include "../../core/types.hpp"
#include "../../problems/problem.hpp"
#include "../../reference/reference.hpp"
#include "../metric_table.hpp"
#include "../runner.hpp"

namespace rigidbench {

struct ErrorInputs {
  const Problem& p;
  const Ladder& L;
  const ReferenceSolution& ref;
  /// The scheme's unit of rounding (unit_roundoff of SchemeInfo::precision): the metrics' round-off
  /// floors and the runs' accumulated rounding are in ulps of it.
  double eps = kEps;
  std::size_t M() const { return std::size_t(L.m); }  // observation intervals: times t_0 .. t_M
  double span() const { return L.t_end() - L.t0; }
};

namespace error_metric {

/// Body `body`'s attitude R_h and the vector at `offset` of its observables at row j of xi.
Mat3 attitude_at(const Eigen::MatrixXd& xi, std::size_t j, std::size_t body, bool translating);
Vec3 vector_at(const Eigen::MatrixXd& xi, std::size_t j, std::size_t body, bool translating, int offset);
/// Offsets within a body's observables (core/state.hpp): R (9), W (3), then x (3) and v (3).
constexpr int kOmega = 9, kPosition = 12, kVelocity = 15;

/// The geodesic attitude error |log(R_ref^T R_h)| at t_j, worst body.
double worst_attitude_error(const ErrorInputs& in, const LevelRun& run, std::size_t j);
/// |W_h - W_ref| at t_j, worst body.
double worst_omega_error(const ErrorInputs& in, const LevelRun& run, std::size_t j);

/// The largest f(j) over the grid t_0 .. t_M (0 when every f(j) <= 0).
template <class F>
double max_over_grid(const ErrorInputs& in, F&& f) {
  double m = 0;
  for (std::size_t j = 0; j <= in.M(); ++j) m = std::max(m, f(j));
  return m;
}

/// The largest |W| of the reference over the grid and the bodies: the scale of angular velocities.
double reference_omega_scale(const ErrorInputs& in);
/// The reference's own estimate of the true H1 distance (the integral of its attitude and spatial
/// angular-velocity estimates, and of its position and velocity estimates for a translating body).
double reference_h1_estimate(const ErrorInputs& in);

}  // namespace error_metric
}  // namespace rigidbench
