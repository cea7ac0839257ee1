// What is specific to the schemes of papers 001 and 002 (the shared suites in test_integrators.cpp
// cover order, determinism and claims for every registered scheme).
#include "../integrators/integrate.hpp"
#include "../core/so3.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
#include "../verification/paper_suite.hpp"
#include "../verification/runner.hpp"
#include "support.hpp"

using namespace rigidbench;
using rigidbench::test::compare;

namespace {
template <class S>
State run(const Problem& p, double h, int n, std::vector<State>* trace = nullptr) {
  S s(p);
  s.reset(p.initial, p.t0);
  State x(1);
  const IntegrationOutcome r = integrate(s, FixedSteps{p.t0, h, n}, {.last = true}, x, [&](const Observation&, const State& xo) {
    if (trace) trace->push_back(xo);
  });
  REQUIRE(r.ok);
  s.read(x);
  return x;
}

}  // namespace

// ---- paper 002: RIG_POS / RIG_NEG / RIG_IMP ----

TEMPLATE_TEST_CASE("RIG_NEG and RIG_IMP: midpoint spatial momentum balance to round-off on the heavy top",
                   "[schemes][rig]", RigNeg, RigImp) {
  const Problem p = catalogue_problem("heavy_top");
  const double h = 9e-3;  // paper 002's largest step
  TestType s(p);
  s.reset(p.initial, p.t0);
  State x(1);
  s.read(x);
  for (int n = 0; n < 1000; ++n) {
    const double t = p.t0 + n * h;
    const Mat3 L_half = x.body().R * so3::exp(0.5 * h * x.body().W);
    const Vec3 T_half = p.body_moment(t + 0.5 * h, L_half);
    const Vec3 pi_n = x.body().R * (p.inertia() * x.body().W);
    REQUIRE(s.step(t, h).ok);
    s.read(x);
    const Vec3 pi_1 = x.body().R * (p.inertia() * x.body().W);
    // |pi| ~ 50: 1e-12 is ~100 ulps of it.
    REQUIRE(compare(pi_1, Vec3(pi_n + h * L_half * T_half), 1e-12) == "");
  }
}

TEST_CASE("RIG_POS does not satisfy the momentum balance (the check can fail)", "[schemes][rig]") {
  const Problem p = catalogue_problem("heavy_top");
  RigPos s(p);
  s.reset(p.initial, p.t0);
  State x(1);
  s.read(x);
  const double h = 9e-3;
  double worst = 0;
  for (int n = 0; n < 200; ++n) {
    const Mat3 L_half = x.body().R * so3::exp(0.5 * h * x.body().W);
    const Vec3 pi_n = x.body().R * (p.inertia() * x.body().W);
    const Vec3 T_half = p.body_moment(n * h + 0.5 * h, L_half);
    s.step(n * h, h);
    s.read(x);
    worst = std::max(worst, (x.body().R * (p.inertia() * x.body().W) - pi_n - h * L_half * T_half).norm());
  }
  CHECK(worst > 1e-6);
}

TEST_CASE("RIG_IMP reports Newton iterations and converges in a few", "[schemes][rig][newton]") {
  const Problem p = catalogue_problem("heavy_top");
  RigImp s(p);
  s.reset(p.initial, p.t0);
  REQUIRE(integrate(s, FixedSteps{0.0, 9e-3, 100}).ok);
  const double per_step = double(s.counters().newton_iterations) / 100;
  CHECK(per_step >= 2);
  CHECK(per_step <= 8);
}

// ---- paper 001: Baker-Gonzalez (21), (23), (25); Campello (26), (27) ----

TEST_CASE("Baker-Gonzalez body form (21) and spatial form (23) are the same map", "[schemes][bg]") {
  const Problem p = catalogue_problem("pendulum3d");
  std::vector<State> a, b;
  run<BakerGonzalezBody>(p, 0.05, 200, &a);
  run<BakerGonzalezSpatial>(p, 0.05, 200, &b);
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max({worst, so3::angle_between(a[i].body().R, b[i].body().R), (a[i].body().W - b[i].body().W).norm()});
  CHECK(worst < 1e-12);
}

TEST_CASE("Baker-Gonzalez: R rho0 . Omega and e3 . Omega to round-off on the pendulum (paper 001 Fig. 1)",
          "[schemes][bg]") {
  const Problem p = catalogue_problem("pendulum3d");
  for (const char* name : {"bg_body", "bg_spatial", "bg_newmark", "campello_symplectic_euler"}) {
    INFO(name);
    auto s = find_scheme(name).make(p);
    s->reset(p.initial, p.t0);
    State x(1);
    const double h = 0.1;
    const double a0 = (p.initial.body().R * Vec3::UnitZ()).dot(p.initial.body().R * p.initial.body().W);
    const double z0 = (p.initial.body().R * p.initial.body().W).z();
    for (int n = 0; n < 100; ++n) {
      REQUIRE(s->step(n * h, h).ok);
      s->read(x);
      const Vec3 Om = x.body().R * x.body().W;
      REQUIRE(std::abs((x.body().R * Vec3::UnitZ()).dot(Om) - a0) < 1e-14);
      REQUIRE(std::abs(Om.z() - z0) < 1e-14);
    }
  }
}

TEST_CASE("Baker-Gonzalez (23): leaving the domain h |v| >= 1 is a breakdown with a reason, never a NaN",
          "[schemes][bg]") {
  const Problem p = catalogue_problem("pendulum3d");  // |Omega| ~ 0.28 rad/s
  BakerGonzalezSpatial s(p);
  s.reset(p.initial, p.t0);
  const StepStatus st = s.step(0.0, 5.0);  // h |v| > 1
  CHECK_FALSE(st.ok);
  CHECK_THAT(st.reason, Catch::Contains("outside the domain of eq. (23b)"));
  BakerGonzalezBody b(p);
  b.reset(p.initial, p.t0);
  CHECK_THAT(b.step(0.0, 5.0).reason, Catch::Contains("eq. (21b)"));
  // (25) has no such limit.
  BakerGonzalezNewmark nm(p);
  nm.reset(p.initial, p.t0);
  CHECK(nm.step(0.0, 5.0).ok);
}

TEST_CASE("a breakdown inside a sweep is a recorded status and a failed verdict", "[schemes][bg][verification]") {
  Problem p = catalogue_problem("pendulum3d");
  p.initial.body().W *= 40.0;  // |Omega| ~ 11: h0 = 0.1 leaves the domain of (23b)
  p.finalize();
  const Ladder L = make_ladder(p, 2, {.h0 = 0.1, .levels = 4});
  const ReferenceSolution ref = kirchhoff_reference(p, L.obs_times());
  const PairResult r = verify_pair(p, find_scheme("bg_spatial"), L, ref);
  CHECK(r.status == "breakdown");
  CHECK_THAT(r.reason, Catch::Contains("outside the domain"));
  CHECK(r.levels.front().status == "breakdown");
  CHECK(r.failed());
}

TEST_CASE("Campello (26) with phi = 1 is eq. (27)", "[schemes][campello]") {
  const Problem p = catalogue_problem("pendulum3d");
  CampelloImplicit a(p, 1.0);
  CampelloSymplecticEuler b(p);
  a.reset(p.initial, p.t0);
  b.reset(p.initial, p.t0);
  State xa(1), xb(1);
  for (int n = 0; n < 300; ++n) {
    REQUIRE(a.step(n * 0.05, 0.05).ok);
    REQUIRE(b.step(n * 0.05, 0.05).ok);
  }
  a.read(xa);
  b.read(xb);
  CHECK(compare(xa.body().R, xb.body().R, 0.0) == "");
  CHECK(compare(xa.body().W, xb.body().W, 0.0) == "");
}

TEST_CASE("settings reach the scheme: --set phi=1 makes campello_implicit eq. (27)", "[schemes][campello][settings]") {
  // Through the registry path the CLI uses (configure_schemes -> SchemeEntry::make), not the constructor.
  const Problem p = catalogue_problem("pendulum3d");
  const auto configured = configure_schemes({&find_scheme("campello_implicit"), &find_scheme("terze")}, {"phi=1"});
  REQUIRE(configured.size() == 2);
  CHECK(configured[0].settings.values.at("phi") == 1.0);
  CHECK(configured[1].settings.values.empty());  // terze declares no phi: untouched
  auto a = configured[0].make(p), d = find_scheme("campello_implicit").make(p);
  CampelloSymplecticEuler b(p);
  a->reset(p.initial, p.t0);
  b.reset(p.initial, p.t0);
  d->reset(p.initial, p.t0);
  for (int n = 0; n < 300; ++n) {
    REQUIRE(a->step(n * 0.05, 0.05).ok);
    REQUIRE(b.step(n * 0.05, 0.05).ok);
    REQUIRE(d->step(n * 0.05, 0.05).ok);
  }
  State xa(1), xb(1), xd(1);
  a->read(xa);
  b.read(xb);
  d->read(xd);
  CHECK(compare(xa.body().W, xb.body().W, 0.0) == "");
  CHECK(compare(xd.body().W, xb.body().W, 1e-6) != "");  // the default phi = 1/2 is another scheme
  // A scheme-qualified setting goes to that scheme only; the Newton cap reaches the solver.
  const auto capped = configure_schemes({&find_scheme("rig_imp")}, {"rig_imp.newton_max_iterations=1"});
  const Problem fb = catalogue_problem("free_body");
  auto c = capped[0].make(fb), c_default = find_scheme("rig_imp").make(fb);
  c->reset(fb.initial, 0.0);
  c_default->reset(fb.initial, 0.0);
  CHECK_FALSE(c->step(0.0, 0.1).ok);
  CHECK(c_default->step(0.0, 0.1).ok);
}

TEST_CASE("the moment's tangent for spatial rotations matches finite differences", "[problems][newton]") {
  for (const char* n : {"heavy_top", "pendulum3d"}) {
    const Problem p = catalogue_problem(n);
    for (int i = 0; i < 20; ++i) {
      const Mat3 R = test::random_rotation();
      const Mat3 K = p.spatial_moment_jacobian(0, R);
      Mat3 Kfd;
      const double e = 1e-6;
      for (int k = 0; k < 3; ++k)
        Kfd.col(k) = (p.spatial_moment(0, so3::exp(e * Vec3::Unit(k)) * R) -
                      p.spatial_moment(0, so3::exp(-e * Vec3::Unit(k)) * R)) / (2 * e);
      CHECK(compare(K, Kfd, 1e-7 * (1 + K.norm())) == "");
    }
  }
}

// ---- Dullweber-Leimkuhler-McLachlan ----

TEST_CASE("DLM splitting: bounded energy error without drift over T = 100 and pi exact", "[schemes][dlm]") {
  const Problem p = catalogue_problem("free_body");
  DlmSplitting s(p);
  s.reset(p.initial, p.t0);
  State x(1);
  const double h = 0.01, E0 = p.energy(p.initial);
  const Vec3 pi0 = p.initial.body().R * (p.inertia() * p.initial.body().W);
  double first = 0, second = 0, pi_drift = 0;
  for (int n = 0; n < 10000; ++n) {
    s.step(n * h, h);
    s.read(x);
    const double d = std::abs(p.energy(x) - E0);
    (n < 5000 ? first : second) = std::max(n < 5000 ? first : second, d);
    pi_drift = std::max(pi_drift, (x.body().R * (p.inertia() * x.body().W) - pi0).norm());
  }
  CHECK(first > 1e-8);             // a real (bounded) error
  CHECK(second <= 1.5 * first);    // no drift (Terze's grows 2x over the same span)
  CHECK(pi_drift < 1e-12);
  CHECK(DlmSplitting::info().claims.energy == Claim::bounded);
}

// ---- the paper suite: the papers' own claims, reproduced ----

TEST_CASE("paper suite: paper 002's drift directions and 0.1% claim, paper 001 Fig. 1 slopes", "[schemes][paper][ci]") {
  const PaperSuiteResult s = run_paper_suite(false);
  CHECK_FALSE(s.any_failed());
  auto find = [&](const std::string& paper, const std::string& integ, const char* item = nullptr) -> const PaperItem& {
    for (const auto& i : s.items)
      if (i.paper == paper && i.integrator == integ && i.problem != "heavy_top_gravity_off" &&
          (item ? i.item.find(item) != std::string::npos : i.item.find("state beside") == std::string::npos))
        return i;
    throw std::logic_error("missing paper item");
  };
  // Paper 002: RIG_POS drifts up, RIG_NEG down, RIG_IMP oscillates, at every step - observed here; the
  // page itself says only "decay" (so the items label the directions as observed, not stated).
  for (const auto& [scheme, dir] : std::vector<std::pair<std::string, std::string>>{
           {"rig_pos", "up"}, {"rig_neg", "down"}, {"rig_imp", "oscillating"}}) {
    const PaperItem& it = find("002", scheme);
    CHECK(it.verdict == Verdict::pass);
    for (const auto& run : it.data["runs"]) {
      INFO(scheme << " at h = " << run["h"]);
      CHECK(run["direction"] == dir);
      CHECK(run["max_relative_H_error"].get<double>() < 1e-3);
    }
    // ~26 degrees of rotation per step at h = 0.009
    CHECK(it.data["runs"][2]["rotation_per_step_deg"].get<double>() == Approx(26).margin(1.0));
    // Beside the 0.1% test, the state: the symmetry axis follows the reference at h = 0.009.
    const PaperItem& st = find("002", scheme, "state beside");
    INFO(st.finding);
    CHECK(st.verdict == Verdict::pass);
  }
  // The gravity-off run passes the 0.1% test but not the axis check: that check sees the dynamics.
  for (const auto& i : s.items)
    if (i.problem == "heavy_top_gravity_off") {
      INFO(i.finding);
      CHECK(i.data["max_relative_H_error_gravity_off"].get<double>() < 1e-3);
      // fails the axis check (a tenth of the axis' excursion), by the whole excursion
      CHECK(i.data["max_axis_error_rad_gravity_off"].get<double>() > 0.5 * i.data["axis_excursion_rad"].get<double>());
    }
  // An explicit first-order scheme blows up at h = 0.009: reported as a breakdown, never a number.
  CHECK(find("002", "lie_euler").data["runs"][2]["status"] == "breakdown");
  for (const char* scheme : {"bg_spatial", "bg_newmark", "campello_symplectic_euler"})
    CHECK(find("001", scheme).verdict == Verdict::pass);
}
