#include "against.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <thread>

#include "../core/build_info.hpp"
#include "../core/parallel.hpp"
#include "../core/process.hpp"
#include "../core/types.hpp"
#include "../reference/reference.hpp"

namespace rigidbench::cli {
namespace {

namespace fs = std::filesystem;

std::string capture(const std::vector<std::string>& args) {
  std::string cmd;
  for (const auto& s : args) {
    cmd += " '";
    for (char c : s) cmd += c == '\'' ? std::string("'\\''") : std::string(1, c);
    cmd += "'";
  }
  FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
  if (!p) return "";
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  if (pclose(p) != 0) return "";
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace

std::string against_binary(const AgainstRequest& req) {
  if (!req.binary.empty()) {
    if (!fs::exists(req.binary)) throw InputError(cat("gate: --against-binary '", req.binary, "' does not exist"));
    return req.binary;
  }
  const std::string top = capture({"git", "-C", req.repository, "rev-parse", "--show-toplevel"});
  if (top.empty()) throw InputError(cat("gate --against: '", req.repository, "' is not in a git repository (--repository DIR)"));
  const std::string sha = capture({"git", "-C", top, "rev-parse", "--verify", "--quiet", req.revision + "^{commit}"});
  if (sha.empty())
    throw InputError(cat("gate --against: '", req.revision, "' is not a commit of ", top,
                         " (a shallow clone may lack it: fetch more history)"));
  const fs::path root = fs::path(req.cache_dir.empty() ? fs::path(default_cache_dir()) / "against" : fs::path(req.cache_dir)) / sha;
  // The build folder lies where a preset's does (<source>/build/<name>), so that every path on a
  // compiler's command line, made relative to the source tree by the compiler cache, is the same as
  // in this checkout's build: the parent revision then reuses the cached objects of every unit it
  // shares with this one (cmake/build_speed.cmake).
  const fs::path src = root / "src", build = src / "build" / "against", exe = build / "cli" / "rigidbench",
                 stamp = root / "built";
  const std::string log = (root / "build.log").string();
  if (fs::exists(stamp) && fs::exists(exe)) {
    if (!req.quiet) std::fprintf(stderr, "gate: --against %s: cached build %s\n", req.revision.c_str(), exe.c_str());
    return exe.string();
  }
  fs::create_directories(root);
  if (!req.quiet)
    std::fprintf(stderr, "gate: --against %s: building %s in a worktree (%s; log %s)...\n", req.revision.c_str(),
                 sha.substr(0, 12).c_str(), src.c_str(), log.c_str());
  if (!fs::exists(src / "CMakeLists.txt")) {
    fs::remove_all(src);
    run_process({"git", "-C", top, "worktree", "prune"}, log);
    if (run_process({"git", "-C", top, "worktree", "add", "--detach", src.string(), sha}, log) != 0)
      throw InputError(cat("gate --against: git worktree add failed (see ", log, ")"));
  }
  // The same compiler and flags as this build, so that the two builds' counts are comparable.
  const int jobs = req.jobs > 0 ? req.jobs : parallel::cores();
  const BuildInfo& info = build_info();
  std::vector<std::string> configure{"cmake", "-S", src.string(), "-B", build.string(), "-G", "Ninja",
                                     cat("-DCMAKE_BUILD_TYPE=", info.build_type),
                                     cat("-DCMAKE_CXX_COMPILER=", info.cxx_compiler),
                                     cat("-DCMAKE_CXX_FLAGS=", info.cxx_flags_base),
                                     "-DRIGIDBENCH_BUILD_TESTS=OFF", "-DRIGIDBENCH_BUILD_PYTHON=OFF",
                                     "-DRIGIDBENCH_BUILD_BENCHMARKS=OFF", "--no-warn-unused-cli"};
  // Options a revision older than them does not know are ignored by its configure.
  for (std::string_view opts = info.configure_options; !opts.empty();) {
    const auto semi = opts.find(';');
    configure.emplace_back(opts.substr(0, semi));
    opts = semi == std::string_view::npos ? std::string_view() : opts.substr(semi + 1);
  }
  if (run_process(configure, log) != 0 ||
      run_process({"cmake", "--build", build.string(), "--target", "rigidbench_cli", "-j", std::to_string(jobs)}, log) != 0)
    throw InputError(cat("gate --against: building ", req.revision, " failed (see ", log, ")"));
  std::ofstream(stamp) << sha << "\n";
  return exe.string();
}

std::string run_bench_of(const std::string& exe, const AgainstRequest& req, const std::string& out_dir, bool timing_only) {
  std::vector<std::string> args{exe, "bench", "--quiet", "--no-work-precision", "--min-time", "0.01",
                                "--repetitions", "3", "--out", out_dir};
  if (timing_only) args.push_back("--no-icount");
  for (const auto& i : req.integrators) args.insert(args.end(), {"--integrator", i});
  for (const auto& p : req.problems) args.insert(args.end(), {"--problem", p});
  if (!req.shard.all()) args.insert(args.end(), {"--shard", req.shard.to_string()});
  fs::create_directories(out_dir);
  const std::string log = (fs::path(out_dir) / "bench.log").string();
  const int rc = run_process(args, log);
  if (rc != 0) throw InputError(cat("gate --against: `", exe, " bench` exited ", std::to_string(rc), " (see ", log, ")"));
  return (fs::path(out_dir) / "bench.json").string();
}

}  // namespace rigidbench::cli
