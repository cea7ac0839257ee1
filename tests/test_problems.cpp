// The problem model: catalogue parameters, loads derived from the potential, invariant sets,
// problem files (round trip and validation).
#include <fstream>
#include <numbers>

#include "../core/so3.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/families/body_system.hpp"
#include "../problems/families/rigid_body.hpp"
#include "../problems/problem_file.hpp"
#include "support.hpp"

using namespace rigidbench;
using rigidbench::test::compare;
using nlohmann::json;

namespace {
std::vector<std::string> invariant_names(const Problem& p) {
  std::vector<std::string> n;
  for (const auto& d : p.invariants()) n.push_back(d.name);
  return n;
}
json exported(const std::string& name) { return json::parse(problem_to_json(catalogue_problem(name)).dump()); }
}  // namespace

TEST_CASE("heavy top: H(0) = 1269.975 as paper 002 states", "[problems]") {
  const Problem p = catalogue_problem("heavy_top");
  // 1/2 * 50^2 * J3 + M g Lambda_33(0) = 1250 + 20 cos(0.05)
  CHECK(p.energy(p.initial) == Approx(1269.975).margin(5e-4));
  CHECK(p.energy(p.initial) == Approx(1250 + 20 * std::cos(0.05)).epsilon(1e-15));
  CHECK(invariant_names(p) == std::vector<std::string>{"energy", "momentum_along_field", "axial_momentum", "orthogonality"});
  // t = -20 Lambda(:,3) x e3
  const Mat3 R = so3::exp(Vec3(0.3, -0.2, 0.9));
  CHECK(compare(p.spatial_moment(0, R), Vec3(-20.0 * Vec3(R.col(2)).cross(Vec3::UnitZ())), 1e-13) == "");
}

TEST_CASE("free body and Dzhanibekov: torque-free invariants", "[problems]") {
  for (const char* n : {"free_body", "dzhanibekov"}) {
    const Problem p = catalogue_problem(n);
    CHECK(p.torque_free());
    CHECK(invariant_names(p) ==
          std::vector<std::string>{"energy", "momentum_x", "momentum_y", "momentum_z", "casimir", "orthogonality"});
  }
}

TEST_CASE("pendulum3d: initial conditions of paper 001 and the moment derived from U", "[problems]") {
  const Problem p = catalogue_problem("pendulum3d");
  const BodyState& s = p.initial.body();
  // alpha(0) = (0, 1, 0) 2 tan(3 pi / 8): a rotation of 3 pi / 4 about e2.
  CHECK(compare(s.R, so3::exp(Vec3(0, 3 * std::numbers::pi / 4, 0)), 1e-15) == "");
  CHECK(compare(Vec3(s.R * s.W), Vec3(0.2, 0, 0.2), 1e-15) == "");
  // The moment is -dU along spatial variations R -> exp(eps hat(e_k)) R (U as printed).
  for (int i = 0; i < 20; ++i) {
    const Mat3 R = test::random_rotation();
    Vec3 fd;
    const double e = 1e-6;
    for (int k = 0; k < 3; ++k)
      fd[k] = -(p.potential(so3::exp(e * Vec3::Unit(k)) * R) - p.potential(so3::exp(-e * Vec3::Unit(k)) * R)) / (2 * e);
    CHECK(compare(p.spatial_moment(0, R), fd, 1e-9) == "");
    // ... and equals m g (R rho0) x e3 (docs/problems.md P3)
    CHECK(compare(p.spatial_moment(0, R), Vec3(Vec3(R.col(2)).cross(Vec3::UnitZ())), 1e-15) == "");
  }
  // U as printed makes R rho0 = +e3 the stable position (minimum of U).
  CHECK(p.potential(Mat3::Identity()) == Approx(-1.0));
  CHECK(p.potential(so3::exp(Vec3(std::numbers::pi, 0, 0))) == Approx(1.0));
}

TEST_CASE("every catalogue entry exports to a problem file that loads back identical", "[problems][problem-file]") {
  for (const auto& name : catalogue_names()) {
    INFO(name);
    const Problem p = catalogue_problem(name);
    const Problem q = problem_from_json(exported(name), "round trip");
    CHECK(p == q);
    CHECK(q.invariants().size() == p.invariants().size());
  }
}

TEST_CASE("a direction given not of unit length is normalised once: written and read back, the problem is the same",
          "[problem-file]") {
  // Found by fuzz/problem_file.cpp (fuzz/corpus/problem_file/regress-gyrostat-axis-not-unit.json): the
  // rotor axis (0.577, 0.537, 0.577) normalised, written, read and normalised again differed in the
  // last bit, so the re-read problem was another problem (another reference cache key).
  json g = exported("gyrostat");
  g["rotor"]["axis"] = {0.5773502691896258, 0.5373502691896258, 0.5773502691896258};
  json b = exported("torus_impact");
  b["interactions"]["walls"][0]["normal"] = {0.3, 0.7, 0.1};
  for (const json& j : {g, b}) {
    const Problem p = problem_from_json(j, "test");
    const Problem q = problem_from_json(json::parse(problem_to_json(p).dump()), "round trip");
    CHECK(p == q);
  }
}

TEST_CASE("a body_system body without a contact diameter is a point: written and read back, the problem is the same",
          "[problem-file]") {
  // Found by fuzz/problem_file.cpp (fuzz/corpus/problem_file/regress-diameter-omitted.json): an omitted
  // diameter reads as 0 (a point particle, as the wall is in eq. 56), is written as 0, and the schema
  // refused a written 0 (it required > 0), so the file did not read back.
  json b = exported("torus_impact");
  b["bodies"][2].erase("diameter");
  const Problem p = problem_from_json(b, "test");
  CHECK(diameter(body_system_data(p), 2) == 0.0);
  const Problem q = problem_from_json(json::parse(problem_to_json(p).dump()), "round trip");
  CHECK(p == q);
  json neg = exported("torus_impact");
  neg["bodies"][2]["diameter"] = -0.1;
  CHECK_THROWS_WITH(problem_from_json(neg, "test"), Catch::Contains("/bodies/2/diameter"));
}

TEST_CASE("problem files accept alternative attitude and velocity forms", "[problem-file]") {
  json j = exported("heavy_top");
  j["initial"][0]["attitude"] = {{"rotation_vector", {0.05, 0, 0}}};
  j["initial"][0]["angular_velocity"] = {{"spatial", {0, 0, 0}}};
  const Problem p = problem_from_json(j, "test");
  CHECK(compare(p.initial.body().R, catalogue_problem("heavy_top").initial.body().R, 1e-16) == "");
  j["initial"][0]["attitude"] = {{"quaternion", {1, 0, 0, 0}}};
  CHECK(problem_from_json(j, "test").initial.body().R == Mat3::Identity());
}

TEST_CASE("invalid problem files are rejected with the path and the offending value", "[problem-file]") {
  // Shape and types: the schema (reports/schema/problem-1.schema.json, valijson); the model's own
  // conditions (SPD, rotations, the ladder) and the family's keys: the reader.
  struct Case {
    std::function<void(json&)> edit;
    std::string expect;
  };
  const std::vector<Case> cases{
      {[](json& j) { j["bodies"][0]["inertia"] = {{1, 0, 0}, {0, -2, 0}, {0, 0, 3}}; }, "not positive definite"},
      {[](json& j) { j["bodies"][0]["inertia"] = {{1, 0.5, 0}, {0, 2, 0}, {0, 0, 3}}; }, "not symmetric"},
      {[](json& j) { j["bodies"][0]["inertia"] = {{1e-107, 0, 0}, {0, 2e-107, 0}, {0, 0, 3e-107}}; }, "inverse is outside the range of binary64"},
      {[](json& j) { j["bodies"][0]["inertia"] = {{1, 0, 0}, {0, 2, 0}}; }, "/bodies/0/inertia"},
      {[](json& j) { j["bodies"][0]["inertia"][1][1] = "two"; }, "/bodies/0/inertia/1/1: Value type not permitted by 'type' constraint. (got \"two\")"},
      {[](json& j) { j["bodies"][0]["mass"] = -1; }, "/bodies/0/mass: Expected number greater than 0.000000 (got -1)"},
      {[](json& j) { j["time"]["t_end"] = -5; }, "t_end (-5) must be greater than t0"},
      {[](json& j) { j["verification"]["h0"] = 0; }, "/verification/h0: Expected number greater than 0.000000 (got 0)"},
      {[](json& j) { j["verification"]["levels"] = 2; }, "/verification/levels: Expected number greater than or equal to 3.000000 (got 2)"},
      {[](json& j) { j["initial"][0]["attitude"] = {{"matrix", {{1, 0, 0}, {0, 1, 0}, {0, 0, 2}}}}; },
       "initial attitude is not a rotation"},
      {[](json& j) { j["initial"][0]["attitude"] = {{"quaternion", {2, 0, 0, 0}}}; }, "not a unit quaternion"},
      {[](json& j) { j["loads"][0]["type"] = "magnet"; }, "/loads/0/type: Failed to match expected value set by 'const' constraint. (got \"magnet\")"},
      {[](json& j) { j["typo_field"] = 1; }, "unknown field 'typo_field'"},
      {[](json& j) { j.erase("initial"); }, "/: Missing required property 'initial'"},
      {[](json& j) { j["family"] = "soft_body"; }, "unknown model family 'soft_body'"},
      {[](json& j) { j["rigidbench_problem"] = 7; }, "/rigidbench_problem: Failed to match expected value set by 'const' constraint. (got 7)"},
      {[](json& j) { j["verification"]["sample_times"] = {3, 99}; }, "sample_times: 99 is outside"},
  };
  for (const auto& c : cases) {
    json j = exported("heavy_top");
    c.edit(j);
    INFO("expect: " << c.expect);
    try {
      problem_from_json(j, "problem file 'x.json'");
      FAIL("accepted an invalid problem file");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains(c.expect));
      CHECK_THAT(e.what(), Catch::Contains("x.json"));
    }
  }
}

TEST_CASE("malformed JSON and unknown names are input errors", "[problem-file]") {
  const std::string path = test::tmp_path("malformed.json");
  std::ofstream(path) << "{ \"name\": \"x\", ";
  CHECK_THROWS_WITH(load_problem_file(path), Catch::Contains("not valid JSON"));
  CHECK_THROWS_WITH(load_problem_file(test::tmp_path("does-not-exist.json")), Catch::Contains("cannot open"));
  CHECK_THROWS_WITH(catalogue_problem("spinning_top"), Catch::Contains("unknown problem 'spinning_top'"));
  CHECK_THROWS_AS(resolve_problem("heavy_top", path), InputError);
  CHECK_THROWS_AS(resolve_problem("", ""), InputError);
}

TEST_CASE("the body moment evaluated in the body frame equals R^T t(t, R)", "[problems]") {
  for (const char* n : {"heavy_top", "pendulum3d"}) {
    const Problem p = catalogue_problem(n);
    for (int i = 0; i < 50; ++i) {
      const Mat3 R = test::random_rotation();
      CHECK(compare(p.body_moment(0.3, R), Vec3(R.transpose() * p.spatial_moment(0.3, R)), 1e-13) == "");
    }
  }
}

TEST_CASE("a family's data is a value of the problem: copied deep, compared, absent reads as its default", "[problems]") {
  const Problem torus = catalogue_problem("torus_free");
  Problem copy = torus;
  REQUIRE(copy == torus);
  // A deep copy: changing the copy's interactions leaves the original's alone and makes them differ.
  copy.family_data.edit<BodySystemData>().interactions.contact_stiffness *= 2;
  CHECK(body_system_data(torus).interactions.contact_stiffness == 2100);
  CHECK_FALSE(copy == torus);
  // Read as a type the problem does not hold: the default (no interactions, point particles, h = 0).
  const Problem top = catalogue_problem("heavy_top");
  CHECK(body_system_data(top).interactions.empty());
  CHECK(diameter(body_system_data(top), 0) == 0.0);
  CHECK(internal_momentum(top) == Vec3::Zero());
  CHECK(internal_momentum_if_any(top) == nullptr);
  // Absent equals default: a problem that holds the default value equals one that holds nothing.
  Problem with_default = top;
  with_default.family_data.edit<RigidBodyTerms>();
  CHECK(with_default == top);
  with_default.family_data.edit<RigidBodyTerms>().internal_momentum = Vec3(0, 0, 1);
  CHECK_FALSE(with_default == top);
  // One type per problem: editing another family's type is a programming error, not silent.
  CHECK_THROWS_AS(with_default.family_data.edit<BodySystemData>(), std::logic_error);
}

TEST_CASE("family data is checked by its family: diameters per body, a rotor only on a gyrostat", "[problems]") {
  Problem torus = catalogue_problem("torus_free");
  torus.family_data.edit<BodySystemData>().diameters.pop_back();
  CHECK_THROWS_WITH(torus.finalize(), Catch::Contains("one contact diameter per body (79 for 80 bodies)"));
  torus.family_data.edit<BodySystemData>().diameters.push_back(-1.0);
  CHECK_THROWS_WITH(torus.finalize(), Catch::Contains("body 79: diameter must be finite and >= 0"));
  Problem top = catalogue_problem("heavy_top");
  top.family_data.edit<RigidBodyTerms>().internal_momentum = Vec3(0, 0, 1);
  CHECK_THROWS_WITH(top.finalize(), Catch::Contains("makes the problem a gyrostat"));
  // The interactions are the body system's own loads: not torque-free with them, torque-free without.
  Problem gas = catalogue_problem("particle_gas_8");
  CHECK_FALSE(gas.torque_free());
  gas.family_data.edit<BodySystemData>().interactions = {};
  gas.finalize();
  CHECK(gas.torque_free());
  CHECK(gas.family->length_scale(gas) == 1.0);  // the gas's spheres have D = 1
  CHECK(catalogue_problem("kirchhoff_body").family->length_scale(catalogue_problem("kirchhoff_body")) == 1.0);
  CHECK(torus.family->length_scale(catalogue_problem("torus_free")) == Approx(3.0 * std::sin(std::numbers::pi / 80)));
}
