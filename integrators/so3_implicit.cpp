// Metadata of the implicit one-step schemes on SO(3) x R^3 (each scheme's update is in its header).
#include "integrators/akw_midpoint.hpp"
#include "integrators/lgvi.hpp"
#include "integrators/simo_wong.hpp"

namespace rigidbench {

const SchemeInfo& AkwMidpoint::info() {
  static const SchemeInfo i{
      .name = "akw_midpoint",
      .title = "Implicit midpoint rule on SO(3) (Austin-Krishnaprasad-Wang), Cayley reconstruction",
      .source = "Austin, Krishnaprasad, Wang, J. Comput. Phys. 107 (1993) 105-117",
      .representation = "rotation matrix and body angular velocity; Newton on Omega_{n+1/2} (3 unknowns)",
      .order = 2,
      .kind = SchemeKind::implicit,
      .applies = {.rigid_body = true},
      // The midpoint rule on (Pi, Gamma) keeps every quadratic first integral of the Euler-Poisson
      // equations: K + U (U linear in Gamma), |Pi|, Pi . Gamma = a . pi, the axial Pi . E of a symmetric
      // body; R stays orthogonal (Cayley).
      .claims = {.energy = Claim::exact, .momentum = Claim::exact, .casimir = Claim::exact, .axial = Claim::exact,
                 .constraint = Claim::exact},
      .notes = "R_{n+1} = R_n cay(h Omega_m): the midpoint rule for Gamma = R^T a (docs/decisions.md); midpoint "
               "moment = (T(t_m, R_n) + T(t_m, R_{n+1}))/2, exact for moments affine in Gamma; Newton tolerance 1e-14",
      .settings = {kNewtonTolerance, kNewtonMaxIterations}};
  return i;
}

const SchemeInfo& SimoWong::info() {
  static const SchemeInfo i{
      .name = "simo_wong",
      .title = "Simo-Wong energy-momentum algorithm (convected Newmark, gamma = 1, beta = 1/2)",
      .source = "Simo & Wong, IJNME 31 (1991) 19-52; cited by paper 002",
      .representation = "rotation matrix and body angular velocity; Newton on the body increment Theta (3 unknowns)",
      .order = 2,
      .kind = SchemeKind::implicit,
      .applies = {.rigid_body = true},
      // K and pi exact for the free body (SW91); under a potential the spatial balance with the
      // moment at Lambda_{n+1/2} keeps a . pi exact but not K + U: bounded (no drift) is what is checked.
      .claims = {.energy = Claim::exact, .momentum = Claim::exact, .casimir = Claim::exact,
                 .constraint = Claim::exact, .energy_with_potential = Claim::bounded},
      .notes = "moment at the geodesic midpoint Lambda_n exp(Theta/2), t_n + h/2 (SW91's alpha = 1/2); energy exact "
               "torque-free only; W_{n+1} from the momentum equation at the converged Theta; Newton tolerance 1e-14",
      .settings = {kNewtonTolerance, kNewtonMaxIterations}};
  return i;
}

const SchemeInfo& Lgvi::info() {
  static const SchemeInfo i{
      .name = "lgvi",
      .title = "Lie group variational integrator (Lee-Leok-McClamroch)",
      .source = "Lee, Leok, McClamroch, IEEE CCA 2005 and CMAME 196 (2007) 2907",
      .representation = "rotation matrix and body angular momentum; Newton on f, F_k = exp(hat f) (3 unknowns)",
      .order = 2,
      .kind = SchemeKind::implicit,
      .applies = {.rigid_body = true},
      // Symplectic and momentum preserving (discrete Noether): pi torque-free, a . pi under a field,
      // the axial momentum of a symmetric body (J_d commutes with rotations about the axis); energy bounded.
      .claims = {.energy = Claim::bounded, .momentum = Claim::exact, .casimir = Claim::exact, .axial = Claim::exact,
                 .constraint = Claim::exact},
      .notes = "Newton on G(f) = sin|f|/|f| J f + (1 - cos|f|)/|f|^2 f x J f = h Pi_k + h^2/2 M_k; |f| >= pi is a "
               "breakdown (step too large); loads at t_k and t_{k+1} (trapezoidal); Newton tolerance 1e-14",
      .settings = {kNewtonTolerance, kNewtonMaxIterations}};
  return i;
}

}  // namespace rigidbench
