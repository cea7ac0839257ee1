// libFuzzer target: the trajectory manifest of `score` (trajectory_files, verification/scoring.hpp;
// docs/trajectory-files.md) on arbitrary bytes. The input is written as manifest.json into a folder of
// its own that also holds what a manifest may name: regular files (a.csv, level0.csv, level1.json,
// sub/b.csv), a FIFO, a folder, a link to /dev/zero, a dangling link and a link to a regular file.
// The reader's promise: one file per ladder level, each a regular file (a FIFO blocked `score`
// forever, a link to /dev/zero read until memory ran out); a declared breakdown inside the span; a
// declared cost one positive time per level (or NaN), with its machine and method. The same bytes as an
// adaptive scheme's manifest: one regular file per tolerance of the ladder.
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz.hpp"
#include "../problems/problem_file.hpp"
#include "../verification/runner.hpp"
#include "../verification/scoring.hpp"

namespace {

namespace fs = std::filesystem;

std::string make_folder() {
  const std::string scratch = rigidbench::fuzz::scratch_folder("rigidbench-fuzz-manifest");
  const fs::path d = scratch;
  for (const char* f : {"a.csv", "level0.csv", "level1.json"}) std::ofstream(d / f) << "t\n";
  fs::create_directory(d / "sub");
  std::ofstream(d / "sub" / "b.csv") << "t\n";
  mkfifo((d / "fifo").c_str(), 0600);
  fs::create_symlink("/dev/zero", d / "zero");
  fs::create_symlink("no-such-file", d / "dangling");
  fs::create_symlink("a.csv", d / "link.csv");
  return scratch;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rigidbench;
  static const Problem p = resolve_problem("free_body", "");
  static const Ladder L = make_ladder(p, 2, {.levels = 3});
  static const std::string dir = make_folder();
  fuzz::write_file((fs::path(dir) / "manifest.json").string(), data, size);
  fuzz::reject_or_accept([&] {
    const TrajectorySet set = trajectory_set(dir, L);
    if (set.levels.size() != std::size_t(L.levels)) fuzz::finding("not one file per level");
    for (const TrajectorySet::Level& lv : set.levels) {
      std::error_code ec;
      if (!fs::is_regular_file(lv.file, ec)) fuzz::finding("a file that is not a regular file was accepted");
      if (lv.breakdown && !(std::isfinite(lv.breakdown->t) && lv.breakdown->t > L.t0 && lv.breakdown->t <= L.t_end() * (1 + 1e-12)))
        fuzz::finding("a breakdown time outside (t0, t_end] was accepted");
    }
    if (set.cost) {
      if (set.cost->ns_per_step.size() != std::size_t(L.levels)) fuzz::finding("a declared cost not one per level");
      for (double ns : set.cost->ns_per_step)
        if (!(std::isnan(ns) || (std::isfinite(ns) && ns > 0))) fuzz::finding("a declared cost that is not a positive time");
      if (set.cost->machine.empty() || set.cost->method.empty()) fuzz::finding("a declared cost without machine or method");
    }
  });
  // The same bytes as an adaptive scheme's manifest (adaptive_trajectory_set): one file per tolerance
  // of the ladder, each a regular file, at its tolerance.
  static const ToleranceLadder T{.tol0 = 1e-5, .levels = 3};
  fuzz::reject_or_accept([&] {
    const AdaptiveTrajectorySet set = adaptive_trajectory_set(dir, T);
    if (set.levels.size() != std::size_t(T.levels)) fuzz::finding("not one file per tolerance");
    for (int k = 0; k < T.levels; ++k) {
      const AdaptiveTrajectorySet::Level& lv = set.levels[std::size_t(k)];
      std::error_code ec;
      if (!fs::is_regular_file(lv.file, ec)) fuzz::finding("an adaptive set's file that is not a regular file was accepted");
      if (lv.tol != T.tol(k)) fuzz::finding("an adaptive set's level off its tolerance");
    }
  });
  return 0;
}
