#pragma once
// Numbers in report JSON: a value that could not be computed (NaN, inf) is written as null
// (reports/schema/report-1.0.schema.json), and read back as NaN. One definition for every writer and reader.
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

namespace rigidbench::json_numbers {

inline nlohmann::ordered_json num(double x) {
  return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
}
inline nlohmann::ordered_json nums(const std::vector<double>& v) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (double x : v) a.push_back(num(x));
  return a;
}
/// The number in j, NaN when j is null or not a number (json or ordered_json).
template <class J>
double as_num(const J& j) {
  return j.is_number() ? j.template get<double>() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace rigidbench::json_numbers
