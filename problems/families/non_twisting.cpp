// The non_twisting family: the rigid body on a non-twisting frame of paper 000 (section 3,
// docs/problems.md P4): the nonholonomic constraint w . d3 = W3 = 0 (eq. 72), loads as for the rigid
// body, the inertia split J13 = J23 = 0.
#include <cmath>

#include "common.hpp"

namespace rigidbench::families {
namespace {

// P4: rigid body on a non-twisting frame (paper 000 section 6). J = [[3, -1/7, 0], [-1/7, 4, 0], [0, 0, 5]]
// (Euler coefficients [[3, 1/7, 0], [1/7, 2, 0], [0, 0, 1]]), R(0) = I, t in [0, 5], h = 0.005.
// `scale` multiplies the printed load amplitudes of eqs. 115 and 118 (1 = as printed; the *_tables
// variants use 1/20, docs/findings.md "Paper 000 Tables 3-6").
Problem non_twisting(int which, double scale) {
  Problem p;
  p.family = &find_family("non_twisting");
  p.name = cat("non_twisting_case", std::to_string(which), scale == 1.0 ? "" : "_tables");
  const char* what[] = {"", "nonzero initial velocity, no load", "vanishing follower load from rest",
                        "nonzero initial velocity and a vanishing follower load"};
  p.title = cat("Rigid body on a non-twisting frame, case ", std::to_string(which), ": ", what[which],
                scale == 1.0 ? "" : " (load amplitudes / 20: the values behind Tables 3-6)");
  p.source = cat("paper 000 section 6.", std::to_string(which), "; docs/problems.md P4");
  Mat3 J;
  J << 3, -1.0 / 7.0, 0, -1.0 / 7.0, 4, 0, 0, 0, 5;
  p.bodies = {BodyModel{J, 1.0}};
  p.initial.body().R = Mat3::Identity();
  // omega_perp(0) = a d1(0) + b d2(0) with R(0) = I: body components (a, b, 0) (eqs. 112, 114, 117).
  const Vec3 W0[] = {Vec3::Zero(), Vec3(6, -18, 0), Vec3::Zero(), Vec3(1.5, 4.5, 0)};
  p.initial.body().W = W0[which];
  // f(t) of eq. 116: 2t on [0, 0.5), 2 - 2t on [0.5, 1), 0 from t = 1 (kinks at 0.5 and 1).
  const TimeProfile f{{{0.0, 0.0}, {0.5, 1.0}, {1.0, 0.0}}};
  if (which == 2) p.loads = {FollowerMoment{-scale * Vec3(2472.5, 1075, 0), f}};
  if (which == 3) p.loads = {FollowerMoment{-scale * Vec3(1236.25, 537.5, 0), f}};
  p.t_end = 5.0;
  // The paper's h = 0.005 is the coarsest level; the ladder goes 7 levels down (h = 7.8e-5) so that
  // the printed loads (|W| ~ 400 rad/s after t = 1, 2 rad per step at h = 0.005) reach the asymptotic range.
  p.verification = {.h0 = 0.005, .levels = 7, .h0_order1 = std::nullopt, .sample_times = {1, 2, 3, 4, 5}};
  return p;
}

class NonTwisting final : public Family {
 public:
  std::string_view name() const override { return "non_twisting"; }
  std::string_view title() const override {
    return "rigid body on a non-twisting frame (paper 000): nonholonomic constraint w . d3 = 0";
  }
  void validate(Problem& p) const override {
    // Paper 000 section 3: the splitting of the inertia implies J13 = J23 = 0; without it the
    // nonholonomic momenta d1 . pi, d2 . pi are not conserved and the model is not the paper's.
    const Mat3& J = p.bodies[0].inertia;
    require(std::abs(J(0, 2)) <= 1e-14 * J.norm() && std::abs(J(1, 2)) <= 1e-14 * J.norm(),
            where(p) + "the non_twisting family needs J13 = J23 = 0 (paper 000 section 3; got J13 = " + num(J(0, 2)) +
                ", J23 = " + num(J(1, 2)) + ")");
    const Vec3& W0 = p.initial.body().W;
    require(std::abs(W0[2]) <= 1e-14 * std::max(1.0, W0.norm()),
            where(p) + "the non_twisting family starts without twist: initial W3 = w . d3 must be 0 (got " + num(W0[2]) +
                ")");
  }
  std::vector<InvariantGroup> invariants(const Problem& p) const override {
    std::vector<InvariantGroup> g;
    const double tq = p.quiet_from();
    const double from = tq > p.t0 ? tq : -std::numeric_limits<double>::infinity();
    const BodyState& s0 = p.initial.body();
    const Mat3& J = p.inertia();
    const double K0 = 0.5 * s0.W.dot(J * s0.W);
    if (std::isfinite(tq)) {
      g.push_back({{{"energy", InvariantKind::energy, "E = K + U, K = 1/2 W.JW (paper 000 eq. 74a)",
                     std::max(K0 + std::abs(p.potential(s0.R)), 1e-300), false, from}},
                   [](const Problem& q, const State& s, double* out) { *out = rigid_body_energy(q, s); }});
      if (p.fields().empty()) {
        // Paper 000 eq. 74b-c: the nonholonomic momenta, the body components 1, 2 of Pi = J W.
        // Components of one vector: scaled by its norm, bounded by |Pi(0)| plus the impulse the loads
        // can impart (sum |B| int |f| dt; the exact |Pi(t_q)| when the load keeps its direction, as in P4).
        double impulse = 0;
        for (const FollowerMoment& m : p.followers()) {
          const auto& k = m.profile.knots;
          double integral = 0;  // trapezoid of |f| (exact without sign changes)
          for (std::size_t i = 1; i < k.size(); ++i)
            integral += 0.5 * (std::abs(k[i].second) + std::abs(k[i - 1].second)) * (k[i].first - k[i - 1].first);
          impulse += m.body.norm() * integral;
        }
        const double pi_scale = std::max((J * s0.W).norm() + impulse, 1e-300);
        g.push_back({{{"nonholonomic_momentum_1", InvariantKind::momentum,
                       "Pi^1 = d1 . pi = (J W)_1 (paper 000 eq. 74b)", pi_scale, true, from},
                      {"nonholonomic_momentum_2", InvariantKind::momentum,
                       "Pi^2 = d2 . pi = (J W)_2 (paper 000 eq. 74c)", pi_scale, true, from}},
                     [](const Problem& q, const State& s, double* out) {
                       const Vec3 Pi = q.inertia() * s.body().W;
                       out[0] = Pi.x(), out[1] = Pi.y();
                     }});
      }
    }
    g.push_back({{{"twist", InvariantKind::nonholonomic, "w . d3 = W3, the non-twist condition (paper 000 eq. 72)",
                   std::max(s0.W.norm(), 1.0), true}},
                 [](const Problem&, const State& s, double* out) { *out = s.body().W.z(); }});
    g.push_back(orthogonality());
    return g;
  }
  double energy(const Problem& p, const State& s) const override { return rigid_body_energy(p, s); }
  std::vector<std::string> formulations(const Problem&) const override { return {"non_twisting"}; }
  // The family's catalogue problems (docs/problems.md P4), in the catalogue's order.
  std::vector<CatalogueEntry> catalogue() const override {
    return {{"non_twisting_case1", [] { return non_twisting(1, 1.0); }, true},
            {"non_twisting_case2", [] { return non_twisting(2, 1.0); }, true},
            {"non_twisting_case3", [] { return non_twisting(3, 1.0); }, true},
            {"non_twisting_case2_tables", [] { return non_twisting(2, 1.0 / 20.0); }, true},
            {"non_twisting_case3_tables", [] { return non_twisting(3, 1.0 / 20.0); }, true}};
  }
};

}  // namespace

std::unique_ptr<Family> non_twisting() { return std::make_unique<NonTwisting>(); }

}  // namespace rigidbench::families
