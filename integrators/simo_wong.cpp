// Metadata of SimoWong (its update is in simo_wong.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "simo_wong.hpp"

#include "any_integrator.hpp"

namespace rigidbench {

namespace {
// docs/flops.md, "Simo-Wong". Per iteration (simo_wong_system's residual): J W_n, Rotation(Theta/2)
// (one sin), doubled, r (55); loaded: Lambda_a (82), the spatial moment, L^T (.), v += h (.) (21);
// the substitutions and Newton's update. Per Jacobian: 2/h J, exp(Theta)^T's matrix and dexp_r,
// hat(v) dexp_r, + dv, the product, the difference (243); loaded: dv (0.5 h, two 3x3 products, dexp_r,
// the product, the scaling: 233) and the moment's tangent; the LU. After Newton: t_m, Theta, J W,
// Rotation (one sin), doubled, R exp(Theta), exp^T (.), J^-1 (.); loaded: the moment at the midpoint
// (103). The guess: J W x W, J^-1 (.), h W + h^2/2 (.) (11); loaded: the body moment, + (3).
std::optional<FlopModel> simo_wong_flops(const Problem& p) {
  using namespace flops;
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  const double loaded_residual = F > 0 ? 82 + mat_vec + 6 + F * spatial_moment : 0;
  const double loaded_jacobian = F > 0 ? 1 + 2 * mat_mat + rotation_dexp + mat_mat + mat_add + F * spatial_moment_jacobian : 0;
  const double loaded_base = F > 0 ? rotation_matrix + mat_mat + mat_vec + 6 + F * spatial_moment + F * body_moment + 3 : 0;
  const double guess = mat_vec + cross + mat_vec + 11;
  return FlopModel{.base = 2 + guess + mat_vec + 3 + rotation + rotation_doubled + rotation_matrix + mat_mat +
                           rotation_apply + mat_vec + loaded_base,
                   .per_iteration = mat_vec + 3 + rotation + rotation_doubled + 55 + loaded_residual + lu_substitute(3) +
                                    newton_update(3, 3),
                   .per_jacobian = 1 + mat_add + rotation_matrix + rotation_dexp + mat_mat + mat_add + mat_mat + mat_add +
                                   loaded_jacobian + lu_factor(3),
                   .calls = 1,
                   .calls_per_iteration = 1};
}
}  // namespace

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
                 .constraint = Claim::exact, .energy_with_potential = Claim::bounded, .symmetric = true},
      .notes = "moment at the geodesic midpoint Lambda_n exp(Theta/2), t_n + h/2 (SW91's alpha = 1/2); energy exact "
               "torque-free only; W_{n+1} from the momentum equation at the converged Theta; Newton tolerance 1e-14",
      .settings = {kNewtonTolerance, kNewtonMaxIterations},
      .flops = &simo_wong_flops};
  return i;
}

template class Erased<SimoWong>;

}  // namespace rigidbench
