#include "rk4_quaternion.hpp"

#include "any_integrator.hpp"

namespace rigidbench {

namespace {
// docs/flops.md, "The RK4 baselines". Right-hand side (Rhs): q' (24), J W + h_B (18), x W (9),
// J^-1 (.) (15); loaded: w^2 - |u|^2 and 1/|q|^2 (9), per field R(q)^T F (34), p x (.) and the sum
// (12). The step: four right-hand sides, three stage states (42), the update (56), h/2, h/6, h/3
// and the stage times (8). One rigid body only (a body system is not derived).
std::optional<FlopModel> rk4_quat_flops(const Problem& p) {
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  const double rhs = 24 + 18 + flops::cross + flops::mat_vec + (F > 0 ? 9 + F * (34 + 12) : 0);
  return FlopModel{.base = 4 * rhs + 42 + 56 + 8};
}
}  // namespace

const SchemeInfo& Rk4Quaternion::info() {
  static const SchemeInfo i{
      .name = "rk4_quat",
      .title = "Classical RK4 written out by hand on the quaternion Kirchhoff form (second baseline)",
      .source = "classical RK4; Kirchhoff/body formulation of paper 003 with a unit-quaternion attitude",
      .representation = "unit quaternion q (not renormalised) and body angular velocity W",
      .order = 4,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body", "body_system", "spherical_chain"}, .features = {"internal_momentum"}},
      .claims = {.constraint = Claim::exact},
      .notes = "the same method and arithmetic as odeint_rk4_quat without odeint's generic algebra: the "
               "arithmetic-limit baseline (ratio_to_rk4). Canonical attitude R(q/|q|).",
      .flops = &rk4_quat_flops};
  return i;
}

// The one instantiation of the type-erased wrapper, compiled beside the scheme (builtin.hpp).
template class Erased<Rk4Quaternion>;

}  // namespace rigidbench
