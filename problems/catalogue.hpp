#pragma once
// Built-in problems of PROBLEMS.md. Each is also expressible as a problem file (problem_file.hpp).
#include <string>
#include <vector>

#include "problems/problem.hpp"

namespace rigidbench {

std::vector<std::string> catalogue_names();
/// The finalized catalogue entry; throws InputError for an unknown name (listing the known ones).
Problem catalogue_problem(const std::string& name);

}  // namespace rigidbench
