#include "rigidbench/integrators/lie_euler.hpp"

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

const SchemeInfo& LieEuler::info() {
  static const SchemeInfo i{
      .name = "lie_euler",
      .title = "Explicit Lie-Euler (first-order baseline)",
      .source = "Iserles, Munthe-Kaas, Norsett, Zanna, Acta Numerica 9 (2000), Lie-group Euler method",
      .representation = "rotation matrix R and body angular velocity W",
      .order = 1,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body"}, .features = {"internal_momentum"}},
      .claims = {.constraint = Claim::exact},
      .notes = "R is updated by right multiplication with exp (Rodrigues), so it stays on SO(3)."};
  return i;
}

// The one instantiation of the type-erased wrapper, compiled beside the scheme (builtin.hpp).
template class Erased<LieEuler>;

}  // namespace rigidbench
