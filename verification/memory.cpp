#include "memory.hpp"

#include <sys/resource.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "../core/state.hpp"

namespace rigidbench {

double level_run_bytes(const Problem& p, std::int64_t m) {
  // LevelRun: xi (observables), inv_obs (one column per invariant) and energy, each a double per point.
  return double(m + 1) * double(p.observables() + int(p.invariants().size()) + 1) * sizeof(double);
}

double reference_grid_bytes(const Problem& p, std::int64_t m) {
  // Per solve and point: the solver's own state (at most 18 doubles per body: the translating
  // observables; the body system's quaternion form has 13) and its conversion to a canonical State,
  // alive together; the two solves run at once on two workers. Their peak bounds the later one (the
  // kept states, the estimate's and the cache payload: three copies of 144 B per body).
  const double per_body = 2.0 * (double(observables_per_body(true)) * sizeof(double) + sizeof(BodyState));
  const double per_point = 2.0 * 4 * 40;  // four vectors per solve and point: header and allocation
  return double(m + 1) * (double(p.bodies.size()) * per_body + per_point);
}

double pair_grid_bytes(const Problem& p, int levels, std::int64_t m) {
  return double(levels) * level_run_bytes(p, m) + reference_grid_bytes(p, m);
}

double fixed_bytes(const Problem& p) {
  // scripts/body-memory.py on particle_gas_N (bg_body): RSS = 8.6 MiB + 44.5 KiB N with a grid of 51
  // points, of which ~29 KiB a body are the grid data above; the rest, a few KiB a body (the models,
  // the schemes' per-body arrays, the contact grid's scratch, copies of the initial state), is
  // bounded here with a margin.
  return 32.0 * 1024 * 1024 + double(p.bodies.size()) * 8192.0;
}

std::string format_bytes(double bytes) {
  const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024 && u < 5) bytes /= 1024, ++u;
  return cat(format_number(bytes, bytes >= 100 ? 3 : 2), " ", unit[u]);
}

namespace {

/// "2G", "512M", "1048576": bytes, suffixes K/M/G/T in powers of 1024; empty optional for bad text.
std::optional<double> parse_size(const std::string& text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || !std::isfinite(v) || v <= 0) return std::nullopt;
  std::string rest(end);
  if (rest.size() > 1 && (rest.back() == 'B' || rest.back() == 'b')) rest.pop_back();  // "2GB", "2GiB" no
  double scale = 1;
  if (rest.empty()) scale = 1;
  else if (rest.size() == 1) {
    switch (std::toupper(static_cast<unsigned char>(rest[0]))) {
      case 'K': scale = 1024.0; break;
      case 'M': scale = 1024.0 * 1024; break;
      case 'G': scale = 1024.0 * 1024 * 1024; break;
      case 'T': scale = 1024.0 * 1024 * 1024 * 1024; break;
      default: return std::nullopt;
    }
  } else
    return std::nullopt;
  return v * scale;
}

std::optional<double> meminfo_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024.0;
  }
  return std::nullopt;
}

std::optional<double> cgroup_limit() {
  std::ifstream in("/sys/fs/cgroup/memory.max");  // cgroup v2; "max" when unlimited
  std::string v;
  if (!(in >> v) || v == "max") return std::nullopt;
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !(x > 0)) return std::nullopt;
  return x;
}

}  // namespace

std::optional<double> memory_available(std::string& source) {
  std::optional<double> best;
  const auto take = [&](std::optional<double> v, const std::string& what) {
    if (v && (!best || *v < *best)) best = v, source = what;
  };
  if (const char* env = std::getenv("RIGIDBENCH_MEMORY_LIMIT"); env && *env) {
    const auto v = parse_size(env);
    if (!v)
      throw InputError(cat("RIGIDBENCH_MEMORY_LIMIT must be a positive number of bytes with an optional K, M, G or T "
                           "suffix (got '",
                           std::string(env).substr(0, 40), "')"));
    take(v, "RIGIDBENCH_MEMORY_LIMIT");
  }
  if (rlimit r{}; getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
    take(double(r.rlim_cur), "the address-space limit (ulimit -v)");
  take(cgroup_limit(), "the cgroup's memory.max");
  take(meminfo_available(), "MemAvailable in /proc/meminfo");
  return best;
}

void require_memory(const MemoryEstimate& est, const std::string& what) {
  std::string source;
  const auto limit = memory_available(source);
  if (!limit || est.total() <= *limit) return;
  throw InputError(cat(what, ": this run would need an estimated ", format_bytes(est.total()), " (references ",
                       format_bytes(est.references), ", level runs ", format_bytes(est.levels), ", models and schemes ",
                       format_bytes(est.fixed), "), more than the ", format_bytes(*limit), " available (", source,
                       "); run fewer schemes or problems at once, fewer bodies, a shorter --t-end or fewer --levels "
                       "(docs/decisions.md, \"Memory of a run\")"));
}

}  // namespace rigidbench
