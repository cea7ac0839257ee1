// What is specific to the implicit one-step schemes on SO(3): Simo-Wong, the AKW midpoint rule and the
// Lee-Leok-McClamroch LGVI. Order, map-in/out and their exact claims on the free body run in the
// shared suite (test_integrators.cpp) and their Newton systems in test_newton_systems.cpp because they
// are registered; here: LGVI's series branches, each scheme's defining equation checked from outside
// at large steps, the claims that only show under a potential, and the breakdowns.
#include "../integrators/integrate.hpp"
#include "../core/so3.hpp"
#include "../integrators/akw_midpoint.hpp"
#include "../integrators/lgvi.hpp"
#include "../integrators/registry.hpp"
#include "../integrators/simo_wong.hpp"
#include "../problems/catalogue.hpp"
#include "support.hpp"

using namespace rigidbench;
using rigidbench::test::compare;

namespace {
Vec3 spatial_momentum(const Problem& p, const State& x) { return x.body().R * (p.inertia() * x.body().W); }

/// Largest deviation over n steps of h from the initial value: the energy (relative), pi_z and the
/// axial momentum (J W)_3 (both relative to |pi_0|).
struct Drifts {
  double energy = 0, pi_z = 0, axial = 0;
};
/// Runs S on p for n steps of h from the problem's initial state and calls f(t_n, x_n, x_{n+1})
/// after each step (t_n = t0 + n h): the scheme's defining equations are checked from its output.
template <class S, class F>
void for_each_step(const Problem& p, double h, int n, F&& f) {
  S s(p);
  s.reset(p.initial, p.t0);
  State x(1), y(1);
  const IntegrationOutcome r = integrate(s, FixedSteps{p.t0, h, n}, {.initial = true}, y, [&](const Observation& o, const State&) {
    if (o.steps > 0) f(p.t0 + double(o.steps - 1) * h, x, y);
    x = y;
  });
  REQUIRE(r.ok);
}

template <class S>
Drifts drifts(const Problem& p, double h, int n) {
  const double E0 = p.energy(p.initial), pz0 = spatial_momentum(p, p.initial).z();
  const double L0 = spatial_momentum(p, p.initial).norm(), ax0 = (p.inertia() * p.initial.body().W).z();
  Drifts d;
  for_each_step<S>(p, h, n, [&](double, const State&, const State& x) {
    d.energy = std::max(d.energy, std::abs(p.energy(x) - E0) / std::abs(E0));
    d.pi_z = std::max(d.pi_z, std::abs(spatial_momentum(p, x).z() - pz0) / L0);
    d.axial = std::max(d.axial, std::abs((p.inertia() * x.body().W).z() - ax0) / L0);
  });
  return d;
}
}  // namespace

// ---- Newton Jacobians ----

TEST_CASE("lgvi: the Newton Jacobian on both sides of the series switch at |f| = 0.05 and up to |f| = 3",
          "[schemes][newton][implicit_so3]") {
  // Every implicit scheme's Jacobian is checked at its own steps in test_newton_systems.cpp; those
  // steps keep |f| = h |W| small, so the branches of lgvi_system's series are covered here.
  const Problem p = catalogue_problem("heavy_top");
  for (int i = 0; i < 30; ++i)
    for (double scale : {0.01, 0.049, 0.051, 0.5, 3.0}) {
      const Vec3 f = scale * test::random_unit(), g = test::random_unit();
      Vec3 r;
      Mat3 Jac, dummy;
      lgvi_system(p.inertia(), g, f, r, Jac);
      const Mat3 Jfd = test::fd_jacobian([&](const Vec3& v, Vec3& out) { lgvi_system(p.inertia(), g, v, out, dummy); }, f, 1e-7);
      CHECK(compare(Jac, Jfd, 1e-7 * (1 + Jac.norm())) == "");
    }
}

// ---- Lee-Leok-McClamroch LGVI ----

TEST_CASE("lgvi: the step satisfies the paper's matrix equation and momentum update", "[schemes][lgvi]") {
  // hat(h Pi_k + h^2/2 M_k) = F_k J_d - J_d F_k^T with F_k = R_k^T R_{k+1} formed from the output
  // (the exponential parametrisation of the solver is not used to check itself), and
  // Pi_{k+1} = F_k^T Pi_k + h/2 F_k^T M_k + h/2 M_{k+1}. Heavy top at paper 002's largest step.
  const Problem p = catalogue_problem("heavy_top");
  const Mat3 Jd = 0.5 * p.inertia().trace() * Mat3::Identity() - p.inertia();
  const double h = 9e-3;
  double worst_eq = 0, worst_pi = 0;
  for_each_step<Lgvi>(p, h, 500, [&](double t, const State& x, const State& y) {
    const Mat3 F = x.body().R.transpose() * y.body().R;
    const Vec3 Pk = p.inertia() * x.body().W, Pk1 = p.inertia() * y.body().W;
    const Vec3 Mk = p.body_moment(t, x.body().R), Mk1 = p.body_moment(t + h, y.body().R);
    const Mat3 lhs = so3::hat(h * Pk + 0.5 * h * h * Mk), rhs = F * Jd - Jd * F.transpose();
    worst_eq = std::max(worst_eq, (lhs - rhs).norm() / (h * Pk.norm()));
    worst_pi = std::max(worst_pi, (Pk1 - F.transpose() * (Pk + 0.5 * h * Mk) - 0.5 * h * Mk1).norm() / Pk.norm());
  });
  CHECK(worst_eq < 1e-13);
  CHECK(worst_pi < 1e-13);
}

TEST_CASE("lgvi: momenta exact on the heavy top at large steps, energy bounded", "[schemes][lgvi]") {
  // a . pi and the axial momentum J3 W3 (discrete Noether: J_d commutes with rotations about E3).
  const Drifts d = drifts<Lgvi>(catalogue_problem("heavy_top"), 9e-3, 2000);
  CHECK(d.pi_z < 1e-12);
  CHECK(d.axial < 1e-12);
  CHECK(d.energy > 1e-8);  // not exact: a variational integrator's energy oscillates at O(h^2)...
  CHECK(d.energy < 1e-3);  // ...and stays small
}

TEST_CASE("lgvi: a step too large for the exponential chart is a breakdown, not a NaN", "[schemes][lgvi]") {
  // About axis 3 the equation is 3 sin|f| = h Pi_3: no solution once h Pi_3 > 3.
  Problem p = catalogue_problem("free_body");
  p.initial.body().R = Mat3::Identity();
  p.initial.body().W = Vec3(0, 0, 10);
  p.finalize();
  Lgvi s(p);
  s.reset(p.initial, p.t0);
  const StepStatus st = s.step(0.0, 0.5);
  CHECK_FALSE(st.ok);
  CHECK(st.reason.find("LGVI") != std::string::npos);
  // And a step it can take is fine.
  s.reset(p.initial, p.t0);
  CHECK(s.step(0.0, 0.05).ok);
}

// ---- AKW implicit midpoint ----

TEST_CASE("akw: the Cayley update is the midpoint rule for every body-frame vector", "[schemes][akw]") {
  // Gamma_{n+1} - Gamma_n = h Gamma_m x Omega_m with Gamma = R^T a and Omega_m = (W_n + W_{n+1})/2;
  // and Pi_{n+1} - Pi_n = h Pi_m x Omega_m + h T(Gamma_m): the midpoint rule on (Pi, Gamma).
  const Problem p = catalogue_problem("heavy_top");
  const double h = 9e-3;
  double worst_gamma = 0, worst_pi = 0;
  for_each_step<AkwMidpoint>(p, h, 500, [&](double t, const State& x, const State& y) {
    const Vec3 wm = 0.5 * (x.body().W + y.body().W);
    for (int k = 0; k < 3; ++k) {
      const Vec3 g0 = x.body().R.transpose().col(k), g1 = y.body().R.transpose().col(k);
      worst_gamma = std::max(worst_gamma, (g1 - g0 - h * (0.5 * (g0 + g1)).cross(wm)).norm());
    }
    const Vec3 P0 = p.inertia() * x.body().W, P1 = p.inertia() * y.body().W, Pm = 0.5 * (P0 + P1);
    const Vec3 Tm = 0.5 * (p.body_moment(t, x.body().R) + p.body_moment(t, y.body().R));
    worst_pi = std::max(worst_pi, (P1 - P0 - h * Pm.cross(wm) - h * Tm).norm() / P0.norm());
  });
  CHECK(worst_gamma < 1e-14);
  CHECK(worst_pi < 1e-13);
}

TEST_CASE("akw: energy, a . pi and the axial momentum exact on the heavy top at large steps", "[schemes][akw]") {
  const Drifts d = drifts<AkwMidpoint>(catalogue_problem("heavy_top"), 9e-3, 2000);
  CHECK(d.energy < 1e-13);
  CHECK(d.pi_z < 1e-12);
  CHECK(d.axial < 1e-13);
}

// ---- Simo-Wong ----

TEST_CASE("simo_wong: Theta = h/2 (W_n + W_{n+1}) and the spatial momentum balance at large steps", "[schemes][simo_wong]") {
  // From outside: Theta = log(R_n^T R_{n+1}); pi_{n+1} = pi_n + h m(t_m, R_n exp(Theta/2)).
  const Problem p = catalogue_problem("heavy_top");
  const double h = 9e-3, L0 = spatial_momentum(p, p.initial).norm();
  double worst_theta = 0, worst_pi = 0;
  for_each_step<SimoWong>(p, h, 500, [&](double t, const State& x, const State& y) {
    const Vec3 th = so3::log(x.body().R.transpose() * y.body().R);
    worst_theta = std::max(worst_theta, (th - 0.5 * h * (x.body().W + y.body().W)).norm() / th.norm());
    const Vec3 m = p.spatial_moment(t + 0.5 * h, x.body().R * so3::exp(0.5 * th));
    worst_pi = std::max(worst_pi, (spatial_momentum(p, y) - spatial_momentum(p, x) - h * m).norm() / L0);
  });
  CHECK(worst_theta < 1e-12);
  CHECK(worst_pi < 1e-13);
}

TEST_CASE("simo_wong: energy exact torque-free at large steps - under a potential bounded, not exact", "[schemes][simo_wong]") {
  SECTION("free body near the separatrix, 0.3 rad per step") {
    const Problem p = catalogue_problem("dzhanibekov");
    CHECK(drifts<SimoWong>(p, 0.3 / p.initial.body().W.norm(), 2000).energy < 1e-13);
  }
  SECTION("heavy top: the claim the harness checks is the weaker one") {
    const Problem p = catalogue_problem("heavy_top");
    CHECK(SimoWong::info().claims.of(InvariantKind::energy, p.has_potential()) == Claim::bounded);
    CHECK(SimoWong::info().claims.of(InvariantKind::energy, false) == Claim::exact);
    const Drifts d = drifts<SimoWong>(p, 9e-3, 2000);
    CHECK(d.energy > 1e-9);
    CHECK(d.energy < 1e-3);
    CHECK(d.pi_z < 1e-12);  // the spatial balance: a . pi exact
  }
}

