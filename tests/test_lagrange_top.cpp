// The Lagrange top in closed form (reference/lagrange_top.hpp): against the odeint Kirchhoff
// reference on the catalogue heavy top (a start at a turning point of the nutation) and on a top that
// starts mid-nutation under a tilted field; its states keep the energy and the vertical momentum,
// which the closed form never uses as such; and where it does not apply it says why.
#include <cmath>

#include "../core/so3.hpp"
#include "../problems/catalogue.hpp"
#include "../reference/lagrange_top.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {
std::vector<double> grid_of(const Problem& p, int n) {
  std::vector<double> t;
  for (int k = 0; k <= n; ++k) t.push_back(p.t0 + (p.t_end - p.t0) * k / n);
  return t;
}
void agree(const Problem& p, double attitude, double omega) {
  const auto t = grid_of(p, 200);
  const ReferenceSolution exact = lagrange_top_reference(p, t), ode = kirchhoff_reference(p, t);
  CHECK(exact.kind == "analytic");
  // Its estimate: double against extended, plus Gauss-Kronrod's own (|K31 - G15|, pessimistic).
  CHECK(exact.error_estimate.attitude < 1e-9);
  double att = 0, om = 0, dE = 0, dL = 0;
  const double E0 = p.energy(p.initial);
  const Vec3 up = -p.fields()[0].acceleration.normalized();
  const auto Lup = [&](const State& s) { return up.dot(s.body().R * (p.inertia() * s.body().W)); };
  const double L0 = Lup(p.initial);
  for (std::size_t i = 0; i < t.size(); ++i) {
    att = std::max(att, so3::angle_between(exact.states[i].body().R, ode.states[i].body().R));
    om = std::max(om, (exact.states[i].body().W - ode.states[i].body().W).norm());
    dE = std::max(dE, std::abs(p.energy(exact.states[i]) - E0) / E0);
    dL = std::max(dL, std::abs(Lup(exact.states[i]) - L0) / std::max(1.0, std::abs(L0)));
  }
  INFO(p.name << ": attitude " << att << ", W " << om << ", energy " << dE << ", vertical momentum " << dL);
  CHECK(att < attitude);
  CHECK(om < omega);
  CHECK(dE < 1e-13);
  CHECK(dL < 1e-12);
}
}  // namespace

TEST_CASE("Lagrange top: the closed form agrees with the Kirchhoff reference on the heavy top", "[reference]") {
  const Problem p = catalogue_problem("heavy_top");
  REQUIRE(lagrange_top_not_applicable(p).empty());
  agree(p, 1e-11, 1e-11);  // measured 1.3e-12 rad and 8.7e-13 rad/s over [0, 10]
}

TEST_CASE("Lagrange top: a start mid-nutation under a tilted field", "[reference]") {
  Problem p = catalogue_problem("heavy_top");
  p.name = "tilted_top";
  p.bodies[0].inertia = Vec3(3, 3, 1.5).asDiagonal();
  p.loads = {UniformField{.mass = 2.0, .acceleration = Vec3(0.3, -0.2, -1.0).normalized() * 9.81, .point = Vec3(0, 0, 0.4)}};
  p.initial.body().R = so3::exp(Vec3(0.7, -0.4, 0.2));
  p.initial.body().W = Vec3(1.5, -0.8, 12.0);
  p.finalize();
  REQUIRE(lagrange_top_not_applicable(p).empty());
  agree(p, 1e-10, 1e-10);
}

TEST_CASE("Lagrange top: where the closed form does not apply, it says why", "[reference]") {
  CHECK_FALSE(lagrange_top_not_applicable(catalogue_problem("free_body")).empty());
  Problem free_top = catalogue_problem("heavy_top");
  free_top.loads.clear();
  free_top.finalize();
  CHECK(lagrange_top_not_applicable(free_top).find("uniform field") != std::string::npos);
  Problem p = catalogue_problem("heavy_top");
  p.bodies[0].inertia = Vec3(5, 4, 1).asDiagonal();
  p.finalize();
  CHECK(lagrange_top_not_applicable(p).find("diag(A, A, C)") != std::string::npos);
  CHECK_THROWS_AS(lagrange_top_reference(p, {0.0, 1.0}), InputError);
  Problem hang = catalogue_problem("heavy_top");
  hang.loads = {UniformField{.mass = 20.0, .acceleration = Vec3(0, 0, -1.0), .point = Vec3(0, 0, -1.0)}};
  hang.finalize();
  CHECK(lagrange_top_not_applicable(hang).find("l > 0") != std::string::npos);
}
