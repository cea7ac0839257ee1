#pragma once
// The on-disk cache of reference solutions (docs/metrics.md, Reference error): one file per
// reference, a JSON header line (the key that identifies the reference, its provenance and error
// estimate, an FNV-1a checksum of the whole entry: header and payload) followed by the states and
// per-time estimates as raw doubles. Written atomically (core/atomic_file.hpp); a corrupt,
// truncated, edited or stale entry - or anything but a regular file - is reported on stderr and
// recomputed, never trusted.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "reference.hpp"

namespace rigidbench {

/// FNV-1a over n bytes (the cache's checksums and file names).
std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h = 1469598103934665603ull);
/// 16 lower-case hex digits.
std::string hex(std::uint64_t x);

/// Reads the entry at `path` into r when its header carries exactly `key` and its payload is whole;
/// false (with the reason on stderr when the file exists) otherwise.
bool cache_load(const std::string& path, const nlohmann::json& key, std::size_t bodies, ReferenceSolution& r);
/// An entry's bytes (the header line and the payload), with `extra` in the header when not null:
/// what cache_store writes, and what MPI ranks hand each other (verification/suite.cpp).
std::string encode_reference(const nlohmann::json& key, const ReferenceSolution& r,
                             const nlohmann::json& extra = nlohmann::json());
/// Reads an entry's bytes into r (states, estimates, provenance; not from_cache, seconds or the
/// cache key) when they carry exactly `key` and are whole, and its `extra` into *extra; false otherwise.
bool decode_reference(std::string_view bytes, const nlohmann::json& key, std::size_t bodies, ReferenceSolution& r,
                      nlohmann::json* extra = nullptr);
/// Writes r under `key` to `path`; a failure only loses the cache entry.
void cache_store(const std::string& path, const nlohmann::json& key, const ReferenceSolution& r);

}  // namespace rigidbench
