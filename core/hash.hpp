#pragma once
// FNV-1a (64 bit): a fixed, platform-independent hash for keys that must agree everywhere (a pair's
// shard, core/shard.hpp) and for telling two builds of a program apart (program_identity(),
// reports/provenance.hpp). An identity, not a signature: nothing here resists a forger.
#include <cstdint>
#include <string_view>

namespace rigidbench {

inline constexpr std::uint64_t kFnv1aOffset = 14695981039346656037ull;

/// h extended by `bytes` (start from kFnv1aOffset; feed a long input in pieces).
constexpr std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = kFnv1aOffset) {
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;  // FNV prime
  }
  return h;
}

}  // namespace rigidbench
