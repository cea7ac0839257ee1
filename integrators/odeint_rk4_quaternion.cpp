#include "odeint_rk4_quaternion.hpp"

#include "any_integrator.hpp"

namespace rigidbench {

namespace {
// docs/flops.md, "The RK4 baselines". Right-hand side (formulations::KirchhoffQuaternion): q (x)
// (0, W) / 2 (32), J W, x W, J^-1 (.); loaded: R(q/|q|) (42), per field the body moment, the sum.
// The step, as odeint's generic algebra writes it: each stage state and the update is a scale_sum
// that multiplies every term by its coefficient, 1 and 0 included (3 + 5 + 7 + 9 per component of
// the 7), the coefficients a_ij dt (10) and the stage times (6).
std::optional<FlopModel> odeint_rk4_flops(const Problem& p) {
  using namespace flops;
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  const double rhs = 32 + mat_vec + cross + mat_vec + (F > 0 ? 42 + F * body_moment + 3 : 0);
  return FlopModel{.base = 4 * rhs + 7 * (3 + 5 + 7 + 9) + 10 + 6};
}
}  // namespace

const SchemeInfo& OdeintRk4Quaternion::info() {
  static const SchemeInfo i{
      .name = "odeint_rk4_quat",
      .title = "Boost.Odeint runge_kutta4 on the quaternion Kirchhoff form, per body for SE(3)^n (baseline)",
      .source = "classical RK4; Kirchhoff/body formulation of paper 003 with a unit-quaternion attitude",
      .representation = "unit quaternion q (not renormalised) and body angular velocity W",
      .order = 4,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body", "body_system", "spherical_chain"}, .features = {"internal_momentum"}},
      .claims = {.constraint = Claim::exact},
      .notes = "Canonical attitude R(q/|q|), orthogonal by construction; |q| itself drifts at O(h^4).",
      .flops = &odeint_rk4_flops};
  return i;
}

// The one instantiation of the type-erased wrapper, compiled beside the scheme (builtin.hpp).
template class Erased<OdeintRk4Quaternion>;

}  // namespace rigidbench
