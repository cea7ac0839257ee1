#pragma once
// Reading and writing problem files (docs/problem-files.md): the helpers every section uses, the
// families' own sections included, so that every error names the file, the JSON path and the value.
#include <vector>
#include <nlohmann/json.hpp>
#include <string>

#include "../core/types.hpp"

namespace rigidbench {

/// A reader that knows which file it reads; every failure is an InputError "<origin>: <path>: <what>".
struct ProblemFileReader {
  std::string origin;

  [[noreturn]] void fail(const std::string& path, const std::string& what) const;
  /// obj[key], failing when it is missing.
  const nlohmann::json& field(const nlohmann::json& obj, const std::string& path, const char* key) const;
  /// Fails unless obj is an object whose keys are all among `keys`.
  void only(const nlohmann::json& obj, const std::string& path, const std::vector<const char*>& keys) const;
  double number(const nlohmann::json& j, const std::string& path) const;  // finite
  /// An integer in [lo, hi]: never narrowed or wrapped (2^32 + 5 is out of range, not 5).
  long long integer(const nlohmann::json& j, const std::string& path, long long lo, long long hi) const;
  std::string text(const nlohmann::json& j, const std::string& path) const;
  Vec3 vec3(const nlohmann::json& j, const std::string& path) const;
  Mat3 mat3(const nlohmann::json& j, const std::string& path) const;  // 3 rows of 3 numbers
};

nlohmann::ordered_json json_vec(const Vec3& v);
nlohmann::ordered_json json_mat(const Mat3& m);  // 3 rows

}  // namespace rigidbench
