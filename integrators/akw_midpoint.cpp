// Metadata of AkwMidpoint (its update is in akw_midpoint.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "akw_midpoint.hpp"

#include "any_integrator.hpp"

namespace rigidbench {

namespace {
// docs/flops.md, "AKW midpoint". Per iteration (akw_system's residual): J w, J W_n, r (21); loaded:
// R_n cay(h w) (88), the body moment, r -= h/2 (T0 + T1) (10); the substitutions, Newton's update.
// Per Jacobian: 2 J, hat(w) J, two differences, h (.) (81); loaded: h w, dcay (34), R1^T K R1 (90),
// + hat(T1), h dcay, the product, h/2 (.), -= (82) and the moment's tangent; the LU. After Newton:
// t_m, cay(h w), R cay, 2 w - W; loaded: T0 = T(t_m, R_n).
std::optional<FlopModel> akw_flops(const Problem& p) {
  using namespace flops;
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  const double loaded_residual = F > 0 ? 3 + cayley + mat_mat + 10 + F * body_moment : 0;
  const double loaded_jacobian =
      F > 0 ? 3 + dcayley + 2 * mat_mat + mat_add + mat_add + mat_mat + 1 + mat_add + mat_add + F * spatial_moment_jacobian : 0;
  return FlopModel{.base = 2 + 3 + cayley + mat_mat + 6 + F * body_moment,
                   .per_iteration = 2 * mat_vec + 21 + loaded_residual + lu_substitute(3) + newton_update(3, 3),
                   .per_jacobian = mat_add + mat_mat + 3 * mat_add + loaded_jacobian + lu_factor(3)};
}
}  // namespace

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
                 .constraint = Claim::exact, .symmetric = true},
      .notes = "R_{n+1} = R_n cay(h Omega_m): the midpoint rule for Gamma = R^T a (docs/decisions.md); midpoint "
               "moment = (T(t_m, R_n) + T(t_m, R_{n+1}))/2, exact for moments affine in Gamma; Newton tolerance 1e-14",
      .settings = {kNewtonTolerance, kNewtonMaxIterations},
      .flops = &akw_flops};
  return i;
}

template class Erased<AkwMidpoint>;

}  // namespace rigidbench
