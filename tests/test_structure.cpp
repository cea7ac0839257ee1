// Structure of the one-step map (verification/structure.hpp, docs/metrics.md "Structure"): the
// symmetric and symplectic schemes are found so, RK4 and Lie-Euler are found neither with the slope
// their order implies, and a map spoiled by a small momentum scaling is caught by both checks.
#include <cmath>

#include "../integrators/declared_scheme.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
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
