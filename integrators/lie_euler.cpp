#include "lie_euler.hpp"

#include "any_integrator.hpp"

namespace rigidbench {

namespace {
// docs/flops.md, "Lie-Euler": J W, Pi x W, h W, exp(h W) (one sin), R exp, J^-1 rhs, h (.), W +=;
// per uniform field the body moment and its sum into rhs.
std::optional<FlopModel> lie_euler_flops(const Problem& p) {
  using namespace flops;
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  return FlopModel{.base = mat_vec + cross + 3 + exp + mat_mat + mat_vec + 3 + 3 + F * (body_moment + 3), .calls = 1};
}
}  // namespace

const SchemeInfo& LieEuler::info() {
  static const SchemeInfo i{
      .name = "lie_euler",
      .title = "Explicit Lie-Euler (first-order baseline)",
      .source = "Iserles, Munthe-Kaas, Norsett, Zanna, Acta Numerica 9 (2000), Lie-group Euler method",
      .representation = "rotation matrix R and body angular velocity W",
      .order = 1,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body", "spherical_chain"}, .features = {"internal_momentum"}},
      .claims = {.constraint = Claim::exact},
      .notes = "R is updated by right multiplication with exp (Rodrigues), so it stays on SO(3).",
      .flops = &lie_euler_flops};
  return i;
}

// The one instantiation of the type-erased wrapper, compiled beside the scheme (builtin.hpp).
template class Erased<LieEuler>;

}  // namespace rigidbench
