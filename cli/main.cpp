// The `rigidbench` program: the library's command line with the built-in schemes and problems, and
// the physics engines this build found, registered as any outside program registers its schemes
// (docs/engines.md).
#include <cstdio>

#include "cli.hpp"
#include "../core/types.hpp"
#include "../engines/engines.hpp"

int main(int argc, char** argv) {
  try {
    rigidbench::engines::register_engines();
  } catch (const rigidbench::InputError& e) {
    std::fprintf(stderr, "rigidbench: error: %s\n", e.what());
    return 2;
  }
  return rigidbench::run_cli(argc, argv);
}
