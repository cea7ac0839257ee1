#pragma once
// The physics engines judged as schemes (docs/engines.md). Each engine is one file of this folder
// that registers its variants through the public registration any outside program has
// (integrators/registry.hpp, register_scheme): the engines prove that the open API carries a
// foreign code base. They are not part of librigidbench: the `rigidbench` command links this folder's
// library and calls register_engines() before running, and an engine whose Debian package was not
// found at configure time is simply absent (RIGIDBENCH_WITH_ENGINES, docs/engines.md "Building").
#include <string>
#include <vector>

namespace rigidbench::engines {

struct EngineBuilt {
  std::string name;     // "MuJoCo"
  std::string version;  // as the engine's library reports it at run time
};

/// Registers the variants of every engine this build has. Call once, before running a command;
/// throws InputError if a name is taken.
void register_engines();
/// The engines this build has, with their versions.
std::vector<EngineBuilt> engines_built();

// One per engine file.
void register_mujoco();
std::string mujoco_version();
void register_ode();
std::string ode_version();
void register_bullet();
std::string bullet_version();

}  // namespace rigidbench::engines
