// Rescaled Rodrigues parameters of paper 001 (eqs. 3-5), as properties.
#include <numbers>

#include "../core/rrp.hpp"
#include "../core/so3.hpp"
#include "support.hpp"

using namespace rigidbench;
using rigidbench::test::compare;

TEST_CASE("R(alpha) of eq. 4 equals exp of the rotation vector of eq. 3", "[rrp]") {
  for (double t : {0.0, 1e-12, 1e-5, 1e-4, 0.3, 1.5, 3.0, std::numbers::pi - 1e-6}) {
    for (int k = 0; k < 5; ++k) {
      const Vec3 theta = t * test::random_unit();
      const Vec3 alpha = rrp::from_rotation_vector(theta);
      INFO("theta = " << theta.transpose());
      CHECK(compare(rrp::to_matrix(alpha), so3::exp(theta), 4e-15) == "");
      CHECK(compare(rrp::to_rotation_vector(alpha), theta, 4e-15 * (1 + t)) == "");
      CHECK(rrp::angle(alpha) == Approx(t).margin(4e-15));
      const auto back = rrp::from_matrix(rrp::to_matrix(alpha));
      REQUIRE(back);
      CHECK(compare(*back, alpha, 1e-12 * (1 + alpha.squaredNorm())) == "");
    }
  }
  CHECK_THROWS_AS(rrp::from_rotation_vector(Vec3(std::numbers::pi, 0, 0)), InputError);
}

TEST_CASE("composition (+) of eq. 5: R(a1 (+) a2) = R(a2) R(a1) - the increment acting on the spatial side",
          "[rrp]") {
  // Decision documented in core/rrp.hpp: alpha_{k+1} = alpha_k (+) dalpha_k means
  // R_{k+1} = R(dalpha_k) R(alpha_k). The other order also runs and is wrong: check it differs.
  for (int i = 0; i < 200; ++i) {
    const Vec3 a1 = rrp::from_rotation_vector(test::uniform(0, 2.5) * test::random_unit());
    const Vec3 a2 = rrp::from_rotation_vector(test::uniform(0, 2.5) * test::random_unit());
    const auto c = rrp::compose(a1, a2);
    REQUIRE(c);
    CHECK(compare(rrp::to_matrix(*c), Mat3(rrp::to_matrix(a2) * rrp::to_matrix(a1)), 1e-12 * (1 + c->squaredNorm())) == "");
    if (a1.cross(a2).norm() > 0.1) CHECK(compare(rrp::to_matrix(*c), Mat3(rrp::to_matrix(a1) * rrp::to_matrix(a2)), 1e-3) != "");
  }
}

TEST_CASE("inverse - identity and half-turn of the RRP chart", "[rrp]") {
  const Vec3 a = rrp::from_rotation_vector(Vec3(0.3, -0.2, 1.1));
  const auto id = rrp::compose(a, rrp::inverse(a));
  REQUIRE(id);
  CHECK(id->norm() < 1e-15);
  // Two quarter turns about the same axis compose to a half-turn: outside the chart.
  const Vec3 q = rrp::from_rotation_vector(Vec3(0, 0, std::numbers::pi / 2));
  CHECK_FALSE(rrp::compose(q, q).has_value());
  CHECK_FALSE(rrp::from_matrix(so3::exp(Vec3(std::numbers::pi, 0, 0))).has_value());
}

TEST_CASE("1000 RRP compositions stay in SO(3) without reprojection", "[rrp]") {
  Vec3 a = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  for (int i = 0; i < 1000; ++i) {
    const Vec3 d = rrp::from_rotation_vector(test::uniform(0, 0.5) * test::random_unit());
    auto c = rrp::compose(a, d);
    if (!c) continue;  // the chart's half-turn: skip that increment
    a = *c;
    R = rrp::to_matrix(d) * R;
    CHECK(so3::orthogonality_residual(rrp::to_matrix(a)) < 1e-13);
  }
  // The chain and the product of matrices describe the same rotation (up to accumulated round-off,
  // which grows where |alpha| is large, i.e. near half-turns).
  CHECK(so3::angle_between(rrp::to_matrix(a), R) < 1e-9);
}
