#pragma once
// rigidbench's public header: everything a program needs to put its own schemes and problems
// beside the built-in ones and run the whole command line on them (docs/extending.md).
//
//   #include <rigidbench/rigidbench.hpp>
//   class MyScheme final { ... };  // the contract table of integrators/integrator.hpp
//   int main(int argc, char** argv) { return rigidbench::main<MyScheme>(argc, argv); }
//
// The program is then a complete `rigidbench`: list, verify, simulate, reference, bench, compare,
// gate and report, with MyScheme in every table, report, gate snapshot and figure.
#include <cstdio>
#include <functional>

#include "cli/cli.hpp"
#include "core/so3.hpp"
#include "core/state.hpp"
#include "integrators/integrator.hpp"
#include "integrators/registry.hpp"
#include "integrators/scheme_base.hpp"
#include "problems/catalogue.hpp"
#include "problems/families/body_system.hpp"
#include "problems/families/kirchhoff_body.hpp"
#include "problems/families/rigid_body.hpp"
#include "problems/family.hpp"
#include "problems/problem.hpp"
#include "reference/reference.hpp"

namespace rigidbench {

/// S's entry, marked with how this translation unit was built: the program's own, where S's step is
/// compiled (the library's Release build says nothing about it). A step compiled without
/// optimisation costs 10-250 times more; its figures are reported, flagged as not comparable
/// (docs/extending.md, "Build type").
template <Integrator S>
SchemeEntry outside_entry() {
  SchemeEntry e = scheme_entry<S>();
#ifndef __OPTIMIZE__
  e.not_comparable = "its step was compiled without optimisation (the program's translation unit had no -O; build it with "
                     "-DCMAKE_BUILD_TYPE=Release): its cost is not comparable with rigidbench's optimised schemes";
#endif
  return e;
}

/// Registers the schemes S... (each must satisfy the Integrator contract; their names must be new),
/// calls `setup` (where a program registers its problems: register_problem), and runs the command
/// line. Exit codes as `rigidbench` (cli/cli.hpp); a scheme or problem that cannot be registered
/// (name taken or malformed) is reported and exits 2.
template <Integrator... S>
int main(int argc, char** argv, const std::function<void()>& setup = {}) {
  try {
    (register_scheme(outside_entry<S>()), ...);
    if (setup) setup();
  } catch (const InputError& e) {
    std::fprintf(stderr, "rigidbench: error: %s\n", e.what());
    return 2;
  }
  return run_cli(argc, argv);
}

}  // namespace rigidbench
