// The non_twisting family: the rigid body on a non-twisting frame of paper 000 (section 3,
// docs/problems.md P4): the nonholonomic constraint w . d3 = W3 = 0 (eq. 72), loads as for the rigid
// body, the inertia split J13 = J23 = 0.
#include <cmath>

#include "rigidbench/problems/families/common.hpp"

namespace rigidbench::families {
namespace {

class NonTwisting final : public Family {
 public:
  std::string_view name() const override { return "non_twisting"; }
  std::string_view title() const override {
    return "rigid body on a non-twisting frame (paper 000): nonholonomic constraint w . d3 = 0";
  }
  void validate(Problem& p) const override {
    require(p.interactions.empty(), where(p) + "interactions (bonds, contact, walls) belong to the body_system family");
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
};

}  // namespace

std::unique_ptr<Family> non_twisting() { return std::make_unique<NonTwisting>(); }

}  // namespace rigidbench::families
