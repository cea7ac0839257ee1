// One suite over every registered scheme (STYLE.md: written once, run over the registry's type
// list): map-in/map-out, determinism, observed order on the free body, and every exact claim.
// A scheme's own test adds only what is specific to it (bottom of this file for Terze).
#include <tuple>

#include "../integrators/integrate.hpp"
#include "../core/so3.hpp"
#include "../integrators/builtin.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
#include "../verification/runner.hpp"
#include "support.hpp"

using namespace rigidbench;
using rigidbench::test::compare;

namespace {
template <class L>
struct as_tuple;
template <class... S>
struct as_tuple<SchemeList<S...>> {
  using type = std::tuple<S...>;
};
using AllSchemes = as_tuple<Schemes>::type;
}  // namespace

TEMPLATE_LIST_TEST_CASE("contract: reset then read gives back the canonical state", "[integrators]", AllSchemes) {
  for (const auto& name : catalogue_names()) {
    const Problem p = catalogue_problem(name);
    if (!not_applicable(TestType::info(), p).empty()) continue;
    TestType s(p);
    s.reset(p.initial, p.t0);
    State x(p.bodies.size());
    s.read(x);
    INFO(TestType::info().name << " on " << name);
    for (std::size_t b = 0; b < p.bodies.size(); ++b) {
      const BodyState &a = x.bodies[b], &e = p.initial.bodies[b];
      INFO("body " << b);
      CHECK(compare(a.R, e.R, 4e-16) == "");
      CHECK(compare(a.W, e.W, 1e-14 * (1 + e.W.norm())) == "");
      // A chain's centres of mass follow from its attitudes (place_chain): R's rounding reaches them.
      const double tx = p.of_family("spherical_chain") ? 4e-16 * (1 + e.x.norm()) : 0.0;
      const double tv = p.of_family("spherical_chain") ? 1e-14 * (1 + e.v.norm()) : 0.0;
      if (p.translating()) CHECK((compare(a.x, e.x, tx) + compare(a.v, e.v, tv)) == "");
    }
  }
}

TEMPLATE_LIST_TEST_CASE("contract: declared settings are accepted by the constructor and their defaults are in range",
                        "[integrators][settings]", AllSchemes) {
  const auto& settings = TestType::info().settings;
  if (!settings.empty()) CHECK(std::constructible_from<TestType, const Problem&, const SchemeSettings&>);
  for (const SettingInfo& s : settings) {
    INFO(TestType::info().name << "." << s.name);
    CHECK(s.min <= s.default_value);
    CHECK(s.default_value <= s.max);
    CHECK(!s.description.empty());
  }
}

TEMPLATE_LIST_TEST_CASE("contract: stepping is deterministic and a reset restarts from scratch", "[integrators]",
                        AllSchemes) {
  const Problem p = catalogue_problem("heavy_top");
  TestType s(p);
  auto run = [&] {
    s.reset(p.initial, p.t0);
    State x(1);
    REQUIRE(integrate(s, FixedSteps{p.t0, 1e-3, 500}, x).ok);
    return x;
  };
  const State a = run(), b = run();
  CHECK(a.body().R == b.body().R);
  CHECK(a.body().W == b.body().W);
  CHECK(s.counters().load_evaluations > 0);
}

TEMPLATE_LIST_TEST_CASE("every scheme reaches its declared order and keeps its exact claims",
                        "[integrators]", AllSchemes) {
  // The free body, or the spherical pendulum for schemes restricted to spherical bodies, or case 1 of
  // the non-twisting body for the nonholonomic scheme; t in [0, 2].
  bool ran = false;
  for (const char* name : {"free_body", "pendulum3d", "non_twisting_case1"}) {
    Problem p = catalogue_problem(name);
    if (!not_applicable(TestType::info(), p).empty()) continue;
    p.t_end = 2.0;
    p.verification.sample_times = {1.0, 2.0};
    p.finalize();
    const SchemeEntry& e = find_scheme(std::string(TestType::info().name));
    const Ladder L = make_ladder(p, TestType::info().order, {.h0 = 0.025, .levels = 5});
    const ReferenceSolution ref = compute_reference(p, L.obs_times(), {.formulation = p.of_family("non_twisting")
                                                                                        ? Formulation::non_twisting
                                                                                        : Formulation::kirchhoff});
    const PairResult r = verify_pair(p, e, L, ref);
    REQUIRE(r.status == "ok");
    const Convergence& c = r.convergence.at("h1_distance");
    INFO(TestType::info().name << " on " << name << ": slope " << c.fit.slope << " (" << c.note << ")");
    CHECK(c.verdict == Verdict::pass);
    CHECK(std::abs(c.fit.slope - TestType::info().order) <= kSlopeTolerance);
    for (const auto& inv : r.invariants) {
      INFO(inv.name << " drift " << inv.drift);
      if (inv.claim == Claim::exact) CHECK(inv.verdict == Verdict::pass);
    }
    ran = true;
    break;
  }
  CHECK(ran);
}

// ---- Terze-Mueller-Zlatar specifics ----

TEST_CASE("terze: pi_{n+1} = pi_n + h/2 (t_n + t_{n+1}) to round-off on the heavy top", "[integrators][terze]") {
  const Problem p = catalogue_problem("heavy_top");
  TerzeMullerZlatar s(p);
  s.reset(p.initial, p.t0);
  State x(1);
  s.read(x);
  const double h = 9e-3;  // paper 002's largest step, ~26 degrees per step
  for (int n = 0; n < 1000; ++n) {
    const double t = p.t0 + n * h;
    const Vec3 pi_n = x.body().R * (p.inertia() * x.body().W);
    const Vec3 t_n = p.spatial_moment(t, x.body().R);
    REQUIRE(s.step(t, h).ok);
    s.read(x);
    const Vec3 pi_1 = x.body().R * (p.inertia() * x.body().W);
    const Vec3 t_1 = p.spatial_moment(t + h, x.body().R);
    REQUIRE(compare(pi_1, Vec3(pi_n + 0.5 * h * (t_n + t_1)), 1e-12) == "");
    // Hence the vertical component is exact: the moment is horizontal.
    REQUIRE(std::abs(pi_1.z() - pi_n.z()) < 1e-12);
  }
}

TEST_CASE("terze: energy drifts secularly at O(h^3) per unit time (so no energy claim)", "[integrators][terze]") {
  // Over T = 100 the bounded O(h^2) oscillation is dominated by a linear drift: the error over the
  // second half is ~2x the first half's, and it falls by ~2^3 per halving of h (docs/metrics.md, bounded claims).
  const Problem p = catalogue_problem("free_body");
  struct Run {
    double first_half = 0, all = 0;
  };
  auto run = [&](double h) {
    TerzeMullerZlatar s(p);
    s.reset(p.initial, p.t0);
    State x(1);
    const long n = std::lround(100.0 / h);
    Run r;
    for (long k = 0; k < n; ++k) {
      s.step(double(k) * h, h);
      s.read(x);
      const double d = std::abs(p.energy(x) - p.energy(p.initial));
      r.all = std::max(r.all, d);
      if (k < n / 2) r.first_half = r.first_half > d ? r.first_half : d;
    }
    return r;
  };
  const Run a = run(0.01), b = run(0.005);
  CHECK(a.all > 1e-6);  // a real energy error, far above round-off
  CHECK(a.all / a.first_half == Approx(2).margin(0.15));
  CHECK(std::log2(a.all / b.all) == Approx(3).margin(0.2));
  CHECK(TerzeMullerZlatar::info().claims.energy == Claim::none);
}
