// Metadata of Rkmk4 (its update is in rkmk4.hpp) and the one instantiation of its type-erased
// wrapper, compiled here beside it (integrators/builtin.hpp).
#include "rigidbench/integrators/rkmk4.hpp"

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

const SchemeInfo& Rkmk4::info() {
  static const SchemeInfo i{.name = "rkmk4",
                            .title = "Runge-Kutta-Munthe-Kaas 4 on SO(3)",
                            .source = "Munthe-Kaas, BIT 38 (1998); Iserles et al., Acta Numerica 9 (2000)",
                            .representation = "rotation matrix and body angular velocity",
                            .order = 4,
                            .kind = SchemeKind::explicit_,
                            .applies = {.families = {"rigid_body"}, .features = {"internal_momentum"}},
                            .claims = {.constraint = Claim::exact},
                            .notes = "Exact dexp_r^{-1}; four moment evaluations per step."};
  return i;
}

template class Erased<Rkmk4>;

}  // namespace rigidbench
