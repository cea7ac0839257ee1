#include "rigidbench/reference/cache.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

namespace rigidbench {
namespace {
// Per grid time: per body R (9), W (3), x (3), v (3); then estimate attitude, estimate omega.
constexpr std::size_t kPerBody = 18;
std::size_t record_size(std::size_t bodies) { return bodies * kPerBody + 2; }
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


bool cache_load(const std::string& path, const nlohmann::json& key, std::size_t bodies, ReferenceSolution& r) {
  const std::size_t kRecord = record_size(bodies);
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string line;
  if (!std::getline(in, line)) return false;
  nlohmann::json h;
  try {
    h = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception&) {
    std::fprintf(stderr, "reference cache: %s has a corrupt header; recomputing\n", path.c_str());
    return false;
  }
  if (!h.contains("key") || h["key"] != key) {
    std::fprintf(stderr, "reference cache: %s is stale (another problem, formulation or code version); recomputing\n",
                 path.c_str());
    return false;
  }
  const std::size_t n = key["grid"]["n"].get<std::size_t>();
  std::vector<double> payload(n * kRecord);
  in.read(reinterpret_cast<char*>(payload.data()), std::streamsize(payload.size() * sizeof(double)));
  if (!in || in.peek() != std::char_traits<char>::eof() ||
      hex(fnv1a(payload.data(), payload.size() * sizeof(double))) != h.value("payload_fnv1a", "")) {
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
  } catch (const nlohmann::json::exception&) {
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
  const nlohmann::json h = {{"key", key},
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
                                                {"velocity", r.error_estimate.velocity}}},
                            {"payload_fnv1a", hex(fnv1a(payload.data(), payload.size() * sizeof(double)))}};
  // Atomic: a temporary beside the target, renamed over it. A failure only loses the cache entry.
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << h.dump() << '\n';
    out.write(reinterpret_cast<const char*>(payload.data()), std::streamsize(payload.size() * sizeof(double)));
    if (!out) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("RIGIDBENCH_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/rigidbench";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/rigidbench";
  return "";
}

}  // namespace rigidbench
