#pragma once
// Rescaled Rodrigues parameters of paper 001 (Baker & Gonzalez), after Campello.
//   alpha = tan(|theta|/2) / (|theta|/2) * theta                          (eq. 3)
//   R(alpha) = I + 4/(4 + |alpha|^2) [S(alpha) + S(alpha)^2 / 2]          (eq. 4)
//   alpha1 (+) alpha2 = 4/(4 - alpha1.alpha2) [alpha1 + alpha2 - alpha1 x alpha2 / 2]   (eq. 5)
// alpha = 2 g with g = tan(theta/2) n the Gibbs vector, so R(alpha) is the Cayley map.
//
// Order of composition (decided and tested, tests/test_rrp.cpp): with the Gibbs-vector product
// rule, R(alpha1 (+) alpha2) = R(alpha2) R(alpha1). Paper 001 writes alpha_{k+1} = alpha_k (+) dalpha_k,
// so the increment dalpha_k acts on the spatial side: R_{k+1} = R(dalpha_k) R_k.
//
// The chart is not global: |alpha| -> infinity at theta = pi; the composition's denominator
// 4 - alpha1.alpha2 vanishes when the composed rotation is a half-turn.
#include <cmath>
#include <limits>
#include <optional>

#include "quaternion.hpp"
#include "so3.hpp"
#include "types.hpp"

namespace rigidbench::rrp {

/// Eq. (4).
inline Mat3 to_matrix(const Vec3& alpha) { return so3::cayley(alpha); }

/// Eq. (5); empty when the result is a half-turn (outside the chart): the denominator is within a
/// few ulps of its terms, i.e. |result| would exceed ~1e15 and carry no digits. Large but
/// meaningful |alpha| (1e4-1e5 near the pendulum's half-turn passages, docs/problems.md P3) pass.
inline std::optional<Vec3> compose(const Vec3& a1, const Vec3& a2) {
  const double den = 4.0 - a1.dot(a2);
  if (std::abs(den) <= 8 * std::numeric_limits<double>::epsilon() * (4.0 + a1.norm() * a2.norm())) return std::nullopt;
  const Vec3 r = (4.0 / den) * (a1 + a2 - 0.5 * a1.cross(a2));
  if (!r.allFinite()) return std::nullopt;
  return r;
}

/// R(inverse(alpha)) = R(alpha)^T.
inline Vec3 inverse(const Vec3& alpha) { return -alpha; }

/// Eq. (3): rotation vector -> alpha; requires |theta| < pi.
inline Vec3 from_rotation_vector(const Vec3& theta) {
  const double t = theta.norm();
  if (!(t < std::numbers::pi)) throw InputError("rrp::from_rotation_vector: |theta| must be < pi");
  // tan(t/2)/(t/2) = 1 + t^2/12 + t^4/120 + ...
  const double k = t < 1e-4 ? 1.0 + t * t / 12.0 : std::tan(0.5 * t) / (0.5 * t);
  return k * theta;
}

/// Inverse of eq. (3): theta = 2 arctan(|alpha|/2) alpha/|alpha| (the rotation angle used in
/// paper 001 eq. 35 is its norm).
inline Vec3 to_rotation_vector(const Vec3& alpha) {
  const double a = alpha.norm();
  const double k = a < 1e-4 ? 1.0 - a * a / 12.0 : 2.0 * std::atan(0.5 * a) / a;
  return k * alpha;
}

/// Rotation angle 2 arctan(|alpha|/2) in [0, pi).
inline double angle(const Vec3& alpha) { return 2.0 * std::atan(0.5 * alpha.norm()); }

/// alpha of a rotation matrix: 2 v / s from its unit quaternion; empty at the half-turn (scalar part
/// within 4 ulps of zero, where |alpha| > 5e14 carries no digits).
inline std::optional<Vec3> from_matrix(const Mat3& R) {
  const Vec4 q = quat::from_matrix(R);
  if (std::abs(q[0]) <= 4 * std::numeric_limits<double>::epsilon()) return std::nullopt;
  const Vec3 a = 2.0 * q.tail<3>() / q[0];
  if (!a.allFinite()) return std::nullopt;
  return a;
}

}  // namespace rigidbench::rrp
