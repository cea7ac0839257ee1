#include "rigidbench/integrators/rk4_quaternion.hpp"

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

const SchemeInfo& Rk4Quaternion::info() {
  static const SchemeInfo i{
      .name = "rk4_quat",
      .title = "Classical RK4 written out by hand on the quaternion Kirchhoff form (second baseline)",
      .source = "classical RK4; Kirchhoff/body formulation of paper 003 with a unit-quaternion attitude",
      .representation = "unit quaternion q (not renormalised) and body angular velocity W",
      .order = 4,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body", "body_system"}, .features = {"internal_momentum"}},
      .claims = {.constraint = Claim::exact},
      .notes = "the same method and arithmetic as odeint_rk4_quat without odeint's generic algebra: the "
               "arithmetic-limit baseline (ratio_to_rk4). Canonical attitude R(q/|q|)."};
  return i;
}

// The one instantiation of the type-erased wrapper, compiled beside the scheme (builtin.hpp).
template class Erased<Rk4Quaternion>;

}  // namespace rigidbench
