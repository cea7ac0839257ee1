#pragma once
// Running another program (the Python renderer, git, cmake, another build of rigidbench) and
// waiting for it, without a shell: arguments are passed as they are.
#include <string>
#include <vector>

namespace rigidbench {

/// Exit status of the program args[0] (looked up on PATH when it has no '/'), 127 when it cannot be
/// started, 128 + N when killed by signal N. With `log`, its stdout and stderr are appended to that
/// file; otherwise it shares ours.
int run_process(const std::vector<std::string>& args, const std::string& log = "");

/// The executable file `name` (no '/') resolves to on $PATH, or empty: a program's command looked up
/// before a fork (verification/program_scheme.cpp), Node.js for the npm engines (engines/engines.cpp).
std::string find_on_path(const std::string& name);

}  // namespace rigidbench
