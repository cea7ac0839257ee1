#pragma once
// Shards of a sweep for a CI matrix (docs/gate.md, "Shards"): `--shard k/N` runs the pairs whose key
// "integrator/problem" hashes to k - 1 modulo N. The assignment depends on the key alone, so every
// consumer - verify, bench, the gate filtering its baseline, merge checking completeness - agrees on
// it without knowing the rest of the sweep, and adding a scheme moves no other pair between shards.
#include <cstdint>
#include <string>
#include <string_view>

namespace rigidbench {

struct Shard {
  int index = 1, count = 1;  // 1 <= index <= count
  bool all() const { return count == 1; }
  /// FNV-1a (64 bit) of the key, modulo count: a fixed function, the same on every platform.
  bool contains(std::string_view key) const;
  static int of(std::string_view key, int count);
  std::string to_string() const;
};

/// Parses "k/N" (1 <= k <= N <= 10000). Throws InputError with the text shown otherwise.
Shard parse_shard(const std::string& text);

/// The key a shard is assigned by.
inline std::string shard_key(std::string_view integrator, std::string_view problem) {
  return std::string(integrator) + "/" + std::string(problem);
}

}  // namespace rigidbench
