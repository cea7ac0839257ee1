#pragma once
// Reading the fields of a JSON document that a schema has already admitted, where the schema
// requires few of them (reports of earlier versions, hand-made ones): a field is taken where it is
// present and of its type, and takes its default otherwise - never an exception the input did not
// earn. For nlohmann::json and ordered_json alike. Used by the report model's readers
// (reports/pair_report.cpp, verify_report.cpp, bench_report.cpp).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "json_numbers.hpp"

namespace rigidbench::json_fields {

/// The number in j, NaN when j is null or not a number.
template <class J>
double n_of(const J& j) {
  return json_numbers::as_num(j);
}
/// The number at key k of an object, NaN where absent or not a number.
template <class J>
double n_at(const J& o, const char* k) {
  return o.is_object() && o.contains(k) ? n_of(o.at(k)) : std::numeric_limits<double>::quiet_NaN();
}
template <class J>
std::vector<double> ns_of(const J& a) {
  std::vector<double> v;
  if (a.is_array())
    for (const auto& x : a) v.push_back(n_of(x));
  return v;
}
template <class J>
std::vector<double> ns_at(const J& o, const char* k) {
  return o.is_object() && o.contains(k) ? ns_of(o.at(k)) : std::vector<double>{};
}
template <class J>
std::string s_at(const J& o, const char* k, const std::string& otherwise = "") {
  return o.is_object() && o.contains(k) && o.at(k).is_string() ? o.at(k).template get<std::string>() : otherwise;
}
template <class J>
bool b_at(const J& o, const char* k, bool otherwise) {
  return o.is_object() && o.contains(k) && o.at(k).is_boolean() ? o.at(k).template get<bool>() : otherwise;
}
/// The integer at key k, or nothing where absent or not an integer.
template <class J>
std::optional<std::int64_t> integer_at(const J& o, const char* k) {
  if (!o.is_object() || !o.contains(k) || !o.at(k).is_number_integer()) return std::nullopt;
  return o.at(k).template get<std::int64_t>();
}
template <class J>
std::int64_t i_at(const J& o, const char* k, std::int64_t otherwise = 0) {
  return integer_at(o, k).value_or(otherwise);
}
/// The member k of o, or null (a reference to a static null when absent).
template <class J>
const J& at_or_null(const J& o, const char* k) {
  static const J null;
  return o.is_object() && o.contains(k) ? o.at(k) : null;
}

}  // namespace rigidbench::json_fields
