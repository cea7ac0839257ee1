#include "rigidbench/problems/problem_schema.hpp"

// GCC 12 reports a false -Wrestrict inside valijson's json_pointer.hpp (std::string::replace inlined
// with an impossible size, the known GCC bug 105329); this file only includes and drives valijson.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
// valijson reports a schema it cannot parse by exception, not abort() (its CMake target sets this too).
#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <set>

#include "rigidbench/core/types.hpp"

namespace rigidbench {
namespace {

const valijson::Schema& schema() {
  static valijson::Schema s;  // not copyable: filled in place, once (thread-safe static init)
  static const bool parsed = [] {
    const nlohmann::json doc = nlohmann::json::parse(problem_schema_text());
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(doc), s);
    return true;
  }();
  (void)parsed;
  return s;
}

/// valijson's context ["<root>", "[bodies]", "[0]", "[inertia]"] as the JSON pointer /bodies/0/inertia.
std::string pointer(const std::vector<std::string>& context) {
  std::string p;
  for (const std::string& c : context) {
    if (c == "<root>") continue;
    const bool bracketed = c.size() >= 2 && c.front() == '[' && c.back() == ']';
    p.push_back('/');
    p.append(c, bracketed ? 1 : 0, bracketed ? c.size() - 2 : c.size());
  }
  return p.empty() ? "/" : p;
}

}  // namespace

void validate_problem_document(const nlohmann::json& j, const std::string& origin) {
  valijson::Validator validator;
  valijson::ValidationResults results;
  if (validator.validate(schema(), valijson::adapters::NlohmannJsonAdapter(j), &results)) return;
  // valijson lists a failure along its whole path (an enclosing object fails because a member
  // does); the deepest entries say what is wrong: keep those, once each, with the offending value
  // (scalars only: a nested value from an untrusted file is named by its type, never dumped).
  std::vector<valijson::ValidationResults::Error> errors(results.begin(), results.end());
  auto is_prefix = [](const std::vector<std::string>& a, const std::vector<std::string>& b) {
    return a.size() < b.size() && std::equal(a.begin(), a.end(), b.begin());
  };
  std::string msg;
  std::set<std::string> said;
  int shown = 0;
  for (const auto& e : errors) {
    bool deeper_exists = false;
    for (const auto& f : errors) deeper_exists |= is_prefix(e.context, f.context);
    const std::string path = pointer(e.context);
    if (deeper_exists || !said.insert(path + e.description).second || shown == 3) continue;
    std::string got;
    try {
      const nlohmann::json& v = j.at(nlohmann::json::json_pointer(path == "/" ? "" : path));
      got = v.is_primitive() ? v.dump() : std::string("an ") + v.type_name();
    } catch (const nlohmann::json::exception&) {
    }
    msg += cat(shown++ ? "; " : "", path, ": ", e.description, got.empty() ? "" : cat(" (got ", got, ")"));
  }
  throw InputError(cat(origin, ": does not follow the problem-file schema (docs/problem-files.md): ", msg));
}

}  // namespace rigidbench
