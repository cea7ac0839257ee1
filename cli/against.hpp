#pragma once
// `gate --against REV` (docs/gate.md, "Speed on any runner"): the revision REV built in a git
// worktree with this build's compiler and flags (cached per revision), and both builds' benchmarks
// run on this machine in one invocation, so that instruction counts are compared between two
// builds of one toolchain - no committed speed baseline needed (the pattern of Google Benchmark's
// compare.py with two binaries, and of asv's continuous mode).
#include <string>
#include <vector>

#include "../core/shard.hpp"

namespace rigidbench::cli {

struct AgainstRequest {
  std::string revision;        // a git revision of `repository`
  std::string binary;          // instead of building: a rigidbench command to compare with
  std::string repository = ".";
  std::string cache_dir;       // default: <reference cache>/against
  std::vector<std::string> integrators, problems;
  Shard shard;
  std::string current_bench;   // this build's bench report with instruction counts, already made (gate --run --bench-out)
  int jobs = 0;                // build parallelism (0: all cores)
  bool quiet = false;
};

/// The command of REV: built (or found in the cache), or `binary` as given. Throws InputError for an
/// unknown revision, a repository that is not one, or a build that fails (naming its log).
std::string against_binary(const AgainstRequest& req);

/// Runs `exe bench ...` (instruction counts; no work-precision) into `out_dir` and returns the
/// bench.json path. `timing_only` skips callgrind (the interleaved timing passes).
std::string run_bench_of(const std::string& exe, const AgainstRequest& req, const std::string& out_dir, bool timing_only);

}  // namespace rigidbench::cli
