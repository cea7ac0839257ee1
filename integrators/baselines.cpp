#include "integrators/dlm_splitting.hpp"
#include "integrators/rkmk4.hpp"

namespace rigidbench {

const SchemeInfo& DlmSplitting::info() {
  static const SchemeInfo i{
      .name = "dlm_splitting",
      .title = "Dullweber-Leimkuhler-McLachlan symplectic splitting (principal axes, Strang)",
      .source = "Dullweber, Leimkuhler, McLachlan, J. Chem. Phys. 107 (1997) 5840",
      .representation = "rotation matrix in principal axes and body angular momentum",
      .order = 2,
      .kind = SchemeKind::explicit_,
      .applies = {.rigid_body = true},
      .claims = {.energy = Claim::bounded, .momentum = Claim::exact, .casimir = Claim::exact,
                 .constraint = Claim::exact},
      .notes = "Symplectic and reversible: energy bounded (no drift) rather than exact."};
  return i;
}

const SchemeInfo& Rkmk4::info() {
  static const SchemeInfo i{.name = "rkmk4",
                            .title = "Runge-Kutta-Munthe-Kaas 4 on SO(3)",
                            .source = "Munthe-Kaas, BIT 38 (1998); Iserles et al., Acta Numerica 9 (2000)",
                            .representation = "rotation matrix and body angular velocity",
                            .order = 4,
                            .kind = SchemeKind::explicit_,
                            .applies = {.rigid_body = true},
                            .claims = {.constraint = Claim::exact},
                            .notes = "Exact dexp_r^{-1}; four moment evaluations per step."};
  return i;
}

}  // namespace rigidbench
