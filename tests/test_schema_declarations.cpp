// Each report schema describes exactly what its report's declarations write (docs/architecture.md,
// "One result model"): the writer follows from `Fields<T>`, the schema is written by hand, and this
// test is what keeps the two one model. Walking the declared shape (field_json::shape) beside the
// schema, it fails on a field written but not described (the schema would let it be anything), a
// property described but written by no declaration (unless marked `"deprecated": true`: a field of
// an earlier version that readers still accept), and a kind that disagrees (a list described as a
// number, an enumeration's names, null written where the schema refuses it).
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "../reports/bench_report.hpp"
#include "../reports/card_report.hpp"
#include "../reports/verify_report.hpp"
#include "../tracking/snapshot.hpp"
#include "support.hpp"

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

json schema_file(const std::string& name) {
  std::ifstream in(std::string(RIGIDBENCH_SOURCE_DIR) + "/reports/schema/" + name);
  REQUIRE(in.good());
  return json::parse(in);
}

/// The schema node a node stands for: its $ref followed (local references only).
const json& resolved(const json& node, const json& root) {
  const json* n = &node;
  while (n->is_object() && n->contains("$ref")) n = &root.at(json::json_pointer(n->at("$ref").get<std::string>().substr(1)));
  return *n;
}

/// The JSON types a schema node admits (empty: it does not say).
std::set<std::string> types_of(const json& s) {
  std::set<std::string> t;
  if (s.contains("type")) {
    if (s["type"].is_string()) t.insert(s["type"].get<std::string>());
    else
      for (const auto& x : s["type"]) t.insert(x.get<std::string>());
  }
  if (s.contains("enum"))
    for (const auto& x : s["enum"]) t.insert(x.is_null() ? "null" : x.is_string() ? "string" : x.is_boolean() ? "boolean" : "number");
  return t;
}

struct Walk {
  const json& root;
  std::vector<std::string> problems;

  void admits(const json& s, const std::string& path, const std::string& type) {
    const std::set<std::string> t = types_of(s);
    const bool ok = t.empty() || t.count(type) || (type == "integer" && t.count("number"));
    if (!ok) problems.push_back(path + ": written as " + type + ", the schema admits " + json(t).dump());
  }

  void check(const ordered_json& shape, const json& node, const std::string& path) {
    const json& s = resolved(node, root);
    if (s.contains("oneOf") || s.contains("anyOf")) return;  // alternatives: the schema's own business
    const std::string kind = shape.at("kind");
    if (shape.value("null", false)) admits(s, path, "null");
    if (kind == "any") return;
    if (kind == "object") return object(shape.at("fields"), s, path);
    if (kind == "array") {
      admits(s, path, "array");
      if (s.contains("items")) check(shape.at("items"), s["items"], path + "[]");
      return;
    }
    if (kind == "map") {
      admits(s, path, "object");
      if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
        check(shape.at("values"), s["additionalProperties"], path + ".*");
      else if (!s.contains("properties"))
        problems.push_back(path + ": a map of declared values, the schema does not describe its values");
      return;
    }
    if (kind == "enum") {
      if (s.contains("enum")) {
        std::set<std::string> declared, described;
        for (const auto& x : shape.at("enum")) declared.insert(x.get<std::string>());
        for (const auto& x : s["enum"])
          if (x.is_string()) described.insert(x.get<std::string>());
        if (declared != described)
          problems.push_back(path + ": names " + json(declared).dump() + ", the schema's " + json(described).dump());
      } else {
        admits(s, path, "string");
      }
      return;
    }
    admits(s, path, kind);
  }

  void object(const ordered_json& fields, const json& s, const std::string& path) {
    admits(s, path, "object");
    if (!s.contains("properties")) {
      problems.push_back(path + ": the declarations write " + std::to_string(fields.size()) +
                         " fields, the schema describes none of them");
      return;
    }
    const json& props = s["properties"];
    for (auto it = fields.begin(); it != fields.end(); ++it) {
      if (props.contains(it.key())) check(it.value(), props[it.key()], path + "." + it.key());
      else problems.push_back(path + "." + it.key() + ": written, not described by the schema");
    }
    for (auto it = props.begin(); it != props.end(); ++it)
      if (!fields.contains(it.key()) && !resolved(it.value(), root).value("deprecated", it.value().value("deprecated", false)))
        problems.push_back(path + "." + it.key() + ": described by the schema, written by no declaration");
  }
};

std::vector<std::string> mismatches(const ordered_json& shape, const std::string& schema) {
  const json root = schema_file(schema);
  Walk w{root, {}};
  w.check(shape, root, "$");
  return w.problems;
}

}  // namespace

TEST_CASE("schema.declarations: the verify report's schema describes exactly what its declarations write") {
  const std::vector<std::string> p = mismatches(rigidbench::VerifyReport::declared_shape(), "report-1.0.schema.json");
  for (const std::string& m : p) UNSCOPED_INFO(m);
  CHECK(p.empty());
}

TEST_CASE("schema.declarations: the bench report's schema describes exactly what its declarations write") {
  const std::vector<std::string> p = mismatches(rigidbench::BenchReport::declared_shape(), "bench-1.0.schema.json");
  for (const std::string& m : p) UNSCOPED_INFO(m);
  CHECK(p.empty());
}

TEST_CASE("schema.declarations: the card report's schema describes exactly what its declarations write") {
  const std::vector<std::string> p = mismatches(rigidbench::CardReport::declared_shape(), "card-1.0.schema.json");
  for (const std::string& m : p) UNSCOPED_INFO(m);
  CHECK(p.empty());
}

TEST_CASE("schema.declarations: the gate snapshot's schema describes exactly what its declarations write") {
  const std::vector<std::string> p = mismatches(rigidbench::GateSnapshot::declared_shape(), "gate-snapshot-1.0.schema.json");
  for (const std::string& m : p) UNSCOPED_INFO(m);
  CHECK(p.empty());
}

TEST_CASE("schema.declarations: the check finds a field the schema does not describe, and one nothing writes") {
  ordered_json shape = rigidbench::VerifyReport::declared_shape();
  shape["fields"]["not_in_the_schema"] = {{"kind", "number"}};
  shape["fields"].erase("summary");
  shape["fields"]["duration_s"] = {{"kind", "array"}, {"items", {{"kind", "number"}}}};
  const std::vector<std::string> p = mismatches(shape, "report-1.0.schema.json");
  const auto has = [&](const std::string& s) {
    for (const std::string& m : p)
      if (m.find(s) != std::string::npos) return true;
    return false;
  };
  CHECK(has("$.not_in_the_schema: written, not described"));
  CHECK(has("$.summary: described by the schema, written by no declaration"));
  CHECK(has("$.duration_s: written as array"));
}
