// The gyrostat family (problems/families/gyrostat.cpp): its reference against the closed form of the
// symmetric gyrostat, its reduction to the rigid body at zero rotor rate, its problem file, and the
// schemes that integrate it (the AKW midpoint rule keeps every invariant exactly).
#include <cmath>
#include <numbers>

#include "../problems/catalogue.hpp"
#include "../problems/families/rigid_body.hpp"
#include "../problems/problem_file.hpp"
#include "../reference/reference.hpp"
#include "../verification/runner.hpp"
#include "support.hpp"

using namespace rigidbench;
using rigidbench::test::compare;

namespace {

/// A gyrostat of the catalogue's shape with other data.
Problem gyrostat(const Mat3& J, const Vec3& axis, double Jr, double rate, const Mat3& R0, const Vec3& W0) {
  Problem p = catalogue_problem("gyrostat");
  p.bodies[0].inertia = J;
  p.parameters["rotor"] = {{"axis", {axis.x(), axis.y(), axis.z()}}, {"inertia", Jr}, {"rate", rate}};
  p.initial.body().R = R0;
  p.initial.body().W = W0;
  p.finalize();
  return p;
}

std::vector<double> grid(double t0, double t1, double dt) {
  std::vector<double> g;
  for (int j = 0; t0 + j * dt <= t1 + 1e-12; ++j) g.push_back(t0 + j * dt);
  return g;
}

}  // namespace

TEST_CASE("gyrostat: the symmetric gyrostat's reference equals its closed form", "[gyrostat][reference]") {
  // J = diag(J1, J1, J3), rotor on e3: Pi_3 = J3 W3 + h is constant, W = Pi/J1 + mu e3 with
  // mu = (1/J3 - 1/J1) Pi_3 - h/J3, and R' = R hat(W) = hat(pi/J1) R + mu R hat(e3) (R hat(Pi) R^T =
  // hat(pi)), so R(t) = exp(t pi/J1) R0 exp(t mu e3): an independent check of the formulations.
  const double J1 = 2.0, J3 = 1.0, Jr = 0.1, rate = 10.0, h = Jr * rate;
  const Mat3 R0 = so3::exp(Vec3(0.1, 0.2, 0.3));
  const Vec3 W0(0.3, -0.2, 2.0);
  const Problem p = gyrostat(Vec3(J1, J1, J3).asDiagonal(), Vec3::UnitZ(), Jr, rate, R0, W0);
  REQUIRE(compare(internal_momentum(p), Vec3(0, 0, h), 1e-15) == "");
  const Vec3 Pi0 = p.inertia() * W0 + internal_momentum(p);
  const Vec3 pi = R0 * Pi0;
  const double mu = (1.0 / J3 - 1.0 / J1) * Pi0.z() - h / J3;
  const auto g = grid(0.0, 10.0, 0.25);
  for (const char* f : {"kirchhoff", "newton_euler"}) {
    const ReferenceSolution ref = compute_reference(p, g, {.formulation = formulation_from_string(f), .cache_dir = ""});
    double worst_R = 0, worst_W = 0;
    for (std::size_t j = 0; j < g.size(); ++j) {
      const Mat3 R = so3::exp(g[j] * pi / J1) * R0 * so3::exp(g[j] * mu * Vec3::UnitZ());
      const Vec3 W = R.transpose() * pi / J1 + mu * Vec3::UnitZ();
      worst_R = std::max(worst_R, so3::angle_between(R, ref.states[j].body().R));
      worst_W = std::max(worst_W, (W - ref.states[j].body().W).norm());
    }
    INFO(f << ": attitude " << worst_R << " rad, W " << worst_W << " rad/s; estimate " << ref.error_estimate.max());
    CHECK(worst_R < 1e-10);
    CHECK(worst_W < 1e-10);
  }
}

TEST_CASE("gyrostat: at zero rotor rate it is the rigid body, and the rotor changes the motion", "[gyrostat][reference]") {
  const Problem free = catalogue_problem("free_body");
  const Problem still = gyrostat(free.inertia(), Vec3(1, 1, 1), 0.1, 0.0, free.initial.body().R, free.initial.body().W);
  const Problem spun = catalogue_problem("gyrostat");
  const auto g = grid(0.0, 5.0, 0.5);
  const ReferenceSolution a = compute_reference(free, g, {.formulation = Formulation::kirchhoff, .cache_dir = ""});
  const ReferenceSolution b = compute_reference(still, g, {.formulation = Formulation::kirchhoff, .cache_dir = ""});
  const ReferenceSolution c = compute_reference(spun, g, {.formulation = Formulation::kirchhoff, .cache_dir = ""});
  for (std::size_t j = 0; j < g.size(); ++j) {
    CHECK(compare(a.states[j].body().R, b.states[j].body().R, 0.0) == "");  // the same right-hand side
    CHECK(compare(a.states[j].body().W, b.states[j].body().W, 0.0) == "");
  }
  CHECK(so3::angle_between(a.states.back().body().R, c.states.back().body().R) > 0.1);
}

TEST_CASE("gyrostat: invariants from the canonical state hold along the reference", "[gyrostat][reference]") {
  const Problem p = catalogue_problem("gyrostat");
  std::vector<std::string> names;
  for (const auto& d : p.invariants()) names.push_back(d.name);
  CHECK(names == std::vector<std::string>{"energy", "momentum_x", "momentum_y", "momentum_z", "casimir", "orthogonality"});
  const auto g = grid(p.t0, p.t_end, 0.1);
  const ReferenceSolution ref = compute_reference(p, g, {.cache_dir = ""});
  CHECK(ref.formulation.find("kirchhoff") != std::string::npos);
  std::vector<double> i0(names.size()), i(names.size());
  p.evaluate_invariants(p.initial, i0.data());
  // |Pi| includes the rotor: |J W(0) + h| (not |J W(0)|).
  CHECK(std::abs(i0[4] - (p.inertia() * p.initial.body().W + internal_momentum(p)).norm()) < 1e-15);
  for (const State& s : ref.states) {
    p.evaluate_invariants(s, i.data());
    for (std::size_t k = 0; k + 1 < names.size(); ++k) {
      INFO(names[k]);
      CHECK(std::abs(i[k] - i0[k]) < 1e-11 * std::max(1.0, std::abs(i0[k])));
    }
  }
}

TEST_CASE("gyrostat: problem file round trip and bad rotors", "[gyrostat][problems]") {
  const Problem p = catalogue_problem("gyrostat");
  const auto j = problem_to_json(p);
  CHECK(j["family"] == "gyrostat");
  CHECK(j["rotor"]["inertia"] == 0.1);
  CHECK(problem_from_json(nlohmann::json::parse(j.dump()), "test") == p);
  auto bad = [&](auto edit, const std::string& msg) {
    nlohmann::json b = nlohmann::json::parse(j.dump());
    edit(b);
    CHECK_THROWS_WITH(problem_from_json(b, "test"), Catch::Contains(msg));
  };
  bad([](nlohmann::json& b) { b.erase("rotor"); }, "a gyrostat needs \"rotor\"");
  bad([](nlohmann::json& b) { b["rotor"]["inertia"] = -1.0; }, "/rotor/inertia: Expected number greater than 0.000000 (got -1.0)");
  bad([](nlohmann::json& b) { b["rotor"]["axis"] = {0, 0, 0}; }, "/rotor/axis: the rotor axis must be non-zero");
  bad([](nlohmann::json& b) { b["rotor"]["inertia"] = 5.0; }, "exceeds the gyrostat's inertia about the rotor axis");
  bad([](nlohmann::json& b) { b["rotor"]["spin"] = 1.0; }, "/rotor: Object contains a property that could not be validated using 'properties' or 'additionalProperties' constraints: 'spin'");
  bad([](nlohmann::json& b) { b["rotor"].erase("rate"); }, "/rotor: Missing required property 'rate'");
  // The rotor section belongs to the gyrostat only.
  nlohmann::json rb = nlohmann::json::parse(problem_to_json(catalogue_problem("free_body")).dump());
  rb["rotor"] = j["rotor"];
  CHECK_THROWS_WITH(problem_from_json(rb, "test"), Catch::Contains("unknown field 'rotor'"));
}

TEST_CASE("gyrostat: the schemes that handle the rotor run - the AKW midpoint rule keeps every invariant exactly",
          "[gyrostat][integrators]") {
  const Problem p = catalogue_problem("gyrostat");
  CHECK_THAT(not_applicable(*find_scheme("terze").info, p), Catch::Contains("handles internal_momentum"));
  for (const char* s : {"odeint_rk4_quat", "lie_euler", "rkmk4", "akw_midpoint"}) CHECK(not_applicable(*find_scheme(s).info, p).empty());
  // AKW over 2000 steps of h = 0.01: energy, the spatial momentum and |Pi| to round-off.
  auto integ = find_scheme("akw_midpoint").make(p);
  integ->reset(p.initial, p.t0);
  std::vector<double> i0(p.invariants().size()), i(p.invariants().size());
  p.evaluate_invariants(p.initial, i0.data());
  double worst = 0;
  State x(1);
  for (int n = 0; n < 2000; ++n) {
    REQUIRE(integ->step(n * 0.01, 0.01).ok);
    integ->read(x);
    p.evaluate_invariants(x, i.data());
    for (std::size_t k = 0; k + 1 < i.size(); ++k) worst = std::max(worst, std::abs(i[k] - i0[k]) / std::max(1.0, std::abs(i0[k])));
  }
  CHECK(worst < 1e-12);
  // Lie-Euler converges to the gyrostat's reference at its order 1 (with the rotor term dropped it
  // would converge to another motion, and the error would stall at the difference).
  const Ladder L = make_ladder(p, 1, {.levels = 4});
  const ReferenceSolution ref = compute_reference(p, L.obs_times(), {.cache_dir = ""});
  const PairResult r = verify_pair(p, find_scheme("lie_euler"), L, ref);
  CHECK(r.convergence.at("attitude_error_final").verdict == Verdict::pass);
  CHECK(std::abs(r.convergence.at("attitude_error_final").fit.slope - 1.0) < 0.15);
}
