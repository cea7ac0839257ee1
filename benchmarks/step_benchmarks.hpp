#pragma once
// The benchmark side of the registry: (scheme, problem) pairs, the Google Benchmark registration of
// each pair's `step`, and the fixed-work driver whose instructions callgrind counts. Every scheme,
// built-in or registered by the program, is driven through the same type-erased object
// (AnyIntegrator) that `verify` runs: one virtual call per step, the same for the baseline, so the
// update timed and counted here is the very code `verify` runs and every ratio compares like with
// like.
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "../integrators/registry.hpp"
#include "../problems/problem.hpp"

namespace rigidbench {

struct BenchPair {
  const SchemeEntry* scheme;
  const Problem* problem;
  double h;              // the step of the verification ladder's third level (asymptotic range)
  /// An adaptive scheme's run (SchemeInfo::adaptive; docs/adaptive.md): its tolerance (abs = rel),
  /// level `level` of the default tolerance ladder; NaN for a fixed-step pair.
  double tol = std::numeric_limits<double>::quiet_NaN();
  int level = -1;
  bool adaptive() const { return tol == tol; }
  /// "step/<scheme>/<problem>", the benchmark's name; an adaptive run: "run/<scheme>/<problem>/tol<level>".
  std::string name() const;
};

/// Every adaptive scheme among `schemes` on every problem it applies to, once per level of the
/// default tolerance ladder (tolerance_ladder.hpp): whole runs over the convergence span on the
/// output times `verify` observes them at, whose instructions and CPU time are the costs of the
/// work-precision points of an adaptive pair. Ordered by problem, scheme, level.
std::vector<BenchPair> adaptive_bench_runs(const std::vector<const SchemeEntry*>& schemes, const std::vector<Problem>& problems);

/// Thread CPU seconds of a run repeated: the fastest (the work-precision point) and the slowest (its
/// error bar); NaN when not measured.
struct RunSeconds {
  double fastest = std::numeric_limits<double>::quiet_NaN(), slowest = std::numeric_limits<double>::quiet_NaN();
};

/// Thread CPU seconds of one adaptive run (adaptive_bench_runs) over `repetitions`; NaN when it
/// breaks down.
RunSeconds cpu_seconds_of_adaptive_run(const BenchPair& run, int repetitions);

/// Every applicable pair of the selected schemes and problems, plus the two baseline schemes on each
/// problem (always present: every ratio refers to them). Ordered by problem, then registry order.
std::vector<BenchPair> bench_pairs(const std::vector<const SchemeEntry*>& schemes, const std::vector<Problem>& problems);

/// Registers one Google Benchmark per pair (with a "min" statistic over repetitions).
void register_step_benchmarks(const std::vector<BenchPair>& pairs);

/// Fixed-work driver for the instruction counts: for each pair, `steps` and then `2 steps` steps
/// from the initial state, each loop bracketed by callgrind client requests and dumped under
/// "<pair name>#<steps>"; an adaptive run once, whole, under "<name>#run". Without valgrind the requests are no-ops. progress_every >= 0: a line on
/// stderr at most that often (seconds) with the pairs done and the time left.
void run_icount_driver(const std::vector<BenchPair>& pairs, std::int64_t steps, double progress_every = -1);

/// Steps over which step_counts averages: from the initial state, with the pair's step.
constexpr std::int64_t kCountSteps = 256;

/// Steps of a fixed-work loop on a problem of n bodies: `steps` up to 80 bodies, then fewer in
/// proportion (at least `at_least`), so that the loop's work stays that of 80 bodies: a 2 000-sphere
/// gas at 256 steps took a minute of the sanitized tests, and a 10 000-body count hours.
std::int64_t steps_for_bodies(std::int64_t steps, std::size_t bodies, std::int64_t at_least);

/// Load evaluations, Newton iterations and Jacobian evaluations per step of the pair's scheme, over
/// steps_for_bodies(kCountSteps, n, 16) steps from the initial state (deterministic: the same in
/// every run); NaN when the scheme breaks down in them.
struct StepCounts {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  double loads = kNone, newton = kNone, jacobians = kNone;
};
StepCounts step_counts(const BenchPair& bp);

/// Thread CPU seconds of `steps` steps of the pair's scheme from the initial state with step h, over
/// `repetitions` (pure stepping: no observation, no invariants).
RunSeconds cpu_seconds_of_run(const SchemeEntry& s, const Problem& p, double h, std::int64_t steps, int repetitions = 1);

}  // namespace rigidbench
