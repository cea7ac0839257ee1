// Random problem families (problems/random_family.hpp): every draw is a valid, physical rigid body at
// the requested energy; the draws are reproducible from the seed, independent of N, and uniform where
// they claim to be; a drawn problem survives its problem file unchanged.
#include <Eigen/Eigenvalues>
#include <cmath>

#include "../core/so3.hpp"
#include "../problems/problem_file.hpp"
#include "../problems/random_family.hpp"
#include "support.hpp"

using namespace rigidbench;

TEST_CASE("random rigid bodies: SPD inertia obeying the triangle inequality, a rotation, the asked energy", "[random]") {
  const std::vector<Problem> ps = random_problems({.count = 200, .seed = 7, .energy = 2.5});
  REQUIRE(ps.size() == 200);
  std::size_t loaded = 0;
  for (const Problem& p : ps) {
    INFO(p.name);
    const Mat3& J = p.bodies.at(0).inertia;
    CHECK((J - J.transpose()).norm() == 0);
    const Vec3 m = Eigen::SelfAdjointEigenSolver<Mat3>(J).eigenvalues();  // ascending
    CHECK(m[0] > 0);
    CHECK(m[2] <= m[0] + m[1] + 1e-12);  // the triangle inequality of a mass distribution
    const Mat3& R = p.initial.body().R;
    CHECK((R.transpose() * R - Mat3::Identity()).norm() < 1e-14);
    CHECK(std::abs(R.determinant() - 1) < 1e-14);
    const Vec3& W = p.initial.body().W;
    CHECK(std::abs(0.5 * W.dot(J * W) - 2.5) < 1e-13);
    loaded += !p.loads.empty();
    // The ladder: span 10, an integer number of coarsest steps, sample times on the step grid.
    CHECK(p.t_end == 10.0);
    CHECK(std::abs(10.0 / p.verification.h0 - std::round(10.0 / p.verification.h0)) == 0);
    CHECK(std::abs(2.0 / p.verification.h0 - std::round(2.0 / p.verification.h0)) == 0);
    CHECK(p.name.rfind("random_rigid_body_7_", 0) == 0);
  }
  // Half are loaded: 100 expected, binomial sd 7.1.
  CHECK(loaded >= 65);
  CHECK(loaded <= 135);
  CHECK(random_problems({.count = 20, .seed = 7, .load_fraction = 0}).back().loads.empty());
  for (const Problem& p : random_problems({.count = 20, .seed = 7, .load_fraction = 1})) CHECK(p.loads.size() == 1);
}

TEST_CASE("random rigid bodies: the same seed draws the same problems, draw k whatever N - attitudes uniform", "[random]") {
  const auto a = random_problems({.count = 30, .seed = 123});
  const auto b = random_problems({.count = 5, .seed = 123});
  const auto c = random_problems({.count = 5, .seed = 124});
  for (std::size_t k = 0; k < 5; ++k) {
    CHECK(problem_to_json(a[k]) == problem_to_json(b[k]));
    CHECK(a[k].initial.body().R != c[k].initial.body().R);
  }
  // Uniform on SO(3): E[R] = 0 and E[trace R] = 0 (Haar measure); 3000 draws, each entry's sd 1/3
  // (so the mean's is 0.0061): within 5 sd.
  const auto many = random_problems({.count = 3000, .seed = 99, .load_fraction = 0});
  Mat3 mean = Mat3::Zero();
  Vec3 wdir = Vec3::Zero();
  for (const Problem& p : many) {
    mean += p.initial.body().R / 3000.0;
    wdir += p.initial.body().W.normalized() / 3000.0;
  }
  CHECK(mean.cwiseAbs().maxCoeff() < 5 * (1.0 / 3) / std::sqrt(3000.0));
  CHECK(wdir.cwiseAbs().maxCoeff() < 5 * std::sqrt(1.0 / 3) / std::sqrt(3000.0));
}

TEST_CASE("random rigid bodies: a draw survives its problem file - bad requests are input errors", "[random]") {
  for (const Problem& p : random_problems({.count = 6, .seed = 5})) {
    const Problem back = problem_from_json(nlohmann::json::parse(problem_to_json(p).dump()), "test");
    CHECK(problem_to_json(back) == problem_to_json(p));
    CHECK(back.bodies == p.bodies);
    CHECK(back.initial.body().R == p.initial.body().R);
    CHECK(back.initial.body().W == p.initial.body().W);
    CHECK(back.verification == p.verification);
  }
  CHECK_THROWS_AS(random_problems({.count = 0, .seed = 1}), InputError);
  CHECK_THROWS_AS(random_problems({.family = "body_system", .count = 3}), InputError);
  CHECK_THROWS_AS(random_problems({.count = 3, .energy = -1}), InputError);
  CHECK_THROWS_AS(random_problems({.count = 3, .energy = std::nan("")}), InputError);
  CHECK_THROWS_AS(random_problems({.count = 3, .load_fraction = 1.5}), InputError);
}
