#pragma once
// A body in an ideal fluid (paper 003; docs/problems.md P6) in three formulations, each mapping to the
// canonical state (R, x, v = R u spatial velocity of the reference point, W body angular velocity).
// P = M u, Pi = J W (M the added-mass tensor, J the inertia, body components):
// - KirchhoffBody (left-invariant, body): P' = P x W, Pi' = Pi x W + P x u, x' = R u, R' = R hat(W).
// - NewtonEulerBody (right-invariant, spatial): the spatial impulse p = R P and the spatial angular
//   impulse m = x x R P + R Pi are constant; the state is (R, x) and P = R^T p, Pi = R^T (m - x x p).
// - HybridBody: spatial velocity v of the reference point and body W: v' = R (u' + W x u), u = R^T v,
//   with u' from the Kirchhoff equations.
#include <array>

#include "../../core/quaternion.hpp"
#include "../../core/state.hpp"
#include "../families/kirchhoff_body.hpp"
#include "../problem.hpp"

namespace rigidbench::formulations {

namespace fluid {
inline Vec4 qdot(const double* q, const Vec3& W) {
  return 0.5 * quat::multiply(Vec4(q[0], q[1], q[2], q[3]), Vec4(0.0, W.x(), W.y(), W.z()));
}
inline Mat3 rot(const double* q) { return quat::to_matrix(Vec4(q[0], q[1], q[2], q[3])); }
/// Body accelerations from Kirchhoff's equations.
inline void accelerations(const Problem& p, const Vec3& u, const Vec3& W, Vec3& du, Vec3& dW) {
  const KirchhoffBodyData& d = kirchhoff_body_data(p);
  const Vec3 P = d.added_mass * u, Pi = p.inertia() * W;
  du = d.added_mass_inverse * P.cross(W);
  dW = p.inertia_inverse() * (Pi.cross(W) + P.cross(u));
}
}  // namespace fluid

struct KirchhoffBody {
  using state_type = std::array<double, 13>;  // q (4), x (3), u (3), W (3)
  const Problem* problem;
  void operator()(const state_type& y, state_type& dy, double) const {
    const Mat3 R = fluid::rot(y.data());
    const Vec3 u(y[7], y[8], y[9]), W(y[10], y[11], y[12]);
    Vec3 du, dW;
    fluid::accelerations(*problem, u, W, du, dW);
    const Vec4 dq = fluid::qdot(y.data(), W);
    const Vec3 dx = R * u;
    for (int i = 0; i < 4; ++i) dy[i] = dq[i];
    for (int i = 0; i < 3; ++i) dy[4 + i] = dx[i], dy[7 + i] = du[i], dy[10 + i] = dW[i];
  }
  static state_type from_body(const BodyState& b) {
    const Vec4 q = quat::from_matrix(b.R);
    const Vec3 u = b.R.transpose() * b.v;
    return {q[0], q[1], q[2], q[3], b.x[0], b.x[1], b.x[2], u[0], u[1], u[2], b.W[0], b.W[1], b.W[2]};
  }
  static void to_body(const state_type& y, BodyState& b) {
    b.R = fluid::rot(y.data());
    b.x = Vec3(y[4], y[5], y[6]);
    b.v = b.R * Vec3(y[7], y[8], y[9]);
    b.W = Vec3(y[10], y[11], y[12]);
  }
};

struct NewtonEulerBody {
  using state_type = std::array<double, 7>;  // q (4), x (3)
  const Problem* problem;
  Vec3 p, m;  // spatial impulse and spatial angular impulse (constants of the motion)
  NewtonEulerBody(const Problem& pr, const BodyState& b0) : problem(&pr) {
    const Vec3 P = kirchhoff_body_data(pr).added_mass * (b0.R.transpose() * b0.v), Pi = pr.inertia() * b0.W;
    p = b0.R * P;
    m = b0.x.cross(p) + b0.R * Pi;
  }
  void velocities(const state_type& y, Mat3& R, Vec3& u, Vec3& W) const {
    R = fluid::rot(y.data());
    const Vec3 x(y[4], y[5], y[6]);
    u = kirchhoff_body_data(*problem).added_mass_inverse * (R.transpose() * p);
    W = problem->inertia_inverse() * (R.transpose() * (m - x.cross(p)));
  }
  void operator()(const state_type& y, state_type& dy, double) const {
    Mat3 R;
    Vec3 u, W;
    velocities(y, R, u, W);
    const Vec4 dq = fluid::qdot(y.data(), W);
    const Vec3 dx = R * u;
    for (int i = 0; i < 4; ++i) dy[i] = dq[i];
    for (int i = 0; i < 3; ++i) dy[4 + i] = dx[i];
  }
  static state_type from_body(const BodyState& b) {
    const Vec4 q = quat::from_matrix(b.R);
    return {q[0], q[1], q[2], q[3], b.x[0], b.x[1], b.x[2]};
  }
  void to_body(const state_type& y, BodyState& b) const {
    Mat3 R;
    Vec3 u, W;
    velocities(y, R, u, W);
    b.R = R;
    b.x = Vec3(y[4], y[5], y[6]);
    b.v = R * u;
    b.W = W;
  }
};

struct HybridBody {
  using state_type = std::array<double, 13>;  // q (4), x (3), v (3) spatial, W (3) body
  const Problem* problem;
  void operator()(const state_type& y, state_type& dy, double) const {
    const Mat3 R = fluid::rot(y.data());
    const Vec3 v(y[7], y[8], y[9]), W(y[10], y[11], y[12]);
    const Vec3 u = R.transpose() * v;
    Vec3 du, dW;
    fluid::accelerations(*problem, u, W, du, dW);
    const Vec3 dv = R * (du + W.cross(u));
    const Vec4 dq = fluid::qdot(y.data(), W);
    for (int i = 0; i < 4; ++i) dy[i] = dq[i];
    for (int i = 0; i < 3; ++i) dy[4 + i] = v[i], dy[7 + i] = dv[i], dy[10 + i] = dW[i];
  }
  static state_type from_body(const BodyState& b) {
    const Vec4 q = quat::from_matrix(b.R);
    return {q[0], q[1], q[2], q[3], b.x[0], b.x[1], b.x[2], b.v[0], b.v[1], b.v[2], b.W[0], b.W[1], b.W[2]};
  }
  static void to_body(const state_type& y, BodyState& b) {
    b.R = fluid::rot(y.data());
    b.x = Vec3(y[4], y[5], y[6]);
    b.v = Vec3(y[7], y[8], y[9]);
    b.W = Vec3(y[10], y[11], y[12]);
  }
};

}  // namespace rigidbench::formulations
