#pragma once
// SO(3) kernel: hat/vee, exponential, logarithm, geodesic angle, Cayley map, and the right
// Jacobian of exp (dexp) with its inverse.
//
// Invariant kept by every function returning a Mat3 "rotation": R^T R = I and det R = +1 to
// round-off for every finite input (no branch returns a non-orthogonal matrix).
// Conventions: R maps body components to spatial ones; W is body angular velocity, R' = R hat(W).
#include <cmath>
#include <limits>
#include <numbers>

#include "quaternion.hpp"
#include "types.hpp"

namespace rigidbench::so3 {

/// hat(a) b = a x b.
inline Mat3 hat(const Vec3& a) {
  Mat3 S;
  S << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return S;
}

/// vee(hat(a)) = a; for a general matrix, the axial vector of its skew part.
inline Vec3 vee(const Mat3& S) {
  return 0.5 * Vec3(S(2, 1) - S(1, 2), S(0, 2) - S(2, 0), S(1, 0) - S(0, 1));
}

/// sin and cos of x by one sincos call (out of line: kept apart from the sine-only path below).
void sin_cos(double x, double& s, double& c);

/// Coefficients a = sin(t)/t, b = (1 - cos t)/t^2 of Rodrigues' formula, accurate for every t >= 0:
/// both from the sine and cosine of t/2 (a = 2 sin(t/2) cos(t/2)/t, b = 2 sin^2(t/2)/t^2: no
/// cancellation), switching to their Taylor series below t = 1e-4, where the truncation error
/// (t^6/5040 relative) is below one ulp. Below t/2 = pi/4 the cosine is sqrt((1 - s)(1 + s)),
/// within two ulps there (1 - s^2 >= 1/2): glibc's sine has a short path for small arguments that its
/// sincos lacks (callgrind, the coefficients included: 96 instructions against sincos's 145 at
/// t = 0.006, 124 against 158 at t = 0.3 and 1.5), and a step's rotation angle is small.
inline void rodrigues_coefficients(double t, double& a, double& b) {
  if (t < 1e-4) {
    const double t2 = t * t;
    a = 1.0 - t2 / 6.0 * (1.0 - t2 / 20.0);
    b = 0.5 - t2 / 24.0 * (1.0 - t2 / 30.0);
  } else {
    double s, c;
    if (t < 1.5707963267948966) {
      s = std::sin(0.5 * t);
      c = std::sqrt((1.0 - s) * (1.0 + s));
    } else {
      sin_cos(0.5 * t, s, c);
    }
    const double st = 2.0 * s / t;
    a = st * c;
    b = 0.5 * st * st;
  }
}

/// exp(hat(w)) held as Rodrigues' coefficients: one trigonometric evaluation serves the matrix, its
/// action on vectors and the action of its transpose exp(-hat(w)) = exp(hat(w))^T, which the
/// Lie-group schemes use at the same angle within a step.
struct Rotation {
  Vec3 w;
  double a, b;
  explicit Rotation(const Vec3& w_) : w(w_) { rodrigues_coefficients(w.norm(), a, b); }
  /// exp(hat(w)) = I + a hat(w) + b hat(w)^2, hat(w)^2 = w w^T - |w|^2 I written out.
  Mat3 matrix() const {
    Mat3 R = b * (w * w.transpose());
    R.diagonal().array() += 1.0 - b * w.squaredNorm();
    R(0, 1) -= a * w.z();
    R(1, 0) += a * w.z();
    R(0, 2) += a * w.y();
    R(2, 0) -= a * w.y();
    R(1, 2) -= a * w.x();
    R(2, 1) += a * w.x();
    return R;
  }
  /// exp(hat(w)) v without forming the matrix.
  Vec3 apply(const Vec3& v) const {
    const Vec3 wv = w.cross(v);
    return v + a * wv + b * w.cross(wv);
  }
  /// exp(-hat(w)) v = exp(hat(w))^T v.
  Vec3 apply_inverse(const Vec3& v) const {
    const Vec3 wv = w.cross(v);
    return v - a * wv + b * w.cross(wv);
  }
  /// The right Jacobian dexp_r(w) = I - b hat(w) + c hat(w)^2 (dexp_right below) from the same
  /// coefficients: c = (t - sin t)/t^3 = (1 - a)/t^2, its series below t = 1e-3 as there.
  Mat3 dexp_right() const {
    const double t2 = w.squaredNorm();
    const double c = t2 < 1e-6 ? (1.0 / 6.0 - t2 / 120.0 * (1.0 - t2 / 42.0)) : (1.0 - a) / t2;
    const Mat3 S = hat(w);
    return Mat3::Identity() - b * S + c * S * S;
  }
  /// exp(-hat(w)): the same coefficients, w negated.
  Rotation inverse() const { return Rotation(-w, a, b); }
  /// exp(hat(2w)) = exp(hat(w))^2 without trigonometry: with t = |w|, sin 2t / 2t = a cos t and
  /// cos t = 1 - b t^2, 2 sin^2 t / (2t)^2 = a^2 / 2 (double-angle identities; no cancellation in
  /// b' = a^2/2, and a' = a cos t carries an absolute error of a few ulps of a).
  Rotation doubled() const { return Rotation(2.0 * w, a * (1.0 - b * w.squaredNorm()), 0.5 * a * a); }

 private:
  Rotation(const Vec3& w_, double a_, double b_) : w(w_), a(a_), b(b_) {}
};

/// exp(hat(w)) by Rodrigues' formula: I + a hat(w) + b hat(w)^2.
inline Mat3 exp(const Vec3& w) { return Rotation(w).matrix(); }

/// Rotation vector w, |w| in [0, pi], with exp(w) = R. Computed through the unit quaternion
/// (Shepperd's branch-selected extraction) and theta = 2 atan2(|v|, s): robust at theta -> 0, where
/// arccos((tr R - 1)/2) loses half the digits, and at theta -> pi, where the skew part vanishes.
inline Vec3 log(const Mat3& R) { return quat::log(quat::from_matrix(R)); }

/// Geodesic distance |log(A^T B)| in radians, accurate down to round-off (no arccos floor).
inline double angle_between(const Mat3& A, const Mat3& B) {
  const Vec4 q = quat::from_matrix(A.transpose() * B);
  return 2.0 * std::atan2(q.tail<3>().norm(), std::abs(q[0]));
}

/// Rotation angle of R in [0, pi].
inline double angle(const Mat3& R) {
  const Vec4 q = quat::from_matrix(R);
  return 2.0 * std::atan2(q.tail<3>().norm(), std::abs(q[0]));
}

/// Cayley map cay(w) = (I - hat(w)/2)^{-1} (I + hat(w)/2) = I + 4/(4+|w|^2) (hat(w) + hat(w)^2/2).
/// It is the same map as the rescaled-Rodrigues R(alpha) of paper 001 eq. (4); see core/rrp.hpp.
inline Mat3 cayley(const Vec3& w) {
  // hat(w)^2 = w w^T - |w|^2 I written out: no 3x3 matrix product (the hot path of the RRP schemes).
  const double n2 = w.squaredNorm();
  const double k = 4.0 / (4.0 + n2);
  Mat3 R = (0.5 * k) * (w * w.transpose());
  R.diagonal().array() += 1.0 - 0.5 * k * n2;
  R(0, 1) -= k * w.z();
  R(1, 0) += k * w.z();
  R(0, 2) += k * w.y();
  R(2, 0) -= k * w.y();
  R(1, 2) -= k * w.x();
  R(2, 1) += k * w.x();
  return R;
}

/// Inverse Cayley map; defined for rotation angles < pi. Throws InputError at the half-turn, i.e.
/// when the quaternion's scalar part is within 4 ulps of zero (|w| would exceed ~5e14, meaningless).
inline Vec3 cayley_inverse(const Mat3& R) {
  const Vec4 q = quat::from_matrix(R);
  if (std::abs(q[0]) <= 4 * std::numeric_limits<double>::epsilon())
    throw InputError("cayley_inverse: rotation by pi has no Cayley coordinates");
  return 2.0 * q.tail<3>() / q[0];
}

/// Right Jacobian of exp: exp(w + d) = exp(w) exp(dexp_r(w) d) + O(d^2).
/// dexp_r(w) = I - b hat(w) + c hat(w)^2, b = (1 - cos t)/t^2, c = (t - sin t)/t^3 (Bullo & Murray 1995).
inline Mat3 dexp_right(const Vec3& w) {
  const double t = w.norm();
  double a, b;
  rodrigues_coefficients(t, a, b);
  const double c = t < 1e-3 ? (1.0 / 6.0 - t * t / 120.0 * (1.0 - t * t / 42.0)) : (t - std::sin(t)) / (t * t * t);
  const Mat3 S = hat(w);
  return Mat3::Identity() - b * S + c * S * S;
}

/// Inverse of dexp_right: I + hat(w)/2 + (1/t^2 - (1 + cos t)/(2 t sin t)) hat(w)^2; singular at t = 2 pi.
inline Mat3 dexp_right_inverse(const Vec3& w) {
  const double t = w.norm();
  const double d = t < 1e-3 ? (1.0 / 12.0 + t * t / 720.0 * (1.0 + t * t / 42.0))
                            : (1.0 / (t * t) - (1.0 + std::cos(t)) / (2.0 * t * std::sin(t)));
  const Mat3 S = hat(w);
  return Mat3::Identity() + 0.5 * S + d * S * S;
}

/// ||R^T R - I||_F: distance from orthogonality, the constraint residual of docs/metrics.md.
inline double orthogonality_residual(const Mat3& R) {
  return (R.transpose() * R - Mat3::Identity()).norm();
}

/// Projection of a near-rotation onto SO(3) (polar factor); used only to validate input matrices.
Mat3 nearest_rotation(const Mat3& M);

}  // namespace rigidbench::so3

namespace rigidbench::so3 {
/// exp(hat(w)) v without forming the matrix: v + a w x v + b w x (w x v).
inline Vec3 exp_apply(const Vec3& w, const Vec3& v) { return Rotation(w).apply(v); }
}  // namespace rigidbench::so3
