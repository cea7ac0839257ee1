#include "terze_muller_zlatar.hpp"

#include "any_integrator.hpp"

namespace rigidbench {

namespace {
// docs/flops.md, "Terze": J^-1 Y, -h/2 (.), exp(-h/2 W) Y (one sin), J^-1 (.), h W_half,
// exp (one sin), R X, X^T Y. Loaded: Y + h/2 T and Pi += h/2 T (7 each), t + h, and one body
// moment per step (first same as last).
std::optional<FlopModel> terze_flops(const Problem& p) {
  using namespace flops;
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  const double loaded = F > 0 ? 7 + 7 + 1 + F * body_moment : 0;
  return FlopModel{.base = mat_vec + 1 + 3 + rotation + rotation_apply + mat_vec + 3 + exp + mat_mat + mat_vec + loaded,
                   .calls = 2};
}
}  // namespace

const SchemeInfo& TerzeMullerZlatar::info() {
  static const SchemeInfo i{
      .name = "terze",
      .title = "Terze-Mueller-Zlatar Lie-group Stoermer-Verlet scheme (explicit form)",
      .source = "paper 004 (Terze, Mueller, Zlatar, J. Comput. Nonlinear Dynam. 10(5) 051005, 2015), update eqs. for Y, R",
      .representation = "rotation matrix R and body angular momentum Y = J W",
      .order = 2,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body"}},
      .claims = {.momentum = Claim::exact, .casimir = Claim::exact, .constraint = Claim::exact},
      .notes = "pi_{n+1} = pi_n + h/2 (t_n + t_{n+1}) exactly: spatial momentum exact torque-free, and "
               "its component along a uniform field under gravity; energy is not conserved (explicit "
               "half step), reported without a claim.",
      .flops = &terze_flops};
  return i;
}

// The one instantiation of the type-erased wrapper, compiled beside the scheme (builtin.hpp).
template class Erased<TerzeMullerZlatar>;

}  // namespace rigidbench
