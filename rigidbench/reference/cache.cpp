#include "rigidbench/reference/cache.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "rigidbench/core/atomic_file.hpp"
#include "rigidbench/core/json_input.hpp"
#include "rigidbench/core/types.hpp"

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

bool cache_load(const std::string& path, const nlohmann::json& key, std::size_t bodies, ReferenceSolution& r) {
  const std::size_t kRecord = record_size(bodies);
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
  std::string line;
  if (!std::getline(in, line)) return false;
  nlohmann::json h;
  try {
    h = parse_json_input(line, path);
  } catch (const InputError&) {
    std::fprintf(stderr, "reference cache: %s has a corrupt header; recomputing\n", path.c_str());
    return false;
  }
  if (!h.contains("key") || h["key"] != key) {
    std::fprintf(stderr, "reference cache: %s is stale (another problem, formulation or code version); recomputing\n",
                 path.c_str());
    return false;
  }
  if (!h.contains("checksum")) {
    std::fprintf(stderr, "reference cache: %s has no whole-entry checksum (an older format); recomputing\n", path.c_str());
    return false;
  }
  const std::size_t n = key["grid"]["n"].get<std::size_t>();
  std::vector<double> payload(n * kRecord);
  in.read(reinterpret_cast<char*>(payload.data()), std::streamsize(payload.size() * sizeof(double)));
  if (!in || in.peek() != std::char_traits<char>::eof() || h["checksum"] != entry_checksum(h, payload)) {
    std::fprintf(stderr, "reference cache: %s is corrupt (size or checksum); recomputing\n", path.c_str());
    return false;
  }
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
    std::fprintf(stderr, "reference cache: %s has an incomplete header; recomputing\n", path.c_str());
    return false;
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
  r.from_cache = true;
  return true;
}

void cache_store(const std::string& path, const nlohmann::json& key, const ReferenceSolution& r) {
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
  h["checksum"] = entry_checksum(h, payload);
  // A failure only loses the cache entry.
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  try {
    AtomicFile out(path);
    out.write(h.dump() + "\n");
    out.write(std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size() * sizeof(double)));
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
