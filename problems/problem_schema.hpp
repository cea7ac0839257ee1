#pragma once
// The problem-file JSON Schema (reports/schema/problem-1.schema.json, compiled into the library so
// that a reader never depends on where the data files are) and its validation with valijson
// (Debian libvalijson-dev; docs/problem-files.md says why a validator rather than hand checks).
#include <nlohmann/json.hpp>
#include <string>

namespace rigidbench {

/// The schema's text, as shipped under share/rigidbench/schema/.
const std::string& problem_schema_text();
/// Throws InputError "origin: /json/path: what is wrong" for the first violations (at most three)
/// when `j` does not satisfy the problem-file schema.
void validate_problem_document(const nlohmann::json& j, const std::string& origin);

}  // namespace rigidbench
