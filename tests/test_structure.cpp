// Structure of the one-step map (verification/structure.hpp, docs/metrics.md "Structure"): the
// symmetric and symplectic schemes are found so, RK4 and Lie-Euler are found neither with the slope
// their order implies, and a map spoiled by a small momentum scaling is caught by both checks.
#include <cmath>

#include "../integrators/declared_scheme.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/families/spherical_chain.hpp"
#include "../verification/structure.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {

/// The LGVI followed by W -> (1 + c h) W: neither symmetric (back and forth leaves a factor
/// 1 - c^2 h^2) nor symplectic (the momenta are scaled by 1 + c h), though it claims both.
struct ScaledLgvi {
  static const SchemeInfo& info() {
    static const SchemeInfo i{.name = "scaled_lgvi",
                              .title = "LGVI followed by a momentum scaling (a broken map)",
                              .source = "tests/test_structure.cpp",
                              .representation = "R, W",
                              .order = 2,
                              .kind = SchemeKind::implicit,
                              .applies = {.families = {"rigid_body"}},
                              .claims = {.symmetric = true, .symplectic = true},
                              .notes = ""};
    return i;
  }
  static constexpr double c = 1e-2;
  explicit ScaledLgvi(const Problem& p) : s_(find_scheme("lgvi").make(p)), x_(1) {}
  void reset(const State& x0, double t0) { s_->reset(x0, t0); }
  StepStatus step(double t, double h) {
    const StepStatus st = s_->step(t, h);
    if (!st.ok) return st;
    s_->read(x_);
    x_.body().W *= 1 + c * h;
    s_->reset(x_, t + h);
    return st;
  }
  void read(State& x) const { s_->read(x); }
  Counters counters() const { return s_->counters(); }

 private:
  std::unique_ptr<AnyIntegrator> s_;
  State x_;
};

StructureResult structure_of(const char* scheme, const char* problem) {
  const Problem p = catalogue_problem(problem);
  return assess_structure(p, find_scheme(scheme), p.verification.h0);
}

}  // namespace

TEST_CASE("structure: the LGVI and DLM splitting are symmetric and symplectic on the heavy top", "[structure]") {
  for (const char* s : {"lgvi", "dlm_splitting"}) {
    INFO(s);
    const StructureResult r = structure_of(s, "heavy_top");
    CHECK(r.symmetric.observed == Observed::preserved);
    CHECK(r.symmetric.verdict == Verdict::pass);
    CHECK(r.symplectic.observed == Observed::preserved);
    CHECK(r.symplectic.verdict == Verdict::pass);
    CHECK(r.order_parity.rfind("even", 0) == 0);
    int finite = 0;  // the LGVI leaves its chart (|f| >= pi) at 8 h0: a breakdown, recorded as NaN
    for (double d : r.symplectic.defect) {
      if (!std::isfinite(d)) continue;
      ++finite;
      CHECK(d < 1e-9);  // differencing error, at every h
    }
    CHECK(finite >= 3);
  }
}

TEST_CASE("structure: RK4 is neither - symmetry defect O(h^6), symplecticity defect O(h^5)", "[structure]") {
  const StructureResult r = structure_of("rk4_quat", "free_body");
  CHECK_FALSE(r.symmetric.claimed);
  CHECK(r.symmetric.observed == Observed::broken);
  CHECK(r.symmetric.verdict == Verdict::undefined);  // no claim, no verdict
  CHECK(r.symmetric.slope == Approx(6).margin(0.3));  // even p: the h^5 terms of both steps cancel
  CHECK(r.symplectic.observed == Observed::broken);
  CHECK(r.symplectic.slope == Approx(5).margin(0.3));
  CHECK(r.order_parity.empty());
}

TEST_CASE("structure: Lie-Euler is not symmetric, with a defect of order h^2", "[structure]") {
  const StructureResult r = structure_of("lie_euler", "free_body");
  CHECK(r.symmetric.observed == Observed::broken);
  CHECK(r.symmetric.slope == Approx(2).margin(0.2));
}

TEST_CASE("structure: the Baker-Gonzalez variational maps are symplectic on the 3-D pendulum", "[structure]") {
  for (const char* s : {"bg_body", "bg_spatial", "bg_newmark", "campello_symplectic_euler"}) {
    INFO(s);
    const StructureResult r = structure_of(s, "pendulum3d");
    CHECK(r.symplectic.claimed);
    CHECK(r.symplectic.observed == Observed::preserved);
  }
  // Symplectic Euler is symplectic but not symmetric (its adjoint is the other symplectic Euler).
  const StructureResult se = structure_of("campello_symplectic_euler", "pendulum3d");
  CHECK(se.symmetric.observed == Observed::broken);
  CHECK(se.symmetric.slope == Approx(2).margin(0.2));
}

TEST_CASE("structure: on the chains the LGVI is symplectic and RKMK4 is not", "[structure]") {
  // The chain's chart: its attitudes (and a free chain's body 0 position) with the momenta of its
  // Lagrangian (SphericalChain::momenta); the velocities map inverts it to round-off.
  for (const char* problem : {"chain_double", "chain_free"}) {
    INFO(problem);
    const Problem p = catalogue_problem(problem);
    std::vector<BodyMomenta> m;
    REQUIRE(p.family->momenta(p, p.initial, m));
    State back = p.initial;
    for (BodyState& b : back.bodies) b.W.setZero(), b.v.setZero(), b.x.setZero();
    back.bodies[0].x = p.initial.bodies[0].x;
    p.family->velocities(p, m, back);
    for (std::size_t i = 0; i < back.bodies.size(); ++i) {
      CHECK((back.bodies[i].W - p.initial.bodies[i].W).norm() < 1e-12 * p.initial.bodies[i].W.norm());
      CHECK((back.bodies[i].x - p.initial.bodies[i].x).norm() < 1e-13);
      CHECK((back.bodies[i].v - p.initial.bodies[i].v).norm() < 1e-12);
    }
    // ... and is the Lagrangian's: Pi_j = dE/dW_j and P = dE/dv_0 at fixed attitudes (and base), the
    // energy's potential depending on those alone; central differences of the family's energy.
    const double d = 1e-6;
    for (std::size_t j = 0; j < back.bodies.size(); ++j)
      for (int k = 0; k < 6; ++k) {
        if (k >= 3 && (j > 0 || !p.family->canonical_position(p, 0))) continue;
        State up = p.initial, dn = p.initial;
        (k < 3 ? up.bodies[j].W : up.bodies[j].v)[k % 3] += d;
        (k < 3 ? dn.bodies[j].W : dn.bodies[j].v)[k % 3] -= d;
        place_chain(chain_data(p), up), place_chain(chain_data(p), dn);
        const double dE = (p.family->energy(p, up) - p.family->energy(p, dn)) / (2 * d);
        CHECK(dE == Approx((k < 3 ? m[j].Pi : m[j].P)[k % 3]).epsilon(1e-7).margin(1e-8));
      }
    const StructureResult lgvi = structure_of("lgvi", problem);
    CHECK(lgvi.symplectic.claimed);
    CHECK(lgvi.symplectic.observed == Observed::preserved);
    CHECK(lgvi.symplectic.verdict == Verdict::pass);
    const StructureResult rk = structure_of("rkmk4", problem);
    CHECK(rk.symplectic.observed == Observed::broken);
  }
  // RKMK4's defect is C h^5 only where h is small enough: on chain_double it falls as h^3.1 over
  // h0 .. 8 h0 (2.3e-7 .. 1.6e-4 at h = 0.01 .. 0.08) and as h^5 from h0 / 8 (7.4e-9 at 0.005, 2.3e-7
  // at 0.01). On chain_free the h^5 range lies below the differencing error (5e-9 at h = 0.005): its
  // slope over 0.02 .. 0.04 is 3.0, not asserted.
  const Problem p = catalogue_problem("chain_double");
  const StructureResult rk = assess_structure(p, find_scheme("rkmk4"), p.verification.h0 / 8);
  CHECK(rk.symplectic.observed == Observed::broken);
  CHECK(rk.symplectic.slope == Approx(5).margin(0.5));
}

TEST_CASE("structure: a spoiled map that claims both properties fails both", "[structure]") {
  const Problem p = catalogue_problem("heavy_top");
  const StructureResult r = assess_structure(p, scheme_entry<ScaledLgvi>(), p.verification.h0);
  CHECK(r.symmetric.observed == Observed::broken);
  CHECK(r.symmetric.verdict == Verdict::fail);
  CHECK(r.symplectic.observed == Observed::broken);
  CHECK(r.symplectic.verdict == Verdict::fail);
}

TEST_CASE("structure: no symplecticity check without a canonical structure", "[structure]") {
  // The nonholonomic family and a follower moment have none; the symmetry check still runs.
  const StructureResult nh = structure_of("gr_nonholonomic", "non_twisting_case1");
  CHECK(nh.symplectic.observed == Observed::not_checked);
  CHECK(nh.symplectic.note.find("no canonical symplectic structure") != std::string::npos);
  CHECK(nh.symmetric.observed != Observed::not_checked);
}

TEST_CASE("structure: a declared scheme claims a structure as exact or none", "[structure]") {
  const Claims c = parse_claims({"symmetric=exact, symplectic=none, energy=bounded"});
  CHECK(c.symmetric);
  CHECK_FALSE(c.symplectic);
  CHECK(c.energy == Claim::bounded);
  CHECK_THROWS_AS(parse_claims({"symplectic=bounded"}), InputError);
}
