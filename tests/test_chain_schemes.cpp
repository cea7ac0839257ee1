// The Lie-group schemes on the chains (docs/problems.md, "Chains"): the LGVI of connected rigid bodies
// (integrators/lgvi_chain.hpp) and the RKMK methods on SO(3)^n (integrators/munthe_kaas.hpp). Their
// orders against the chain references, the LGVI's momentum maps and joints, and one link against the
// same scheme on the heavy top it is.
#include <cmath>

#include "../core/so3.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/families/spherical_chain.hpp"
#include "../reference/reference.hpp"
#include "chain_support.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {

/// The state of `scheme` on p after n steps of h from the initial state (a breakdown fails the test).
State run(const char* scheme, const Problem& p, double h, int n) {
  auto s = find_scheme(scheme).factory(p, SchemeSettings{});
  s->reset(p.initial, p.t0);
  for (int k = 0; k < n; ++k) {
    const StepStatus st = s->step(p.t0 + k * h, h);
    INFO(scheme << " on " << p.name << " step " << k << ": " << st.reason);
    REQUIRE(st.ok);
  }
  State x(p.bodies.size());
  s->read(x);
  return x;
}

/// max over bodies of the attitude's angle and |W| and |x| differences.
double distance(const State& a, const State& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.bodies.size(); ++i)
    d = std::max({d, so3::angle_between(a.bodies[i].R, b.bodies[i].R), (a.bodies[i].W - b.bodies[i].W).norm(),
                  (a.bodies[i].x - b.bodies[i].x).norm()});
  return d;
}

/// The invariants of p at x, by name.
double invariant(const Problem& p, const State& x, const std::string& name) {
  std::vector<double> v(p.invariants().size());
  p.evaluate_invariants(x, v.data());
  for (std::size_t k = 0; k < v.size(); ++k)
    if (p.invariants()[k].name == name) return v[k];
  FAIL("no invariant " << name);
  return 0;
}

}  // namespace

TEST_CASE("chain schemes: LGVI order 2, RKMK4 order 4, Lie-Euler order 1 against the chain references",
          "[chains][schemes][ci]") {
  struct Case {
    const char* scheme;
    double h;  // the coarsest of three steps, each half the last
    double order;
  };
  for (const char* name : {"chain_double", "chain_5", "chain_free"}) {
    const Problem p = catalogue_problem(name);
    const double T = 0.8;
    const ReferenceSolution ref = compute_reference(p, {p.t0, p.t0 + T}, {.cache_dir = ""});
    // RKMK4's coarsest step per chain: in its asymptotic range (on chain_5 its local slopes are 4.20
    // down to h = 0.005), its finest error above the reference's floor (chain_free).
    const double h4 = name == std::string_view("chain_5") ? 0.005 : name == std::string_view("chain_free") ? 0.04 : 0.02;
    for (const Case c : {Case{"lgvi", 0.02, 2}, Case{"rkmk4", h4, 4},
                         Case{"lie_euler", 0.002, 1}}) {
      double e[3];
      for (int k = 0; k < 3; ++k) {
        const double h = c.h / (1 << k);
        e[k] = distance(run(c.scheme, p, h, int(std::lround(T / h))), ref.states.back());
      }
      const double slope = std::log2(e[1] / e[2]);
      INFO(name << " " << c.scheme << ": errors " << e[0] << ", " << e[1] << ", " << e[2] << "; slopes "
                << std::log2(e[0] / e[1]) << ", " << slope);
      CHECK(std::abs(slope - c.order) < 0.15);
      CHECK(e[2] > 100 * ref.error_estimate.max());  // above the reference's floor
    }
  }
}

TEST_CASE("chain schemes: the LGVI keeps the chain's momentum maps and joints to round-off, not its energy",
          "[chains][schemes]") {
  // Pivoted under gravity: the angular momentum about the vertical through the pivot; free without
  // gravity: all of the angular and linear momentum (lgvi_chain.hpp, discrete Noether).
  struct Case {
    const char* problem;
    std::vector<std::string> exact;
  };
  for (const Case& c : {Case{"chain_5", {"momentum_along_field"}},
                        Case{"chain_free", {"angular_momentum_x", "angular_momentum_y", "angular_momentum_z",
                                            "linear_momentum_x", "linear_momentum_y", "linear_momentum_z"}}}) {
    const Problem p = catalogue_problem(c.problem);
    const double h = p.verification.h0;
    const State x = run("lgvi", p, h, 300);
    for (const std::string& n : c.exact) {
      const double i0 = invariant(p, p.initial, n), i1 = invariant(p, x, n);
      INFO(c.problem << " " << n << ": " << i0 << " -> " << i1);
      CHECK(std::abs(i1 - i0) < 1e-13 * (1 + std::abs(i0)) * 10);
    }
    CHECK(joint_separation(chain_data(p), x) < 1e-14 * p.family->length_scale(p));
    // The energy is the symplectic map's: close, but not held to round-off.
    const double e0 = invariant(p, p.initial, "energy"), e1 = invariant(p, x, "energy");
    INFO(c.problem << " energy " << e0 << " -> " << e1);
    CHECK(std::abs(e1 - e0) < 1e-2 * std::abs(e0) + 1e-3);
    CHECK(std::abs(e1 - e0) > 1e-10 * std::abs(e0) + 1e-12);
  }
}

TEST_CASE("chain schemes: one link steps as the same scheme on the heavy top it is", "[chains][schemes]") {
  // The one-link chain's discrete Lagrangian is the top's about its pivot: m |(F - I) a|^2 / (2h) =
  // m tr((I - F) a a^T)/h, and J_d about the pivot is J_d about the centre of mass plus m a a^T. The
  // RKMK methods integrate one ODE on SO(3) x R^3 written two ways (Euler's equations about the pivot,
  // the chain's with its reaction).
  const Problem top = catalogue_problem("heavy_top_realisable");
  const Problem chain = test::chain_one_link();
  // Lie-Euler's map is unstable on this top at h = 0.01 (a difference of one ulp grows 1e4-fold in 50
  // steps): it is compared over 50 steps, where that growth is still below the bound.
  for (const char* scheme : {"lgvi", "rkmk4", "lie_euler"}) {
    const double h = 0.01;
    const int n = std::string_view(scheme) == "lie_euler" ? 50 : 200;
    const State a = run(scheme, top, h, n), b = run(scheme, chain, h, n);
    const double dR = so3::angle_between(a.body().R, b.body().R), dW = (a.body().W - b.body().W).norm();
    INFO(scheme << ": R " << dR << " rad, W " << dW);
    CHECK(dR < 1e-11);
    CHECK(dW < 1e-11);
  }
}
