#include "euler_angles.hpp"

#include <cmath>

#include "../../core/so3.hpp"

namespace rigidbench::formulations {

namespace {

/// Axes (i, j, k) of the sequence, 0-based.
std::array<int, 3> axes(EulerSequence s) { return s == EulerSequence::zyx ? std::array{2, 1, 0} : std::array{2, 1, 2}; }

Mat3 axis_rotation(int axis, double angle) {
  return so3::exp(angle * Vec3::Unit(axis));
}

}  // namespace

const char* to_string(EulerSequence s) { return s == EulerSequence::zyx ? "ZYX" : "ZYZ"; }

Mat3 EulerAngles::rotation(EulerSequence s, double a, double b, double c) {
  const auto ax = axes(s);
  return axis_rotation(ax[0], a) * axis_rotation(ax[1], b) * axis_rotation(ax[2], c);
}

Vec3 EulerAngles::angles(EulerSequence s, const Mat3& R) {
  if (s == EulerSequence::zyx) {
    // R = Rz(a) Ry(b) Rx(c): R31 = -sin b, R32 = cos b sin c, R33 = cos b cos c, R21 = sin a cos b, R11 = cos a cos b.
    const double b = std::atan2(-R(2, 0), std::hypot(R(2, 1), R(2, 2)));
    return Vec3(std::atan2(R(1, 0), R(0, 0)), b, std::atan2(R(2, 1), R(2, 2)));
  }
  // R = Rz(a) Ry(b) Rz(c): R33 = cos b, R13 = cos a sin b, R23 = sin a sin b, R31 = -sin b cos c, R32 = sin b sin c.
  const double b = std::atan2(std::hypot(R(0, 2), R(1, 2)), R(2, 2));
  return Vec3(std::atan2(R(1, 2), R(0, 2)), b, std::atan2(R(2, 1), -R(2, 0)));
}

Mat3 EulerAngles::rate_matrix(EulerSequence s, double b, double c) {
  const auto ax = axes(s);
  const Mat3 RkT = axis_rotation(ax[2], -c), RjT = axis_rotation(ax[1], -b);
  Mat3 B;
  B.col(0) = RkT * RjT * Vec3::Unit(ax[0]);
  B.col(1) = RkT * Vec3::Unit(ax[1]);
  B.col(2) = Vec3::Unit(ax[2]);
  return B;
}

double EulerAngles::chart_quality(EulerSequence s, double b) {
  return s == EulerSequence::zyx ? std::abs(std::cos(b)) : std::abs(std::sin(b));
}

void EulerAngles::operator()(const state_type& y, state_type& dy, double t) const {
  const auto ax = axes(seq);
  const double a = y[0], b = y[1], c = y[2];
  const Vec3 da(y[3], y[4], y[5]);
  const Mat3 RkT = axis_rotation(ax[2], -c), RjT = axis_rotation(ax[1], -b);
  const Vec3 ei = Vec3::Unit(ax[0]), ej = Vec3::Unit(ax[1]), ek = Vec3::Unit(ax[2]);
  Mat3 B;
  B.col(0) = RkT * RjT * ei;
  B.col(1) = RkT * ej;
  B.col(2) = ek;
  const Vec3 W = B * da;
  const Mat3& J = problem->inertia();
  Vec3 rhs = (J * W).cross(W);
  // R = R_i(a) R_j(b) R_k(c), reusing the two factors already formed (transposed) for B.
  if (!problem->torque_free()) rhs += problem->body_moment(t, axis_rotation(ax[0], a) * RjT.transpose() * RkT.transpose());
  const Vec3 dW = problem->inertia_inverse() * rhs;
  // B' alpha': d/dt R_k(c)^T = -c' hat(e_k) R_k^T, d/dt R_j(b)^T = -b' hat(e_j) R_j^T.
  const Vec3 col0 = B.col(0), col1 = B.col(1);
  const Vec3 dcol0 = -da[2] * ek.cross(col0) - da[1] * (RkT * ej.cross(RjT * ei));
  const Vec3 dcol1 = -da[2] * ek.cross(col1);
  const Vec3 Bdot_da = da[0] * dcol0 + da[1] * dcol1;
  const Vec3 dda = B.partialPivLu().solve(dW - Bdot_da);
  for (int i = 0; i < 3; ++i) {
    dy[i] = da[i];
    dy[3 + i] = dda[i];
  }
}

EulerAngles::state_type EulerAngles::from_body(EulerSequence s, const Mat3& R, const Vec3& W) {
  const Vec3 al = angles(s, R);
  const Vec3 da = rate_matrix(s, al[1], al[2]).partialPivLu().solve(W);
  return {al[0], al[1], al[2], da[0], da[1], da[2]};
}

void EulerAngles::to_body(EulerSequence s, const state_type& y, Mat3& R, Vec3& W) {
  R = rotation(s, y[0], y[1], y[2]);
  W = rate_matrix(s, y[1], y[2]) * Vec3(y[3], y[4], y[5]);
}

}  // namespace rigidbench::formulations
