// Metadata of Lgvi (its update is in lgvi.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "rigidbench/integrators/lgvi.hpp"

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

const SchemeInfo& Lgvi::info() {
  static const SchemeInfo i{
      .name = "lgvi",
      .title = "Lie group variational integrator (Lee-Leok-McClamroch)",
      .source = "Lee, Leok, McClamroch, IEEE CCA 2005 and CMAME 196 (2007) 2907",
      .representation = "rotation matrix and body angular momentum; Newton on f, F_k = exp(hat f) (3 unknowns)",
      .order = 2,
      .kind = SchemeKind::implicit,
      .applies = {.families = {"rigid_body"}},
      // Symplectic and momentum preserving (discrete Noether): pi torque-free, a . pi under a field,
      // the axial momentum of a symmetric body (J_d commutes with rotations about the axis); energy bounded.
      .claims = {.energy = Claim::bounded, .momentum = Claim::exact, .casimir = Claim::exact, .axial = Claim::exact,
                 .constraint = Claim::exact},
      .notes = "Newton on G(f) = sin|f|/|f| J f + (1 - cos|f|)/|f|^2 f x J f = h Pi_k + h^2/2 M_k; |f| >= pi is a "
               "breakdown (step too large); loads at t_k and t_{k+1} (trapezoidal); Newton tolerance 1e-14",
      .settings = {kNewtonTolerance, kNewtonMaxIterations}};
  return i;
}

template class Erased<Lgvi>;

}  // namespace rigidbench
