#include "cache.hpp"

#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "../core/atomic_file.hpp"
#include "../core/json_input.hpp"
#include "../core/types.hpp"

namespace rigidbench {
namespace {
// Per grid time: per body R (9), W (3), x (3), v (3); then estimate attitude, estimate omega.
constexpr std::size_t kPerBody = 18;
std::size_t record_size(std::size_t bodies) { return bodies * kPerBody + 2; }

/// The checksum of a whole entry: the header (every field but the checksum itself, in nlohmann's
/// canonical sorted-key form) and then the payload bytes. An entry whose error estimate was edited,
/// or whose header a disk flipped, is recomputed, never reported as fact. FNV-1a detects accidents,
/// not forgery: the cache is the user's own folder.
std::string entry_checksum(nlohmann::json header, const std::vector<double>& payload);
}  // namespace

std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}
std::string hex(std::uint64_t x) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(x));
  return b;
}


namespace {
std::string entry_checksum(nlohmann::json header, const std::vector<double>& payload) {
  header.erase("checksum");
  const std::string text = header.dump();
  return hex(fnv1a(payload.data(), payload.size() * sizeof(double), fnv1a(text.data(), text.size())));
}
}  // namespace

namespace {
/// Why an entry is refused (for the cache's stderr line), or empty.
std::string decode_into(std::string_view bytes, const nlohmann::json& key, std::size_t bodies, ReferenceSolution& r,
                        nlohmann::json& h) {
  const std::size_t kRecord = record_size(bodies);
  const std::size_t eol = bytes.find('\n');
  if (eol == std::string_view::npos) return "has a corrupt header";
  try {
    h = parse_json_input(bytes.substr(0, eol), "reference entry");
  } catch (const InputError&) {
    return "has a corrupt header";
  }
  if (!h.is_object() || !h.contains("key") || h["key"] != key)
    return "is stale (another problem, formulation or code version)";
  if (!h.contains("checksum")) return "has no whole-entry checksum (an older format)";
  const std::size_t n = key["grid"]["n"].get<std::size_t>();
  std::vector<double> payload(n * kRecord);
  const std::string_view raw = bytes.substr(eol + 1);
  if (raw.size() != payload.size() * sizeof(double)) return "is corrupt (size or checksum)";
  std::memcpy(payload.data(), raw.data(), raw.size());
  if (h["checksum"] != entry_checksum(h, payload)) return "is corrupt (size or checksum)";
  try {
    r.kind = h.at("kind");
    r.formulation = h.at("formulation");
    r.stepper = h.at("stepper");
    r.precision = h.at("precision");
    r.notes = h.at("notes");
    r.tolerance = h.at("tolerance");
    r.steps = h.at("steps");
    const auto& e = h.at("error_estimate");
    r.error_estimate = {e.at("attitude"), e.at("omega"), e.at("position"), e.at("velocity")};
    for (double x : {r.error_estimate.attitude, r.error_estimate.omega, r.error_estimate.position, r.error_estimate.velocity})
      if (!(x >= 0) || !std::isfinite(x)) throw std::domain_error("error estimate");
  } catch (const std::exception&) {
    return "has an incomplete header";
  }
  r.states.assign(n, State(bodies));
  r.estimate_attitude.resize(n);
  r.estimate_omega.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double* v = payload.data() + i * kRecord;
    for (BodyState& b : r.states[i].bodies) {
      for (int k = 0; k < 9; ++k) b.R(k / 3, k % 3) = v[k];
      b.W = Vec3(v[9], v[10], v[11]);
      b.x = Vec3(v[12], v[13], v[14]);
      b.v = Vec3(v[15], v[16], v[17]);
      v += kPerBody;
    }
    r.estimate_attitude[i] = v[0];
    r.estimate_omega[i] = v[1];
  }
  return "";
}
}  // namespace

bool cache_load(const std::string& path, const nlohmann::json& key, std::size_t bodies, ReferenceSolution& r) {
  // Not a regular file (a FIFO would block the open; a folder): not an entry.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return false;
  if (!std::filesystem::is_regular_file(status)) {
    std::fprintf(stderr, "reference cache: %s is not a regular file; recomputing\n", path.c_str());
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) return false;
  nlohmann::json h;
  if (const std::string why = decode_into(bytes, key, bodies, r, h); !why.empty()) {
    std::fprintf(stderr, "reference cache: %s %s; recomputing\n", path.c_str(), why.c_str());
    return false;
  }
  r.from_cache = true;
  return true;
}

std::string encode_reference(const nlohmann::json& key, const ReferenceSolution& r, const nlohmann::json& extra) {
  std::vector<double> payload;
  payload.reserve(r.states.size() * record_size(r.states.empty() ? 1 : r.states[0].bodies.size()));
  for (std::size_t i = 0; i < r.states.size(); ++i) {
    for (const BodyState& b : r.states[i].bodies) {
      for (int k = 0; k < 9; ++k) payload.push_back(b.R(k / 3, k % 3));
      for (int k = 0; k < 3; ++k) payload.push_back(b.W[k]);
      for (int k = 0; k < 3; ++k) payload.push_back(b.x[k]);
      for (int k = 0; k < 3; ++k) payload.push_back(b.v[k]);
    }
    payload.push_back(r.estimate_attitude[i]);
    payload.push_back(r.estimate_omega[i]);
  }
  nlohmann::json h = {{"key", key},
                      {"kind", r.kind},
                      {"formulation", r.formulation},
                      {"stepper", r.stepper},
                      {"precision", r.precision},
                      {"notes", r.notes},
                      {"tolerance", r.tolerance},
                      {"steps", r.steps},
                      {"error_estimate", {{"attitude", r.error_estimate.attitude},
                                          {"omega", r.error_estimate.omega},
                                          {"position", r.error_estimate.position},
                                          {"velocity", r.error_estimate.velocity}}}};
  if (!extra.is_null()) h["extra"] = extra;
  h["checksum"] = entry_checksum(h, payload);
  return h.dump() + "\n" + std::string(reinterpret_cast<const char*>(payload.data()), payload.size() * sizeof(double));
}

bool decode_reference(std::string_view bytes, const nlohmann::json& key, std::size_t bodies, ReferenceSolution& r,
                      nlohmann::json* extra) {
  nlohmann::json h;
  if (!decode_into(bytes, key, bodies, r, h).empty()) return false;
  if (extra) *extra = h.contains("extra") ? h["extra"] : nlohmann::json();
  return true;
}

void cache_store(const std::string& path, const nlohmann::json& key, const ReferenceSolution& r) {
  const std::string entry = encode_reference(key, r);
  // A failure only loses the cache entry.
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  try {
    AtomicFile out(path);
    out.write(entry);
    out.commit();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reference cache: not stored (%s)\n", e.what());
  }
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("RIGIDBENCH_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/rigidbench";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/rigidbench";
  return "";
}

}  // namespace rigidbench
