// Metadata of Rkmk4 (its update is in rkmk4.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "rkmk4.hpp"

#include "any_integrator.hpp"

namespace rigidbench {

namespace {
// docs/flops.md, "RKMK4". Acceleration J^-1 (J W x W [+ T]): 39, per field 33. so3::dexp_right_inverse:
// |u| (6), its coefficient (7; one sin, one cos), S/2 (9), d S S (54), two sums (18). Stages 2-4:
// u (3), W (6), dexp^-1 W (94 + 15), exp(u) (one sin), R exp(u); the update: the weighted sum of the
// four du (15), its scaling (3), exp (one sin), R exp, the W update (21); h/2, h/6 and the times (7).
std::optional<FlopModel> rkmk4_flops(const Problem& p) {
  using namespace flops;
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  constexpr double dexp_inverse = norm + 7 + 9 + 54 + 18;
  const double accel = mat_vec + cross + mat_vec + F * (body_moment + 3);
  const double stage = 3 + 6 + dexp_inverse + mat_vec + exp + mat_mat;
  return FlopModel{.base = 4 * accel + 3 * stage + 15 + 3 + exp + mat_mat + 21 + 7, .calls = 3 * 3 + 1};
}
}  // namespace

const SchemeInfo& Rkmk4::info() {
  static const SchemeInfo i{.name = "rkmk4",
                            .title = "Runge-Kutta-Munthe-Kaas 4 on SO(3)",
                            .source = "Munthe-Kaas, BIT 38 (1998); Iserles et al., Acta Numerica 9 (2000)",
                            .representation = "rotation matrix and body angular velocity",
                            .order = 4,
                            .kind = SchemeKind::explicit_,
                            .applies = {.families = {"rigid_body", "spherical_chain"}, .features = {"internal_momentum"}},
                            .claims = {.constraint = Claim::exact},
                            .notes = "Exact dexp_r^{-1}; four moment evaluations per step.",
                            .flops = &rkmk4_flops};
  return i;
}

template class Erased<Rkmk4>;

}  // namespace rigidbench
