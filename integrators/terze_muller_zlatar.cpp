#include "rigidbench/integrators/terze_muller_zlatar.hpp"

#include "rigidbench/integrators/any_integrator.hpp"

namespace rigidbench {

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
               "half step), reported without a claim."};
  return i;
}

// The one instantiation of the type-erased wrapper, compiled beside the scheme (builtin.hpp).
template class Erased<TerzeMullerZlatar>;

}  // namespace rigidbench
