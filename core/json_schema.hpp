#pragma once
// The project's JSON Schemas (reports/schema/, compiled into the library so that a reader never
// depends on where the data files are) and validation against them with valijson (Debian
// libvalijson-dev). Every document rigidbench reads from a user - problem files, reports handed to
// `compare`/`gate`/`merge`, gate snapshots, expectation lists - is checked against its schema before
// any field is read, so a wrong shape is a clear message naming the JSON path, never an exception
// from deep inside a reader (docs/decisions.md, "Validated inputs").
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rigidbench {

enum class DocumentSchema { problem, report, bench, compare, gate_snapshot, expectations, history, gate_summary, card };

/// The schema's file name under reports/schema/ (and share/rigidbench/schema/ once installed).
std::string_view schema_file_name(DocumentSchema s);
/// The schema's text, as shipped.
const std::string& schema_text(DocumentSchema s);
/// Throws InputError "origin: does not follow <the schema>: /json/path: what is wrong (got v)" for the
/// first violations (at most three) when `j` does not satisfy the schema. Offending values are shown
/// only when they are scalars (an untrusted nested value is named by its type, never serialised).
void validate_document(const nlohmann::json& j, DocumentSchema s, const std::string& origin);

}  // namespace rigidbench
