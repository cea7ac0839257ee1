#include "json_schema.hpp"

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
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "json_input.hpp"
#include "types.hpp"

namespace rigidbench {
namespace {

struct SchemaInfo {
  std::string_view file, what;
};
constexpr std::array<SchemaInfo, 9> kSchemas{{
    {"problem-1.schema.json", "the problem-file schema (docs/problem-files.md)"},
    {"report-1.0.schema.json", "the report schema (reports/schema/report-1.0.schema.json)"},
    {"bench-1.0.schema.json", "the bench report schema (reports/schema/bench-1.0.schema.json)"},
    {"compare-1.0.schema.json", "the compare report schema (reports/schema/compare-1.0.schema.json)"},
    {"gate-snapshot-1.0.schema.json", "the gate snapshot schema (docs/gate.md)"},
    {"expectations-1.0.schema.json", "the expected-findings schema (docs/gate.md)"},
    {"history-1.0.schema.json", "the history trends schema (docs/history.md)"},
    {"gate-summary-1.0.schema.json", "the gate summary schema (docs/gate.md)"},
    {"card-1.0.schema.json", "the conformance card schema (docs/card.md)"},
}};

/// Each schema parsed once, on first use (valijson::Schema is not copyable: filled in place).
const valijson::Schema& parsed(DocumentSchema id) {
  static std::array<std::unique_ptr<valijson::Schema>, kSchemas.size()> schemas;
  static std::array<std::once_flag, kSchemas.size()> once;
  const auto i = std::size_t(id);
  std::call_once(once[i], [&] {
    auto s = std::make_unique<valijson::Schema>();
    const nlohmann::json doc = nlohmann::json::parse(schema_text(id));
    // Draft 7 is what valijson 1.0 parses; the 2020-12 schemas use only keywords with the same
    // meaning there ($defs is reached through JSON-pointer $refs).
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(doc), *s);
    schemas[i] = std::move(s);
  });
  return *schemas[i];
}

/// valijson's context ["<root>", "[bodies]", "[0]", "[inertia]"] as the JSON pointer /bodies/0/inertia.
std::string pointer(const std::vector<std::string>& context) {
  std::string p;
  for (const std::string& c : context) {
    if (c == "<root>") continue;
    const bool bracketed = c.size() >= 2 && c.front() == '[' && c.back() == ']';
    p.push_back('/');
    // RFC 6901 escapes: "~" as ~0, "/" as ~1 (keys such as "terze/heavy_top").
    for (char ch : c.substr(bracketed ? 1 : 0, bracketed ? c.size() - 2 : c.size())) {
      if (ch == '~') p += "~0";
      else if (ch == '/') p += "~1";
      else p.push_back(ch);
    }
  }
  return p.empty() ? "/" : p;
}

}  // namespace

std::string_view schema_file_name(DocumentSchema s) { return kSchemas[std::size_t(s)].file; }

namespace {

/// A report holds each integrator/problem pair once: a reader keyed by pair (the gate, compare,
/// history) would otherwise keep one copy - the last - and a regression placed in the other would
/// pass unseen. No JSON Schema keyword says "unique by two fields", so it is checked here.
void require_unique_pairs(const nlohmann::json& j, const std::string& origin) {
  const auto results = j.find("results");
  if (results == j.end() || !results->is_array()) return;
  std::map<std::pair<std::string, std::string>, std::size_t> first;
  for (std::size_t i = 0; i < results->size(); ++i) {
    const nlohmann::json& r = (*results)[i];
    if (!r.is_object() || !r.contains("integrator") || !r.contains("problem") || !r.at("integrator").is_string() ||
        !r.at("problem").is_string())
      continue;  // the schema already said what is wrong with it
    const auto key = std::make_pair(r.at("integrator").get<std::string>(), r.at("problem").get<std::string>());
    const auto [it, fresh] = first.emplace(key, i);
    if (!fresh)
      throw InputError(cat(origin, ": /results/", std::to_string(i), ": the pair ",
                           json_brief(nlohmann::json(key.first + "/" + key.second)), " is already at /results/",
                           std::to_string(it->second), ": a report holds each pair once"));
  }
}

}  // namespace

void validate_document(const nlohmann::json& j, DocumentSchema s, const std::string& origin) {
  valijson::Validator validator;
  valijson::ValidationResults results;
  if (validator.validate(parsed(s), valijson::adapters::NlohmannJsonAdapter(j), &results)) {
    if (s == DocumentSchema::report || s == DocumentSchema::bench) require_unique_pairs(j, origin);
    return;
  }
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
      // A scalar is shown, bounded (a string value may be megabytes long); a nested value only by type.
      got = v.is_primitive() ? v.dump() : std::string("an ") + v.type_name();
      if (got.size() > 80) got = got.substr(0, 77) + "...";
    } catch (const nlohmann::json::exception&) {
    }
    msg += cat(shown++ ? "; " : "", path, ": ", e.description, got.empty() ? "" : cat(" (got ", got, ")"));
  }
  throw InputError(cat(origin, ": does not follow ", kSchemas[std::size_t(s)].what, ": ", msg));
}

}  // namespace rigidbench
