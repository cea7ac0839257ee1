// The `rigidbench` program: the library's command line with the built-in schemes and problems.
#include "rigidbench/cli/cli.hpp"

int main(int argc, char** argv) { return rigidbench::run_cli(argc, argv); }
