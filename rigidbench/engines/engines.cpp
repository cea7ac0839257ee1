#include "rigidbench/engines/engines.hpp"

namespace rigidbench::engines {

void register_engines() {
#ifdef RIGIDBENCH_HAVE_MUJOCO
  register_mujoco();
#endif
#ifdef RIGIDBENCH_HAVE_ODE
  register_ode();
#endif
#ifdef RIGIDBENCH_HAVE_BULLET
  register_bullet();
#endif
}

std::vector<EngineBuilt> engines_built() {
  std::vector<EngineBuilt> e;
#ifdef RIGIDBENCH_HAVE_MUJOCO
  e.push_back({"MuJoCo", mujoco_version()});
#endif
#ifdef RIGIDBENCH_HAVE_ODE
  e.push_back({"ODE", ode_version()});
#endif
#ifdef RIGIDBENCH_HAVE_BULLET
  e.push_back({"Bullet", bullet_version()});
#endif
  return e;
}

}  // namespace rigidbench::engines
