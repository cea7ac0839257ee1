#pragma once
// Problem files (JSON): every catalogue entry can be exported as one, and a user changes it or
// writes a new problem of a supported family without recompiling. Format in docs/problem-files.md.
#include <nlohmann/json.hpp>
#include <string>

#include "problem.hpp"

namespace rigidbench {

/// The problem as a problem file; loading it back gives a Problem equal (==) to `p`.
nlohmann::ordered_json problem_to_json(const Problem& p);
/// Parses and validates; throws InputError naming the file, the JSON path and the offending value.
Problem problem_from_json(const nlohmann::json& j, const std::string& origin);
Problem load_problem_file(const std::string& path);
/// A catalogue name, or (when `file` is non-empty) a problem file. Exactly one must be given.
Problem resolve_problem(const std::string& name, const std::string& file);

}  // namespace rigidbench
