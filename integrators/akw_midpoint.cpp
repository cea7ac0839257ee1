// Metadata of AkwMidpoint (its update is in akw_midpoint.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "rigidbench/integrators/akw_midpoint.hpp"

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

const SchemeInfo& AkwMidpoint::info() {
  static const SchemeInfo i{
      .name = "akw_midpoint",
      .title = "Implicit midpoint rule on SO(3) (Austin-Krishnaprasad-Wang), Cayley reconstruction",
      .source = "Austin, Krishnaprasad, Wang, J. Comput. Phys. 107 (1993) 105-117",
      .representation = "rotation matrix and body angular velocity; Newton on Omega_{n+1/2} (3 unknowns)",
      .order = 2,
      .kind = SchemeKind::implicit,
      .applies = {.families = {"rigid_body"}, .features = {"internal_momentum"}},
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

template class Erased<AkwMidpoint>;

}  // namespace rigidbench
