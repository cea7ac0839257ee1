#include "rigidbench/integrators/odeint_rk4_quaternion.hpp"

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

const SchemeInfo& OdeintRk4Quaternion::info() {
  static const SchemeInfo i{
      .name = "odeint_rk4_quat",
      .title = "Boost.Odeint runge_kutta4 on the quaternion Kirchhoff form, per body for SE(3)^n (baseline)",
      .source = "classical RK4; Kirchhoff/body formulation of paper 003 with a unit-quaternion attitude",
      .representation = "unit quaternion q (not renormalised) and body angular velocity W",
      .order = 4,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body", "body_system"}, .features = {"internal_momentum"}},
      .claims = {.constraint = Claim::exact},
      .notes = "Canonical attitude R(q/|q|), orthogonal by construction; |q| itself drifts at O(h^4)."};
  return i;
}

// The one instantiation of the type-erased wrapper, compiled beside the scheme (builtin.hpp).
template class Erased<OdeintRk4Quaternion>;

}  // namespace rigidbench
