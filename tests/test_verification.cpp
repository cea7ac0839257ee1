// Convergence verdicts on the heavy top, and properties of the suite runner.
#include "rigidbench/problems/catalogue.hpp"
#include "rigidbench/verification/suite.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {
const PairResult& find(const SuiteResult& s, const std::string& integ) {
  for (const auto& r : s.results)
    if (r.integrator == integ) return r;
  throw std::logic_error("missing " + integ);
}
const QiiLevel& qii_at(const PairResult& r, double h) {
  for (const auto& l : r.q_ii.levels)
    if (std::abs(l.h - h) < 1e-12) return l;
  throw std::logic_error("no Q_II level at h");
}
}  // namespace

TEST_CASE("heavy top: RK4 and Terze reach order 4 and 2 - Q_II within 2% at h = 1e-3 and 2e-3", "[verification]") {
  SuiteRequest req;
  req.problems = {"heavy_top"};
  req.integrators = {"odeint_rk4_quat", "terze"};
  req.progress = false;
  req.measure_cost = false;
  const SuiteResult s = run_suite(req);
  REQUIRE(s.results.size() == 2);
  const PairResult& rk4 = find(s, "odeint_rk4_quat");
  const PairResult& tz = find(s, "terze");
  for (const PairResult* r : {&rk4, &tz}) {
    REQUIRE(r->status == "ok");
    CHECK_FALSE(r->failed());
    // The reference's H(0) is the problem's: 1269.975.
    CHECK(catalogue_problem("heavy_top").energy(r->reference->states.front()) == Approx(1269.975).margin(5e-4));
  }
  CHECK(std::abs(rk4.convergence.at("attitude_error_final").fit.slope - 4) <= 0.15);
  CHECK(std::abs(tz.convergence.at("attitude_error_final").fit.slope - 2) <= 0.15);
  for (double v : qii_at(rk4, 1e-3).sample_value) CHECK(std::abs(v / 16 - 1) <= 0.02);
  for (double v : qii_at(tz, 2e-3).sample_value) CHECK(std::abs(v / 4 - 1) <= 0.02);
}

TEST_CASE("heavy top: Lie-Euler is first order (short ladder)", "[verification]") {
  SuiteRequest req;
  req.problems = {"heavy_top"};
  req.integrators = {"lie_euler"};
  req.ladder.levels = 3;
  req.progress = false;
  req.measure_cost = false;
  const SuiteResult s = run_suite(req);
  const auto& c = s.results.at(0).convergence.at("attitude_error_final");
  CHECK(std::abs(c.fit.slope - 1) <= 0.15);
}

TEST_CASE("heavy top: Lie-Euler on the full ladder (2^24 steps at the finest level)", "[verification][slow]") {
  SuiteRequest req;
  req.problems = {"heavy_top"};
  req.integrators = {"lie_euler"};
  req.progress = false;
  const SuiteResult s = run_suite(req);
  const PairResult& r = s.results.at(0);
  CHECK(std::abs(r.convergence.at("attitude_error_final").fit.slope - 1) <= 0.15);
  CHECK_FALSE(r.failed());
}

TEST_CASE("results do not depend on the number of workers", "[verification]") {
  SuiteRequest req;
  req.problems = {"free_body", "pendulum3d"};
  req.integrators = {"terze", "odeint_rk4_quat"};
  req.ladder.levels = 3;
  req.progress = false;
  req.measure_cost = false;
  req.jobs = 1;
  const SuiteResult one = run_suite(req);
  req.jobs = 3;
  const SuiteResult three = run_suite(req);
  REQUIRE(one.results.size() == three.results.size());
  for (std::size_t i = 0; i < one.results.size(); ++i) {
    CHECK(one.results[i].integrator == three.results[i].integrator);
    CHECK(one.results[i].problem == three.results[i].problem);
    CHECK(one.results[i].convergence.at("h1_distance").error == three.results[i].convergence.at("h1_distance").error);
  }
}

TEST_CASE("inapplicable pairs are skipped with the reason - bad ladders are input errors", "[verification]") {
  // No scheme registered yet is restricted; a restricted copy of an applicability shows the rule.
  SchemeInfo spherical = TerzeMullerZlatar::info();
  spherical.applies.spherical_only = true;
  CHECK_THAT(not_applicable(spherical, catalogue_problem("heavy_top")), Catch::Contains("spherical"));
  CHECK(not_applicable(spherical, catalogue_problem("pendulum3d")).empty());
  SchemeInfo free_only = TerzeMullerZlatar::info();
  free_only.applies.torque_free_only = true;
  CHECK_THAT(not_applicable(free_only, catalogue_problem("heavy_top")), Catch::Contains("torque-free"));

  const Problem p = catalogue_problem("heavy_top");
  CHECK_THROWS_WITH(make_ladder(p, 2, {.h0 = 3e-3}), Catch::Contains("not an integer multiple"));
  CHECK_THROWS_AS(make_ladder(p, 2, {.h0 = -1.0}), InputError);
  CHECK_THROWS_AS(make_ladder(p, 2, {.h0 = std::numeric_limits<double>::quiet_NaN()}), InputError);
  CHECK_THROWS_WITH(make_ladder(p, 2, {.h0 = 1e-9}), Catch::Contains("too fine"));
  SuiteRequest req;
  req.suite = "nightly";
  CHECK_THROWS_WITH(run_suite(req), Catch::Contains("unknown suite 'nightly'"));
}
