#include "shard.hpp"

#include <charconv>

#include "hash.hpp"
#include "types.hpp"

namespace rigidbench {

int Shard::of(std::string_view key, int count) { return int(fnv1a(key) % std::uint64_t(count)) + 1; }

bool Shard::contains(std::string_view key) const { return all() || of(key, count) == index; }

std::string Shard::to_string() const { return std::to_string(index) + "/" + std::to_string(count); }

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard s;
  auto parse = [&](std::string_view part, int& v) {
    const auto r = std::from_chars(part.data(), part.data() + part.size(), v);
    return r.ec == std::errc() && r.ptr == part.data() + part.size();
  };
  const std::string_view t(text);
  if (slash == std::string::npos || !parse(t.substr(0, slash), s.index) || !parse(t.substr(slash + 1), s.count) ||
      s.count < 1 || s.count > 10000 || s.index < 1 || s.index > s.count)
    throw InputError(cat("--shard '", text.size() > 40 ? text.substr(0, 40) + "..." : text,
                         "' is not k/N with 1 <= k <= N <= 10000 (e.g. 2/4)"));
  return s;
}

}  // namespace rigidbench
