#pragma once
// The physics engines judged as schemes (docs/engines.md). Each engine is one file of this folder
// that registers its variants through the public registration any outside program has
// (integrators/registry.hpp, register_scheme): the engines prove that the open API carries a
// foreign code base. They are not part of librigidbench: the `rigidbench` command links this folder's
// library and calls register_engines() before running, and an engine whose Debian package was not
// found at configure time is simply absent (RIGIDBENCH_WITH_ENGINES, docs/engines.md "Building").
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "../integrators/registry.hpp"

namespace rigidbench::engines {

/// Registers the variants of every engine this build has, and names the engines it has not
/// (register_absent). Before running a command; later calls do nothing. Throws InputError if a
/// name is taken. Each variant's SchemeInfo::version says which version of its engine runs.
void register_engines();

/// How an engine makes one of its variants on a problem (the SchemeInfo is the variant's own).
using EngineFactory =
    std::function<std::unique_ptr<AnyIntegrator>(const Problem&, const SchemeSettings&, const SchemeInfo&)>;
/// A string kept for the program's lifetime (SchemeInfo holds views).
std::string_view keep(std::string s);
/// Registers one variant of an engine as a scheme, through register_scheme as any outside program
/// does (origin "registered"); the SchemeInfo is kept for the program's lifetime. in_all = false:
/// selected by name or glob only (SchemeEntry::in_all).
void register_variant(SchemeInfo info, EngineFactory make, bool in_all = true);

// The version of each engine's package (one per engine file; its register_<name>() is declared
// by the generated engine_list.cpp, which calls it).
std::string mujoco_version();
std::string ode_version();
std::string bullet_version();
std::string simbody_version();
std::string sundials_version();  // not an engine: SUNDIALS' ODE solvers (sundials.cpp, docs/adaptive.md)
std::string dart_version();      // the DART package the plugin was built against, without loading it

namespace detail {
/// One engine this build knows (engines/CMakeLists.txt, RIGIDBENCH_KNOWN_ENGINES): its name (its
/// variants' names begin with name_), what it is, its Debian package, and the function registering
/// its variants, null where this build has not the engine.
struct EngineListing {
  const char* name;
  const char* title;
  const char* package;
  void (*add)();
};
/// Generated at configure time (engine_list.cpp).
const std::vector<EngineListing>& engine_list();
}  // namespace detail

}  // namespace rigidbench::engines
