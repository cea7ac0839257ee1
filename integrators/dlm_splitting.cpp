// Metadata of DlmSplitting (its update is in dlm_splitting.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "dlm_splitting.hpp"

#include "any_integrator.hpp"

namespace rigidbench {

namespace {
// docs/flops.md, "DLM splitting". Each of the five axis rotations: the angle (2; one sin, one cos),
// two components of Pi (6), two columns of R (18), and h/2 for four of them. Loaded: one moment per
// step (first same as last) through the principal frame (R Q^T, Q^T T: 60), the two kicks (7 each),
// t + h.
std::optional<FlopModel> dlm_flops(const Problem& p) {
  using namespace flops;
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  const double loaded = F > 0 ? mat_mat + mat_vec + F * body_moment + 7 + 7 + 1 : 0;
  return FlopModel{.base = 5 * (2 + 6 + 18) + 4 + loaded, .calls = 10};
}
}  // namespace

const SchemeInfo& DlmSplitting::info() {
  static const SchemeInfo i{
      .name = "dlm_splitting",
      .title = "Dullweber-Leimkuhler-McLachlan symplectic splitting (principal axes, Strang)",
      .source = "Dullweber, Leimkuhler, McLachlan, J. Chem. Phys. 107 (1997) 5840",
      .representation = "rotation matrix in principal axes and body angular momentum",
      .order = 2,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body"}},
      .claims = {.energy = Claim::bounded, .momentum = Claim::exact, .casimir = Claim::exact,
                 .constraint = Claim::exact, .symmetric = true, .symplectic = true},
      .notes = "Symplectic and reversible: energy bounded (no drift) rather than exact.",
      .flops = &dlm_flops};
  return i;
}

template class Erased<DlmSplitting>;

}  // namespace rigidbench
