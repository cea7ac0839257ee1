// Metadata of Lgvi (its update is in lgvi.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "lgvi.hpp"

#include "any_integrator.hpp"

namespace rigidbench {

namespace {
// docs/flops.md, "LGVI". Per iteration (lgvi_system's residual): |f|, the Rodrigues coefficients
// (one sin), J f, f x J f, r (12); the substitutions, Newton's update. Per Jacobian: c1 and c2 (8),
// a J, hat(f) J, - hat(Jf), b (.), the two rank-one terms, three sums (123); the LU. Per step: g (11), the
// second-order guess (60), the |f| < pi check, exp(f) (one sin), R F, F^T (Pi + h/2 M) (22); loaded:
// t + h, the body moment (first same as last), Pi += h/2 M (7).
std::optional<FlopModel> lgvi_flops(const Problem& p) {
  using namespace flops;
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  const double loaded = F > 0 ? 1 + 7 + F * body_moment : 0;
  return FlopModel{.base = 11 + 60 + norm + exp + mat_mat + 7 + mat_vec + loaded,
                   .per_iteration = norm + rodrigues + mat_vec + cross + 12 + lu_substitute(3) + newton_update(3, 3),
                   .per_jacobian = 8 + 123 + lu_factor(3),
                   .calls = 1,
                   .calls_per_iteration = 1};
}
}  // namespace

const SchemeInfo& Lgvi::info() {
  static const SchemeInfo i{
      .name = "lgvi",
      .title = "Lie group variational integrator (Lee-Leok-McClamroch)",
      .source = "Lee, Leok, McClamroch, IEEE CCA 2005 and CMAME 196 (2007) 2907",
      .representation = "rotation matrix and body angular momentum; Newton on f, F_k = exp(hat f) (3 unknowns)",
      .order = 2,
      .kind = SchemeKind::implicit,
      .applies = {.families = {"rigid_body", "spherical_chain"}},
      // Symplectic and momentum preserving (discrete Noether): pi torque-free, a . pi under a field,
      // the axial momentum of a symmetric body (J_d commutes with rotations about the axis). Energy:
      // torque-free, the LGVI is the discrete Moser-Veselov map (Lee, Leok, McClamroch 2007, sec. on the
      // free rigid body; Moser & Veselov 1991), whose iterates lie on the invariant curves of a time
      // reparametrisation of Euler's equations (McLachlan & Zanna, Found. Comput. Math. 5 (2005) 87):
      // the energy is exact there; under a potential, bounded as for any symplectic map (docs/card.md,
      // "Claims as tight as the truth"; the card measured it to round-off for h|omega| up to 1).
      .claims = {.energy = Claim::exact, .momentum = Claim::exact, .casimir = Claim::exact, .axial = Claim::exact,
                 .constraint = Claim::exact, .energy_with_potential = Claim::bounded, .symmetric = true,
                 .symplectic = true},
      .notes = "Newton on G(f) = sin|f|/|f| J f + (1 - cos|f|)/|f|^2 f x J f = h Pi_k + h^2/2 M_k; |f| >= pi is a "
               "breakdown (step too large); loads at t_k and t_{k+1} (trapezoidal); Newton tolerance 1e-14. A chain: "
               "the LGVI of connected rigid bodies, Newton on every body's f (and a free chain's base) at once",
      .settings = {kNewtonTolerance, kNewtonMaxIterations},
      .flops = &lgvi_flops,
      // A chain (lgvi_chain.hpp): symplectic and symmetric, the momentum maps of its discrete
      // Lagrangian's symmetries exact (about the pivot along gravity; a free chain's all), the energy
      // bounded (no Moser-Veselov map of a chain), the joints held by construction.
      .family_claims = {{"spherical_chain",
                         {.energy = Claim::bounded, .momentum = Claim::exact, .constraint = Claim::exact,
                          .symmetric = true, .symplectic = true}}}};
  return i;
}

template class Erased<Lgvi>;

}  // namespace rigidbench
