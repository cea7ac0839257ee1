#include "rigidbench/engines/engines.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace rigidbench::engines {

std::string_view keep(std::string s) {
  static std::deque<std::string> texts;  // a deque: kept strings never move
  return texts.emplace_back(std::move(s));
}

void register_variant(SchemeInfo info, EngineFactory make, bool in_all) {
  // The engines' names are reserved by their prefixes (engine_name_prefixes): a variant outside them
  // would be a name an outside scheme could take where the engines are not registered.
  const auto& prefixes = engine_name_prefixes();
  if (std::none_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return info.name.substr(0, p.size()) == p; }))
    throw std::logic_error(cat("engine variant '", std::string(info.name), "' is outside the reserved prefixes"));
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

namespace {
/// An engine this build has not: `list` and a selection of its names say which package it needs.
[[maybe_unused]] void absent(const char* prefix, const char* engine, const char* package) {
  register_absent({prefix, cat(engine, " (Debian ", package,
                               ") was not found when this build was configured; install it and configure again "
                               "(docs/engines.md, \"Building\")")});
}
}  // namespace

void register_engines() {
  static bool done = false;
  if (done) return;
  done = true;
#ifdef RIGIDBENCH_HAVE_MUJOCO
  register_mujoco();
#else
  absent("mujoco_", "MuJoCo", "libmujoco-dev");
#endif
#ifdef RIGIDBENCH_HAVE_ODE
  register_ode();
#else
  absent("ode_", "ODE in double precision", "libode-dev");
#endif
#ifdef RIGIDBENCH_HAVE_BULLET
  register_bullet();
#else
  absent("bullet_", "Bullet in double precision", "libbullet-dev");
#endif
#ifdef RIGIDBENCH_HAVE_SIMBODY
  register_simbody();
#else
  absent("simbody_", "Simbody", "libsimbody-dev");
#endif
#ifdef RIGIDBENCH_HAVE_SUNDIALS
  register_sundials();
#else
  absent("sundials_", "SUNDIALS", "libsundials-dev");
#endif
#ifdef RIGIDBENCH_HAVE_DART
  register_dart();
#else
  absent("dart_", "DART 6", "libdart-dev");
#endif
}

}  // namespace rigidbench::engines
