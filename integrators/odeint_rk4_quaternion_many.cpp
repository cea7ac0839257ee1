// OdeintRk4Quaternion's step on a body system or a chain, apart from the one-body step
// (odeint_rk4_quaternion.hpp says why).
#include "odeint_rk4_quaternion.hpp"

namespace rigidbench {

void OdeintRk4Quaternion::step_many(double t, double h) {
  if (form_ == Form::system) stepper_s_.do_step(std::ref(sys_), ys_, t, h);
  else stepper_s_.do_step(std::ref(chain_), ys_, t, h);
}

}  // namespace rigidbench
