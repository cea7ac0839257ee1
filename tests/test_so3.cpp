// SO(3) and quaternion kernels tested as properties over hard samples (STYLE.md, Sophus-style):
// theta ~ 0, theta = pi, quaternion scalar part ~ 1e-12, long chains of compositions.
#include <numbers>

#include "../core/quaternion.hpp"
#include "../core/so3.hpp"
#include "support.hpp"

using namespace rigidbench;
using rigidbench::test::compare;

namespace {
constexpr double pi = std::numbers::pi;

/// Rotation vectors that exercise every branch: tiny, Taylor-switch neighbourhood, generic, near pi.
std::vector<Vec3> hard_samples() {
  std::vector<Vec3> s{Vec3::Zero()};
  for (double t : {1e-300, 1e-16, 1e-12, 1e-8, 0.99e-4, 1e-4, 1.01e-4, 1e-3, 0.1, 1.0, 2.0, 3.0, pi - 1e-6, pi - 1e-9})
    for (int k = 0; k < 4; ++k) s.push_back(t * test::random_unit());
  s.push_back(Vec3(1e-9, 0, 0));
  s.push_back(Vec3(0, 0, 2.5));
  return s;
}

Mat3 exp_series(const Vec3& w) {  // reference: truncated power series, converges for |w| <= pi
  Mat3 S = so3::hat(w), term = Mat3::Identity(), sum = Mat3::Identity();
  for (int k = 1; k < 40; ++k) {
    term = term * S / double(k);
    sum += term;
  }
  return sum;
}
}  // namespace

TEST_CASE("hat and vee are inverse and hat(a) b = a x b", "[so3]") {
  for (int i = 0; i < 100; ++i) {
    const Vec3 a = test::uniform(0.1, 10) * test::random_unit(), b = test::random_unit();
    CHECK(compare(so3::vee(so3::hat(a)), a, 0.0) == "");
    CHECK(compare(so3::hat(a) * b, a.cross(b), 1e-14 * a.norm()) == "");
    CHECK(compare(so3::hat(a).transpose(), Mat3(-so3::hat(a)), 0.0) == "");
  }
}

TEST_CASE("exp is a rotation and matches the power series on every hard sample", "[so3]") {
  for (const Vec3& w : hard_samples()) {
    INFO("w = " << w.transpose() << ", |w| = " << w.norm());
    const Mat3 R = so3::exp(w);
    CHECK(so3::orthogonality_residual(R) < 16 * 2.2205e-16);  // measured <= 10.1 eps over 2e5 samples
    CHECK(R.determinant() == Approx(1.0).margin(1e-15));
    CHECK(compare(R, exp_series(w), 2e-15) == "");
    CHECK(compare(so3::exp_apply(w, Vec3(0.3, -1, 2)), Vec3(R * Vec3(0.3, -1, 2)), 1e-14) == "");
  }
}

TEST_CASE("log inverts exp down to theta = 1e-300 and up to theta = pi", "[so3]") {
  for (const Vec3& w : hard_samples()) {
    INFO("w = " << w.transpose() << ", |w| = " << w.norm());
    const Vec3 v = so3::log(so3::exp(w));
    // Relative accuracy: the rotation vector is recovered to a few ulps of |w| (no arccos floor).
    CHECK(compare(v, w, 8e-16 * std::max(w.norm(), 1e-300) + 1e-300) == "");
  }
}

TEST_CASE("log at exactly theta = pi returns an axis of the half-turn", "[so3]") {
  for (int k = 0; k < 50; ++k) {
    const Vec3 n = test::random_unit();
    const Mat3 R = 2 * n * n.transpose() - Mat3::Identity();  // exact half-turn about n
    const Vec3 v = so3::log(R);
    CHECK(v.norm() == Approx(pi).epsilon(1e-15));
    CHECK(std::abs(std::abs(v.normalized().dot(n)) - 1) < 1e-14);
    CHECK(compare(so3::exp(v), R, 1e-14) == "");
  }
}

TEST_CASE("the geodesic angle resolves 1e-12 rad where arccos of the trace cannot", "[so3]") {
  const Mat3 A = so3::exp(Vec3(0.4, -1.2, 0.7));
  // Forming B = A exp(d n) itself rounds at ~1e-16, so the relative check starts at d = 1e-12.
  for (double d : {1e-12, 1e-10, 1e-6}) {
    const Mat3 B = A * so3::exp(d * Vec3(0, 0.6, 0.8));
    CHECK(so3::angle_between(A, B) == Approx(d).epsilon(1e-3));
  }
  CHECK(so3::angle_between(A, Mat3(A * so3::exp(Vec3(0, 6e-15, 8e-15)))) == Approx(1e-14).margin(1e-15));
  // arccos((tr - 1)/2) returns 0 or ~1e-8 at these differences; the kernel must not.
  CHECK(so3::angle_between(Mat3::Identity(), so3::exp(Vec3(1e-12, 0, 0))) == Approx(1e-12).epsilon(1e-6));
}

TEST_CASE("quaternions: matrix round trip - tiny scalar part - product = matrix product", "[so3][quaternion]") {
  for (const Vec3& w : hard_samples()) {
    const Vec4 q = quat::from_rotation_vector(w);
    CHECK(q.norm() == Approx(1.0).margin(1e-15));
    const Mat3 R = so3::exp(w);
    CHECK(compare(quat::to_matrix(q), R, 2e-15) == "");
    const Vec4 q2 = quat::from_matrix(R);
    CHECK(std::min((q2 - q).norm(), (q2 + q).norm()) < 4e-15);
  }
  // Scalar part 1e-12: a rotation by pi - 2e-12.
  const Vec3 n = Vec3(1, 2, -2).normalized();
  const Vec4 q(1e-12, n.x(), n.y(), n.z());
  const Mat3 R = quat::to_matrix(q);
  const Vec4 back = quat::from_matrix(R);
  CHECK(std::min((back - q / q.norm()).norm(), (back + q / q.norm()).norm()) < 1e-15);
  CHECK(so3::angle(R) == Approx(pi - 2e-12).epsilon(1e-15));
  for (int i = 0; i < 50; ++i) {
    const Vec4 a = quat::from_rotation_vector(test::uniform(0, 3) * test::random_unit());
    const Vec4 b = quat::from_rotation_vector(test::uniform(0, 3) * test::random_unit());
    CHECK(compare(quat::to_matrix(quat::multiply(a, b)), Mat3(quat::to_matrix(a) * quat::to_matrix(b)), 2e-15) == "");
  }
}

TEST_CASE("1000 compositions of exp stay in SO(3) to round-off", "[so3]") {
  Mat3 R = Mat3::Identity();
  for (int i = 0; i < 1000; ++i) R = R * so3::exp(test::uniform(0, 3) * test::random_unit());
  CHECK(so3::orthogonality_residual(R) < 1e-13);
  CHECK(R.determinant() == Approx(1.0).margin(1e-13));
}

TEST_CASE("Cayley: rotation - inverse and equal to its closed form", "[so3]") {
  for (int i = 0; i < 100; ++i) {
    const Vec3 w = test::uniform(0, 20) * test::random_unit();
    const Mat3 C = so3::cayley(w);
    CHECK(so3::orthogonality_residual(C) < 1e-14);
    const Mat3 S = so3::hat(w);
    const Mat3 closed = (Mat3::Identity() - 0.5 * S).inverse() * (Mat3::Identity() + 0.5 * S);
    CHECK(compare(C, closed, 1e-13) == "");
    CHECK(compare(so3::cayley_inverse(C), w, 1e-12 * (1 + w.squaredNorm())) == "");
  }
  CHECK_THROWS_AS(so3::cayley_inverse(so3::exp(Vec3(pi, 0, 0))), InputError);
}

TEST_CASE("dexp_right linearises exp and its inverse inverts it", "[so3]") {
  for (const Vec3& w : hard_samples()) {
    if (w.norm() > 3.0) continue;
    INFO("w = " << w.transpose());
    const Mat3 Jr = so3::dexp_right(w);
    CHECK(compare(Mat3(Jr * so3::dexp_right_inverse(w)), Mat3::Identity(), 1e-12) == "");
    // Central differences of exp(w)^T exp(w + e d) ~ exp(Jr d e).
    const double e = 1e-6;
    for (int k = 0; k < 3; ++k) {
      const Vec3 d = Vec3::Unit(k);
      const Vec3 fd = (so3::log(so3::exp(w).transpose() * so3::exp(w + e * d)) -
                       so3::log(so3::exp(w).transpose() * so3::exp(w - e * d))) / (2 * e);
      CHECK(compare(fd, Vec3(Jr.col(k)), 1e-8) == "");
    }
  }
}

TEST_CASE("one Rotation serves exp, exp^T, exp(2w) and dexp_r from one sincos", "[so3]") {
  const Vec3 v(0.3, -1, 2);
  for (const Vec3& w : hard_samples()) {
    INFO("w = " << w.transpose() << ", |w| = " << w.norm());
    const so3::Rotation E(w);
    const Mat3 R = exp_series(w);
    CHECK(compare(E.matrix(), R, 2e-15) == "");
    CHECK(compare(E.apply(v), Vec3(R * v), 1e-14) == "");
    CHECK(compare(E.apply_inverse(v), Vec3(R.transpose() * v), 1e-14) == "");
    CHECK(compare(E.inverse().matrix(), Mat3(R.transpose()), 2e-15) == "");
    if (w.norm() <= 3.0) CHECK(compare(E.dexp_right(), so3::dexp_right(w), 1e-12) == "");
    // The double-angle coefficients against the trigonometric ones at 2w (|2w| up to 2 pi, where the
    // power series no longer serves as the reference).
    const so3::Rotation D = E.doubled(), T(2.0 * w);
    CHECK(compare(D.matrix(), T.matrix(), 8e-15) == "");
    CHECK(so3::orthogonality_residual(D.matrix()) < 16 * 2.2205e-16);
  }
}

TEST_CASE("Rodrigues' coefficients are within a few ulps on both sides of every branch", "[so3]") {
  // a = sin t / t, b = (1 - cos t)/t^2 against long double (b as 2 sin^2(t/2)/t^2, no cancellation).
  // Branches: the series below 1e-4, sin + sqrt below pi/2 (the cosine of t/2 from its sine), sincos above.
  std::vector<double> ts;
  for (double t : {1e-4, 1.5707963267948966, 3.0}) {
    for (int k = -8; k <= 8; ++k) ts.push_back(t + k * 4e-16 * t);
  }
  for (double t = 1e-6; t < 6.2; t *= 1.07) ts.push_back(t);
  for (double t : ts) {
    double a, b;
    so3::rodrigues_coefficients(t, a, b);
    const long double tl = t, s = std::sin(tl / 2);
    const long double a_ref = std::sin(tl) / tl, b_ref = 2 * s * s / (tl * tl);
    INFO("t = " << t);
    // Error budget: sin 1 ulp, the cosine 2, 2 s / t two roundings, the products one each: <= 6 ulps.
    CHECK(std::abs(a - double(a_ref)) <= 6 * 2.2205e-16 * std::abs(double(a_ref)));
    CHECK(std::abs(b - double(b_ref)) <= 6 * 2.2205e-16 * double(b_ref));
  }
}
