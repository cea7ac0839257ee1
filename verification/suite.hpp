#pragma once
// Verification suites: every applicable (scheme, problem) pair of a suite, split into work units
// (reference runs and segments, ladder levels, assessments; docs/scaling.md) run on all cores. Each
// unit writes its own slot and results are combined in a fixed order, so the report never depends
// on the number of workers.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../core/shard.hpp"
#include "runner.hpp"

namespace rigidbench {

/// MPI ranks sharing one sweep (docs/scaling.md, "Balance across ranks"): set by `verify` under
/// mpirun or srun (cli/ranks.cpp). The ranks split the whole sweep - its references and its pairs -
/// longest first, compute each reference once, and hand the references to the ranks whose pairs
/// need them.
struct RankGroup {
  int rank = 0, size = 1;
  /// Collective over the ranks: every rank's bytes, in rank order, on every rank.
  std::function<std::vector<std::string>(const std::string&)> all_gather;
};

struct SuiteRequest {
  std::string suite = "quick";
  std::vector<std::string> integrators{"all"};  // names, globs or "all"
  /// Entries verified instead of the named ones when not empty (schemes built at run time: a Python
  /// class, recorded trajectories); `integrators` and `scheme_settings` must then be left alone.
  std::vector<SchemeEntry> schemes;
  std::vector<std::string> scheme_settings;     // "[scheme.]name=value" (configure_schemes)
  std::vector<std::string> problems;            // catalogue names; empty: the suite's own list
  std::string problem_file;                     // a user problem instead of catalogue names
  std::vector<Problem> problem_models;          // problems given as models (the Python module, scoring)
  LadderRequest ladder;
  ToleranceLadder tolerance_ladder;             // of the adaptive schemes (docs/adaptive.md)
  bool tolerance_ladder_given = false;          // asked for (--tol0, --tol-levels): some scheme must be adaptive
  std::optional<double> t_end;
  int jobs = 0;                                 // 0: all hardware threads
  ReferenceSettings reference;
  Shard shard;                                  // only the pairs of this shard (core/shard.hpp)
  /// This rank's share of the sweep instead of a shard (with `shard`, which then says k/N, set as
  /// the rank's: the report's positions are what merge reads).
  std::optional<RankGroup> ranks;
  bool progress = true;                         // one line per finished pair on stderr
  // A level still running after long_level_after seconds reports its progress every long_level_every
  // seconds; one estimated at more than long_level_warn seconds in all is announced as soon as its rate
  // is known (docs/scaling.md, "Progress"); tests shorten them.
  double long_level_after = 5, long_level_every = 10, long_level_warn = 180;
  bool measure_cost = true;
  /// Steps of each pair's long-time energy run at the ladder's h(1) (docs/metrics.md, "Long-time
  /// energy"); 0: none. The `full` suite's default is 100000.
  std::int64_t long_time_steps = -1;  // -1: the suite's default
  /// Why no cost is measured when measure_cost is false (the report's cost.source).
  std::string no_cost_reason = "not measured (verification without timing)";
};

struct SuiteResult {
  std::string suite;
  std::vector<Problem> problems;
  std::vector<std::unique_ptr<ReferenceSolution>> references;
  std::vector<PairResult> results;
  int jobs = 1;
  double seconds = 0;
  Shard shard;
  /// With a shard: the pairs of the whole sweep, and each result's position among them (merge
  /// restores the unsharded order from it).
  std::size_t pairs_total = 0;
  std::vector<std::size_t> ordinals;
  bool any_failed() const;
};

std::vector<std::string> suite_names();
/// The `full` suite's problems: the whole catalogue, the torus and the 2000-sphere gas included. The
/// suite runs them with one level more and twice the span, and each pair's long-time energy run.
std::vector<std::string> full_problem_names();
/// Validates the whole request (names, steps, ladders) before any work; throws InputError.
/// A selection in which no pair applies verified nothing: not a pass (exit 0 with a report of
/// skipped rows read as green in CI). InputError ("nothing verified: ...", `where` saying where the
/// reasons are) when every result is skipped; verify and the Python module call it, not a shard.
void require_verified(const SuiteResult& s, const std::string& where);

SuiteResult run_suite(const SuiteRequest& req);

}  // namespace rigidbench
