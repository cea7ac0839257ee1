#pragma once
// Built-in problems of PROBLEMS.md. Each is also expressible as a problem file (problem_file.hpp).
#include <string>
#include <vector>

#include "problems/problem.hpp"

namespace rigidbench {

std::vector<std::string> catalogue_names();
/// The problems of the `quick` suite: the catalogue without the 80-particle torus (P5), whose
/// high-accuracy reference alone takes over a minute on 2 cores (SPEC: quick <= 60 s). The torus is
/// verified by `verify --problem torus_free torus_impact` and reproduced by the paper suite.
std::vector<std::string> quick_problem_names();
/// The finalized catalogue entry; throws InputError for an unknown name (listing the known ones).
Problem catalogue_problem(const std::string& name);

}  // namespace rigidbench
