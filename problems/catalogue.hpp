#pragma once
// Built-in problems of docs/problems.md. Each is also expressible as a problem file (problem_file.hpp).
#include <functional>
#include <string>
#include <vector>

#include "rigidbench/problems/problem.hpp"

namespace rigidbench {

/// Built-in problems first, then the ones the program registered (register_problem), in order.
std::vector<std::string> catalogue_names();
/// The problems of the `quick` suite: the catalogue without the 80-particle torus (P5), whose
/// high-accuracy reference alone takes over a minute on 2 cores (quick <= 60 s). The torus is
/// verified by `verify --problem torus_free torus_impact` and reproduced by the paper suite.
std::vector<std::string> quick_problem_names();
/// The finalized catalogue entry; throws InputError for an unknown name (listing the known ones).
Problem catalogue_problem(const std::string& name);
/// False for a problem registered by the program (or an unknown name).
bool builtin_problem(const std::string& name);
/// Adds a catalogue problem: `make` builds it (unfinalized, named `name`) whenever it is asked
/// for, and every command finds it by name (`verify --problem NAME`, `problem export NAME`...).
/// `quick`: part of the quick suite, the default of `verify`, `compare` and the gate. Throws
/// InputError for a name that is taken or not [a-z0-9_]+, or a problem that is named otherwise or
/// fails validation (it is made once here). Register before running a command.
void register_problem(const std::string& name, std::function<Problem()> make, bool quick = true);

}  // namespace rigidbench
