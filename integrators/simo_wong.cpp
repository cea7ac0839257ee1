// Metadata of SimoWong (its update is in simo_wong.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "rigidbench/integrators/simo_wong.hpp"

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

const SchemeInfo& SimoWong::info() {
  static const SchemeInfo i{
      .name = "simo_wong",
      .title = "Simo-Wong energy-momentum algorithm (convected Newmark, gamma = 1, beta = 1/2)",
      .source = "Simo & Wong, IJNME 31 (1991) 19-52; cited by paper 002",
      .representation = "rotation matrix and body angular velocity; Newton on the body increment Theta (3 unknowns)",
      .order = 2,
      .kind = SchemeKind::implicit,
      .applies = {.families = {"rigid_body"}},
      // K and pi exact for the free body (SW91); under a potential the spatial balance with the
      // moment at Lambda_{n+1/2} keeps a . pi exact but not K + U: bounded (no drift) is what is checked.
      .claims = {.energy = Claim::exact, .momentum = Claim::exact, .casimir = Claim::exact,
                 .constraint = Claim::exact, .energy_with_potential = Claim::bounded},
      .notes = "moment at the geodesic midpoint Lambda_n exp(Theta/2), t_n + h/2 (SW91's alpha = 1/2); energy exact "
               "torque-free only; W_{n+1} from the momentum equation at the converged Theta; Newton tolerance 1e-14",
      .settings = {kNewtonTolerance, kNewtonMaxIterations}};
  return i;
}

template class Erased<SimoWong>;

}  // namespace rigidbench
