#pragma once
// Unit quaternions q = (s, v) = (w, x, y, z), Hamilton convention, stored as Vec4 (s first).
// R(q) v = q (0, v) q*; q and -q give the same rotation.
#include <cmath>

#include "types.hpp"

namespace rigidbench::quat {

inline Vec4 multiply(const Vec4& a, const Vec4& b) {
  return Vec4(a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
              a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
              a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
              a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]);
}

inline Vec4 conjugate(const Vec4& q) { return Vec4(q[0], -q[1], -q[2], -q[3]); }

/// Rotation matrix of q / |q| (a non-unit q is normalised, so the result is always in SO(3)).
inline Mat3 to_matrix(const Vec4& q_in) {
  const Vec4 q = q_in / q_in.norm();
  const double s = q[0], x = q[1], y = q[2], z = q[3];
  Mat3 R;
  R << 1 - 2 * (y * y + z * z), 2 * (x * y - s * z), 2 * (x * z + s * y),
       2 * (x * y + s * z), 1 - 2 * (x * x + z * z), 2 * (y * z - s * x),
       2 * (x * z - s * y), 2 * (y * z + s * x), 1 - 2 * (x * x + y * y);
  return R;
}

/// Unit quaternion of a rotation matrix with s >= 0, by Shepperd's method: the largest of
/// (s^2, x^2, y^2, z^2) is taken from the diagonal, the others from off-diagonal sums, so no
/// square root of a small difference is taken (accurate at theta = pi, where s -> 0).
inline Vec4 from_matrix(const Mat3& R) {
  const double tr = R.trace();
  Vec4 q;
  const double d0 = tr, d1 = R(0, 0), d2 = R(1, 1), d3 = R(2, 2);
  if (d0 >= d1 && d0 >= d2 && d0 >= d3) {
    const double r = std::sqrt(1.0 + tr), f = 0.5 / r;
    q << 0.5 * r, (R(2, 1) - R(1, 2)) * f, (R(0, 2) - R(2, 0)) * f, (R(1, 0) - R(0, 1)) * f;
  } else if (d1 >= d2 && d1 >= d3) {
    const double r = std::sqrt(1.0 + R(0, 0) - R(1, 1) - R(2, 2)), f = 0.5 / r;
    q << (R(2, 1) - R(1, 2)) * f, 0.5 * r, (R(0, 1) + R(1, 0)) * f, (R(0, 2) + R(2, 0)) * f;
  } else if (d2 >= d3) {
    const double r = std::sqrt(1.0 - R(0, 0) + R(1, 1) - R(2, 2)), f = 0.5 / r;
    q << (R(0, 2) - R(2, 0)) * f, (R(0, 1) + R(1, 0)) * f, 0.5 * r, (R(1, 2) + R(2, 1)) * f;
  } else {
    const double r = std::sqrt(1.0 - R(0, 0) - R(1, 1) + R(2, 2)), f = 0.5 / r;
    q << (R(1, 0) - R(0, 1)) * f, (R(0, 2) + R(2, 0)) * f, (R(1, 2) + R(2, 1)) * f, 0.5 * r;
  }
  if (q[0] < 0) q = -q;
  return q / q.norm();
}

/// q = exp of the pure quaternion (0, w/2): the unit quaternion of the rotation vector w.
inline Vec4 from_rotation_vector(const Vec3& w) {
  const double t = w.norm();
  const double s = std::cos(0.5 * t);
  // sin(t/2)/t, with its Taylor series where t^4/1920 is below one ulp.
  const double k = t < 1e-4 ? 0.5 - t * t / 48.0 : std::sin(0.5 * t) / t;
  return Vec4(s, k * w.x(), k * w.y(), k * w.z());
}

/// Rotation vector of a unit quaternion, |w| in [0, pi]: theta = 2 atan2(|v|, |s|).
inline Vec3 log(const Vec4& q_in) {
  const Vec4 q = q_in[0] < 0 ? Vec4(-q_in) : q_in;
  const double vn = q.tail<3>().norm();
  if (vn < 1e-300) return Vec3::Zero();
  const double theta = 2.0 * std::atan2(vn, q[0]);
  return (theta / vn) * q.tail<3>();
}

}  // namespace rigidbench::quat
