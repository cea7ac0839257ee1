#include "rigidbench/cli/against.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "rigidbench/core/process.hpp"
#include "rigidbench/core/types.hpp"
#include "rigidbench/reference/reference.hpp"

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
  const fs::path src = root / "src", build = root / "build", exe = build / "cli" / "rigidbench", stamp = root / "built";
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
  const int jobs = req.jobs > 0 ? req.jobs : int(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<std::string> configure{"cmake", "-S", src.string(), "-B", build.string(), "-G", "Ninja",
                                           "-DCMAKE_BUILD_TYPE=" RIGIDBENCH_BUILD_TYPE,
                                           "-DCMAKE_CXX_COMPILER=" RIGIDBENCH_CXX_COMPILER,
                                           "-DCMAKE_CXX_FLAGS=" RIGIDBENCH_CXX_FLAGS_BASE,
                                           "-DRIGIDBENCH_BUILD_TESTS=OFF", "-DRIGIDBENCH_BUILD_PYTHON=OFF",
                                           "-DRIGIDBENCH_BUILD_BENCHMARKS=OFF"};
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
