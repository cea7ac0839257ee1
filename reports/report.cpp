#include "report.hpp"

#include "../core/build_info.hpp"
#include "../core/json_numbers.hpp"
#include "pair_report.hpp"
#include "verify_report.hpp"
#include "styles.hpp"
#include "../verification/scoring.hpp"

#include <benchmark/benchmark.h>

#include <sys/utsname.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace rigidbench {

using nlohmann::ordered_json;

namespace {

using json_numbers::num;
using json_numbers::nums;

std::string first_line_of(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) {
      const auto c = line.find(':');
      if (c != std::string::npos) {
        std::string v = line.substr(c + 1);
        v.erase(0, v.find_first_not_of(" \t"));
        return v;
      }
    }
  return "unknown";
}

}  // namespace

namespace detail {
const char* git_revision();  // generated at build time (cmake/git_revision.cmake)
}

std::string iso8601_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

ordered_json tool_info() {
  return {{"name", "rigidbench"},
          {"version", build_info().version},
          {"git_revision", detail::git_revision()},
          {"compiler", std::string(build_info().compiler_id) + " " + __VERSION__},
          {"flags", build_info().cxx_flags},
          {"build_type", build_info().build_type}};
}

namespace {
/// The slope a metric's rule expects, in the words of docs/metrics.md (p the scheme's order, q its
/// error estimate's); null for a rule that fits no slope.
ordered_json expected_slope(const MetricDef& m) {
  switch (m.rule) {
    case VerdictRule::order:
    case VerdictRule::order_at_least: return format_number(m.order_factor, 3) + " p";
    case VerdictRule::tolerance_slope: return "p/(q+1)";
    case VerdictRule::estimator_slope: return "q+1";
    default: return nullptr;
  }
}
}  // namespace

ordered_json metrics_json() {
  ordered_json a = ordered_json::array();
  for (const MetricDef& m : metric_table())
    a.push_back({{"name", m.name},
                 {"section", to_string(m.section)},
                 {"label", m.label},
                 {"what", m.what},
                 {"units", m.units},
                 {"rule", to_string(m.rule)},
                 {"expected_slope", expected_slope(m)},
                 {"gating", m.gating}});
  return a;
}

ordered_json report_envelope(double seconds, const std::vector<std::string>& command, const std::string& started) {
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["tool"] = tool_info();
  j["machine"] = machine_info();
  j["started"] = started;
  j["duration_s"] = seconds;
  j["command"] = command;
  j["metrics"] = metrics_json();
  return j;
}

ordered_json paper_report(const PaperSuiteResult& s, const std::vector<std::string>& command, const std::string& started) {
  return VerifyReport::of(s, command, started).to_json();
}

void add_benchmark_context() {
  const auto tool = tool_info();
  for (const char* k : {"version", "git_revision", "compiler", "flags", "build_type"})
    benchmark::AddCustomContext(cat("rigidbench_", k), tool[k].get<std::string>());
  benchmark::AddCustomContext("rigidbench_baseline", std::string(baseline_scheme().info->name));
}

ordered_json machine_info() {
  ordered_json m;
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  m["hostname"] = host;
  utsname u{};
  if (uname(&u) == 0) {
    m["os"] = std::string(u.sysname) + " " + u.release;
    m["arch"] = u.machine;
  }
  m["cpu"] = first_line_of("/proc/cpuinfo", "model name");
  m["hardware_threads"] = std::thread::hardware_concurrency();
  m["memory"] = first_line_of("/proc/meminfo", "MemTotal");
  return m;
}

ordered_json pair_to_json(const PairResult& r, const Problem* p) { return PairReport::of(r, p).to_json(); }

ordered_json suite_report(const SuiteResult& s, const std::vector<std::string>& command, const std::string& started) {
  return VerifyReport::of(s, command, started).to_json();
}

std::string report_file_for(const std::string& out) {
  namespace fs = std::filesystem;
  if (out.empty()) throw InputError("--out: an empty path");
  std::string ext = fs::path(out).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  const fs::path file = ext == ".json" ? fs::path(out) : fs::path(out) / "report.json";
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) throw InputError(cat("--out '", out, "': '", dir.string(), "' is not a folder"));
  const fs::path above = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec) && !fs::is_directory(above, ec))
    throw InputError(cat("--out '", out, "': folder '", above.string(), "' does not exist"));
  if (fs::is_directory(file, ec)) throw InputError(cat("--out '", out, "': '", file.string(), "' is a folder"));
  return file.string();
}

void write_report_file(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec) && !fs::create_directory(dir, ec) && !fs::is_directory(dir))
    throw IoError(cat("cannot write '", path, "': cannot create folder '", dir.string(), "': ", ec.message()));
  write_atomic(path, content);
}

void check_trajectory_path(const std::string& path) {
  const auto ext = std::filesystem::path(path).extension().string();
  if (ext != ".csv" && ext != ".json")
    throw InputError("--out '" + path + "': the trajectory format is chosen by the extension, .csv or .json");
}

}  // namespace rigidbench
