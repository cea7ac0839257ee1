#include "rigidbench/engines/engines.hpp"

#include <deque>

namespace rigidbench::engines {

std::string_view keep(std::string s) {
  static std::deque<std::string> texts;  // a deque: kept strings never move
  return texts.emplace_back(std::move(s));
}

void register_variant(SchemeInfo info, EngineFactory make, bool in_all) {
  static std::deque<SchemeInfo> infos;
  const SchemeInfo* ip = &infos.emplace_back(std::move(info));
  register_scheme(SchemeEntry{
      .info = ip,
      .factory = [ip, make = std::move(make)](const Problem& p, const SchemeSettings& set) { return make(p, set, *ip); },
      .settings = {},
      .builtin = false,
      .origin = SchemeOrigin::registered,
      .in_all = in_all});
}

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
#ifdef RIGIDBENCH_HAVE_SIMBODY
  register_simbody();
#endif
#ifdef RIGIDBENCH_HAVE_DART
  register_dart();
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
#ifdef RIGIDBENCH_HAVE_SIMBODY
  e.push_back({"Simbody", simbody_version()});
#endif
#ifdef RIGIDBENCH_HAVE_DART
  e.push_back({"DART", dart_version()});
#endif
  return e;
}

}  // namespace rigidbench::engines
