// Metadata of DlmSplitting (its update is in dlm_splitting.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "rigidbench/integrators/dlm_splitting.hpp"

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

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
                 .constraint = Claim::exact},
      .notes = "Symplectic and reversible: energy bounded (no drift) rather than exact."};
  return i;
}

template class Erased<DlmSplitting>;

}  // namespace rigidbench
