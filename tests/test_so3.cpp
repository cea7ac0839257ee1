// SO(3) and quaternion kernels tested as properties over hard samples (STYLE.md, Sophus-style):
// theta ~ 0, theta = pi, quaternion scalar part ~ 1e-12, long chains of compositions.
#include <numbers>

#include "rigidbench/core/quaternion.hpp"
#include "rigidbench/core/so3.hpp"
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
