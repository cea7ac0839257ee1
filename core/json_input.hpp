#pragma once
// JSON from outside the program - problem files, reports handed to compare/gate/merge/history,
// snapshots, expectation lists, trajectory manifests, cache headers - read through one door with
// stated limits (docs/decisions.md, "Input limits"): a file must be a regular file of bounded size,
// nesting is bounded, a number must fit a double, and every failure is an InputError naming the
// file. Messages describe untrusted values with json_brief, never with a recursive dump (a value
// nested 100 000 deep would overflow the stack).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace rigidbench {

struct JsonLimits {
  /// Deepest nesting of arrays and objects; rigidbench's own documents need fewer than 10 levels.
  int max_depth = 64;
  /// Largest file read; a verify report of the full suite is a few MB.
  std::uintmax_t max_bytes = std::uintmax_t(512) << 20;
  /// Most values (each object, array, key, number, string, literal counts one). Reading costs at
  /// most ~180 B per value (an array of empty objects, measured end to end through `compare` by
  /// scripts/input-memory.py: 1.4 GB at this limit, growing as n^0.98), so a document stays below
  /// 2 GB (docs/decisions.md, "Input limits"); the size limit alone allowed 16-28x the text.
  std::uint64_t max_values = std::uint64_t(1) << 23;
};

/// Parses `text`; InputError "<origin>: not valid JSON: ..." when it is not JSON, holds a number
/// beyond the range of a double (1e400), or is nested deeper than limits.max_depth.
nlohmann::json parse_json_input(std::string_view text, const std::string& origin, const JsonLimits& limits = {});

/// Reads and parses the file at `path` (`what` names it in messages: "the baseline"); InputError
/// when it cannot be opened, is not a regular file (a folder, a FIFO that would block), is larger
/// than limits.max_bytes, or fails parse_json_input.
nlohmann::json read_json_input(const std::string& path, const std::string& what, const JsonLimits& limits = {});
/// The same, keeping the order of object keys (for documents written back out, e.g. merged reports).
nlohmann::ordered_json read_ordered_json_input(const std::string& path, const std::string& what,
                                               const JsonLimits& limits = {});

/// A bounded description of a value from untrusted input, for messages: a scalar as written (cut
/// to 80 characters), an array or object by its kind and size.
std::string json_brief(const nlohmann::json& j);

}  // namespace rigidbench
